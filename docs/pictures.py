"""Draw the pictures README.md shows into docs/ (needs Graphviz's `dot`): `make pictures`."""

import os

import opyard
from opyard import viz

HERE = os.path.dirname(os.path.abspath(__file__))


def autograd_graph():
    """README's "A picture": the autograd graph of a small layer's loss."""
    opyard.manual_seed(0)
    w = opyard.randn(4, 3, requires_grad=True)
    b = opyard.zeros(3, requires_grad=True)
    x = opyard.randn(8, 4)
    loss = (x @ w + b).relu().pow(2).mean()
    return viz.to_dot(loss, params={"w": w, "b": b})


if __name__ == "__main__":
    path = autograd_graph().save(os.path.join(HERE, "autograd_graph.svg"))
    print("wrote", os.path.relpath(path))
