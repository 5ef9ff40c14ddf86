"""Per-call benchmarks of two source trees in one run: every ``bench_*.py`` of this folder
against tree A's package, then tree B's, alternating for ``--rounds`` rounds.

Run: ``python bench/compare_trees.py A B [--rounds 3] [--skip bench_throughput.py ...]``, where A
and B are checkouts with their extension built in place (``python/opyard/_core*.so``). The bench
scripts are this tree's, so both packages run the same measurements. Each row is compared as its
ratio to the plain Python call measured in the same process (the harness prints that column), so
the load of a shared machine, which moves both, mostly cancels; a row's figure is the median of
its rounds. A row is "within noise" when B/A lies within the spread of A's own rounds (at least
±10%).
"""

import argparse
import os
import re
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# A row: an indented label, then its first time (`123.4 ns`, `0.46us`, `1.2 ms`, or a bare number in
# a table whose header says ns), as the harness and the scripts' own tables print them.
_ROW = re.compile(r"^\s+(?P<label>[^\d\s].*?)\s+(?P<num>\d[\d,]*(?:\.\d+)?)\s*(?P<unit>ns|us|µs|ms)?(?:\s|$)")
_TRAILING_RATIO = re.compile(r"(\d+(?:\.\d+)?)x\s*$")
_UNIT_NS = {None: 1.0, "ns": 1.0, "us": 1e3, "µs": 1e3, "ms": 1e6}


def parse(stdout):
    """{row: figure} of one script's output. A row's figure is its time over the time of the
    plain Python call of its section (the first row whose label says "plain"), so the machine's
    load at the moment cancels; in a section without such a row, the ratio the line ends with
    (vmap over the batch, ...) or else the time in ns."""
    out, section, rows = {}, "", []

    def flush():
        base = next((ns for label, ns, _ in rows if "plain" in label.lower()), None)
        for label, ns, trailing in rows:
            if base:
                out[f"{section} | {label}"] = ns / base
            elif trailing is not None:
                out[f"{section} | {label}"] = trailing
            else:
                out[f"{section} | {label}"] = ns
        rows.clear()

    for line in stdout.splitlines():
        m = _ROW.match(line)
        if m and line.startswith(" "):
            trailing = _TRAILING_RATIO.search(line)
            ns = float(m["num"].replace(",", "")) * _UNIT_NS[m["unit"]]
            rows.append((m["label"].strip(), ns, float(trailing[1]) if trailing else None))
        elif line.strip() and not line.startswith(" "):
            flush()
            section = line.split("(")[0].strip()
    flush()
    return out


def run_script(tree, script):
    """Rows of one script run against ``tree``'s package, and its exit code."""
    env = dict(os.environ, PYTHONPATH=os.path.join(tree, "python"))
    proc = subprocess.run([sys.executable, os.path.join(HERE, script)], env=env,
                          capture_output=True, text=True, timeout=900)
    return parse(proc.stdout), proc.returncode


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--skip", nargs="*", default=["bench_throughput.py", "bench_import.py"])
    args = ap.parse_args()
    scripts = sorted(n for n in os.listdir(HERE)
                     if n.startswith("bench_") and n.endswith(".py") and n not in args.skip)
    seen = {args.a: {}, args.b: {}}
    for r in range(args.rounds):
        for script in scripts:
            for tree in (args.a, args.b):
                rows, code = run_script(tree, script)
                if code:
                    print(f"round {r}: {script} exited {code} against {tree}", file=sys.stderr)
                for label, ratio in rows.items():
                    seen[tree].setdefault((script, label), []).append(ratio)
    keys = [k for k in seen[args.a] if k in seen[args.b]]
    within = 0
    print(f"{'script | section | row':<100} {'A':>8} {'B':>8} {'B/A':>6}  verdict")
    for key in keys:
        a, b = seen[args.a][key], seen[args.b][key]
        ma, mb = statistics.median(a), statistics.median(b)
        if ma == 0:
            continue
        # The noise of a row: the spread of its rounds on either side, at least 10%.
        spread = max(0.10, (max(a) - min(a)) / ma, (max(b) - min(b)) / mb if mb else 0)
        rel = mb / ma
        verdict = "within noise" if abs(rel - 1) <= spread else ("faster" if rel < 1 else "SLOWER")
        within += verdict == "within noise"
        label = f"{key[0]} | {key[1]}"[:100]
        print(f"{label:<100} {ma:>8.2f} {mb:>8.2f} {rel:>6.2f}  {verdict}")
    print(f"\n{len(keys)} rows in both runs; {within} within noise; "
          f"{sum(1 for k in keys if statistics.median(seen[args.b][k]) < statistics.median(seen[args.a][k]) * 0.9)} faster by > 10%; "
          f"{sum(1 for k in keys if statistics.median(seen[args.b][k]) > statistics.median(seen[args.a][k]) * 1.1)} slower by > 10%")


if __name__ == "__main__":
    main()
