"""Where a registration came from: the first frame outside opyard's own code."""

import os
import sys

_PKG_DIR = os.path.dirname(os.path.abspath(__file__))


def caller_site():
    """``file.py:12`` of the nearest caller that is not opyard's own code."""
    f = sys._getframe(1)
    while f is not None:
        path = f.f_code.co_filename
        if not os.path.abspath(path).startswith(_PKG_DIR + os.sep):
            return f"{path}:{f.f_lineno}"
        f = f.f_back
    return "<opyard>"
