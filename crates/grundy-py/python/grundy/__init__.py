"""grundy: solve two-player games of perfect information.

The engines are Rust (the `grundy` library); this package hands them Python arguments and
turns their answers into Python objects: the CLI's ``--json`` as dataclasses
(``to_dict()`` gives the JSON back), tables as one NumPy array (or ``array.array``).

    >>> import grundy
    >>> grundy.solve("nim(3,4,5)").winning_moves
    ['nim(1,4,5)']

Long calls release the GIL, stop on Ctrl-C (``KeyboardInterrupt``) and show progress
with ``progress=True`` (or call ``progress(stage, done)``). A request grundy refuses
raises :class:`GrundyError` (a ``ValueError``) with the CLI's message, and ``.line`` and
``.column`` where the input is at fault.
"""

import array as _array
import json as _json
import os as _os

from . import _grundy, _progress
from . import cgt, graph
from ._records import (
    Component,
    FeatureRule,
    Move,
    Pattern,
    Regions,
    Report,
    Table,
    TokenSum,
    TokenValues,
    Verification,
)

__version__ = _grundy.__version__

GrundyError = _grundy.GrundyError

#: The CLI's defaults for its limits (``--max-positions`` and the rest); ``max_memory``
#: is in MiB.
LIMITS = {
    "max_positions": 2_000_000,
    "max_memory": 4096,
    "max_work": 20_000_000_000,
    "max_proof_heaps": 1 << 20,
    "max_nodes": 250_000,
    "max_exact_nodes": 20_000_000_000,
}


def solve(
    spec,
    *,
    max_positions=LIMITS["max_positions"],
    max_memory=LIMITS["max_memory"],
    max_work=LIMITS["max_work"],
    max_proof_heaps=LIMITS["max_proof_heaps"],
    tablebase=None,
    threads=0,
    max_tier_memory=16384,
    max_nodes=LIMITS["max_nodes"],
    max_exact_nodes=LIMITS["max_exact_nodes"],
    weak=False,
    progress=None,
):
    """Solves a position given as a spec, such as ``"nim(3,4,5)"`` or
    ``"nim(3) + octal[0.77](12)"`` (``grundy solve SPEC --json``): outcome, remoteness,
    every winning move, Grundy values, scores. Returns a :class:`Report`.

    ``tablebase``: a directory (``grundy solve --tablebase DIR``) where a board's tiers
    are kept: those missing are solved first, on ``threads`` threads (0: every core)
    within ``max_tier_memory`` MiB, and the answer is read from them.

    A board too large to explore is searched (``grundy solve --max-nodes``,
    ``--max-exact-nodes``, ``--weak``): by the exact search where its family offers one
    (connect four: values with remoteness, on ``threads`` threads, within
    ``max_exact_nodes`` positions; ``weak=True``: outcomes only, faster), else by the proof
    search within ``max_nodes`` positions."""
    text = _progress.call(
        _grundy.solve_json,
        spec,
        max_positions=max_positions,
        max_memory=max_memory,
        max_work=max_work,
        max_proof_heaps=max_proof_heaps,
        tablebase=None if tablebase is None else _os.fspath(tablebase),
        threads=threads,
        max_tier_memory=max_tier_memory,
        max_nodes=max_nodes,
        max_exact_nodes=max_exact_nodes,
        weak=weak,
        progress=progress,
    )
    return Report.from_dict(_json.loads(text))


def _values(raw, width):
    """The packed values as a NumPy array, else an ``array.array``: from the one buffer."""
    try:
        import numpy
    except ImportError:
        for code in "BIHLQ":
            if _array.array(code).itemsize == width:
                values = _array.array(code)
                values.frombytes(raw)
                return values
        raise RuntimeError(f"no array type of {width} bytes")  # every CPython has one
    return numpy.frombuffer(raw, dtype={1: numpy.uint8, 4: numpy.uint32, 8: numpy.uint64}[width])


def table(
    family,
    up_to,
    *,
    max_positions=LIMITS["max_positions"],
    max_memory=LIMITS["max_memory"],
    max_work=LIMITS["max_work"],
    max_proof_heaps=LIMITS["max_proof_heaps"],
    progress=None,
):
    """Outcome and Grundy value of every heap size 0..=``up_to`` of a one-heap family
    such as ``"octal[0.77]"`` (``grundy table FAMILY --up-to N --json``). Returns a
    :class:`Table` whose ``grundy`` is a NumPy array (read-only, over the library's
    buffer) when NumPy is installed, else an ``array.array``."""
    name, raw, width = _progress.call(
        _grundy.table,
        family,
        up_to,
        max_positions=max_positions,
        max_memory=max_memory,
        max_work=max_work,
        max_proof_heaps=max_proof_heaps,
        progress=progress,
    )
    return Table(name, _values(raw, width), raw, width)


def pattern(
    family,
    up_to=None,
    *,
    features=False,
    check=(),
    max_positions=LIMITS["max_positions"],
    progress=None,
):
    """The special method (``grundy pattern FAMILY --json``): the pattern of a family —
    its period, losing positions, a rule that plays in O(log n) — checked against the
    general method, and proved where a theorem applies. ``up_to``: how far to look (the
    CLI's defaults when ``None``). Returns a :class:`Pattern`.

    With ``features=True`` (``grundy pattern --features``): a rule over the family's
    position features, searched on sizes 1..=up_to/2 and checked to ``up_to`` (24 by
    default), or over what a position reaches; ``check`` lists more positions to check it
    on. Returns a :class:`FeatureRule`.
    """
    if features:
        text, found_on, checked_on = _progress.call(
            _grundy.pattern_features,
            family,
            up_to,
            list(check),
            max_positions=max_positions,
            progress=progress,
        )
        return FeatureRule(family=family, rule=text, found_on=found_on, checked_on=checked_on)
    if check:
        raise ValueError("check= is for features=True")
    text = _progress.call(
        _grundy.pattern_json, family, up_to, max_positions=max_positions, progress=progress
    )
    return Pattern.from_dict(_json.loads(text))


def examples():
    """The catalog's example specs: one or more for every family, and a sum."""
    return _grundy.examples()


__all__ = [
    "Component",
    "FeatureRule",
    "GrundyError",
    "LIMITS",
    "Move",
    "Pattern",
    "Regions",
    "Report",
    "Table",
    "TokenSum",
    "TokenValues",
    "Verification",
    "cgt",
    "Game",
    "GameError",
    "GameSearch",
    "GameTable",
    "GameTooLarge",
    "Value",
    "examples",
    "graph",
    "pattern",
    "pattern_game",
    "solve",
    "solve_game",
    "table",
]

# Games defined in Python (grundy.openspiel is imported on its own: it needs pyspiel).
from .game import (  # noqa: E402
    Game,
    GameError,
    GameSearch,
    GameTable,
    GameTooLarge,
    Value,
    pattern_game,
    solve_game,
)
