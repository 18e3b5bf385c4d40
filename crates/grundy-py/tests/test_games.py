"""Games defined in Python against the built-in catalog, and games with bugs."""

import os
import signal
import subprocess

import pytest

import grundy
from grundy import GameError, solve_game


def builtin(spec):
    report = grundy.solve(spec)
    return report.to_dict() if hasattr(report, "to_dict") else report


class Nim(grundy.Game):
    def __init__(self, heaps):
        self.start = tuple(heaps)

    def moves(self, heaps):
        for i, h in enumerate(heaps):
            for k in range(h - 1, -1, -1):  # take 1 first, as the catalog lists them
                yield heaps[:i] + (k,) + heaps[i + 1 :]


class Subtraction(grundy.Game):
    def __init__(self, takes, n):
        self.takes, self.start = takes, n

    def moves(self, n):
        return [n - k for k in self.takes if k <= n]


class FibonacciNim(grundy.Game):
    """(stones, most the next move may take); the first move takes fewer than all."""

    def __init__(self, n):
        self.start = (n, n - 1)

    def moves(self, position):
        m, limit = position
        return [(m - k, min(m - k, 2 * k)) for k in range(1, min(m, limit) + 1)]


def nim_spec(heaps):
    return "nim(" + ",".join(map(str, heaps)) + ")"


@pytest.mark.parametrize("heaps", [(1,), (3, 4, 5), (2, 2), (1, 2, 3), (4, 0, 7), (6, 5, 3, 1)])
def test_nim_equals_builtin(heaps):
    table = solve_game(Nim(heaps))
    want = builtin(nim_spec(heaps))
    assert table.outcome == want["outcome"]
    assert table.remoteness == want["remoteness"]
    assert table.grundy() == want["grundy"]
    assert [nim_spec(c) for c in table.winning_moves()] == want["winning_moves"]
    # Every move's value for the mover, in the catalog's order.
    got = [(nim_spec(c), v.outcome, v.remoteness) for c, v in table.moves()]
    assert got == [(m["spec"], m["outcome"], m["remoteness"]) for m in want["moves"]]
    # Every position's Grundy value is the XOR of its heaps.
    for position in table:
        g = 0
        for h in position:
            g ^= h
        assert table.grundy(position) == g


@pytest.mark.parametrize("takes", [(1, 2), (1, 3, 4), (2, 5, 7), (1, 4, 9)])
def test_subtraction_equals_builtin(takes):
    for n in range(0, 40):
        spec = f"subtraction[{','.join(map(str, takes))}]({n})"
        want = builtin(spec)
        table = solve_game(Subtraction(takes, n))
        assert (table.outcome, table.remoteness, table.grundy()) == (
            want["outcome"],
            want["remoteness"],
            want["grundy"],
        ), spec
        got = [f"subtraction[{','.join(map(str, takes))}]({c})" for c in table.winning_moves()]
        assert got == want["winning_moves"], spec


def test_fibonacci_nim_equals_builtin():
    for n in range(2, 40):
        want = builtin(f"fibonacci({n})")
        table = solve_game(FibonacciNim(n))
        assert (table.outcome, table.remoteness, table.grundy()) == (
            want["outcome"],
            want["remoteness"],
            want["grundy"],
        ), n


def test_patterns_of_families():
    sub = grundy.pattern_game(lambda n: Subtraction((1, 3, 4), n), range(0, 80))
    assert (sub.kind, sub.period, sub.preperiod) == ("periodic", 7, 0)
    assert sub.p_positions[:4] == [0, 2, 7, 9]
    fib = grundy.pattern_game(FibonacciNim, range(2, 90))
    assert fib.kind == "recurrence"
    assert fib.p_positions == [2, 3, 5, 8, 13, 21, 34, 55, 89]
    assert fib.proved is False


def test_functions_instead_of_a_class_and_a_partizan_game():
    # A race to 10: each adds 1 or 2; whoever reaches 10 wins. Counted (total, player).
    def moves(p):
        total, player = p
        return [(total + k, 1 - player) for k in (1, 2) if total + k <= 10]

    def terminal(p):
        return "loss" if p[0] == 10 else None  # the player to move did not reach it

    table = solve_game(start=(0, 0), moves=moves, terminal=terminal, to_move=lambda p: p[1])
    assert table.outcome == "win"  # 10 is not a multiple of 3
    assert table.best_moves() == [(1, 1)]
    with pytest.raises(ValueError, match="impartial"):
        table.grundy()


def test_moves_that_keep_the_turn_and_cycles():
    # From 'a' the mover may pass to 'b' keeping the turn, or move to 'c' (opponent
    # then has no move: the mover wins). 'b' and 'a' cycle otherwise.
    graph = {"a": ["b", "c"], "b": ["a"], "c": []}
    movers = {"a": 0, "b": 0, "c": 1}
    table = solve_game(start="a", moves=graph.__getitem__, to_move=movers.__getitem__)
    assert table.value("a") == grundy.Value("win", 1)
    assert table.value("b") == grundy.Value("win", 2)
    # A cycle with no way out is a draw, a move to itself included.
    loop = solve_game(start=0, moves=lambda p: [p])
    assert loop.outcome == "draw" and loop.remoteness is None
    with pytest.raises(ValueError, match="cycle"):
        loop.grundy()


def test_a_score_game():
    # Take 1 or 2 coins from a row of values, from the left; the coin's value is yours.
    coins = (3, 9, 1, 2, 8)

    def moves(i):
        return [i + k for k in (1, 2) if i + k <= len(coins)]

    def gain(i, j):
        return sum(coins[i:j])

    table = solve_game(start=0, moves=moves, gain=gain)

    def best(i):  # plain recursion: margin for the mover
        if i == len(coins):
            return 0
        return max(sum(coins[i:j]) - best(j) for j in moves(i))

    for i in range(len(coins) + 1):
        assert table.value(i).score == best(i)
    assert table.is_score and table.value(0).outcome == ("win" if best(0) > 0 else "loss")


# -- bugs get a GameError naming the position, never a crash --------------------------


def test_unhashable_children():
    with pytest.raises(GameError, match=r"moves? of 3 leads to \[2\].*cannot be a dict key") as e:
        solve_game(start=3, moves=lambda n: [[n - 1]])
    assert isinstance(e.value.__cause__, TypeError)


def test_an_exception_inside_moves_is_chained():
    def moves(n):
        if n == 2:
            raise ZeroDivisionError("boom")
        return [n - 1]

    with pytest.raises(GameError, match=r"moves\(2\) raised ZeroDivisionError: boom") as e:
        solve_game(start=5, moves=moves)
    assert isinstance(e.value.__cause__, ZeroDivisionError)


def test_a_position_listing_itself_without_end():
    def moves(n):
        while True:
            yield n

    with pytest.raises(GameError, match=r"moves\(7\) gave more than 1000 moves"):
        solve_game(start=7, moves=moves, max_moves=1000)


def test_too_many_positions_and_bad_types():
    with pytest.raises(GameError, match="more than 100 positions"):
        solve_game(start=0, moves=lambda n: [n + 1], max_positions=100)
    with pytest.raises(GameError, match=r"terminal\(0\) returned 'won'"):
        solve_game(start=0, moves=lambda n: [], terminal=lambda n: "won")
    with pytest.raises(GameError, match=r"to_move\(0\) returned 2"):
        solve_game(start=0, moves=lambda n: [], to_move=lambda n: 2)
    with pytest.raises(GameError, match=r"moves\(0\) returned 5, which is not iterable"):
        solve_game(start=0, moves=lambda n: 5)
    with pytest.raises(GameError, match=r"gain\(0, 1\) returned 'x'"):
        solve_game(start=0, moves=lambda n: [1] if n == 0 else [], gain=lambda a, b: "x")
    with pytest.raises(GameError, match="cycle through"):
        solve_game(start=0, moves=lambda n: [1 - n], gain=lambda a, b: 1)
    with pytest.raises(KeyError, match="not a position reachable"):
        solve_game(Nim((1,))).value((5,))


def test_ctrl_c_stops_a_long_exploration():
    # An endless game (every n leads to n + 1): a SIGINT a moment later must stop it.
    # The SIGINT comes from another process, as a terminal's Ctrl-C does: the kernel
    # delivers it whoever holds the GIL (a Python timer thread may never get it while the
    # exploration runs). Were it missed, the budget ends the test with an error, not a hang.
    # Python's own handler, even where the run was started with SIGINT ignored (a
    # background job of a shell script inherits that).
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    sender = subprocess.Popen(["sh", "-c", f"sleep 0.3; kill -INT {os.getpid()}"])
    try:
        with pytest.raises(KeyboardInterrupt):
            solve_game(start=0, moves=lambda n: [n + 1], max_positions=10**7)
    finally:
        sender.kill()
        sender.wait()
        signal.signal(signal.SIGINT, previous)
