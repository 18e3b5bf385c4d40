"""Games defined in Python, solved by grundy's engines.

A game gives a start position and ``moves(position)``, the positions after each move;
positions are any hashable values. Optional: ``to_move(position)`` (0 or 1; without it
play alternates), ``terminal(position)`` (``None`` to play on, else ``"win"``,
``"loss"`` or ``"draw"`` for the player to move; in a score game the points the player
to move collects) and ``gain(position, child)`` (points the mover collects; its presence
makes a score game). A position with no move and no declared end is lost by the player
to move (normal play).

    >>> import grundy
    >>> class Subtraction(grundy.Game):
    ...     def __init__(self, n): self.start = n
    ...     def moves(self, n): return [n - k for k in (1, 3, 4) if k <= n]
    >>> table = grundy.solve_game(Subtraction(10))
    >>> table.value(10)
    Value(outcome='win', remoteness=5)
    >>> table.winning_moves(10)
    [9, 7]
    >>> table.grundy(10)
    1

Exploration runs in Rust and calls the game's functions once per position; every
position is kept in a dict (its hash and equality are Python's own). Cycles are
allowed in win/loss/draw games and give draws, a move from a position to itself
included (a pass); a score game must be acyclic. ``moves`` may give at most
``max_moves`` moves per position, which stops an endless iterator; the game at most
``max_positions`` positions. A game that raises, returns an unhashable position or a
value of the wrong type gets a :class:`GameError` naming the position (the original
exception is its ``__cause__``); Ctrl-C stops the exploration.
"""

from dataclasses import dataclass
from typing import Any, Callable, Iterable, List, Optional

from . import _grundy

GameError = _grundy.GameError

#: The most positions :func:`solve_game` explores unless told otherwise (as the CLI's
#: ``--max-positions``).
MAX_POSITIONS = 2_000_000
#: The most moves one position may list.
MAX_MOVES = 100_000


class Game:
    """A base for games defined in Python: set ``start`` (or a ``start()`` method) and
    define ``moves``; define ``to_move``, ``terminal`` and ``gain`` where the game needs
    them. Nothing here is required: any object with these attributes will do."""

    start: Any = None

    def moves(self, position) -> Iterable:  # pragma: no cover - overridden
        raise NotImplementedError("a Game must define moves(position)")


@dataclass(frozen=True)
class Value:
    """What a position is worth to the player to move: ``outcome`` (``"win"``,
    ``"loss"`` or ``"draw"``), ``remoteness`` (moves to the end when the winner hurries
    and the loser delays; ``None`` for a draw) and, in a score game, ``score``: the most
    the player to move can collect more than the opponent (its remoteness is the length
    of the best line)."""

    outcome: str
    remoteness: Optional[int]
    score: Optional[int] = None

    def __repr__(self):
        extra = "" if self.score is None else f", score={self.score}"
        return f"Value(outcome={self.outcome!r}, remoteness={self.remoteness}{extra})"

    def to_dict(self):
        d = {"outcome": self.outcome, "remoteness": self.remoteness}
        if self.score is not None:
            d["score"] = self.score
        return d


def _value(triple):
    outcome, remoteness, score = triple
    return Value(outcome, remoteness, score)


class GameTable:
    """Every position reachable from the start, with its value. Look positions up by
    themselves (any position of the game, not only the start)."""

    def __init__(self, positions, ids, solved, start):
        self._positions = positions
        self._ids = ids
        self._solved = solved
        self.start = start

    # -- positions -------------------------------------------------------------------

    def __len__(self):
        return len(self._positions)

    def __contains__(self, position):
        try:
            return position in self._ids
        except TypeError:
            return False

    def __iter__(self):
        return iter(self._positions)

    @property
    def positions(self) -> List:
        """Every reachable position, the start first, in the order explored."""
        return list(self._positions)

    def _id(self, position):
        try:
            return self._ids[position]
        except KeyError:
            raise KeyError(f"{position!r} is not a position reachable from the start") from None

    # -- values ----------------------------------------------------------------------

    def value(self, position=None) -> Value:
        """The value of ``position`` (the start if omitted) for the player to move."""
        if position is None:
            position = self.start
        return _value(self._solved.value(self._id(position)))

    __getitem__ = value

    @property
    def outcome(self) -> str:
        """The start's outcome for the player to move."""
        return self.value().outcome

    @property
    def remoteness(self) -> Optional[int]:
        """The start's remoteness."""
        return self.value().remoteness

    @property
    def is_score(self) -> bool:
        """Whether this is a score game."""
        return self._solved.is_score()

    def moves(self, position=None):
        """Each move from ``position``, in the game's order: ``(child, value)`` where
        ``value`` is what the move is worth to the player making it."""
        if position is None:
            position = self.start
        out = []
        for child, outcome, remoteness, score in self._solved.move_values(self._id(position)):
            out.append((self._positions[child], Value(outcome, remoteness, score)))
        return out

    def best_moves(self, position=None) -> List:
        """The children a perfect player may move to: a win as fast as possible, else a
        draw, else a loss as slow as possible (score games: every move that reaches the
        best score)."""
        if position is None:
            position = self.start
        v = self._id(position)
        children = self._solved.successors(v)
        return [self._positions[children[i]] for i in self._solved.best_moves(v)]

    def best_move(self, position=None):
        """One best move's child (the first in move order), ``None`` without moves."""
        best = self.best_moves(position)
        return best[0] if best else None

    def winning_moves(self, position=None) -> List:
        """The children of the moves that win (every move keeping a win, not only the
        fastest); empty unless the player to move wins."""
        return [c for c, value in self.moves(position) if value.outcome == "win"]

    def grundy(self, position=None) -> int:
        """The Grundy value of ``position``: for impartial games (no ``to_move``,
        ``terminal`` or ``gain``) without cycles; ``ValueError`` otherwise."""
        if position is None:
            position = self.start
        return self._solved.grundy(self._id(position))

    @property
    def has_grundy(self) -> bool:
        """Whether Grundy values exist for this game."""
        return self._solved.has_grundy()

    def counts(self):
        """``{"win": …, "loss": …, "draw": …}``: positions by outcome for the player to
        move."""
        w, l, d = self._solved.counts()
        return {"win": w, "loss": l, "draw": d}

    def to_dict(self):
        """The start's value, its moves and the table's size, as plain data."""
        start = self.value()
        d = {
            "outcome": start.outcome,
            "remoteness": start.remoteness,
            "winning_moves": [repr(c) for c in self.winning_moves()],
            "moves": [
                {"position": repr(c), **v.to_dict()} for c, v in self.moves()
            ],
            "positions": len(self),
        }
        if start.score is not None:
            d["score"] = start.score
        if self.has_grundy:
            d["grundy"] = self.grundy()
        return d

    def __repr__(self):
        return f"<GameTable of {len(self)} positions; start {self.start!r}: {self.value()!r}>"


def _callable(game, name):
    f = getattr(game, name, None)
    if f is None:
        return None
    if not callable(f):
        raise TypeError(f"the game's {name} must be a function, not {type(f).__name__}")
    return f


def solve_game(
    game=None,
    *,
    start=None,
    moves: Optional[Callable] = None,
    to_move: Optional[Callable] = None,
    terminal: Optional[Callable] = None,
    gain: Optional[Callable] = None,
    max_positions: int = MAX_POSITIONS,
    max_moves: int = MAX_MOVES,
) -> GameTable:
    """Explores and solves a game defined in Python: an object with ``start`` and
    ``moves`` (and optionally ``to_move``, ``terminal``, ``gain``), or those given as
    keywords (which override the object's). Returns a :class:`GameTable`.

    Raises :class:`GameError` for a game that misbehaves (naming the position) or has
    more than ``max_positions`` positions."""
    if game is not None:
        if start is None:
            start = getattr(game, "start", None)
            if callable(start):
                start = start()
        moves = moves or _callable(game, "moves")
        to_move = to_move or _callable(game, "to_move")
        terminal = terminal or _callable(game, "terminal")
        gain = gain or _callable(game, "gain")
    if moves is None:
        raise TypeError("solve_game needs moves(position): a method of the game or moves=...")
    if start is None:
        raise TypeError("solve_game needs a start position: the game's start, or start=...")
    if not isinstance(max_positions, int) or not 1 <= max_positions < 2**32 - 1:
        raise ValueError(f"max_positions must be an int from 1 to {2**32 - 2}, not {max_positions!r}")
    if not isinstance(max_moves, int) or max_moves < 1:
        raise ValueError(f"max_moves must be a positive int, not {max_moves!r}")
    positions, ids, solved = _grundy.explore_game(
        start, moves, to_move, terminal, gain, gain is not None, max_positions, max_moves
    )
    return GameTable(positions, ids, solved, start)


@dataclass(frozen=True)
class GamePattern:
    """What the special method found in a one-parameter family of games, from the values
    of their starts: ``kind`` is ``"periodic"``, ``"arithmetic-periodic"``,
    ``"recurrence"`` (the losing sizes follow a rule) or ``"none"``. ``values`` are the
    Grundy values (impartial families) or outcomes read as 0 loss, 1 win, 2 draw;
    ``proved`` is always False: a finite sample shows a pattern, it does not prove one."""

    kind: str
    period: Optional[int]
    preperiod: Optional[int]
    saltus: Optional[int]
    p_positions: List[int]
    rule: str
    values: List[int]
    checked: List[int]
    proved: bool = False

    def to_dict(self):
        return {
            "kind": self.kind,
            "period": self.period,
            "preperiod": self.preperiod,
            "saltus": self.saltus,
            "p_positions": self.p_positions,
            "rule": self.rule,
            "proved": self.proved,
            "checked_up_to": self.checked[-1] if self.checked else None,
        }


_OUTCOME_CODE = {"loss": 0, "win": 1, "draw": 2}


def pattern_game(family: Callable, sizes: Iterable[int], **solve_options) -> GamePattern:
    """The special method on a family: ``family(n)`` is a game for each ``n`` in
    ``sizes`` (consecutive integers, from the smallest); each is solved and the values of
    the starts (Grundy values when every game has them, else outcomes) are searched for a
    period (ordinary, then arithmetic), and the losing sizes for a recurrence (a linear
    one, or Schwenk's additive shape: Fibonacci nim's losing heaps are the Fibonacci
    numbers)."""
    sizes = list(sizes)
    if not sizes:
        raise ValueError("pattern_game needs at least one size")
    if sizes != list(range(sizes[0], sizes[0] + len(sizes))):
        raise ValueError("pattern_game needs consecutive sizes, such as range(1, 60)")
    tables = [solve_game(family(n), **solve_options) for n in sizes]
    grundy = all(t.has_grundy for t in tables)
    values = [t.grundy() if grundy else _OUTCOME_CODE[t.outcome] for t in tables]
    losing = [n for n, t in zip(sizes, tables) if t.outcome == "loss"]
    what = "G(n)" if grundy else "the outcome"
    found = _grundy.find_period(values)
    if found is not None:
        pre, period, saltus = found
        pre += sizes[0]
        if saltus:
            rule = f"G(n + {period}) = G(n) + {saltus} for n ≥ {pre}"
            kind = "arithmetic-periodic"
        elif grundy:
            rule = f"G(n + {period}) = G(n) for n ≥ {pre}"
            kind = "periodic"
        else:
            rule = f"the outcome of n + {period} is that of n for n ≥ {pre}"
            kind = "periodic"
        return GamePattern(kind, period, pre, saltus, losing, rule, values, sizes)
    shape = _grundy.recurrence(losing) if len(losing) >= 3 else None
    if shape is not None:
        return GamePattern(
            "recurrence", None, None, None, losing, f"the losing sizes: {shape}", values, sizes
        )
    rule = f"no period in {what} of sizes {sizes[0]} to {sizes[-1]}"
    return GamePattern("none", None, None, None, losing, rule, values, sizes)
