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

**The batched path**, for games whose positions are integers (or tuples of small ints)
and whose moves can be computed for many positions at once, with NumPy say: define
``moves_many(codes)`` instead of (or beside) ``moves``. It gets a batch of positions as
a one-dimensional ``int64`` array of *codes* and returns ``(offsets, children)``: the
children of ``codes[j]`` are ``children[offsets[j]:offsets[j + 1]]``, codes too, in move
order (``offsets`` has one entry more than ``codes``, 0 first, ``len(children)`` last).
Both may be NumPy integer arrays or any one-dimensional buffer of integers
(``array.array``); exploration calls ``moves_many`` once per batch of up to
``batch_size`` positions (fewer where positions have many moves: about 65 536 children
a call, arrays that stay in the processor's cache) and keeps every code in Rust, so no
Python object is made per move. A code is the position itself when positions are ints from 0 to
2**63 - 1; when the game sets ``shape = (n_1, ..., n_k)``, positions are tuples
``(a_1, ..., a_k)`` with ``0 <= a_i < n_i`` and the code is
``numpy.ravel_multi_index(position, shape)`` (the last entry varies fastest:
``(a, b)`` has code ``a * n_2 + b``), undone by ``numpy.unravel_index``; the product of
the shape must be at most 2**63. ``to_move_many(codes)`` (0 or 1 each) and
``terminal_many(codes)`` (0 play on, 1 win, 2 loss, 3 draw for the player to move: the
constants ``PLAY_ON``, ``WIN``, ``LOSS``, ``DRAW``) give one value per position of the
batch, as arrays too; a position with a declared end is not passed to ``moves_many``.
Score games (``gain``) take the plain path. The tables are the same as the plain path's:
looked up by positions (ints, or tuples for a shape).

    >>> import numpy as np
    >>> class FastSubtraction(grundy.Game):
    ...     def __init__(self, n): self.start = n
    ...     def moves_many(self, codes):
    ...         takes = np.array([1, 3, 4])
    ...         ok = codes[:, None] >= takes            # which moves each position has
    ...         offsets = np.concatenate(([0], np.cumsum(ok.sum(axis=1))))
    ...         return offsets, (codes[:, None] - takes)[ok]
    >>> grundy.solve_game(FastSubtraction(10)).value(10)
    Value(outcome='win', remoteness=5)

A game defining both ``moves`` and ``moves_many`` is solved through ``moves_many``
unless ``batched=False``. A batched game's bugs raise :class:`GameError` too: an array
of the wrong dtype or dimension, a code out of range, ragged offsets, a start that is no
code, each naming the position where there is one.

**Too large to explore**: when a game has more than ``max_positions`` positions,
:func:`solve_game` searches it instead from its start (``method="search"`` skips the
exploration): the library's proof search (depth-first proof numbers, or alpha-beta on
win / draw / loss with ``algorithm="alpha-beta"``; right on cycles) values the start and
each of its moves, visiting at most ``max_nodes`` positions and keeping what it learns in a
table of at most ``search_memory`` MiB. The answer is a :class:`GameSearch`: a weak
solution, outcomes without remoteness, of the start alone. Positions are given ids by
their hash and equality the first time the search meets them; at most ``max_positions``
are kept (past that, those the search no longer holds are forgotten). A score game is
searched for the sign of the final margin (who ends ahead), not the margin itself.

    >>> class Race(grundy.Game):              # 1 or 2 steps to 500; who reaches it wins
    ...     start = 0
    ...     def moves(self, n): return [m for m in (n + 1, n + 2) if m <= 500]
    >>> searched = grundy.solve_game(Race(), max_positions=100)
    >>> searched.outcome, searched.weak, searched.winning_moves()
    ('win', True, [2])
"""

from dataclasses import dataclass
from typing import Any, Callable, Iterable, List, Optional

from . import _grundy, _progress

GameError = _grundy.GameError
GameTooLarge = _grundy.GameTooLarge

#: The most positions :func:`solve_game` explores unless told otherwise (as the CLI's
#: ``--max-positions``).
MAX_POSITIONS = 2_000_000
#: The most positions the proof search visits, repeats counted, unless told otherwise
#: (as the CLI's ``--max-nodes``).
MAX_NODES = 250_000
#: The most memory of the proof search's table, in MiB, unless told otherwise (as the
#: CLI's ``--search-memory``; it starts small and doubles up to this).
SEARCH_MEMORY = 1024
#: The most memory exploring may take, in MiB, unless told otherwise: the process's
#: resident memory grown past this since the exploration began stops it
#: (:class:`GameTooLarge`; by default the search then answers). Games whose positions are
#: large objects (OpenSpiel's states) meet it before ``max_positions``. Measured where the
#: system tells it (Linux); elsewhere only ``max_positions`` bounds an exploration.
MAX_MEMORY = 1024
#: The most moves one position may list.
MAX_MOVES = 100_000
#: Positions per call of a batched game's ``moves_many`` (and ``terminal_many``,
#: ``to_move_many``) unless told otherwise: larger batches mean fewer calls and larger
#: arrays (any size from 1 works); a batch is cut short where its positions have many
#: moves, at about 65 536 children.
BATCH_SIZE = 1024

#: What ``terminal_many`` gives for each position: play on, or the game's end and what it
#: is for the player to move.
PLAY_ON, WIN, LOSS, DRAW = 0, 1, 2, 3
#: Codes of a batched game run from 0 to ``CODES - 1`` (NumPy's ``int64``, non-negative).
CODES = 2**63


class Game:
    """A base for games defined in Python: set ``start`` (or a ``start()`` method) and
    define ``moves``; define ``to_move``, ``terminal`` and ``gain`` where the game needs
    them. For the batched path define ``moves_many`` (and ``to_move_many``,
    ``terminal_many``, and ``shape`` for tuple positions) instead. A game searched
    rather than explored may define ``priority(position, child)``: an int, the moves of
    higher priority tried first. Nothing here is required: any object with these
    attributes will do."""

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


_PREFERENCE = {"win": 2, "draw": 1, "loss": 0}


def _best_of(moves) -> List:
    """The moves of ``(move, outcome)`` pairs whose outcome is the best of them, a win
    over a draw over a loss, in their order (a search's best moves)."""
    best = max((_PREFERENCE[o] for _, o in moves), default=None)
    return [m for m, o in moves if _PREFERENCE[o] == best]


class GameSearch:
    """The start of a game and each of its moves, valued by the proof search instead of
    exploring every position: a weak solution — win, draw or loss for the player to move,
    without remoteness (``weak`` is True, ``remoteness`` None) — of the start alone.
    ``nodes`` is the positions the search visited (repeats counted). In a score game
    (``is_score``) an outcome is the sign of the final margin under best play, and
    ``score`` is None: the margin itself is not searched."""

    weak = True
    method = "search"

    def __init__(self, start, outcome, moves, nodes, stored, table_bytes, is_score, algorithm):
        self.start = start
        self._outcome = outcome
        self._moves = moves
        self.nodes = nodes
        #: Values the search's table held at the end, and its size in bytes.
        self.stored = stored
        self.table_bytes = table_bytes
        self.is_score = is_score
        self.algorithm = algorithm

    def _check(self, position):
        if position is not None and position != self.start:
            raise KeyError(
                f"{position!r} is not the start: a search values the start and its moves only "
                f"(search from {position!r} to value it)"
            )

    def value(self, position=None) -> Value:
        """The start's value for the player to move (``position``, if given, must be the
        start)."""
        self._check(position)
        return Value(self._outcome, None)

    __getitem__ = value

    @property
    def outcome(self) -> str:
        """The start's outcome for the player to move."""
        return self._outcome

    @property
    def remoteness(self) -> None:
        """None: a search proves outcomes, not how far the end is."""
        return None

    def moves(self, position=None):
        """Each move from the start, in the game's order: ``(child, value)`` where
        ``value`` is what the move is worth to the player making it."""
        self._check(position)
        return [(child, Value(outcome, None)) for child, outcome in self._moves]

    def best_moves(self, position=None) -> List:
        """The children of the start's best moves: every win, else every draw, else every
        move (a search does not tell a fast win from a slow one)."""
        self._check(position)
        return _best_of(self._moves)

    def best_move(self, position=None):
        """One best move's child (the first in move order), ``None`` without moves."""
        best = self.best_moves(position)
        return best[0] if best else None

    def winning_moves(self, position=None) -> List:
        """The children of the moves that win; empty unless the player to move wins."""
        self._check(position)
        return [c for c, o in self._moves if o == "win"]

    @property
    def has_grundy(self) -> bool:
        """False: a search gives no Grundy values."""
        return False

    def grundy(self, position=None) -> int:
        """Refused: a search gives no Grundy values (explore the game for them)."""
        raise ValueError("a search gives no Grundy values: explore the game (method='explore')")

    def to_dict(self):
        """The start's value and its moves, as plain data (the CLI's ``--json`` of a
        search: ``weak``, ``method``, ``nodes``)."""
        return {
            "outcome": self._outcome,
            "remoteness": None,
            "winning_moves": [repr(c) for c in self.winning_moves()],
            "moves": [
                {"position": repr(c), "outcome": o, "remoteness": None} for c, o in self._moves
            ],
            "weak": True,
            "method": "search",
            "nodes": self.nodes,
        }

    def __repr__(self):
        return (
            f"<GameSearch of the start {self.start!r}: {self._outcome} (weak, "
            f"{self.nodes} nodes searched)>"
        )


class _Codec:
    """How a batched game's positions map to codes: the ints themselves (``shape`` None),
    or tuples by mixed radix, the last entry fastest (``numpy.ravel_multi_index``)."""

    def __init__(self, shape):
        if shape is None:
            self.shape, self.size = None, CODES
            return
        if isinstance(shape, int) and not isinstance(shape, bool):
            shape = (shape,)
        try:
            shape = tuple(shape)
        except TypeError:
            raise ValueError(f"shape must be a tuple of positive ints, not {shape!r}") from None
        if not shape or not all(
            isinstance(n, int) and not isinstance(n, bool) and n >= 1 for n in shape
        ):
            raise ValueError(f"shape must be a tuple of positive ints, not {shape!r}")
        size = 1
        for n in shape:
            size *= n
        if size > CODES:
            raise ValueError(
                f"shape {shape} has {size} positions: a batched game's codes must fit int64 (at most 2**63)"
            )
        self.shape, self.size = shape, size

    def encode(self, position):
        """The code of ``position``; ``ValueError`` or ``TypeError`` saying why it has none."""
        if self.shape is None:
            if isinstance(position, bool) or not hasattr(position, "__index__"):
                raise TypeError(f"{position!r} is not an int: this game's positions are ints")
            code = position.__index__()
            if not 0 <= code < CODES:
                raise ValueError(f"{position!r} is not an int from 0 to 2**63 - 1")
            return code
        if not isinstance(position, tuple) or len(position) != len(self.shape):
            raise TypeError(
                f"{position!r} is not a tuple of {len(self.shape)} ints (the game's shape is {self.shape})"
            )
        code = 0
        for a, n in zip(position, self.shape):
            if isinstance(a, bool) or not hasattr(a, "__index__"):
                raise TypeError(f"{position!r} holds {a!r}, which is not an int")
            a = a.__index__()
            if not 0 <= a < n:
                raise ValueError(f"{position!r} is outside the game's shape {self.shape}")
            code = code * n + a
        return code

    def decode(self, code):
        """The position of ``code``."""
        if self.shape is None:
            return code
        out = []
        for n in reversed(self.shape):
            code, a = divmod(code, n)
            out.append(a)
        return tuple(reversed(out))

    def show(self, code):
        """The repr of the position of ``code``, for messages."""
        return repr(self.decode(code))


def _as_codes():
    """The function making the array a batched game is handed, from ``int64`` bytes:
    a read-only NumPy array where NumPy is installed, else an ``array.array``."""
    try:
        import numpy
    except ImportError:
        import array

        def as_codes(raw):
            a = array.array("q")
            a.frombytes(raw)
            return a

        return as_codes
    return lambda raw: numpy.frombuffer(raw, dtype=numpy.int64)


class _CodedPositions:
    """A batched game's positions by id, decoded on demand."""

    def __init__(self, coded, codec):
        self._coded, self._codec = coded, codec

    def __len__(self):
        return len(self._coded)

    def __getitem__(self, i):
        return self._codec.decode(self._coded.code(i))

    def __iter__(self):
        decode, code = self._codec.decode, self._coded.code
        return (decode(code(i)) for i in range(len(self._coded)))


class _CodedIds:
    """Position → id for a batched game (``KeyError`` for a position it never reached or
    that has no code)."""

    def __init__(self, coded, codec):
        self._coded, self._codec = coded, codec

    def __getitem__(self, position):
        try:
            code = self._codec.encode(position)
        except (TypeError, ValueError):
            raise KeyError(position) from None
        i = self._coded.id(code)
        if i is None:
            raise KeyError(position)
        return i

    def __contains__(self, position):
        try:
            self[position]
        except KeyError:
            return False
        return True


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
    priority: Optional[Callable] = None,
    moves_many: Optional[Callable] = None,
    to_move_many: Optional[Callable] = None,
    terminal_many: Optional[Callable] = None,
    shape=None,
    batched: Optional[bool] = None,
    batch_size: int = BATCH_SIZE,
    max_positions: int = MAX_POSITIONS,
    max_memory: int = MAX_MEMORY,
    max_moves: int = MAX_MOVES,
    method: Optional[str] = None,
    max_nodes: int = MAX_NODES,
    search_memory: int = SEARCH_MEMORY,
    algorithm: str = "pn",
    progress=None,
):
    """Explores and solves a game defined in Python: an object with ``start`` and
    ``moves`` (and optionally ``to_move``, ``terminal``, ``gain``), or those given as
    keywords (which override the object's). Returns a :class:`GameTable`.

    A game with ``moves_many`` (and optionally ``to_move_many``, ``terminal_many``,
    ``shape``: see the module's doc) takes the batched path, ``batch_size`` positions a
    call, unless ``batched=False``; ``batched=True`` insists on it.

    ``method``: ``None`` (the default) explores, and searches from the start when the
    game has more than ``max_positions`` positions or exploring takes more than
    ``max_memory`` MiB (:data:`MAX_MEMORY`); ``"explore"`` only explores;
    ``"search"`` only searches. A search (the proof search: ``algorithm="pn"``, depth-first
    proof numbers, or ``"alpha-beta"``) visits at most ``max_nodes`` positions with a table
    of at most ``search_memory`` MiB, and returns a :class:`GameSearch` (a weak solution:
    the start's outcome and its moves', no remoteness); ``progress`` (True or a callable
    ``(stage, done)``) follows it. ``priority(position, child)``, where the game defines
    it, orders the search's moves: an int, higher tried first (ties in ``moves``' order);
    a good order (a winning move first) is what makes a search fast.

    Raises :class:`GameError` for a game that misbehaves (naming the position), and
    :class:`GameTooLarge` (a ``GameError``) for one past the limits: more than
    ``max_positions`` positions to explore, and, where it searches, no answer within
    ``max_nodes``."""
    if game is not None:
        if start is None:
            start = getattr(game, "start", None)
            if callable(start):
                start = start()
        moves = moves or _callable(game, "moves")
        to_move = to_move or _callable(game, "to_move")
        terminal = terminal or _callable(game, "terminal")
        gain = gain or _callable(game, "gain")
        priority = priority or _callable(game, "priority")
        moves_many = moves_many or _callable(game, "moves_many")
        to_move_many = to_move_many or _callable(game, "to_move_many")
        terminal_many = terminal_many or _callable(game, "terminal_many")
        if shape is None:
            shape = getattr(game, "shape", None)
    if batched is None:
        batched = moves_many is not None
    if not batched and moves is None:
        raise TypeError("solve_game needs moves(position): a method of the game or moves=...")
    if start is None:
        raise TypeError("solve_game needs a start position: the game's start, or start=...")
    if not isinstance(max_positions, int) or not 1 <= max_positions < 2**32 - 1:
        raise ValueError(f"max_positions must be an int from 1 to {2**32 - 2}, not {max_positions!r}")
    if not isinstance(max_moves, int) or max_moves < 1:
        raise ValueError(f"max_moves must be a positive int, not {max_moves!r}")
    memory = _memory_bytes(max_memory)
    if method not in (None, "explore", "search"):
        raise ValueError(f"method must be None, 'explore' or 'search', not {method!r}")
    search = _searcher(max_nodes, search_memory, algorithm, progress, max_positions, max_moves)
    if batched and priority is not None:
        raise ValueError(
            "priority(position, child) orders the search of a game with moves(position); "
            "the batched path has none: pass batched=False to use it"
        )
    if batched:
        return _solve_batched(
            start, moves_many, to_move, to_move_many, terminal, terminal_many, gain, shape,
            batch_size, max_positions, max_moves, method, search,
        )

    def explore():
        positions, ids, solved = _grundy.explore_game(
            start, moves, to_move, terminal, gain, gain is not None, max_positions, max_moves,
            memory,
        )
        return GameTable(positions, ids, solved, start)

    def searched():
        outcome, found, nodes, stored, table_bytes = search(
            _grundy.search_game, start, moves, to_move, terminal, gain, priority=priority
        )
        return GameSearch(
            start, outcome, found, nodes, stored, table_bytes, gain is not None, algorithm
        )

    return _explore_or_search(method, explore, searched)


def _memory_bytes(max_memory):
    """``max_memory`` (MiB) checked, in bytes."""
    if isinstance(max_memory, bool) or not isinstance(max_memory, int) or not 1 <= max_memory < 2**44:
        raise ValueError(f"max_memory must be a positive int of MiB, not {max_memory!r}")
    return max_memory << 20


def _searcher(max_nodes, search_memory, algorithm, progress, max_positions, max_moves):
    """The search's keywords checked, as a function calling a compiled search with them."""
    for name, value in (("max_nodes", max_nodes), ("search_memory", search_memory)):
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value < 2**64:
            raise ValueError(f"{name} must be a positive int, not {value!r}")
    if algorithm not in ("pn", "alpha-beta"):
        raise ValueError(f"algorithm must be 'pn' or 'alpha-beta', not {algorithm!r}")
    memory = min(search_memory * (1 << 20), 2**64 - 1)

    def search(function, *args, **extra):
        return _progress.call(
            function,
            *args,
            **extra,
            max_positions=max_positions,
            max_moves=min(max_moves, 2**64 - 1),
            max_nodes=max_nodes,
            memory=memory,
            algorithm=algorithm,
            progress=progress,
        )

    search.algorithm = algorithm
    return search


def _explore_or_search(method, explore, search):
    """``explore()`` or ``search()`` as ``method`` says; by default the search when
    exploring passes ``max_positions``, refused with both reasons if it fails too."""
    if method == "search":
        return search()
    if method == "explore":
        return explore()
    try:
        return explore()
    except GameTooLarge as too_large:
        explored = too_large
    try:
        return search()
    except GameTooLarge as e:
        raise GameTooLarge(f"exploring: {explored}; then {e}") from e


def _solve_batched(
    start, moves_many, to_move, to_move_many, terminal, terminal_many, gain, shape,
    batch_size, max_positions, max_moves, method, search,
):
    if moves_many is None:
        raise TypeError("the batched path needs moves_many(codes): a method of the game or moves_many=...")
    for name, one, many in (
        ("to_move", to_move, to_move_many),
        ("terminal", terminal, terminal_many),
    ):
        if one is not None and many is None:
            raise TypeError(
                f"the game has {name} but no {name}_many: the batched path calls {name}_many(codes) "
                f"(or solve it with batched=False)"
            )
    if gain is not None:
        raise TypeError("a score game (gain) has no batched path: solve it with batched=False")
    if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
        raise ValueError(f"batch_size must be a positive int, not {batch_size!r}")
    codec = _Codec(shape)
    try:
        code = codec.encode(start)
    except (TypeError, ValueError) as e:
        raise GameError(f"the start position has no code: {e}") from e
    as_codes = _as_codes()

    def explore():
        coded, solved = _grundy.explore_batched(
            code, codec.size, moves_many, to_move_many, terminal_many, as_codes, codec.show,
            # No batch holds more than the positions; a bound past 2**64 - 1 is no bound.
            max_positions, min(max_moves, 2**64 - 1), min(batch_size, max_positions),
        )
        return GameTable(_CodedPositions(coded, codec), _CodedIds(coded, codec), solved, start)

    def searched():
        outcome, found, nodes, stored, table_bytes = search(
            _grundy.search_batched, code, codec.size, moves_many, to_move_many, terminal_many,
            as_codes, codec.show,
        )
        moves = [(codec.decode(c), o) for c, o in found]
        return GameSearch(
            start, outcome, moves, nodes, stored, table_bytes, False, search.algorithm
        )

    return _explore_or_search(method, explore, searched)


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
