"""grundy: solve two-player games of perfect information.

The engines are Rust (the `grundy` library); this package turns their answers into
Python objects.
"""

import json as _json

from . import _grundy

__version__ = _grundy.__version__


def solve(spec):
    """Solves a spec such as ``"nim(3,4,5)"``; returns the report as a dict (the CLI's --json)."""
    return _json.loads(_grundy.solve_json(spec))
