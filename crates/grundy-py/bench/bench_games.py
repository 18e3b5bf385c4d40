"""Benchmarks of games defined in Python and of the OpenSpiel adapter; each run checks the
answer it times. Run one case per process (for whole-process timings and peak memory):

    python bench/bench_games.py python-fibonacci 3000   # a Python-defined game
    python bench/bench_games.py builtin-fibonacci 3000  # the same game built in
    python bench/bench_games.py openspiel 4 5           # the adapter on connect_four 4x5
    python bench/bench_games.py value-iteration 4 4     # OpenSpiel's own exact search
                                                        # (needs cvxpy, which it imports)
"""

import sys
import time

import grundy


class FibonacciNim(grundy.Game):
    """The catalog's fibonacci(n): (stones, most the next move may take)."""

    def __init__(self, n):
        self.start = (n, n - 1)

    def moves(self, position):
        m, limit = position
        return [(m - k, min(m - k, 2 * k)) for k in range(1, min(m, limit) + 1)]


def report(what, positions, seconds, answer):
    rate = positions / seconds if seconds else float("inf")
    print(f"{what}: {positions} positions in {seconds:.2f} s, {rate:,.0f} positions/s; {answer}")


def main(argv):
    case = argv[1]
    if case == "python-fibonacci":
        n = int(argv[2])
        t = time.perf_counter()
        table = grundy.solve_game(FibonacciNim(n), max_positions=50_000_000)
        dt = time.perf_counter() - t
        want = grundy.solve(f"fibonacci({n})")
        want = want.to_dict() if hasattr(want, "to_dict") else want
        assert (table.outcome, table.remoteness) == (want["outcome"], want["remoteness"])
        assert len(table) == want["positions"], (len(table), want["positions"])
        report(f"python fibonacci({n})", len(table), dt, table.value())
    elif case == "builtin-fibonacci":
        n = int(argv[2])
        t = time.perf_counter()
        r = grundy.solve(f"fibonacci({n})")
        dt = time.perf_counter() - t
        r = r.to_dict() if hasattr(r, "to_dict") else r
        assert r["method"] == "retrograde"
        report(f"built-in fibonacci({n})", r["positions"], dt, (r["outcome"], r["remoteness"]))
    elif case == "openspiel":
        import pyspiel
        from grundy import openspiel

        rows, columns = int(argv[2]), int(argv[3])
        game = pyspiel.load_game("connect_four", {"rows": rows, "columns": columns})
        t = time.perf_counter()
        table = openspiel.solve(game, max_positions=50_000_000)
        dt = time.perf_counter() - t
        known = {(4, 4): 161_029, (4, 5): 3_945_711}
        if (rows, columns) in known:
            assert len(table) == known[rows, columns], len(table)
        report(f"grundy.openspiel connect_four {rows}x{columns}", len(table), dt, table.value())
    elif case == "value-iteration":
        import pyspiel
        from open_spiel.python.algorithms import value_iteration

        rows, columns = int(argv[2]), int(argv[3])
        game = pyspiel.load_game("connect_four", {"rows": rows, "columns": columns})
        t = time.perf_counter()
        values = value_iteration.value_iteration(game, -1, 0.01)
        dt = time.perf_counter() - t
        root = values[str(game.new_initial_state())]
        report(f"value_iteration connect_four {rows}x{columns}", len(values), dt, root)
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
