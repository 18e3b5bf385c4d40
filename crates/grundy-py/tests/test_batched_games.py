"""The batched path (moves_many on arrays of codes) against the plain path, the built-in
catalog and a brute-force labelling; and every way a batched game can be wrong."""

import array
import os
import random
import signal
import subprocess
import sys

import pytest

import grundy
from grundy import GameError, solve_game
from grundy.game import DRAW, LOSS, PLAY_ON, WIN

np = pytest.importorskip("numpy")


def builtin(spec):
    report = grundy.solve(spec)
    return report.to_dict() if hasattr(report, "to_dict") else report


def csr(lists):
    """(offsets, children) of a list of lists of codes."""
    offsets = np.zeros(len(lists) + 1, dtype=np.int64)
    np.cumsum([len(c) for c in lists], out=offsets[1:])
    children = np.array([c for cs in lists for c in cs], dtype=np.int64)
    return offsets, children


def same_table(a, b):
    """Two tables of one game agree on everything: positions in order, values, moves."""
    assert len(a) == len(b)
    assert list(a) == list(b)
    assert a.counts() == b.counts()
    assert a.has_grundy == b.has_grundy
    for p in b:
        assert p in a
        assert a.value(p) == b.value(p), p
        assert a.moves(p) == b.moves(p), p
        assert a.best_moves(p) == b.best_moves(p), p
        if b.has_grundy:
            assert a.grundy(p) == b.grundy(p), p


class FibonacciNim(grundy.Game):
    """(stones, most the next move may take), coded by the shape (n + 1, n); the plain
    `moves` and the batched `moves_many` side by side."""

    def __init__(self, n):
        self.start = (n, n - 1)
        self.shape = (n + 1, n)

    def moves(self, position):
        m, limit = position
        return [(m - k, min(m - k, 2 * k)) for k in range(1, min(m, limit) + 1)]

    def moves_many(self, codes):
        m, limit = np.divmod(codes, self.shape[1])
        counts = np.minimum(m, limit)
        offsets = np.zeros(len(codes) + 1, dtype=np.int64)
        np.cumsum(counts, out=offsets[1:])
        k = np.arange(1, offsets[-1] + 1) - np.repeat(offsets[:-1], counts)
        left = np.repeat(m, counts) - k
        return offsets, left * self.shape[1] + np.minimum(left, 2 * k)


class Subtraction(grundy.Game):
    """Positions are the ints themselves (no shape)."""

    def __init__(self, takes, n):
        self.takes, self.start = np.array(takes), n

    def moves(self, n):
        return [n - int(k) for k in self.takes if k <= n]

    def moves_many(self, codes):
        ok = codes[:, None] >= self.takes
        offsets = np.concatenate(([0], np.cumsum(ok.sum(axis=1))))
        return offsets, (codes[:, None] - self.takes)[ok]


class Nim(grundy.Game):
    """Heaps as a tuple, coded by the shape (h + 1 for each heap h of the start); moves
    in the catalog's order: heap by heap, taking 1 first."""

    def __init__(self, heaps):
        self.start = tuple(heaps)
        self.shape = tuple(h + 1 for h in heaps)
        self.strides = np.array(
            [int(np.prod(self.shape[i + 1 :])) for i in range(len(heaps))], dtype=np.int64
        )

    def moves(self, heaps):
        for i, h in enumerate(heaps):
            for k in range(h - 1, -1, -1):
                yield heaps[:i] + (k,) + heaps[i + 1 :]

    def moves_many(self, codes):
        h = np.stack(np.unravel_index(codes, self.shape), axis=1)
        counts = h.sum(axis=1)
        offsets = np.concatenate(([0], np.cumsum(counts)))
        j = np.repeat(np.arange(len(codes)), counts)  # the position of each move
        r = np.arange(offsets[-1]) - offsets[j]  # the move's place among its position's
        cum = np.cumsum(h, axis=1)[j]
        i = (r[:, None] >= cum).sum(axis=1)  # the heap it takes from
        taken = r - (cum[np.arange(len(j)), i] - h[j, i]) + 1
        return offsets, codes[j] - taken * self.strides[i]


def nim_spec(heaps):
    return "nim(" + ",".join(map(str, heaps)) + ")"


# -- the same tables as the plain path and the built-ins -----------------------------


@pytest.mark.parametrize("batch_size", [1, 3, 64, grundy.game.BATCH_SIZE])
def test_fibonacci_nim_equals_the_plain_path_and_the_builtin(batch_size):
    for n in range(2, 41):
        fast = solve_game(FibonacciNim(n), batch_size=batch_size)
        plain = solve_game(FibonacciNim(n), batched=False)
        same_table(fast, plain)
        want = builtin(f"fibonacci({n})")
        assert (fast.outcome, fast.remoteness, fast.grundy(), len(fast)) == (
            want["outcome"],
            want["remoteness"],
            want["grundy"],
            want["positions"],
        ), n


def test_a_larger_fibonacci_nim():
    n = 300
    fast = solve_game(FibonacciNim(n))
    same_table(fast, solve_game(FibonacciNim(n), batched=False))
    want = builtin(f"fibonacci({n})")
    assert (fast.outcome, fast.remoteness, len(fast)) == (
        want["outcome"],
        want["remoteness"],
        want["positions"],
    )


@pytest.mark.parametrize("takes", [(1, 2), (1, 3, 4), (2, 5, 7), (1, 4, 9)])
def test_subtraction_equals_the_plain_path_and_the_builtin(takes):
    for n in range(0, 40):
        spec = f"subtraction[{','.join(map(str, takes))}]({n})"
        want = builtin(spec)
        fast = solve_game(Subtraction(takes, n), batch_size=5)
        same_table(fast, solve_game(Subtraction(takes, n), batched=False))
        assert (fast.outcome, fast.remoteness, fast.grundy()) == (
            want["outcome"],
            want["remoteness"],
            want["grundy"],
        ), spec
        got = [f"subtraction[{','.join(map(str, takes))}]({c})" for c in fast.winning_moves()]
        assert got == want["winning_moves"], spec


@pytest.mark.parametrize("heaps", [(1,), (3, 4, 5), (2, 2), (1, 2, 3), (4, 0, 7), (6, 5, 3, 1)])
def test_nim_equals_the_plain_path_and_the_builtin(heaps):
    fast = solve_game(Nim(heaps), batch_size=7)
    same_table(fast, solve_game(Nim(heaps), batched=False))
    want = builtin(nim_spec(heaps))
    assert (fast.outcome, fast.remoteness, fast.grundy()) == (
        want["outcome"],
        want["remoteness"],
        want["grundy"],
    )
    assert [nim_spec(c) for c in fast.winning_moves()] == want["winning_moves"]
    got = [(nim_spec(c), v.outcome, v.remoteness) for c, v in fast.moves()]
    assert got == [(m["spec"], m["outcome"], m["remoteness"]) for m in want["moves"]]
    for position in fast:
        g = 0
        for h in position:
            g ^= h
        assert fast.grundy(position) == g


def test_patterns_of_a_batched_family():
    fib = grundy.pattern_game(FibonacciNim, range(2, 90))
    assert fib.kind == "recurrence"
    assert fib.p_positions == [2, 3, 5, 8, 13, 21, 34, 55, 89]


def test_a_partizan_race_with_to_move_many_and_terminal_many():
    # A race to 10: each adds 1 or 2; whoever reaches 10 wins. (total, player), shape (11, 2).
    class Race(grundy.Game):
        start = (0, 0)
        shape = (11, 2)

        def moves(self, p):
            total, player = p
            return [(total + k, 1 - player) for k in (1, 2) if total + k <= 10]

        def terminal(self, p):
            return "loss" if p[0] == 10 else None

        def to_move(self, p):
            return p[1]

        def moves_many(self, codes):
            assert not np.any(codes // 2 == 10), "a declared end is passed to moves_many"
            total, player = np.divmod(codes, 2)
            lists = [
                [(t + k) * 2 + (1 - p) for k in (1, 2) if t + k <= 10]
                for t, p in zip(total.tolist(), player.tolist())
            ]
            return csr(lists)

        def terminal_many(self, codes):
            return np.where(codes // 2 == 10, LOSS, PLAY_ON).astype(np.int8)

        def to_move_many(self, codes):
            return (codes % 2).astype(np.uint8)

    fast = solve_game(Race(), batch_size=2)
    same_table(fast, solve_game(Race(), batched=False))
    assert fast.outcome == "win" and fast.best_moves() == [(1, 1)]
    with pytest.raises(ValueError, match="impartial"):
        fast.grundy()


def reference_labels(n, adj, mover, ends):
    """Brute force: win/loss/draw of each vertex for its mover by iterating to a fixed
    point (a move to a child with the same mover keeps the child's value, otherwise it is
    flipped; no move and no declared end is a loss; unresolved is a draw)."""
    flip = {"win": "loss", "loss": "win", "draw": "draw"}
    value = [ends[v] for v in range(n)]
    changed = True
    while changed:
        changed = False
        for v in range(n):
            if value[v] is not None:
                continue
            seen = []
            for c in adj[v]:
                x = value[c]
                seen.append(None if x is None else x if mover[c] == mover[v] else flip[x])
            if "win" in seen:
                value[v] = "win"
            elif all(x == "loss" for x in seen):
                value[v] = "loss"
            else:
                continue
            changed = True
    return [x or "draw" for x in value]


def test_random_graphs_against_the_plain_path_and_brute_force():
    rng = random.Random(1313)
    words = {0: None, WIN: "win", LOSS: "loss", DRAW: "draw"}
    for case in range(300):
        n = rng.randint(1, 14)
        adj = [[rng.randrange(n) for _ in range(rng.randint(0, 3))] for _ in range(n)]
        partizan = case % 3 == 0
        mover = [rng.randint(0, 1) if partizan else 0 for _ in range(n)]
        end = [rng.choice([0, 0, 0, WIN, LOSS, DRAW]) if partizan else 0 for _ in range(n)]
        start = rng.randrange(n)

        plain = dict(
            start=start,
            moves=adj.__getitem__,
            to_move=mover.__getitem__ if partizan else None,
            terminal=(lambda v: words[end[v]]) if partizan else None,
        )
        fast = dict(
            start=start,
            moves_many=lambda codes: csr([adj[c] for c in codes.tolist()]),
            to_move_many=(lambda codes: np.array([mover[c] for c in codes])) if partizan else None,
            terminal_many=(lambda codes: np.array([end[c] for c in codes])) if partizan else None,
            batch_size=rng.randint(1, 5),
        )
        a, b = solve_game(**fast), solve_game(**plain)
        same_table(a, b)
        # Brute force on the whole graph, read at the reachable vertices. Without
        # `to_move` play alternates: every move hands the turn over.
        if partizan:
            want = reference_labels(n, adj, mover, [words[e] for e in end])
        else:
            want = reference_labels_alternating(n, adj)
        for v in a:
            assert a.value(v).outcome == want[v], (case, v)


def reference_labels_alternating(n, adj):
    """Brute force for alternating play: a win if some move reaches a loss, a loss if
    every move reaches a win (no move included), else a draw."""
    value = [None] * n
    changed = True
    while changed:
        changed = False
        for v in range(n):
            if value[v] is None:
                seen = [value[c] for c in adj[v]]
                if "loss" in seen:
                    value[v] = "win"
                elif all(x == "win" for x in seen):
                    value[v] = "loss"
                else:
                    continue
                changed = True
    return [x or "draw" for x in value]


def test_any_buffer_of_integers_and_any_integer_dtype():
    # array.array, NumPy arrays of narrow and big-endian dtypes, and a strided view.
    takes = (1, 3, 4)

    def lists(codes):
        return [[c - k for k in takes if k <= c] for c in codes]

    def as_array(codes):
        offsets, children = csr(lists(codes.tolist()))
        return array.array("q", offsets.tolist()), array.array("B", children.tolist())

    def narrow(codes):
        offsets, children = csr(lists(codes.tolist()))
        return offsets.astype(np.uint16), children.astype(np.int8)

    def big_endian(codes):
        offsets, children = csr(lists(codes.tolist()))
        return offsets.astype(">i8"), children.astype(">u4")

    def strided(codes):
        offsets, children = csr(lists(codes.tolist()))
        return np.repeat(offsets, 2)[::2], np.repeat(children, 3)[::3]

    want = solve_game(Subtraction(takes, 60), batched=False)
    for moves_many in (as_array, narrow, big_endian, strided):
        same_table(solve_game(start=60, moves_many=moves_many, batch_size=4), want)


def test_without_numpy_the_codes_come_as_an_array(monkeypatch):
    monkeypatch.setitem(sys.modules, "numpy", None)  # `import numpy` now fails
    seen = set()

    def moves_many(codes):
        seen.add(type(codes))
        lists = [[c - k for k in (1, 3, 4) if k <= c] for c in codes]
        offsets = [0]
        for children in lists:
            offsets.append(offsets[-1] + len(children))
        return array.array("q", offsets), array.array("q", [c for cs in lists for c in cs])

    table = solve_game(start=30, moves_many=moves_many, batch_size=4, max_moves=2**70)
    assert seen == {array.array}
    same_table(table, solve_game(Subtraction((1, 3, 4), 30), batched=False))


def test_cycles_are_draws_and_table_lookups():
    # 0 -> 1 -> 2 -> 0, and 2 -> 3 (no move): 2 wins, 1 loses, 0 wins.
    adj = {0: [1], 1: [2], 2: [0, 3], 3: []}
    table = solve_game(start=0, moves_many=lambda codes: csr([adj[c] for c in codes.tolist()]))
    assert [table.value(v).outcome for v in range(4)] == ["win", "loss", "win", "loss"]
    loop = solve_game(start=5, moves_many=lambda codes: csr([[c] for c in codes.tolist()]))
    assert loop.outcome == "draw"
    with pytest.raises(ValueError, match="cycle"):
        loop.grundy()
    fib = solve_game(FibonacciNim(10))
    assert (10, 9) in fib and (3, 2) in fib
    assert (10, 10) not in fib and [10, 9] not in fib and "x" not in fib and (1, 2, 3) not in fib
    with pytest.raises(KeyError, match="not a position reachable"):
        fib.value((11, 0))
    with pytest.raises(KeyError, match="not a position reachable"):
        fib.value(-1)


def test_the_module_examples_run():
    import doctest

    import grundy.game

    failed, tried = doctest.testmod(grundy.game)
    assert tried >= 6 and failed == 0


# -- bugs get a GameError naming the position, never a crash ---------------------------


def one(children, offsets=None):
    """A moves_many giving these arrays whatever it is asked."""
    return lambda codes: (np.array([0, len(children)]) if offsets is None else offsets, children)


def test_wrong_types_of_arrays():
    with pytest.raises(GameError, match=r"children moves_many returned holds dtype float64"):
        solve_game(start=3, moves_many=one(np.array([2.0])))
    with pytest.raises(GameError, match=r"holds dtype bool"):
        solve_game(start=3, moves_many=one(np.array([True])))
    with pytest.raises(GameError, match=r"offsets moves_many returned holds dtype float64"):
        solve_game(start=3, moves_many=one(np.array([2]), np.array([0.0, 1.0])))
    with pytest.raises(GameError, match=r"has 2 dimensions: it must be one-dimensional"):
        solve_game(start=3, moves_many=one(np.array([[2]])))
    with pytest.raises(GameError, match=r"is \[2\], not a buffer of integers"):
        solve_game(start=3, moves_many=one([2]))
    with pytest.raises(GameError, match=r"holds format 'd'"):
        solve_game(start=3, moves_many=one(array.array("d", [2.0])))
    with pytest.raises(GameError, match=r"moves_many\(\[3\]\) returned .*it must return \(offsets, children\)"):
        solve_game(start=3, moves_many=lambda codes: np.array([0, 1]))
    with pytest.raises(GameError, match=r"it must return \(offsets, children\)"):
        solve_game(start=3, moves_many=lambda codes: (np.array([0]),))


def test_codes_out_of_range():
    with pytest.raises(GameError, match=r"moves_many gave -1 as a move of 3: codes run from 0 to 9223372036854775807"):
        solve_game(start=3, moves_many=one(np.array([-1])))
    with pytest.raises(GameError, match=r"gave 9223372036854775808 as a move of 3"):
        solve_game(start=3, moves_many=one(np.array([2**63], dtype=np.uint64)))
    # With a shape, codes run to the product of the shape.
    with pytest.raises(GameError, match=r"gave 12 as a move of \(1, 2\): codes run from 0 to 11"):
        solve_game(start=(1, 2), shape=(3, 4), moves_many=one(np.array([12])))


def test_ragged_offsets():
    kids = np.array([1, 2, 0])
    with pytest.raises(GameError, match=r"gave 3 offsets for a batch of 1 positions"):
        solve_game(start=3, moves_many=one(kids, np.array([0, 1, 3])))
    with pytest.raises(GameError, match=r"offsets start at 1, not 0"):
        solve_game(start=3, moves_many=one(kids, np.array([1, 3])))
    with pytest.raises(GameError, match=r"offsets end at 2, but it gave 3 children"):
        solve_game(start=3, moves_many=one(kids, np.array([0, 2])))
    with pytest.raises(GameError, match=r"ragged at 3 .*offsets\[1\] = 5, with 3 children"):
        solve_game(start=3, moves_many=one(kids, np.array([0, 5])))
    # Decreasing offsets in a batch of two: named at the second position.
    adj = {0: [1, 2], 1: [], 2: []}

    def decreasing(codes):
        offsets, children = csr([adj[c] for c in codes.tolist()])
        if len(codes) == 2:
            offsets = np.array([0, 0, -1])
        return offsets, children

    with pytest.raises(GameError, match=r"ragged at 2 \(position 1 of the batch\): offsets\[1\] = 0, offsets\[2\] = -1"):
        solve_game(start=0, moves_many=decreasing)


def test_exceptions_and_limits():
    def boom(codes):
        if 2 in codes:
            raise ZeroDivisionError("boom")
        return csr([[c - 1] for c in codes.tolist()])

    with pytest.raises(GameError, match=r"moves_many\(\[2\]\) raised ZeroDivisionError: boom") as e:
        solve_game(start=5, moves_many=boom)
    assert isinstance(e.value.__cause__, ZeroDivisionError)
    with pytest.raises(GameError, match=r"more than 100 positions \(max_positions\); the last one reached is 100"):
        solve_game(start=0, moves_many=lambda codes: csr([[c + 1] for c in codes.tolist()]), max_positions=100)
    with pytest.raises(GameError, match=r"moves_many gave 6 moves for 7, more than 5 \(max_moves\)"):
        solve_game(start=7, moves_many=lambda codes: csr([[0] * 6 for c in codes]), max_moves=5)


def test_bad_terminal_and_to_move_arrays():
    moves = lambda codes: csr([[] for c in codes])  # noqa: E731
    with pytest.raises(GameError, match=r"terminal_many gave 7 for 4: it must give 0 \(play on\)"):
        solve_game(start=4, moves_many=moves, terminal_many=lambda c: np.array([7]))
    with pytest.raises(GameError, match=r"terminal_many gave 2 values for a batch of 1 positions"):
        solve_game(start=4, moves_many=moves, terminal_many=lambda c: np.array([0, 0]))
    with pytest.raises(GameError, match=r"to_move_many gave 2 for 4"):
        solve_game(start=4, moves_many=moves, to_move_many=lambda c: np.array([2]))
    with pytest.raises(GameError, match=r"what to_move_many returned holds dtype float64"):
        solve_game(start=4, moves_many=moves, to_move_many=lambda c: np.array([0.0]))


def test_starts_without_a_code_and_bad_arguments():
    moves = lambda codes: csr([[] for c in codes])  # noqa: E731
    with pytest.raises(GameError, match=r"the start position has no code: \[1, 2\] is not a tuple of 2 ints"):
        solve_game(start=[1, 2], shape=(3, 3), moves_many=moves)
    with pytest.raises(GameError, match=r"\(1, 3\) is outside the game's shape \(3, 3\)"):
        solve_game(start=(1, 3), shape=(3, 3), moves_many=moves)
    with pytest.raises(GameError, match=r"-1 is not an int from 0 to 2\*\*63 - 1"):
        solve_game(start=-1, moves_many=moves)
    with pytest.raises(GameError, match=r"'a' is not an int"):
        solve_game(start="a", moves_many=moves)
    with pytest.raises(GameError, match=r"\{\} is not an int"):
        solve_game(start={}, moves_many=moves)  # not even hashable
    with pytest.raises(ValueError, match="shape must be a tuple of positive ints"):
        solve_game(start=(0, 0), shape=(0, 3), moves_many=moves)
    with pytest.raises(ValueError, match="at most 2\\*\\*63"):
        solve_game(start=(0, 0), shape=(2**32, 2**32), moves_many=moves)
    with pytest.raises(ValueError, match="batch_size must be a positive int"):
        solve_game(start=0, moves_many=moves, batch_size=0)
    with pytest.raises(TypeError, match="has to_move but no to_move_many"):
        solve_game(start=0, moves_many=moves, to_move=lambda p: 0)
    with pytest.raises(TypeError, match="score game"):
        solve_game(start=0, moves_many=moves, gain=lambda a, b: 1)
    with pytest.raises(TypeError, match="needs moves_many"):
        solve_game(start=0, moves=lambda p: [], batched=True)


def test_ctrl_c_stops_a_long_batched_exploration():
    # The SIGINT comes from another process, as a terminal's Ctrl-C does: the kernel
    # delivers it whoever holds the GIL (a Python timer thread may never get it while the
    # exploration runs). Were it missed, the budget ends the test with an error, not a hang.
    # Python's own handler, even where the run was started with SIGINT ignored (a
    # background job of a shell script inherits that).
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    sender = subprocess.Popen(["sh", "-c", f"sleep 0.3; kill -INT {os.getpid()}"])
    try:
        with pytest.raises(KeyboardInterrupt):
            solve_game(start=0, moves_many=lambda c: (np.array([0, 1]), c + 1), max_positions=10**7)
    finally:
        sender.kill()
        sender.wait()
        signal.signal(signal.SIGINT, previous)
