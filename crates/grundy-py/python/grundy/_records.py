"""Typed results: the CLI's ``--json`` objects as dataclasses.

Each class lists the fields of one JSON object of the CLI, in its order; a field marked
``omit`` is left out of ``to_dict()`` when it is empty (``None``, ``False``, ``[]``), as
the library's serialisation leaves it out. ``from_dict(d).to_dict() == d`` for what the
CLI prints, and the tests check ``to_dict()`` against the CLI itself.
"""

import dataclasses
import html
from typing import Any, List, Optional, Union

_OMIT = {"omit": True}
_ROWS = 40  # most rows an HTML table shows


def _omit():
    return dataclasses.field(default=None, metadata=_OMIT)


def _empty(value):
    """Whether the library's serialisation leaves this value out (when marked ``omit``);
    0 is a value, not an empty one."""
    return value is None or value is False or (isinstance(value, (list, tuple)) and not value)


def _plain(value):
    if isinstance(value, Record):
        return value.to_dict()
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


class Record:
    """Shared by every result: ``to_dict()``, ``from_dict()`` and an HTML table for Jupyter."""

    _nested = {}  # field name -> Record class of its items (or of itself)

    def to_dict(self):
        """The object as the CLI's ``--json`` prints it."""
        out = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.metadata.get("omit") and _empty(value):
                continue
            out[f.name] = _plain(value)
        return out

    @classmethod
    def from_dict(cls, d):
        kwargs = {}
        for f in dataclasses.fields(cls):
            if f.name not in d:
                continue
            value = d[f.name]
            kind = cls._nested.get(f.name)
            if kind is not None and value is not None:
                value = [kind.from_dict(v) for v in value] if isinstance(value, list) else kind.from_dict(value)
            kwargs[f.name] = value
        return cls(**kwargs)

    def _repr_html_(self):
        rows = []
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.metadata.get("omit") and _empty(value):
                continue
            rows.append(f"<tr><th style='text-align:left'>{f.name}</th><td style='text-align:left'>{_cell(value)}</td></tr>")
        return f"<table><caption>{type(self).__name__}</caption>{''.join(rows)}</table>"


def _cell(value):
    if isinstance(value, list) and value and isinstance(value[0], Record):
        names = [f.name for f in dataclasses.fields(value[0])]
        head = "".join(f"<th>{n}</th>" for n in names)
        body = "".join(
            "<tr>" + "".join(f"<td>{_cell(getattr(r, n))}</td>" for n in names) + "</tr>"
            for r in value[:_ROWS]
        )
        more = f"<tr><td colspan='{len(names)}'>… {len(value) - _ROWS} more</td></tr>" if len(value) > _ROWS else ""
        return f"<table><tr>{head}</tr>{body}{more}</table>"
    if isinstance(value, Record):
        return value._repr_html_()
    if isinstance(value, (list, tuple)):
        shown = ", ".join(html.escape(str(_plain(v))) for v in value[:200])
        return shown + (", …" if len(value) > 200 else "")
    if value is None:
        return "—"
    return html.escape(str(value))


@dataclasses.dataclass
class Component(Record):
    """A component of a sum, with its Grundy value."""

    spec: str
    grundy: int


@dataclasses.dataclass
class Move(Record):
    """One move: where it leads, its name, and its value for the player who makes it."""

    spec: str
    name: str
    gain: Optional[int] = _omit()
    gift: Optional[int] = _omit()
    again: bool = dataclasses.field(default=False, metadata=_OMIT)
    outcome: str = "loss"
    remoteness: Optional[int] = None
    grundy: Optional[int] = _omit()
    scores: Optional[List[int]] = _omit()
    worse_by: Optional[int] = _omit()


@dataclasses.dataclass
class Report(Record):
    """What ``grundy solve`` knows about a position (``grundy solve --json``)."""

    spec: str
    outcome: str
    remoteness: Optional[int]
    winning_moves: List[str]
    grundy: Optional[int] = _omit()
    components: List[Component] = dataclasses.field(default_factory=list, metadata=_OMIT)
    scores: Optional[List[int]] = _omit()
    moves: List[Move] = dataclasses.field(default_factory=list)
    moves_truncated: bool = False
    method: str = ""
    positions: Optional[int] = _omit()
    up_to_symmetry: bool = dataclasses.field(default=False, metadata=_OMIT)
    nodes: Optional[int] = _omit()
    winning_moves_truncated: bool = dataclasses.field(default=False, metadata=_OMIT)
    weak: bool = dataclasses.field(default=False, metadata=_OMIT)
    rule: Optional[str] = _omit()

    _nested = {"components": Component, "moves": Move}


@dataclasses.dataclass
class Pattern(Record):
    """The special method's answer for a family (``grundy pattern --json``)."""

    family: str
    kind: str
    period: Optional[int]
    preperiod: Optional[int]
    saltus: Optional[int]
    p_positions: List[int]
    rule: str
    proved: bool
    theorem: Optional[str] = _omit()
    checked_up_to: int = 0
    #: Two-pile families (Wythoff): the first losing positions ``[a, b]``, ``a <= b``.
    p_pairs: List[List[int]] = _omit()


@dataclasses.dataclass
class FeatureRule(Record):
    """A rule over a family's position features (``grundy pattern --features``)."""

    family: str
    rule: str
    found_on: int
    checked_on: int

    def __str__(self):
        return (
            f"{self.family}: {self.rule}\n"
            f"found on {self.found_on} positions by the general method, checked on {self.checked_on} more"
        )


@dataclasses.dataclass
class Regions(Record):
    """Who wins where in a game on a graph, by the file's ids; the winners' moves if asked."""

    won_by_0: List[int]
    won_by_1: List[int]
    strategy: Optional[List[List[int]]] = _omit()


@dataclasses.dataclass
class TokenSum(Record):
    """The value of a sum of tokens, one on each vertex listed."""

    vertices: List[int]
    grundy: Union[int, str]
    outcome: str


@dataclasses.dataclass
class TokenValues(Record):
    """A token game on a digraph: per vertex (dense order) the outcome, remoteness and γ."""

    outcome: List[str]
    remoteness: List[Optional[int]]
    grundy: List[Union[int, str]]
    sum: Optional[TokenSum] = _omit()

    _nested = {"sum": TokenSum}


@dataclasses.dataclass
class Verification(Record):
    """The verdict of ``grundy graph verify``: true if the claimed solution is correct."""

    ok: bool
    message: str

    def __bool__(self):
        return self.ok

    def __str__(self):
        return self.message


class Table:
    """Outcome and Grundy value of every heap size 0..=N of a one-heap family.

    ``grundy`` holds the values in one buffer: a NumPy array when NumPy is installed,
    else an ``array.array``, of the narrowest unsigned type that holds them. ``to_dict()``
    is ``grundy table --json``; in Jupyter a table shows as HTML with its plot (SVG).
    """

    def __init__(self, family: str, grundy: Any, raw: bytes, width: int):
        self.family = family
        self.grundy = grundy
        self._raw = raw
        self._width = width

    def __len__(self):
        return len(self.grundy)

    @property
    def up_to(self):
        """The largest heap size."""
        return len(self.grundy) - 1

    def losing(self):
        """The heap sizes that are losses for the player to move (P-positions), as a list."""
        try:
            import numpy

            if isinstance(self.grundy, numpy.ndarray):
                return numpy.flatnonzero(self.grundy == 0).tolist()
        except ImportError:
            pass
        return [n for n, g in enumerate(self.grundy) if g == 0]

    def outcome(self, n):
        """``"loss"`` or ``"win"`` for the player to move at heap ``n``."""
        return "loss" if self.grundy[n] == 0 else "win"

    def to_dict(self):
        values = self.grundy.tolist()
        return {
            "family": self.family,
            "outcome": ["loss" if g == 0 else "win" for g in values],
            "grundy": values,
        }

    def __repr__(self):
        head = ", ".join(str(g) for g in self.grundy[:12])
        more = ", …" if len(self.grundy) > 12 else ""
        return f"Table({self.family!r}, heaps 0..={self.up_to}: [{head}{more}])"

    def svg(self, up_to=None):
        """The plot of ``grundy plot`` as SVG text (heaps 0..=``up_to``; default all);
        ``None`` when no TrueType font is installed to lay its text out."""
        from . import _grundy

        n = len(self.grundy) if up_to is None else min(len(self.grundy), up_to + 1)
        return _grundy.table_svg(self.family, self._raw[: n * self._width], self._width)

    def _repr_svg_(self):
        # A notebook shows at most the first 2000 heaps: one circle per heap.
        return self.svg(up_to=min(self.up_to, 1999))

    def _repr_html_(self):
        losing = self.losing()
        shown = ", ".join(str(n) for n in losing[:30]) + (", …" if len(losing) > 30 else "")
        rows = []
        for start in range(0, min(len(self.grundy), 120), 12):
            cells = "".join(f"<td>{g}</td>" for g in self.grundy[start : start + 12])
            rows.append(f"<tr><th>{start}</th>{cells}</tr>")
        more = "<tr><td colspan='13'>…</td></tr>" if len(self.grundy) > 120 else ""
        plot = self._repr_svg_() or ""
        return (
            f"<div><p><b>{html.escape(self.family)}</b>, heap sizes 0..={self.up_to}: "
            f"{len(losing)} losing (P-) positions: {html.escape(shown)}</p>"
            f"<table><caption>Grundy values, 12 to a row</caption>{''.join(rows)}{more}</table>"
            f"{plot}</div>"
        )
