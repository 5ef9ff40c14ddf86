"""Where a registration came from: the first frame outside opyard's own code."""

import os
import sys

_PKG_DIR = os.path.dirname(os.path.abspath(__file__))


_internal = {}


def _is_internal(path):
    hit = _internal.get(path)
    if hit is None:
        hit = _internal[path] = os.path.abspath(path).startswith(_PKG_DIR + os.sep)
    return hit


def caller_site():
    """``file.py:12`` of the nearest caller that is not opyard's own code."""
    f = sys._getframe(1)
    while f is not None:
        path = f.f_code.co_filename
        if not _is_internal(path):
            return f"{path}:{f.f_lineno}"
        f = f.f_back
    return "<opyard>"
