"""Games on graphs, as ``grundy graph`` plays them: the POI green game (Büchi), PGSolver
parity games, reachability, safety, co-Büchi, and token games on plain digraphs.

A game is given as its text, or as a path to a file (``.gz`` is read as gzip): a
``str`` that holds a line break is text, any other ``str`` or an ``os.PathLike`` a path.
"""

import json as _json
import os as _os

from . import _grundy, _progress
from ._records import Regions, TokenValues, Verification

__all__ = ["solve", "verify"]


def _source(game):
    if isinstance(game, _os.PathLike):
        return None, _os.fspath(game)
    if isinstance(game, str):
        return (game, None) if "\n" in game else (None, game)
    raise TypeError("give the game as text (str) or as a path (str or os.PathLike)")


def solve(
    game,
    *,
    format=None,
    objective=None,
    accepting=(),
    strategy=False,
    algorithm=None,
    sum=(),
    max_input=1024,
    progress=None,
):
    """Solves a game on a graph (``grundy graph FILE --json``).

    ``format``: ``"poi"``, ``"pgsolver"`` or ``"digraph"`` (detected if absent).
    ``objective``: what player 0 wants, by the names of ``grundy graph --objective``
    (``"reach"``, ``"safety"``, ``"buchi"``, ``"cobuchi"``, ``"parity"`` (max-even) or
    ``"token"``); by default the format's, as the command line's. ``accepting``: the
    priorities of the set F (default: the even ones). ``strategy``: also give each
    winner's moves. ``algorithm``: the parity solver, ``"tangle"``, ``"zielonka"`` or
    ``"fpj"``; by default the command line's.
    ``sum``: token games, the vertices of a sum of tokens. ``max_input``: the most MiB a
    file may hold once gunzipped.

    Returns :class:`Regions` (who wins where, the strategies) or, for token games,
    :class:`TokenValues`.
    """
    text, path = _source(game)
    answer = _json.loads(
        _progress.call(
            _grundy.graph_solve_json,
            text,
            path,
            format=format,
            objective=objective,
            accepting=list(accepting),
            strategy=strategy,
            algorithm=algorithm,
            sum=list(sum),
            max_input=max_input,
            progress=progress,
        )
    )
    if "won_by_0" in answer:
        return Regions.from_dict(answer)
    return TokenValues.from_dict(answer)


def verify(game, solution, *, format=None, max_input=1024):
    """Checks a claimed solution without trusting any solver (``grundy graph verify``): a
    PGSolver ``paritysol``, or a POI answer followed by ``field -> successor`` lines.
    Returns a :class:`Verification`, true if the solution is correct; its ``message`` is
    the CLI's line."""
    game_text, game_path = _source(game)
    solution_text, solution_path = _source(solution)
    ok, message = _grundy.graph_verify(
        game_text, game_path, solution_text, solution_path, format=format, max_input=max_input
    )
    return Verification(ok=ok, message=message)
