"""OpenSpiel games solved strongly by grundy's engines, and a bot that plays from the table.

    >>> import pyspiel, grundy.openspiel
    >>> table = grundy.openspiel.solve(pyspiel.load_game("tic_tac_toe"))
    >>> len(table), table.value()
    (5478, Value(outcome='draw', remoteness=None))

``solve`` takes any two-player, zero-sum (or constant-sum), deterministic, sequential,
perfect-information game, explores every state reachable from the start (each state's
children through ``State.child``), merges transpositions by a *key*, and hands the move
graph to the library: win / loss / draw with remoteness from ``solve::label_by_degree``,
and for games whose utilities are more than win, loss and draw the utility of every
state from ``solve::minimax_graph``.

Keys. Two states may share one vertex only if everything that decides the rest of the
game is the same: the player to move, the points or returns accumulated so far, and any
rule that looks at the history. OpenSpiel's printed form (``str(state)``), which its own
value iteration keys on, is not always that: for ``dots_and_boxes`` it shows neither who
is to move nor who owns the boxes, and for ``oware`` it leaves out the boards seen since
the last capture, whose repetition ends the game. So the key is chosen per game, from
what its OpenSpiel source keeps in a state:

=================  ===================================================================
game               key (and why it is the whole state)
=================  ===================================================================
tic_tac_toe,       ``str(state)``: the board; the player to move is the parity of the
connect_four       marks, and the end depends on the board alone.
nim                ``str(state)``: the player to move and the piles.
clobber,           ``(current_player, str(state))``: the board and the mover; the end
breakthrough       (no move, a piece home, no pieces) is read off the board.
dots_and_boxes     ``(current_player, str(state))``: the string draws every line and the
                   owner of every box (so the scores) but not who is to move, which a
                   completed box decides. (The observation tensor would split states
                   by who drew each line, which does not matter.)
oware              ``(str(state), boards since the last capture)``: the string holds
                   the pits, scores and mover; the set of earlier boards since the last
                   capture (seeds never come back, so older boards cannot recur) is
                   what the repetition rule reads; the adapter carries it along.
any other game     ``state.history()``: no merging, the game is explored as a tree
                   (always sound; ``table.merged`` is False).
=================  ===================================================================

``solve(game, key=f)`` uses ``f(state)`` instead: the caller then vouches that states
with equal keys have the same future.

Too many states. A game with more than ``max_positions`` states is searched from its
start instead (``method="search"`` skips the exploration): the library's proof search
values the start and each of its actions — a weak solution, win / draw / loss without
remoteness, a :class:`SpielSearch` — merging states on the same keys, within
``max_nodes`` states visited. It searches who wins: the sign of ``r0 - r1`` at the ends,
not the size of a utility.

    >>> oware = pyspiel.load_game("oware", {"num_houses_per_player": 2, "num_seeds_per_house": 2})
    >>> searched = grundy.openspiel.solve(oware, method="search")
    >>> searched.value(), searched.weak
    (Value(outcome='win', remoteness=None), True)
"""

from array import array
from collections import deque
from dataclasses import dataclass
from typing import Callable, List, Optional

from . import _grundy
from .game import (
    MAX_MEMORY,
    MAX_NODES,
    MAX_POSITIONS,
    SEARCH_MEMORY,
    GameError,
    GameTooLarge,
    Value,
    _best_of,
    _explore_or_search,
    _memory_bytes,
    _searcher,
)

__all__ = ["solve", "SpielTable", "SpielSearch", "Bot", "KEYS"]

# Codes of the ends array (as grundy-py's Rust side reads it).
_PLAY_ON, _WIN, _LOSS, _DRAW, _STOP = 0, 1, 2, 3, 4


def _pyspiel():
    try:
        import pyspiel
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError(
            "grundy.openspiel needs OpenSpiel: pip install open_spiel (or grundy[openspiel])"
        ) from e
    return pyspiel


class _Key:
    """How states of one game are merged: ``root(state)`` and ``child(carry, state)``
    give ``(key, carry)``; ``carry`` is what a key needs from the path (oware's boards
    since the last capture), ``None`` for keys read off the state alone."""

    def __init__(self, name, describe, of_state=None, root=None, child=None, merged=True):
        self.name = name
        self.describe = describe
        self.of_state = of_state
        self.merged = merged
        self._root = root
        self._child = child

    def root(self, state):
        if self._root is None:
            return self.of_state(state), None
        return self._root(state)

    def child(self, carry, state):
        return self._child(carry, state)

    def key_of(self, game, state):
        """The key of any state of the game, replaying its history where the key needs
        the path."""
        if self.of_state is not None:
            return self.of_state(state)
        s = game.new_initial_state()
        key, carry = self.root(s)
        for action in state.history():
            s.apply_action(action)
            key, carry = self.child(carry, s)
        return key


def _board(state):
    return str(state)


def _player_board(state):
    return (state.current_player(), str(state))


def _oware_root(state):
    s = str(state)
    seen = frozenset((s,))
    return (s, seen), seen


def _oware_scores(text):
    # The lines "Player 1 score = 3 [PLAYING]" and "Player 0 score = 2": the numbers
    # only (the [PLAYING] mark moves every turn).
    return tuple(
        int(line.split("=")[1].split()[0]) for line in text.splitlines() if line.startswith("Player ")
    )


def _oware_child(seen, state):
    s = str(state)
    previous = next(iter(seen))
    if _oware_scores(s) != _oware_scores(previous):
        # A capture: the game forgets the boards before it.
        seen = frozenset((s,))
    else:
        seen = seen | {s}
    return (s, seen), seen


def _history(state):
    return tuple(state.history())


#: The audited keys by OpenSpiel short name (see the module's documentation).
KEYS = {
    "tic_tac_toe": _Key("tic_tac_toe", "str(state): the board", _board),
    "connect_four": _Key("connect_four", "str(state): the board", _board),
    "nim": _Key("nim", "str(state): the mover and the piles", _board),
    "clobber": _Key("clobber", "(current_player, str(state))", _player_board),
    "breakthrough": _Key("breakthrough", "(current_player, str(state))", _player_board),
    "dots_and_boxes": _Key(
        "dots_and_boxes", "(current_player, str(state)): lines, box owners, mover", _player_board
    ),
    "oware": _Key(
        "oware",
        "(str(state), boards since the last capture)",
        root=_oware_root,
        child=_oware_child,
    ),
}

_TREE = _Key("history", "state.history(): no merging (a tree)", _history, merged=False)


def _check_type(game, pyspiel):
    t = game.get_type()
    GT = pyspiel.GameType
    name = t.short_name
    problems = []

    def word(v):
        return v.name.lower().replace("_", " ")

    if game.num_players() != 2:
        problems.append(f"it has {game.num_players()} players, not 2")
    if t.dynamics != GT.Dynamics.SEQUENTIAL:
        problems.append(f"its dynamics are {word(t.dynamics)}, not sequential")
    if t.chance_mode != GT.ChanceMode.DETERMINISTIC:
        problems.append(f"its chance mode is {word(t.chance_mode)}, not deterministic")
    if t.information != GT.Information.PERFECT_INFORMATION:
        problems.append(
            f"its information is {word(t.information)}, not perfect information"
        )
    if t.utility not in (GT.Utility.ZERO_SUM, GT.Utility.CONSTANT_SUM):
        problems.append(f"its utility is {word(t.utility)}, not zero-sum or constant-sum")
    if problems:
        raise ValueError(
            f"grundy.openspiel solves two-player, zero-sum, deterministic, sequential, "
            f"perfect-information games; {name} is not one: " + "; ".join(problems)
        )


def _explore(game, key, max_positions, memory):
    """Every state from the start, breadth first: the arrays of the move graph; past
    ``max_positions`` states or ``memory`` bytes taken, :class:`GameTooLarge`."""
    budget = _grundy.MemoryBudget(memory)
    root = game.new_initial_state()
    k0, carry0 = key.root(root)
    ids = {k0: 0}
    queue = deque([(root, carry0)])
    offsets = array("Q", [0])
    targets = array("I")
    actions = array("q")
    ends = bytearray()
    mover = bytearray()
    finals = []  # (vertex, returns) of every end
    plain = key.of_state
    get = ids.get
    push = queue.append
    pop = queue.popleft
    add_target = targets.append
    add_action = actions.append
    while queue:
        if len(mover) % 1024 == 0:
            budget.check(len(ids))
        state, carry = pop()
        if state.is_terminal():
            finals.append((len(mover), state.returns()))
            mover.append(0)
            ends.append(_STOP)
            offsets.append(len(targets))
            continue
        player = state.current_player()
        if player not in (0, 1):
            raise GameError(f"state {state.history()} has player {player} to move")
        mover.append(player)
        ends.append(_PLAY_ON)
        for a in state.legal_actions():
            c = state.child(a)
            if plain is not None:
                k = plain(c)
                cc = None
            else:
                k, cc = key.child(carry, c)
            i = get(k)
            if i is None:
                i = len(ids)
                if i >= max_positions:
                    raise GameTooLarge(
                        f"{game} has more than {max_positions} states (max_positions); "
                        f"the last one reached is after actions {c.history()}"
                    )
                ids[k] = i
                push((c, cc))
            add_target(i)
            add_action(a)
        offsets.append(len(targets))
    return ids, offsets, targets, actions, bytes(ends), bytes(mover), finals


def _margins(finals):
    """The ends' margins ``r0 - r1`` as integers, with the power of two that makes them
    so (utilities such as 0.5 are binary fractions)."""
    margins = [r[0] - r[1] for _, r in finals]
    for scale in (1 << k for k in range(21)):
        if all(float(m * scale).is_integer() for m in margins):
            return [int(m * scale) for m in margins], scale
    raise GameError("the returns at the ends are not multiples of 2^-20; they cannot be compared exactly")


@dataclass
class SpielTable:
    """Every state of an OpenSpiel game reachable from the start, with its value."""

    game: object
    key: _Key
    _ids: dict
    _actions: array
    _offsets: array
    _labels: object
    _scores: Optional[object]
    _scale: int
    _constant: float
    _unit: float  # the largest |r0 - r1| at an end (the only one when _scores is None)

    @property
    def merged(self) -> bool:
        """Whether transpositions were merged (False: explored as a tree)."""
        return self.key.merged

    def __len__(self):
        return len(self._ids)

    def _id(self, state):
        k = self.key.key_of(self.game, state)
        try:
            return self._ids[k]
        except (KeyError, TypeError):
            raise KeyError(f"the state after {state.history()} is not in the table") from None

    def value(self, state=None) -> Value:
        """The state's value for the player to move (for player 0 at an end): win /
        loss / draw with remoteness, and ``score`` = that player's utility when the
        game's utilities are more than win, loss and draw."""
        if state is None:
            state = self.game.new_initial_state()
        v = self._id(state)
        outcome, remoteness, _ = self._labels.value(v)
        score = None
        if self._scores is not None:
            score = self._utility_of_mover(v)
        return Value(outcome, remoteness, score)

    def _utility_of_mover(self, v):
        margin = self._scores.value(v)[2] / self._scale
        return (self._constant + margin) / 2

    def returns(self, state=None) -> List[float]:
        """The game-theoretic returns ``[u0, u1]`` of the state under perfect play."""
        if state is None:
            state = self.game.new_initial_state()
        v = self._id(state)
        player = 0 if state.is_terminal() else state.current_player()
        if state.is_terminal():
            return list(state.returns())
        if self._scores is not None:
            mine = self._utility_of_mover(v)
        else:
            # One size of margin at every end: a win is worth (sum + margin) / 2, which
            # is the game's max_utility only when the ends reach it.
            outcome = self._labels.value(v)[0]
            half = self._unit / 2
            mine = {"win": self._constant / 2 + half, "loss": self._constant / 2 - half, "draw": self._constant / 2}[outcome]
        other = self._constant - mine
        return [mine, other] if player == 0 else [other, mine]

    def best_actions(self, state=None) -> List[int]:
        """The actions a perfect player may take: the fastest win, else a draw, else the
        slowest loss; with utilities, every action keeping the best utility (the fastest
        among them first)."""
        if state is None:
            state = self.game.new_initial_state()
        v = self._id(state)
        start = self._offsets[v]
        table = self._scores if self._scores is not None else self._labels
        best = table.best_moves(v)
        if self._scores is not None and len(best) > 1:
            # Among equal utilities, prefer the shortest way to a win and the longest
            # to a loss, as the labels order them.
            values = self._labels.move_values(v)
            order = {"win": 0, "draw": 1, "loss": 2}

            def rank(i):
                _, o, r, _ = values[i]
                r = r or 0
                return (order[o], r if o == "win" else -r)

            best = sorted(best, key=rank)
        return [self._actions[start + i] for i in best]

    def counts(self):
        """``{"win": …, "loss": …, "draw": …}`` states by outcome for the player to move
        (ends counted for player 0)."""
        w, l, d = self._labels.counts()
        return {"win": w, "loss": l, "draw": d}

    def __repr__(self):
        return (
            f"<SpielTable of {self.game}: {len(self)} states, key {self.key.describe}; "
            f"start {self.value()!r}>"
        )


class _Node:
    """A state as the search holds it: hashed and compared by its key, so that states with
    one key are one position; ``carry`` is what the key needs from the path."""

    __slots__ = ("state", "key", "carry", "_hash")

    def __init__(self, state, key, carry):
        self.state, self.key, self.carry = state, key, carry
        self._hash = hash(key)

    def __hash__(self):
        return self._hash

    def __eq__(self, other):
        return isinstance(other, _Node) and self.key == other.key

    def __repr__(self):
        return f"<the state after actions {self.state.history()}>"


def _search(game, key, search):
    """The start and each of its actions by the proof search, states merged by ``key``:
    ``(outcome, [(action, outcome)], nodes, stored, table_bytes)``."""
    plain = key.of_state

    def moves(node):
        state = node.state
        out = []
        for a in state.legal_actions():
            c = state.child(a)
            if plain is not None:
                out.append(_Node(c, plain(c), None))
            else:
                out.append(_Node(c, *key.child(node.carry, c)))
        return out

    def to_move(node):
        # Player 0 at an end, whose outcome is then said for player 0 (as when exploring).
        state = node.state
        return 0 if state.is_terminal() else state.current_player()

    def terminal(node):
        state = node.state
        if not state.is_terminal():
            return None
        r = state.returns()
        return "win" if r[0] > r[1] else "loss" if r[0] < r[1] else "draw"

    root = game.new_initial_state()
    outcome, found, nodes, stored, table_bytes = search(
        _grundy.search_game, _Node(root, *key.root(root)), moves, to_move, terminal, None
    )
    actions = root.legal_actions() if not root.is_terminal() else []
    return outcome, [(a, o) for a, (_, o) in zip(actions, found)], nodes, stored, table_bytes


@dataclass
class SpielSearch:
    """The start of an OpenSpiel game and each of its actions, valued by the proof search
    instead of exploring every state: a weak solution — win, draw or loss for the player
    to move (by the sign of ``r0 - r1`` at the ends; a utility's size is not searched),
    without remoteness — of the start alone. ``nodes``: states the search visited, repeats
    counted."""

    game: object
    key: _Key
    outcome: str
    _actions: List
    nodes: int
    stored: int
    table_bytes: int
    algorithm: str
    weak = True
    method = "search"

    @property
    def merged(self) -> bool:
        """Whether transpositions were merged (False: searched as a tree)."""
        return self.key.merged

    def _check(self, state):
        if state is not None and list(state.history()):
            raise KeyError(
                f"the state after {state.history()} is not the start: a search values the start "
                f"and its actions only"
            )

    def value(self, state=None) -> Value:
        """The start's value for the player to move (``state``, if given, must be the
        start)."""
        self._check(state)
        return Value(self.outcome, None)

    def action_values(self, state=None):
        """``{action: value}`` of the start's actions, each for the player taking it."""
        self._check(state)
        return {a: Value(o, None) for a, o in self._actions}

    def best_actions(self, state=None) -> List[int]:
        """The start's actions that win, else those that draw, else every action (a search
        does not tell a fast win from a slow one)."""
        self._check(state)
        return _best_of(self._actions)

    def __repr__(self):
        return (
            f"<SpielSearch of {self.game}: start {self.outcome} (weak, {self.nodes} nodes "
            f"searched), key {self.key.describe}>"
        )


def solve(
    game,
    *,
    key: Optional[Callable] = None,
    max_positions: int = MAX_POSITIONS,
    max_memory: int = MAX_MEMORY,
    method: Optional[str] = None,
    max_nodes: int = MAX_NODES,
    search_memory: int = SEARCH_MEMORY,
    algorithm: str = "pn",
    progress=None,
):
    """Solves an OpenSpiel game strongly: every state reachable from the start; or, when
    there are more than ``max_positions``, weakly, by the proof search from the start.

    ``game`` is a ``pyspiel.Game`` (or a name such as ``"tic_tac_toe"``). Games of
    another type are refused with a ``ValueError`` naming the property. ``key``, if
    given, merges states by ``key(state)`` (you vouch for it); else the audited key of
    :data:`KEYS`, or none (a tree). Returns a :class:`SpielTable`.

    ``method`` as :func:`grundy.solve_game`'s: ``None`` explores and searches past
    ``max_positions`` states or ``max_memory`` MiB taken exploring (OpenSpiel's states
    are large: an ``oware`` of 2 pits of 3 seeds passes 1 GiB long before 2 million
    states), ``"explore"`` or ``"search"`` only one way. A search (within
    ``max_nodes`` states visited, ``search_memory`` MiB of table, ``algorithm="pn"`` or
    ``"alpha-beta"``, ``progress``) returns a :class:`SpielSearch`. Past the limits:
    :class:`grundy.GameTooLarge`."""
    pyspiel = _pyspiel()
    if isinstance(game, str):
        game = pyspiel.load_game(game)
    _check_type(game, pyspiel)
    if key is not None:
        k = _Key("custom", f"{getattr(key, '__name__', 'key')}(state), as given", key)
    else:
        k = KEYS.get(game.get_type().short_name, _TREE)
    if method not in (None, "explore", "search"):
        raise ValueError(f"method must be None, 'explore' or 'search', not {method!r}")
    search = _searcher(max_nodes, search_memory, algorithm, progress, max_positions, 2**64 - 1)
    memory = _memory_bytes(max_memory)

    def searched():
        outcome, actions, nodes, stored, table_bytes = _search(game, k, search)
        return SpielSearch(game, k, outcome, actions, nodes, stored, table_bytes, algorithm)

    return _explore_or_search(
        method, lambda: _table(game, k, max_positions, memory, pyspiel), searched
    )


def _table(game, k, max_positions, memory, pyspiel) -> SpielTable:
    """Every state explored, then labelled (and scored where utilities are more than win,
    loss and draw)."""
    ids, offsets, targets, actions, ends, mover, finals = _explore(game, k, max_positions, memory)
    t = game.get_type()
    constant = 0.0
    if t.utility == pyspiel.GameType.Utility.CONSTANT_SUM:
        constant = game.utility_sum()
    margins, scale = _margins(finals)
    # Win / loss / draw for player 0 (the convention at ends) by the margin's sign.
    codes = bytearray(ends)
    for (v, _), m in zip(finals, margins):
        codes[v] = _WIN if m > 0 else _LOSS if m < 0 else _DRAW
    o, tg, mv = offsets.tobytes(), targets.tobytes(), mover
    labels = _grundy.solve_graph(o, tg, bytes(codes), mv)
    scores = None
    if len({abs(m) for m in margins if m}) > 1:
        stops = array("q", bytes(8 * len(mover)))
        for (v, _), m in zip(finals, margins):
            stops[v] = m
        gains = array("q", bytes(8 * len(targets)))
        scores = _grundy.solve_graph(o, tg, ends, mv, stops.tobytes(), gains.tobytes())
    unit = max((abs(m) for m in margins), default=0) / scale
    return SpielTable(game, k, ids, actions, offsets, labels, scores, scale, constant, unit)


def _make_bot():
    pyspiel = _pyspiel()

    class Bot(pyspiel.Bot):
        """A ``pyspiel.Bot`` that plays perfectly from a solved table: the fastest win,
        else a draw, else the slowest loss (ties broken by ``seed``, or the first
        action). ``Bot(game)`` solves the game first; ``Bot(game, table=t)`` reuses a
        table."""

        def __init__(self, game, table=None, seed=None, **solve_options):
            pyspiel.Bot.__init__(self)
            self._table = table if table is not None else solve(game, **solve_options)
            if getattr(self._table, "weak", False):
                raise ValueError(
                    "a Bot plays from a table of every state; a search values the start only "
                    "(solve with method='explore', within max_positions)"
                )
            import random

            self._rng = random.Random(seed) if seed is not None else None

        @property
        def table(self):
            return self._table

        def step(self, state):
            best = self._table.best_actions(state)
            if self._rng is not None:
                return self._rng.choice(best)
            return best[0]

        def step_with_policy(self, state):
            best = self._table.best_actions(state)
            policy = [(a, (1.0 / len(best)) if a in best else 0.0) for a in state.legal_actions()]
            return policy, self.step(state)

        def provides_policy(self):
            return True

        def restart_at(self, state):
            pass

        def inform_action(self, state, player_id, action):
            pass

    return Bot


_BOT = None


def __getattr__(name):
    # `Bot` subclasses pyspiel.Bot, so it is made on first use: importing grundy.openspiel
    # does not import OpenSpiel.
    global _BOT
    if name == "Bot":
        if _BOT is None:
            _BOT = _make_bot()
        return _BOT
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
