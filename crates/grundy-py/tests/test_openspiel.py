"""The OpenSpiel adapter against independent searches: OpenSpiel's alpha_beta_search and a
plain tree search here (no transpositions), and the bot against random and MCTS bots."""

import os
import random

import pytest

# OpenSpiel is optional; CI sets GRUNDY_REQUIRE_OPENSPIEL=1 so that its absence fails
# instead of skipping these tests.
if os.environ.get("GRUNDY_REQUIRE_OPENSPIEL"):
    import pyspiel
else:
    pyspiel = pytest.importorskip("pyspiel")

import grundy  # noqa: E402
from grundy import openspiel as gos  # noqa: E402
from open_spiel.python.algorithms import minimax  # noqa: E402

PREFER = {"win": 2, "draw": 1, "loss": 0}


def mover(state):
    return 0 if state.is_terminal() else state.current_player()


def tree_value(state):
    """(outcome, remoteness) for the player to move (player 0 at an end) by plain
    recursion over the game tree: the fastest win, else a draw, else the slowest loss."""
    if state.is_terminal():
        r = state.returns()
        m = r[0] - r[1]
        return ("win" if m > 0 else "loss" if m < 0 else "draw"), (0 if m else None)
    me = state.current_player()
    best = None
    for a in state.legal_actions():
        c = state.child(a)
        outcome, rem = tree_value(c)
        if mover(c) != me:
            outcome = {"win": "loss", "loss": "win", "draw": "draw"}[outcome]
        rem = None if rem is None else rem + 1
        if outcome == "draw":
            rem = None
        key = (PREFER[outcome], -rem if outcome == "win" else (rem or 0))
        if best is None or key > best[0]:
            best = (key, outcome, rem)
    return best[1], best[2]


def tree_utility(state):
    """Player 0's utility under perfect play, by plain minimax over the tree."""
    if state.is_terminal():
        return state.returns()[0]
    values = [tree_utility(state.child(a)) for a in state.legal_actions()]
    return max(values) if state.current_player() == 0 else min(values)


def every_node(state):
    yield state
    if not state.is_terminal():
        for a in state.legal_actions():
            yield from every_node(state.child(a))


def random_states(game, count, min_depth, seed=1, max_depth=None):
    rng = random.Random(seed)
    out = []
    top = game.max_game_length() if max_depth is None else max_depth
    while len(out) < count:
        s = game.new_initial_state()
        depth = rng.randrange(min_depth, top + 1)
        while not s.is_terminal() and len(s.history()) < depth:
            s.apply_action(rng.choice(s.legal_actions()))
        out.append(s)
    return out


def check_node(table, state):
    want = tree_value(state)
    got = table.value(state)
    assert (got.outcome, got.remoteness) == want, state.history()
    if not state.is_terminal():
        # Every best action reaches the value; none of the others does better.
        best = set(table.best_actions(state))
        for a in state.legal_actions():
            c = state.child(a)
            o, r = tree_value(c)
            if mover(c) != state.current_player():
                o = {"win": "loss", "loss": "win", "draw": "draw"}[o]
            r = None if (r is None or o == "draw") else r + 1
            assert ((o, r) == want) == (a in best), (state.history(), a)


def test_tic_tac_toe_every_node_of_the_tree():
    game = pyspiel.load_game("tic_tac_toe")
    table = gos.solve(game)
    assert len(table) == 5478 and table.merged
    assert table.value().outcome == "draw"
    memo = {}
    for state in every_node(game.new_initial_state()):
        key = str(state)
        if key not in memo:  # the tree repeats boards; each is checked once
            memo[key] = True
            check_node(table, state)
    assert len(memo) == 5478


def test_connect_four_4x4_against_alpha_beta():
    game = pyspiel.load_game("connect_four", {"rows": 4, "columns": 4})
    table = gos.solve(game)
    assert len(table) == 161_029
    assert table.value().outcome == "draw"
    for state in random_states(game, 25, 7):
        value, _ = minimax.alpha_beta_search(game, state=state.clone(), maximizing_player_id=0)
        assert table.returns(state)[0] == value, state.history()
    for state in random_states(game, 25, 10, seed=2):
        check_node(table, state)


@pytest.mark.parametrize("piles,misere", [("1;2;3", False), ("1;2;3", True), ("2;3;4", False), ("1;3;5", True)])
def test_nim_every_node_and_the_catalog(piles, misere):
    game = pyspiel.load_game("nim", {"pile_sizes": piles, "is_misere": misere})
    table = gos.solve(game)
    for state in every_node(game.new_initial_state()):
        check_node(table, state)
    if not misere:
        report = grundy.solve("nim(" + piles.replace(";", ",") + ")")
        report = report.to_dict() if hasattr(report, "to_dict") else report
        assert (table.value().outcome, table.value().remoteness) == (
            report["outcome"],
            report["remoteness"],
        )


@pytest.mark.parametrize("name,params", [
    ("clobber", {"rows": 3, "columns": 3}),
    ("clobber", {"rows": 2, "columns": 4}),
    ("dots_and_boxes", {"num_rows": 1, "num_cols": 2}),
])
def test_small_boards_every_node(name, params):
    game = pyspiel.load_game(name, params)
    table = gos.solve(game)
    seen = set()
    for state in every_node(game.new_initial_state()):
        if tuple(state.history()) not in seen:
            seen.add(tuple(state.history()))
            check_node(table, state)


def test_oware_against_the_tree():
    # Oware ends when a board repeats since the last capture, so the key carries the
    # boards seen; states deep in the game are checked against the tree below them.
    # Keyed by the printed form alone (as OpenSpiel's value iteration keys), some of
    # them come out wrong.
    game = pyspiel.load_game("oware", {"num_houses_per_player": 2, "num_seeds_per_house": 2})
    table = gos.solve(game)
    naive = gos.solve(game, key=str)
    assert len(naive) < len(table)
    checked = wrong = 0
    for state in random_states(game, 300, 19, seed=3, max_depth=26):
        if len(state.history()) < 19:
            continue
        got = table.value(state)
        assert (got.outcome, got.remoteness) == tree_value(state), state.history()
        checked += 1
        try:
            got = naive.value(state)
            wrong += (got.outcome, got.remoteness) != tree_value(state)
        except KeyError:  # the printed form's table never reached this state
            wrong += 1
    assert checked >= 40 and wrong > 0


def test_dots_and_boxes_2x2_and_the_margin():
    game = pyspiel.load_game("dots_and_boxes", {"num_rows": 2, "num_cols": 2})
    table = gos.solve(game)
    for state in random_states(game, 40, 5):
        check_node(table, state)
    # The printed form without the player to move merges states that differ.
    naive = gos.solve(game, key=str)
    assert len(naive) < len(table)
    margin = pyspiel.load_game("dots_and_boxes", {"num_rows": 1, "num_cols": 2, "utility_margin": True})
    t = gos.solve(margin)
    for state in every_node(margin.new_initial_state()):
        assert t.returns(state)[0] == tree_utility(state), state.history()


def test_breakthrough_3x4_against_alpha_beta():
    game = pyspiel.load_game("breakthrough", {"rows": 3, "columns": 4})
    table = gos.solve(game)
    assert table.value().outcome == "win"
    for state in random_states(game, 30, 3):
        value, _ = minimax.alpha_beta_search(game, state=state.clone(), maximizing_player_id=0)
        assert table.returns(state)[0] == value, state.history()
        if len(state.history()) >= 6:
            check_node(table, state)


def test_other_games_are_refused_with_the_property():
    with pytest.raises(ValueError, match="chance mode is explicit stochastic, not deterministic"):
        gos.solve(pyspiel.load_game("pig"))
    with pytest.raises(ValueError, match="imperfect information"):
        gos.solve(pyspiel.load_game("kuhn_poker"))
    with pytest.raises(ValueError, match="3 players"):
        gos.solve(pyspiel.load_game("kuhn_poker", {"players": 3}))
    with pytest.raises(ValueError, match="simultaneous"):
        gos.solve(pyspiel.load_game("matrix_rps"))
    with pytest.raises(grundy.GameTooLarge, match="more than 100 states"):
        gos.solve(pyspiel.load_game("tic_tac_toe"), max_positions=100, method="explore")


def wdl(state, alpha=-2, beta=2):
    """Player 0's result (1 a win, 0 a draw, -1 a loss) by plain alpha-beta over the tree
    of OpenSpiel states: no table, no keys (OpenSpiel's own rules end the game, oware's
    repetition included)."""
    if state.is_terminal():
        r = state.returns()
        return (r[0] > r[1]) - (r[0] < r[1])
    maximize = state.current_player() == 0
    best = -2 if maximize else 2
    for a in state.legal_actions():
        v = wdl(state.child(a), alpha, beta)
        if maximize:
            best, alpha = max(best, v), max(alpha, v)
        else:
            best, beta = min(best, v), min(beta, v)
        if alpha >= beta:
            break
    return best


def check_search(searched, reference):
    """A search's start and actions against `reference(state)`: (outcome, remoteness) for
    the player to move (player 0 at an end)."""
    start = searched.game.new_initial_state()
    me = start.current_player()
    assert searched.value() == grundy.Value(reference(start)[0], None)
    values = searched.action_values()
    assert list(values) == start.legal_actions()
    for a, v in values.items():
        c = start.child(a)
        o = reference(c)[0]
        if mover(c) != me:
            o = {"win": "loss", "loss": "win", "draw": "draw"}[o]
        assert v == grundy.Value(o, None), a
    best = max(PREFER[v.outcome] for v in values.values())
    assert searched.best_actions() == [a for a, v in values.items() if PREFER[v.outcome] == best]


def test_oware_2x3_is_searched_as_plain_alpha_beta_finds():
    # Explored, oware 2×3 passes 2 M states (with the boards since the last capture in
    # the key); searched, it is answered at once, as a plain alpha-beta over OpenSpiel's
    # tree (about a second a state) finds.
    game = pyspiel.load_game("oware", {"num_houses_per_player": 2, "num_seeds_per_house": 3})

    def reference(state):
        v = wdl(state)
        return {1: "win", 0: "draw", -1: "loss"}[v if mover(state) == 0 else -v], None

    for algorithm in ("pn", "alpha-beta"):
        searched = gos.solve(game, method="search", algorithm=algorithm)
        assert isinstance(searched, gos.SpielSearch)
        assert searched.weak and searched.merged and searched.nodes < 100_000
        check_search(searched, reference)
    # By default, explored until max_positions, then searched.
    fallback = gos.solve(game, max_positions=10_000)
    assert isinstance(fallback, gos.SpielSearch) and fallback.value() == searched.value()
    with pytest.raises(grundy.GameTooLarge) as e:
        gos.solve(game, max_positions=10_000, max_nodes=100)
    assert "more than 10000 states" in str(e.value) and "limit 100" in str(e.value)
    with pytest.raises(KeyError, match="not the start"):
        searched.value(game.new_initial_state().child(0))
    with pytest.raises(ValueError, match="values the start only"):
        gos.Bot(game, table=searched)


@pytest.mark.parametrize("name,params", [
    ("tic_tac_toe", {}),
    ("oware", {"num_houses_per_player": 2, "num_seeds_per_house": 2}),
    ("dots_and_boxes", {"num_rows": 2, "num_cols": 2}),
    ("breakthrough", {"rows": 3, "columns": 4}),
    ("nim", {"pile_sizes": "1;2;3;4"}),
])
def test_searches_agree_with_the_explored_table(name, params):
    game = pyspiel.load_game(name, params)
    table = gos.solve(game)

    def reference(state):
        v = table.value(state)
        return v.outcome, v.remoteness

    for algorithm in ("pn", "alpha-beta"):
        check_search(gos.solve(game, method="search", algorithm=algorithm, max_nodes=10**7), reference)
    # Unaudited games are searched as a tree (keyed by history); dots and boxes' tree is
    # too large for a test (8 M nodes).
    if name != "dots_and_boxes":
        tree = gos.solve(game, key=lambda s: tuple(s.history()), method="search", max_nodes=10**6)
        check_search(tree, reference)


def test_unknown_games_are_a_tree():
    game = pyspiel.load_game("tic_tac_toe")
    tree = gos.solve(game, key=lambda s: tuple(s.history()), max_positions=1_000_000)
    assert len(tree) == 549_946 and tree.value().outcome == "draw"
    # A game without an audited key is explored as a tree.
    assert gos.KEYS.get("quoridor") is None
    assert not gos._TREE.merged


@pytest.mark.parametrize("name,params", [
    ("tic_tac_toe", {}),
    ("connect_four", {"rows": 4, "columns": 4}),
    ("breakthrough", {"rows": 3, "columns": 4}),
])
def test_the_bot_never_loses(name, params):
    import numpy as np
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game(name, params)
    table = gos.solve(game)
    start = table.returns()
    for seat in (0, 1):
        for seed in range(3):
            ours = gos.Bot(game, table=table, seed=seed)
            opponents = [
                pyspiel.make_uniform_random_bot(1 - seat, seed),
                mcts.MCTSBot(
                    game, 2, 60, mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed)),
                    random_state=np.random.RandomState(seed),
                ),
            ]
            for other in opponents:
                bots = [ours, other] if seat == 0 else [other, ours]
                returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)
                assert returns[seat] >= start[seat], (name, seat, seed, type(other).__name__)
    assert isinstance(gos.Bot(game, table=table), pyspiel.Bot)


def test_importing_does_not_import_pyspiel():
    import subprocess
    import sys

    code = "import sys, grundy.openspiel; print('pyspiel' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# A constant-sum game with fractional utilities, defined through OpenSpiel's Python game
# API: a heap of tokens, each move takes one or two; whoever takes the last token wins a
# share of 1 that depends on the heap's parity when the game started and on the last
# move (0.75 after taking one, 0.625 after taking two), the other player the rest. The
# shares are binary fractions whose margins take several sizes (0.5 and 0.25), so the
# adapter must solve the utilities, not only win / loss.
_SHARES_TYPE = pyspiel.GameType(
    short_name="grundy_test_shares",
    long_name="grundy test: heap shares",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.CONSTANT_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=False,
    provides_observation_tensor=False,
    parameter_specification={"heap": 7},
)


class _SharesGame(pyspiel.Game):
    def __init__(self, params=None):
        params = params or {"heap": 7}
        self.heap = params["heap"]
        info = pyspiel.GameInfo(
            num_distinct_actions=2,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=self.heap,
        )
        super().__init__(_SHARES_TYPE, info, params)

    def new_initial_state(self):
        return _SharesState(self)


class _SharesState(pyspiel.State):
    def __init__(self, game):
        super().__init__(game)
        self.left = game.heap
        self.player = 0
        self.last = None  # (player, tokens taken) of the last move

    def current_player(self):
        return pyspiel.PlayerId.TERMINAL if self.left == 0 else self.player

    def _legal_actions(self, player):
        return [a for a in (0, 1) if a + 1 <= self.left]

    def _apply_action(self, action):
        self.left -= action + 1
        self.last = (self.player, action + 1)
        self.player = 1 - self.player

    def _action_to_string(self, player, action):
        return f"take {action + 1}"

    def is_terminal(self):
        return self.left == 0

    def returns(self):
        if self.left:
            return [0.0, 0.0]
        who, took = self.last
        share = 0.75 if took == 1 else 0.625
        return [share, 1 - share] if who == 0 else [1 - share, share]

    def __str__(self):
        return f"{self.left} left, player {self.player}"


pyspiel.register_game(_SHARES_TYPE, _SharesGame)


def _best_utility(state):
    """(utility of the player to move, of player 0) by plain minimax over the tree."""
    if state.is_terminal():
        return state.returns()[0], state.returns()[0]
    me = state.current_player()
    zero = [_best_utility(state.child(a))[1] for a in state.legal_actions()]
    u0 = max(zero) if me == 0 else min(zero)
    return (u0 if me == 0 else 1 - u0), u0


@pytest.mark.parametrize("heap", [1, 2, 5, 8])
def test_constant_sum_fractional_utilities_every_node(heap):
    game = pyspiel.load_game("grundy_test_shares", {"heap": heap})
    table = gos.solve(game)
    for state in every_node(game.new_initial_state()):
        mine, u0 = _best_utility(state)
        returns = table.returns(state)
        assert returns[0] == u0 and returns[0] + returns[1] == 1.0, state.history()
        if state.is_terminal():
            continue
        # One margin size at every end (a heap of 1) is win / loss without scores.
        score = table.value(state).score
        assert score == mine if heap > 1 else score is None, state.history()
        # The best actions are exactly those keeping the mover's utility.
        me = state.current_player()
        keeps = {
            a
            for a in state.legal_actions()
            if (_best_utility(state.child(a))[1] if me == 0 else 1 - _best_utility(state.child(a))[1]) == mine
        }
        assert set(table.best_actions(state)) == keeps, state.history()
