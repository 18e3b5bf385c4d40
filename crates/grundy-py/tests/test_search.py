"""Games defined in Python searched from their start (the library's proof search) instead
of explored: against exploring the same games, on random games with cycles, declared ends,
moves that keep the turn, points; the fallback past max_positions; budgets, bugs, Ctrl-C
and progress."""

import os
import random
import signal
import subprocess
import sys

import pytest

import grundy
from grundy import GameError, GameSearch, GameTable, GameTooLarge, solve_game

ALGORITHMS = ["pn", "alpha-beta"]


class Graph(grundy.Game):
    """A random game on `n` positions, each a fresh tuple ("p", v) at every call (so the
    search must match positions by equality, not identity): up to `degree` moves each
    (cycles allowed or not), some ends declared, movers given (moves may keep the turn) or
    alternating."""

    def __init__(self, seed, n, *, cyclic, declared, partizan, degree=3):
        rng = random.Random(seed)
        self.start = ("p", 0)
        self.edges = []
        for v in range(n):
            if cyclic:
                targets = [rng.randrange(n) for _ in range(rng.randrange(degree + 1))]
            else:
                targets = [rng.randrange(v + 1, n) for _ in range(rng.randrange(degree + 1)) if v + 1 < n]
            self.edges.append(targets)
        self.ends = {}
        if declared:
            for v in rng.sample(range(n), n // 8):
                self.ends[v] = rng.choice(["win", "loss", "draw"])
        self.movers = [rng.randrange(2) for _ in range(n)] if partizan else None
        if not declared:
            self.terminal = None
        if not partizan:
            self.to_move = None

    def moves(self, p):
        return [("p", w) for w in self.edges[p[1]]]

    def terminal(self, p):
        return self.ends.get(p[1])

    def to_move(self, p):
        return self.movers[p[1]]


def outcomes(result):
    """The start's outcome and its moves' (for the player making each), as plain data."""
    return result.outcome, [(c, v.outcome) for c, v in result.moves()]


def check_searched(game, **options):
    explored = solve_game(game, method="explore")
    assert isinstance(explored, GameTable)
    for algorithm in ALGORITHMS:
        searched = solve_game(game, method="search", algorithm=algorithm, max_nodes=10**7, **options)
        assert isinstance(searched, GameSearch)
        assert searched.weak and searched.remoteness is None and searched.nodes >= 1
        assert outcomes(searched) == outcomes(explored), algorithm
        assert all(v.remoteness is None for _, v in searched.moves())
    return searched


@pytest.mark.parametrize("cyclic", [False, True])
@pytest.mark.parametrize("partizan", [False, True])
def test_random_games_are_searched_as_explored(cyclic, partizan):
    draws = 0
    for seed in range(60):
        game = Graph(seed, 40 + seed, cyclic=cyclic, declared=seed % 2 == 0, partizan=partizan)
        searched = check_searched(game)
        draws += searched.outcome == "draw"
    if cyclic:
        assert draws > 0  # the cycles gave draws, which the search found


def test_past_max_positions_the_game_is_searched_and_right():
    # Explored within a large limit, then searched because the limit is small: the same
    # outcomes. The small limit also bounds the positions the search keeps, so it forgets
    # and asks moves again.
    large = 0
    for seed in range(100):
        game = Graph(1000 + seed, 300, cyclic=seed % 2 == 0, declared=True, partizan=seed % 3 == 0)
        explored = solve_game(game)
        assert isinstance(explored, GameTable)
        if len(explored) <= 20:
            continue  # a start without moves, or few
        large, big = large + 1, game
        searched = solve_game(game, max_positions=20, max_nodes=10**7)
        assert isinstance(searched, GameSearch), seed
        assert outcomes(searched) == outcomes(explored), seed
    assert large >= 30
    with pytest.raises(GameTooLarge, match="more than 20 positions"):
        solve_game(big, max_positions=20, method="explore")


HEAVY = """
import grundy
from grundy import GameSearch, GameTable, GameTooLarge, solve_game

class Heavy:
    start = (0, b"")

    def moves(self, p):
        if p[0] > 0:
            return []
        return [(i, bytes([i % 251]) * (64 << 10)) for i in range(1, 3001)]

import sys

case = sys.argv[1]
try:
    if case == "explore":
        solve_game(Heavy(), max_memory=32, method="explore")
        print("explored")
    elif case == "default":
        searched = solve_game(Heavy(), max_memory=32)
        print(type(searched).__name__, searched.outcome)
    elif case == "large":
        print(type(solve_game(Heavy(), max_memory=1024)).__name__)
    else:
        solve_game(Heavy(), max_memory=0)
except GameTooLarge as e:
    print("refused:", e)
except ValueError as e:
    print("bad:", e)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="resident memory is read on Linux")
def test_exploring_past_max_memory_is_refused_and_searched_by_default():
    # 3000 positions of 64 KiB each (about 190 MiB) from a start that wins by moving to
    # any of them (each has no move): past max_memory=32 MiB exploring stops, the
    # default then searches, which answers from the first child. Each case in a fresh
    # process: the memory is measured as the process's resident memory grown, and memory
    # a process freed and kept (an exploration refused just before) would hide the growth.
    def run(case):
        return subprocess.run(
            [sys.executable, "-c", HEAVY, case],
            capture_output=True, text=True, timeout=120, check=True,
        ).stdout.strip()

    assert run("explore").startswith("refused: exploring took more than 32 MiB (max_memory) at ")
    assert run("default") == "GameSearch win"
    assert run("large") == "GameTable"
    assert run("zero").startswith("bad: max_memory must be a positive int")


def test_a_search_keeps_moves_and_forgets_past_max_positions():
    # A tree of 3^8 leaves, all draws (so every position is searched), with transpositions
    # (a position counts each kind of move made).
    calls = []

    def moves(p):
        calls.append(p)
        return [p[:i] + (p[i] + 1,) + p[i + 1 :] for i in range(3)]

    def terminal(p):
        return "draw" if sum(p) == 8 else None

    want = solve_game(start=(0, 0, 0), moves=moves, terminal=terminal)
    for algorithm in ALGORITHMS:
        calls.clear()
        roomy = solve_game(start=(0, 0, 0), moves=moves, terminal=terminal, method="search", algorithm=algorithm)
        # Each position's moves asked once: kept after.
        assert len(calls) == len(set(calls)) and outcomes(roomy) == outcomes(want)
        calls.clear()
        tight = solve_game(
            start=(0, 0, 0), moves=moves, terminal=terminal, method="search", algorithm=algorithm,
            max_positions=3,
        )
        assert len(calls) > len(set(calls)), algorithm  # forgotten, and asked again
        assert outcomes(tight) == outcomes(want)


def test_a_game_that_cannot_be_explored_is_searched():
    # 1 or 2 steps toward 500; who reaches it wins. Explored it is 501 positions; searched
    # with room for 50.
    class Race(grundy.Game):
        start = 0

        def moves(self, n):
            return [m for m in (n + 1, n + 2) if m <= 500]

    searched = solve_game(Race(), max_positions=50, max_nodes=10**6)
    assert isinstance(searched, GameSearch)
    assert (searched.outcome, searched.winning_moves(), searched.best_moves()) == ("win", [2], [2])
    assert searched.value() == grundy.Value("win", None) and searched.value(0) == searched.value()
    assert searched.to_dict() == {
        "outcome": "win",
        "remoteness": None,
        "winning_moves": ["2"],
        "moves": [
            {"position": "1", "outcome": "loss", "remoteness": None},
            {"position": "2", "outcome": "win", "remoteness": None},
        ],
        "weak": True,
        "method": "search",
        "nodes": searched.nodes,
    }
    with pytest.raises(KeyError, match="not the start"):
        searched.value(3)
    with pytest.raises(ValueError, match="no Grundy values"):
        searched.grundy()
    assert "weak" in repr(searched)


def random_score_game(seed, n):
    """An acyclic score game: gains on moves, points at some ends, some moves keep the
    turn, some positions without moves (ending with the points so far)."""
    rng = random.Random(seed)
    edges = [
        [(rng.randrange(v + 1, n), rng.randrange(-3, 4)) for _ in range(rng.randrange(4))] if v + 1 < n else []
        for v in range(n)
    ]
    stops = {v: rng.randrange(-2, 3) for v in rng.sample(range(n), n // 6)}
    movers = [rng.randrange(2) for _ in range(n)]
    keep = seed % 2 == 0

    class Score(grundy.Game):
        start = 0

        def moves(self, v):
            return [w for w, _ in edges[v]]

        def gain(self, v, w):
            return next(g for x, g in edges[v] if x == w)

        def terminal(self, v):
            return stops.get(v)

        if keep:

            def to_move(self, v):
                return movers[v]

    return Score()


def test_score_games_are_searched_for_the_sign_of_the_margin():
    wins = losses = draws = 0
    for seed in range(60):
        game = random_score_game(seed, 30 + seed)
        explored = solve_game(game, method="explore")
        assert explored.is_score
        for algorithm in ALGORITHMS:
            searched = solve_game(game, method="search", algorithm=algorithm, max_nodes=10**7)
            assert searched.is_score and searched.value().score is None
            # The table's outcome is the margin's sign; the search's must be the same.
            assert outcomes(searched) == outcomes(explored), (seed, algorithm)
        wins += explored.outcome == "win"
        losses += explored.outcome == "loss"
        draws += explored.outcome == "draw"
    assert wins and losses and draws
    # A start without moves ends at once, with no points.
    assert solve_game(start=0, moves=lambda n: [], gain=lambda a, b: 1, method="search").outcome == "draw"


def test_a_score_game_that_repeats_is_refused():
    with pytest.raises(GameError, match="must not repeat positions"):
        solve_game(start=0, moves=lambda n: [1 - n], gain=lambda a, b: 0, method="search")
    # Explored, the same game is refused as a cycle.
    with pytest.raises(GameError, match="cycle"):
        solve_game(start=0, moves=lambda n: [1 - n], gain=lambda a, b: 0, method="explore")


def test_batched_games_are_searched_as_explored():
    np = pytest.importorskip("numpy")
    for seed in range(30):
        rng = random.Random(seed)
        n = 50 + seed
        lists = [[rng.randrange(n) for _ in range(rng.randrange(4))] for _ in range(n)]
        ends = np.array([rng.choice([0, 0, 0, 1, 2, 3]) for _ in range(n)], dtype=np.int64)
        movers = np.array([rng.randrange(2) for _ in range(n)], dtype=np.int64)

        def moves_many(codes, lists=lists):
            kids = [lists[c] for c in codes.tolist()]
            offsets = np.concatenate(([0], np.cumsum([len(k) for k in kids]))).astype(np.int64)
            return offsets, np.array([c for k in kids for c in k], dtype=np.int64)

        options = dict(start=0, moves_many=moves_many, terminal_many=lambda codes, e=ends: e[codes])
        if seed % 2:
            options["to_move_many"] = lambda codes, m=movers: m[codes]
        explored = solve_game(**options, method="explore")
        for algorithm in ALGORITHMS:
            searched = solve_game(**options, method="search", algorithm=algorithm, max_nodes=10**7)
            assert outcomes(searched) == outcomes(explored), (seed, algorithm)
        # Past max_positions, searched.
        assert outcomes(solve_game(**options, max_positions=5, max_nodes=10**7)) == outcomes(explored)
    with pytest.raises(GameError, match=r"moves_many gave 9 as a move of \(0,\): codes run from 0 to 3"):
        solve_game(start=(0,), shape=(4,), moves_many=lambda c: (np.array([0, 1]), np.array([9])), method="search")


def test_budgets_are_refused_with_the_limits():
    tree = long_search()
    with pytest.raises(GameTooLarge, match=r"without an answer \(limit 10\)"):
        solve_game(**{**tree, "max_nodes": 10})
    # By default: explored first, then searched; the refusal gives both reasons.
    del tree["method"]
    with pytest.raises(GameTooLarge) as e:
        solve_game(**{**tree, "max_nodes": 10}, max_positions=30)
    assert "more than 30 positions (max_positions)" in str(e.value)
    assert "without an answer (limit 10)" in str(e.value)
    # An endless line is too deep to search.
    with pytest.raises(GameTooLarge, match="deeper than 1000 moves"):
        solve_game(start=0, moves=lambda n: [n + 1], method="search")
    for bad in (
        dict(method="guess"),
        dict(method="search", max_nodes=0),
        dict(method="search", search_memory=0),
        dict(method="search", algorithm="mcts"),
    ):
        with pytest.raises(ValueError):
            solve_game(**{**tree, **bad})


def test_bugs_met_while_searching_name_the_position():
    def moves(n):
        if n == 3:
            raise ZeroDivisionError("oops")
        return [n + 1]

    with pytest.raises(GameError, match=r"moves\(3\) raised ZeroDivisionError: oops") as e:
        solve_game(start=0, moves=moves, method="search")
    assert isinstance(e.value.__cause__, ZeroDivisionError)
    with pytest.raises(GameError, match=r"a move of 0 leads to \[1\], which cannot be a dict key"):
        solve_game(start=0, moves=lambda n: [[1]], method="search")
    with pytest.raises(GameError, match=r"to_move\(1\) returned 2"):
        solve_game(start=0, moves=lambda n: [1], to_move=lambda n: 2 * n, method="search")
    with pytest.raises(GameError, match=r"terminal\(1\) returned 'won'"):
        solve_game(start=0, moves=lambda n: [1], terminal=lambda n: "won" if n else None, method="search")
    with pytest.raises(GameError, match=r"gain\(0, 1\) returned 'x'"):
        solve_game(start=0, moves=lambda n: [1] if n == 0 else [], gain=lambda a, b: "x", method="search")

    class Bad:
        def __hash__(self):
            return 1

        def __eq__(self, other):
            raise RuntimeError("cannot compare")

        def __repr__(self):
            return "Bad()"

    with pytest.raises(GameError, match=r"comparing Bad\(\) with a position of the same hash"):
        solve_game(start=0, moves=lambda n: [Bad(), Bad()] if n == 0 else [], method="search")


def long_search():
    """A game whose search takes long: a binary tree 40 deep, every leaf a draw."""
    return dict(
        start=(),
        moves=lambda p: [] if len(p) == 40 else [p + (0,), p + (1,)],
        terminal=lambda p: "draw" if len(p) == 40 else None,
        method="search",
        max_nodes=10**12,
    )


def test_progress_is_reported_and_its_errors_stop_the_search():
    seen = []

    with pytest.raises(GameTooLarge):
        solve_game(**{**long_search(), "max_nodes": 40_000}, progress=lambda stage, done: seen.append((stage, done)))
    # The stage names the root's move being valued ("search, move 1 of 2"), as the
    # library's proof search reports it; the nodes counted grow within a stage.
    assert seen and all(stage == "search" or stage.startswith("search, move ") for stage, _ in seen)
    for stage in {stage for stage, _ in seen}:
        done = [d for s, d in seen if s == stage]
        assert done == sorted(done), stage

    def stop(stage, done):
        raise RuntimeError("stop here")

    with pytest.raises(RuntimeError, match="stop here"):
        solve_game(**long_search(), progress=stop)


def test_ctrl_c_stops_a_long_search():
    # As test_games' exploration test: SIGINT from another process a moment later.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    sender = subprocess.Popen(["sh", "-c", f"sleep 0.3; kill -INT {os.getpid()}"])
    try:
        with pytest.raises(KeyboardInterrupt):
            solve_game(**long_search())
    finally:
        sender.kill()
        sender.wait()
        signal.signal(signal.SIGINT, previous)


def test_priority_orders_the_search():
    # Random acyclic games searched with their moves ordered by a priority that knows the
    # answer (moves to positions lost for the opponent first) and by one that knows it
    # backwards: the same outcomes as exploring, and the good order visits fewer nodes.
    totals = {True: 0, False: 0}
    for seed in range(30):
        game = Graph(seed, 200, cyclic=False, declared=False, partizan=False, degree=4)
        explored = solve_game(game, method="explore")
        lost = {p for p in explored.positions if explored.value(p).outcome == "loss"}
        for good in (True, False):
            searched = solve_game(
                game,
                method="search",
                algorithm="alpha-beta",
                priority=lambda p, child, good=good: int((child in lost) == good),
            )
            assert outcomes(searched) == outcomes(explored)
            totals[good] += searched.nodes
    assert totals[True] < totals[False], totals
    # The game's own method is found as the other methods are.
    class Ordered(Graph):
        def priority(self, p, child):
            return -child[1]

    game = Ordered(3, 60, cyclic=True, declared=True, partizan=False)
    assert outcomes(solve_game(game, method="search")) == outcomes(solve_game(game, method="explore"))


def test_a_bad_priority_names_the_move():
    with pytest.raises(GameError, match=r"priority\(0, 1\) raised ZeroDivisionError"):
        solve_game(start=0, moves=lambda n: [1, 2] if n == 0 else [], priority=lambda p, c: 1 // 0, method="search")
    with pytest.raises(GameError, match=r"priority\(0, 1\) returned 'x': it must return an int"):
        solve_game(start=0, moves=lambda n: [1, 2] if n == 0 else [], priority=lambda p, c: "x", method="search")
    with pytest.raises(ValueError, match="batched=False"):
        solve_game(start=0, moves_many=lambda codes: None, priority=lambda p, c: 0, method="search")
