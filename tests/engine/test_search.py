"""The searching levels (hard, easy): fair by construction, reproducible with a playout
budget, always legal; the level registry."""

from __future__ import annotations

import io
import json
import math
import pickle
import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import pytest

from engine.ai import LEVELS, agent, decide, heuristic, level_name, search, yardstick
from engine.ai.easy import EasyAgent
from engine.ai.search import Budget, SearchAgent, Yardstick, lead_gained, rollout_value
from engine.cli import main
from engine.core import Action, Agent, RandomAgent, State, StateAgent
from engine.errors import SetupError
from engine.registry import games
from engine.runner import play_out, step
from engine.terminal import TerminalGame

GAME_IDS = list(games())
JUDGED_NOW = search.outcome
BUDGET = Budget(rollouts=24)


def positions(game_id: str, players: int, seed: int, every: int = 5) -> list[tuple[State, int]]:
    """Copies of one random game's states, every few steps, with the seat to act (one seat
    waited for and a choice to make)."""
    state = games()[game_id].new_state(players, seed)
    agents = [RandomAgent()] * players
    rngs = [random.Random(seed + seat) for seat in range(players)]
    order_rng = random.Random(seed)
    found: list[tuple[State, int]] = []
    steps = 0
    while not state.is_over and len(found) < 4:
        seats = state.waiting_for()
        if steps % every == 0 and len(seats) == 1 and len(state.legal_actions(seats[0])) > 1:
            found.append((state.game.state_from_json(state.to_json()), seats[0]))
        step(state, agents, rngs, order_rng)
        steps += 1
    return found


def hard(game_id: str) -> SearchAgent:
    searcher = agent(games()[game_id], "hard", BUDGET)
    assert isinstance(searcher, SearchAgent)
    return searcher


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_states_differing_only_in_hidden_cards_get_the_same_hard_decision(game_id: str) -> None:
    # This searcher follows its playouts' every lead (hard itself keeps the heuristic's move
    # unless a rival clearly beat it), so its decisions show whatever the playouts saw.
    searcher = SearchAgent(
        heuristic(games()[game_id]), yardstick(games()[game_id]), BUDGET, confidence=0.0, evidence=2
    )
    for state, seat in positions(game_id, 2, seed=11, every=7):
        # Another real state: the same game with the cards hidden from the seat dealt again.
        other = state.determinize(seat, random.Random(99))
        assert other.view(seat) == state.view(seat)
        legal = state.legal_actions(seat)
        assert legal == other.legal_actions(seat)
        assert state.determinize(seat, random.Random(5)) == other.determinize(
            seat, random.Random(5)
        )
        mine = searcher.choose_in(state, seat, legal, random.Random(7), False)
        theirs = searcher.choose_in(other, seat, legal, random.Random(7), False)
        assert mine == theirs
        assert mine in legal


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_hard_and_easy_play_whole_games_legally(game_id: str) -> None:
    game = games()[game_id]
    players = max(2, game.player_counts[0])
    state = game.new_state(players, 3)
    agents = [hard(game_id), agent(game, "easy"), *[agent(game, "normal")] * (players - 2)]
    play_out(state, agents, seed=3)  # apply() refuses an illegal move
    assert state.is_over


def test_the_searched_move_is_reproducible_with_a_playout_budget() -> None:
    searcher = hard("fishing")
    state, seat = positions("fishing", 2, seed=4)[0]
    legal = state.legal_actions(seat)
    picks = {searcher.choose_in(state, seat, legal, random.Random(1), False) for _ in range(3)}
    assert len(picks) == 1


def test_easy_slips_sometimes_and_follows_the_heuristic_sometimes() -> None:
    game = games()["twentytwo"]
    easy, normal = agent(game, "easy"), agent(game, "normal")
    assert isinstance(easy, StateAgent) and not isinstance(normal, StateAgent)
    same = differs = 0
    for seed in range(6):
        for state, seat in positions("twentytwo", 2, seed, every=2):
            legal = state.legal_actions(seat)
            rng = random.Random(seed)
            slip: Action | None = easy.choose_in(state, seat, legal, rng, False)
            usual = normal.choose(state.agent_view(seat), legal, random.Random(seed), False)
            assert slip in legal
            same += slip == usual
            differs += slip != usual
    assert same and differs


def test_levels_by_name() -> None:
    assert LEVELS == ("random", "easy", "normal", "hard")
    assert level_name("ai") == "normal"
    with pytest.raises(SetupError, match="unknown AI level 'expert'"):
        level_name("expert")
    fishing = games()["fishing"]
    assert isinstance(agent(fishing, "random"), RandomAgent)
    assert type(agent(fishing, "ai")) is type(agent(fishing, "normal"))
    assert isinstance(agent(fishing, "hard"), SearchAgent)


def test_simulate_takes_a_level_per_seat(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "--game", "stuck", "--games", "2", "--agent", "hard,easy"]
    assert main([*argv, "--rollouts", "4"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["games"] == 2 and sum(figures["wins"]) >= 2
    assert main(["simulate", "--game", "stuck", "--agent", "expert"]) == 2
    assert "unknown AI level 'expert'" in capsys.readouterr().err


def test_play_seats_the_chosen_level(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    assert main(["play", "twentytwo", "--seed", "2", "--ai", "hard"]) == 0
    assert "Bye (game left unfinished)." in capsys.readouterr().out
    game = games()["twentytwo"]
    terminal = TerminalGame(game, game.new_state(2, 1), 1, io.StringIO(), io.StringIO(), "hard")
    assert isinstance(terminal.agent, SearchAgent)
    assert main(["play", "twentytwo", "--ai", "genius"]) == 2
    assert "unknown AI level 'genius'" in capsys.readouterr().err


def test_a_playout_with_a_standing_stops_at_its_horizon_and_is_judged_by_it() -> None:
    state, seat = positions("fishing", 2, seed=4)[0]
    assert state.view(seat)["stock"] > 8  # the hand goes on past the horizon
    policy = agent(games()["fishing"], "normal")
    assert not isinstance(policy, StateAgent)
    normal: Agent = policy
    moves: list[Action | None] = []

    class Counting:
        needs_view = normal.needs_view

        def choose(self, view: Any, legal: Any, rng: random.Random, optional: bool) -> Any:
            moves.append(normal.choose(view, legal, rng, optional))
            return moves[-1]

    def ahead(world: State) -> list[int]:
        return [3 if other == seat else 0 for other in range(world.players)]

    action = state.legal_actions(seat)[0]
    world = state.determinize(seat, random.Random(1))
    value = rollout_value(world, seat, action, Counting(), 5, Yardstick(2.0, ahead, rounds=2))
    assert len(moves) == 2 * state.players and value > 0.9
    behind = Yardstick(2.0, lambda world: [3 - points for points in ahead(world)], rounds=2)
    world = state.determinize(seat, random.Random(1))
    assert rollout_value(world, seat, action, Counting(), 5, behind) < 0.1


def test_the_heuristic_move_is_left_only_for_one_that_clearly_beat_it() -> None:
    fishing = games()["fishing"]
    searcher = SearchAgent(heuristic(fishing), yardstick(fishing), BUDGET, confidence=1.5)
    worlds = searcher.evidence
    assert searcher.clearly_better([1.0, 0.9, 1.0, 0.8] * worlds, [0.2, 0.1, 0.3, 0.0] * worlds)
    assert not searcher.clearly_better([1.0, 0.0] * worlds, [0.0, 1.0] * worlds)
    ahead = [0.6, 0.9, 0.2, 0.5, 0.4, 0.7][:worlds]  # ahead, but within the noise
    assert not searcher.clearly_better(ahead, [0.5, 0.1, 0.3, 0.6, 0.5, 0.6][:worlds])
    assert not searcher.clearly_better([1.0] * (worlds - 1), [0.0] * (worlds - 1))  # too few


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_a_decision_from_a_saved_state_is_the_levels_own(level: str) -> None:
    state, seat = positions("swazi", 2, seed=3)[0]
    legal = state.legal_actions(seat)
    player = agent(state.game, level, BUDGET)
    if isinstance(player, StateAgent):
        expected = player.choose_in(state, seat, legal, random.Random("t/1"), False)
    else:
        expected = player.choose(state.agent_view(seat), legal, random.Random("t/1"), False)
    assert expected is not None
    assert decide("swazi", state.to_json(), seat, level, "t/1", BUDGET) == expected.text


def test_each_game_sets_how_clearly_a_rival_must_beat_the_heuristic() -> None:
    for game in games().values():
        searcher = agent(game, "hard", BUDGET)
        assert isinstance(searcher, SearchAgent)
        assert searcher.confidence == yardstick(game).confidence
    # Where playouts mislead more, more is asked (see engine.ai.search.Yardstick).
    assert yardstick(games()["cambio"]).confidence > yardstick(games()["fishing"]).confidence


def test_a_playout_budget_is_spent_down_to_the_heuristic_move_against_the_best_rival() -> None:
    game = games()["twentytwo"]
    searcher = SearchAgent(heuristic(game), yardstick(game), BUDGET, stop_early=False)
    for state, seat in positions("twentytwo", 2, seed=6, every=1):
        legal = state.legal_actions(seat)
        if len(legal) >= searcher.width:
            searcher.choose_in(state, seat, legal, random.Random(2), False)
            # Rounding loses a few; stopping before the last round would lose half.
            assert BUDGET.rollouts is not None
            assert 0.75 * BUDGET.rollouts <= searcher.playouts <= BUDGET.rollouts
            return
    raise AssertionError("no position with enough moves")


def test_a_timed_search_plays_at_least_the_games_node_budget() -> None:
    # However busy the machine (here: no time at all), the bot's hard is no weaker than the
    # arena's figures, which use the game's node budget: it plays the same worlds, stops
    # early where that search does, and makes the same decision.
    game = games()["twentytwo"]
    timed = SearchAgent(heuristic(game), yardstick(game), Budget(seconds=0.0))
    counted = SearchAgent(heuristic(game), yardstick(game), Budget(yardstick(game).playouts))
    full = SearchAgent(heuristic(game), yardstick(game), Budget(seconds=0.0), stop_early=False)
    searched = 0
    for state, seat in positions("twentytwo", 2, seed=6, every=1):
        legal = state.legal_actions(seat)
        if len(legal) >= timed.width:
            move = timed.choose_in(state, seat, legal, random.Random(2), False)
            assert move == counted.choose_in(state, seat, legal, random.Random(2), False)
            assert timed.playouts == counted.playouts
            full.choose_in(state, seat, legal, random.Random(2), False)
            assert full.playouts >= 0.75 * yardstick(game).playouts
            searched += 1
    assert searched


def test_the_worlds_planned_are_those_the_rounds_share() -> None:
    # 6 candidates: 5 rivals, then 2, then the best one against the heuristic's move.
    assert search.planned_worlds(32, 3, 5) == 1 + 3 + 5
    assert search.planned_worlds(128, 3, 5) == 7 + 14 + 21
    assert search.planned_worlds(256, 2, 3) == 32 + 64  # 4 candidates: 3 rivals, then 1
    assert search.planned_worlds(32, 1, 1) == 16  # the heuristic's move against one other
    assert search.planned_worlds(4, 3, 5) == 1 + 1 + 1  # every round plays a world


def test_a_search_may_stop_from_half_its_worlds_and_the_evidence_on() -> None:
    assert not search.halfway(5, 6, 9)  # under the evidence a verdict needs
    assert search.halfway(6, 6, 9)
    assert not search.halfway(7, 6, 16)  # under half the planned worlds
    assert search.halfway(8, 6, 16) and search.halfway(15, 6, 16)
    assert not search.halfway(16, 6, 16)  # the search is over anyway


def test_half_way_the_search_stops_only_on_a_plain_verdict() -> None:
    fishing = games()["fishing"]
    searcher = SearchAgent(heuristic(fishing), yardstick(fishing), BUDGET, confidence=1.0)
    preferred = [0.6, 0.4] * 4
    trailing = [0.5, 0.4] * 4  # did no better in any world
    level = [0.4, 0.6] * 4  # as well on the whole
    assert searcher.settled([preferred, trailing, level], [1, 2]) == 0
    assert searcher.settled([preferred, [0.9] * 8, trailing], [2]) == 0  # dropped: no matter
    ahead = [0.7, 0.5] * 4  # ahead in every world by the same: no doubt left
    assert searcher.settled([preferred, trailing, ahead], [1, 2]) is None  # two rivals left
    assert searcher.settled([preferred, trailing, ahead], [2]) == 2
    # Ahead by one standard error and a half: enough at the end, not half way.
    slightly = [0.65, 0.45, 0.6, 0.4, 0.6, 0.4, 0.6, 0.4]
    assert searcher.clearly_better(slightly, preferred)
    assert not searcher.clearly_better(slightly, preferred, strictness=2.0)
    assert searcher.settled([preferred, slightly], [1]) is None


def test_fishing_alone_stops_half_way_for_a_rival_only_further_ahead() -> None:
    # Fishing's early verdicts for a rival were the ones the full search overturned most
    # (docs/ai.md): it asks two standard errors half way where the others ask one.
    preferred = [0.6, 0.4] * 4
    ahead = [0.65, 0.45, 0.6, 0.4, 0.6, 0.4, 0.6, 0.4]  # by one standard error and a half
    alike = ("fishing", "swazi", "twentytwo")  # half a standard error asked at the end
    assert {hard(game_id).confidence for game_id in alike} == {0.5}
    settled = {game_id: hard(game_id).settled([preferred, ahead], [1]) for game_id in alike}
    assert settled == {"fishing": None, "swazi": 1, "twentytwo": 1}
    strictness = {game_id: yardstick(game).settle_strictness for game_id, game in games().items()}
    assert strictness.pop("fishing") == 4.0
    assert set(strictness.values()) == {2.0}


def early_and_full(game_id: str) -> tuple[SearchAgent, SearchAgent]:
    """Two searches of the game's own budget, one that may stop early and one that may not."""
    game = games()[game_id]
    budget = Budget(rollouts=yardstick(game).playouts)
    early = SearchAgent(heuristic(game), yardstick(game), budget)
    return early, SearchAgent(heuristic(game), yardstick(game), budget, stop_early=False)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_search_stopped_half_way_plays_the_heuristic_move_or_the_full_searchs(
    game_id: str,
) -> None:
    # In lockstep with the full search: the same worlds up to the stop, so a search that did
    # not stop makes the full search's decision, and one that stopped plays the heuristic's
    # move or the last rival: where it differs from the full search, one of the two played
    # the heuristic's move. Never more playouts than the full search; fewer on the whole.
    early, full = early_and_full(game_id)
    stopped = 0
    for seed in (1, 2):
        for state, seat in positions(game_id, 2, seed, every=2):
            legal = state.legal_actions(seat)
            view = state.agent_view(seat) if early.policy.needs_view else None
            preferred = early.policy.choose(view, legal, random.Random(seed), False)
            move = early.choose_in(state, seat, legal, random.Random(seed), False)
            searched = full.choose_in(state, seat, legal, random.Random(seed), False)
            assert early.playouts <= full.playouts
            if early.playouts == full.playouts:
                assert move == searched
            else:
                stopped += 1
                assert move == searched or preferred in (move, searched)
    assert stopped


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_search_stopped_early_plays_the_full_searchs_worlds_decision_after_decision(
    game_id: str,
) -> None:
    # World k of a decision is dealt and played from the decision's seed and k, not from the
    # worlds drawn before it: a search that stops early has played the full search's first
    # worlds, and leaves the generator as the full search does, so the next decision (sharing
    # the generator, as a game's do) searches the same worlds again. Paired arena games rest on
    # this: they part only where a decision differs.
    early, full = early_and_full(game_id)
    early_rng, full_rng = random.Random(4), random.Random(4)
    stopped = after_a_stop = 0
    for state, seat in positions(game_id, 2, seed=1, every=2):
        legal = state.legal_actions(seat)
        early.choose_in(state, seat, legal, early_rng, False)
        full.choose_in(state, seat, legal, full_rng, False)
        assert len(early.values) == len(full.values)
        for mine, theirs in zip(early.values, full.values, strict=True):
            assert mine == theirs[: len(mine)]
        assert early_rng.getstate() == full_rng.getstate()
        after_a_stop += stopped > 0 and bool(full.values)
        stopped += early.playouts < full.playouts
    assert after_a_stop


def judged_against_the_others_average(
    world: State, seat: int, before: Sequence[int], yardstick: Yardstick
) -> float:
    """``search.outcome`` as it was before it judged against the best other seat: the seat's
    points of the hand against the others' average."""
    if world.is_over or (yardstick.chances is not None and world.players == 2):  # chances
        return JUDGED_NOW(world, seat, before, yardstick)
    gains = search.hand_gains(world, before, yardstick)
    others = (sum(gains) - gains[seat]) / (len(gains) - 1)
    return 0.5 + 0.5 * math.tanh((gains[seat] - others) / yardstick.scale)


def searched(game_id: str, players: int, judge: Callable[..., float]) -> list[float]:
    """The values ``judge`` (in place of ``search.outcome``) gives the playouts of hard's
    candidates on a few positions (early and later hands) of ``players``: the same values
    make the same decisions."""
    game = games()[game_id]
    policy = heuristic(game)
    stick = yardstick(game)
    values: list[float] = []
    for every in (3, 25):
        for state, seat in positions(game_id, players, seed=1, every=every):
            legal = state.legal_actions(seat)
            rng = random.Random(3)
            for action in (stick.candidates or search.spread)(legal, legal[0], 6, rng):
                for _ in range(4):
                    world = state.determinize(seat, random.Random(rng.getrandbits(48)))
                    before = search.play_on(world, seat, action, policy, rng.getrandbits(32), stick)
                    values.append(judge(world, seat, before, stick))
    return values


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_two_player_decisions_are_judged_as_before_the_best_other_seat_counted(
    game_id: str,
) -> None:
    # The same playout values, so the same decisions, as when hard judged against the others'
    # average: at two players the best other seat is the only one (the arena's 2-player
    # figures stay valid).
    now = searched(game_id, 2, JUDGED_NOW)
    before = searched(game_id, 2, judged_against_the_others_average)
    assert now == before
    assert len(now) > 50


def test_at_three_players_playouts_are_judged_against_the_best_other_seat() -> None:
    now = searched("stuck", 3, JUDGED_NOW)
    before = searched("stuck", 3, judged_against_the_others_average)
    assert now != before


def test_a_last_standing_game_judges_three_players_against_the_others_average() -> None:
    # In twentytwo the last seat not knocked out wins: points pushed onto a trailing rival
    # bring it nearer to going out, which the lead over the best other seat would not count.
    assert yardstick(games()["twentytwo"]).last_standing
    now = searched("twentytwo", 3, JUDGED_NOW)
    before = searched("twentytwo", 3, judged_against_the_others_average)
    assert now == before

    def by_the_lead(world: State, seat: int, before: Sequence[int], stick: Yardstick) -> float:
        return JUDGED_NOW(world, seat, before, replace(stick, last_standing=False))

    assert searched("twentytwo", 3, by_the_lead) != now


def test_only_points_from_the_best_other_seat_gain_the_lead() -> None:
    totals = [10, 12, 3]  # higher is better: seat 1 leads, seat 2 trails
    assert lead_gained(totals, [0, -2, 0], seat=0) == 2
    assert lead_gained(totals, [0, 0, -2], seat=0) == 0  # the trailer stays behind
    assert lead_gained(totals, [0, -4, 0], seat=0) == 4
    assert lead_gained(totals, [0, -12, 0], seat=0) == 9  # then seat 2 is the best other
    assert lead_gained(totals, [3, 0, 0], seat=0) == 3
    assert lead_gained(totals, [0, 0, 10], seat=0) == -1  # seat 2 overtakes seat 1
    for mine, theirs in [(0, 0), (5, -3), (-7, 2)]:
        assert lead_gained([4, 9], [mine, theirs], seat=0) == mine - theirs


def test_easy_judges_its_slips_by_a_hands_points_not_by_the_chances_hard_uses() -> None:
    twentytwo = games()["twentytwo"]
    easy = agent(twentytwo, "easy")
    assert isinstance(easy, EasyAgent)
    assert yardstick(twentytwo).chances is not None and easy.yardstick.chances is None


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_world_dealt_once_and_copied_is_the_world_each_deal_would_give(game_id: str) -> None:
    # The search deals a world once and copies it for every candidate: each copy must be the
    # world a deal of its own would give, and playing in one must leave the others as dealt.
    state, seat = positions(game_id, 2, seed=5)[1]
    copies = search.worlds(state, seat, 1234, 3)
    dealt = state.determinize(seat, random.Random(1234))
    assert copies == [dealt] * 3
    action = copies[0].legal_actions(copies[0].to_act()[0])[0]
    copies[0].apply(copies[0].to_act()[0], action)
    assert copies[0] != dealt and copies[1:] == [dealt] * 2


def test_a_budget_survives_the_trip_to_a_worker_process() -> None:
    # The bot's searches run in worker processes, which get their budget pickled.
    for budget in (Budget(rollouts=8), Budget(seconds=0.5)):
        assert pickle.loads(pickle.dumps(budget)) == budget
