"""Run every Python-level benchmark in this folder, one after another."""

import os
import runpy

HERE = os.path.dirname(os.path.abspath(__file__))

for name in sorted(os.listdir(HERE)):
    if name.startswith("bench_") and name.endswith(".py"):
        print(f"=== {name}")
        runpy.run_path(os.path.join(HERE, name), run_name="__main__")
