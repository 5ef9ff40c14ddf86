"""``python -m opyard``: a tour of the dispatcher on one custom operator."""

import argparse
import warnings

import numpy as np

import opyard
from opyard.library import Library


def main():
    print(f"opyard {opyard.__version__}\n")

    schema = opyard.parse_schema("mylib::myadd(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor")
    print("schema:", schema)

    lib = Library("mylib", "DEF")
    lib.define("myadd(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor")

    def myadd_cpu(self, other, *, alpha=1):
        return opyard.from_numpy(self.numpy() + alpha * other.numpy())

    def myadd_meta(self, other, *, alpha=1):
        return opyard.empty(np.broadcast_shapes(self.shape, other.shape), device="meta")

    lib.impl("myadd", myadd_cpu, "CPU")
    lib.impl("myadd", myadd_meta, "Meta")

    a, b = opyard.tensor([1.0, 2.0, 3.0]), opyard.ones(3)
    print("\nmyadd(a, b, alpha=2) =", opyard.ops.mylib.myadd(a, b, alpha=2))
    print("on meta tensors:      ", opyard.ops.mylib.myadd(a.to("meta"), b.to("meta")))

    print("\nwhy that kernel?")
    opyard.dispatcher.explain(opyard.ops.mylib.myadd, a, b)

    print("\ndispatch table:")
    print(opyard.dispatcher.dump_table("mylib::myadd"), end="")

    print("\noverriding a built-in operator and restoring it:")
    calls = []

    def div_cpu(self, other):
        calls.append("div_cpu")
        return self * (1 / other)

    aten = Library("aten", "IMPL")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "Overriding a previously registered kernel": expected here
        aten.impl("div.Tensor", div_cpu, "CPU")
    print("  a / b with the override:", a / b, "kernels called:", calls)
    calls.clear()
    aten._destroy()
    print("  a / b restored:         ", a / b, "kernels called:", calls or "[] (the built-in kernel)")


def _parser():
    parser = argparse.ArgumentParser(
        prog="python -m opyard",
        description="A tour of opyard's dispatcher on one custom operator: its schema, a CPU and a Meta kernel, "
                    "why a call reaches its kernel (dispatcher.explain), the operator's dispatch table, and a "
                    "built-in operator overridden and restored.")
    parser.add_argument("--version", action="version", version=f"opyard {opyard.__version__}")
    return parser


if __name__ == "__main__":
    _parser().parse_args()
    main()
