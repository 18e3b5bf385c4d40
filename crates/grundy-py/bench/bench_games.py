"""Benchmarks of games defined in Python and of the OpenSpiel adapter; each run checks the
answer it times. Run one case per process (for whole-process timings and peak memory):

    python bench/bench_games.py python-fibonacci 3000   # a Python-defined game
    python bench/bench_games.py batched-fibonacci 3000  # the same, batched with NumPy
    python bench/bench_games.py builtin-fibonacci 3000  # the same game built in

A Python-defined Fibonacci nim is checked against the answers known for its size
(`KNOWN_FIBONACCI`), so that the timed process does nothing but solve it; `--check`
after the size also solves the built-in family in the same process and compares the two
(any size; not for timing).
    python bench/bench_games.py openspiel 4 5           # the adapter on connect_four 4x5
    python bench/bench_games.py value-iteration 4 4     # OpenSpiel's own exact search
                                                        # (needs cvxpy, which it imports)
"""

import os
import sys
import time

# NumPy's BLAS threads (which `moves_many`'s array operations never use) spin on the other
# cores after numpy's import and count as the process's CPU: one thread, as a game on one
# core wants.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import grundy  # noqa: E402


class FibonacciNim(grundy.Game):
    """The catalog's fibonacci(n): (stones, most the next move may take)."""

    def __init__(self, n):
        self.start = (n, n - 1)

    def moves(self, position):
        m, limit = position
        return [(m - k, min(m - k, 2 * k)) for k in range(1, min(m, limit) + 1)]


class BatchedFibonacciNim(FibonacciNim):
    """The same game on the batched path: (stones, limit) coded as stones * n + limit
    (the shape (n + 1, n)), every move of a batch computed by NumPy at once."""

    def __init__(self, n):
        super().__init__(n)
        self.shape = (n + 1, n)

    def moves_many(self, codes):
        import numpy as np

        m, limit = np.divmod(codes, self.shape[1])
        counts = np.minimum(m, limit)
        offsets = np.zeros(len(codes) + 1, dtype=np.int64)
        np.cumsum(counts, out=offsets[1:])
        k = np.arange(1, offsets[-1] + 1) - np.repeat(offsets[:-1], counts)
        left = np.repeat(m, counts) - k
        return offsets, left * self.shape[1] + np.minimum(left, 2 * k)


#: Fibonacci nim to n, as the built-in family gives it: (positions, outcome, remoteness,
#: the start's Grundy value).
KNOWN_FIBONACCI = {
    100: (1_473, "win", 69, 12),
    1000: (143_287, "win", 755, 22),
    3000: (1_287_001, "win", 1975, 27),
}


def report(what, positions, seconds, answer, cpu=None):
    rate = positions / seconds if seconds else float("inf")
    line = f"{what}: {positions} positions in {seconds:.2f} s, {rate:,.0f} positions/s"
    if cpu is not None:
        line += f" ({cpu:.2f} s CPU, {positions / cpu if cpu else float('inf'):,.0f} positions/CPU s)"
    print(f"{line}; {answer}")


def main(argv):
    case = argv[1]
    if case in ("python-fibonacci", "batched-fibonacci"):
        n = int(argv[2])
        game = FibonacciNim(n) if case == "python-fibonacci" else BatchedFibonacciNim(n)
        if case == "batched-fibonacci":
            # The game's own dependency, imported before the clock starts (about 0.05 s):
            # the time printed is the solve's.
            import numpy  # noqa: F401
        t, c = time.perf_counter(), time.process_time()
        table = grundy.solve_game(game, max_positions=50_000_000)
        dt, cpu = time.perf_counter() - t, time.process_time() - c
        got = (len(table), table.outcome, table.remoteness, table.grundy())
        if "--check" in argv[3:]:
            want = grundy.solve(f"fibonacci({n})")
            want = want.to_dict() if hasattr(want, "to_dict") else want
            want = tuple(want[k] for k in ("positions", "outcome", "remoteness", "grundy"))
            assert got == want, (got, want)
        elif n in KNOWN_FIBONACCI:
            assert got == KNOWN_FIBONACCI[n], (got, KNOWN_FIBONACCI[n])
        else:
            raise SystemExit(f"no known answer for fibonacci({n}): add --check")
        report(f"{case.split('-')[0]} fibonacci({n})", len(table), dt, table.value(), cpu)
    elif case == "builtin-fibonacci":
        n = int(argv[2])
        t, c = time.perf_counter(), time.process_time()
        r = grundy.solve(f"fibonacci({n})")
        dt, cpu = time.perf_counter() - t, time.process_time() - c
        r = r.to_dict() if hasattr(r, "to_dict") else r
        assert r["method"] == "retrograde"
        report(f"built-in fibonacci({n})", r["positions"], dt, (r["outcome"], r["remoteness"]), cpu)
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
