"""A move review: the hard AI's judgement of each decision one seat made in a finished game.

For every step where the game waited for the seat and it had a choice, the position before it
is judged as the hard level judges one (``engine.ai.search``): the moves it would compare (the
heuristic's, the game's own pick of others) and the move the seat made are each played out in
the same ``worlds`` freshly dealt by ``State.determinize`` for that seat, every seat played by
the heuristic. The review therefore knows what the seat knew at that moment and no more: two
games that differ only in cards hidden from the seat get the same review of its decisions
(while their moves are the same). A decision's cost is how much the move made did worse than
the best move found: in the search's value (0 to 1, the seat's share of the win where the
game ends, otherwise its lead squashed as ``outcome`` does) and in points (of the hand, as
the seat counts them: fewer taken where the lowest wins is a gain).

Everything is seeded from the review's ``seed`` and the decision's place among the seat's,
never from the record: the same review for the same record, and nothing learnt from the deal.
"""

from __future__ import annotations

import json
import random
import statistics
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass
from functools import lru_cache
from typing import Any

from engine.ai import heuristic, yardstick
from engine.ai.search import hand_gains, outcome, play_on, spread
from engine.choices import action_label
from engine.replay import Replay, ReplayStep
from engine.words import _, ngettext

WORLDS = 48
"""Worlds a decision's moves are played out in (the CPU figure: scripts/bench_review.py)."""

WIDTH = 5
"""Moves compared besides the one made: the heuristic's and the game's pick of others."""


@dataclass(frozen=True, slots=True)
class Judgement:
    """One decision judged: the step it was made at, the move made and the best move found
    (action texts), the move made's expected ``value`` (0 to 1) and ``points`` (of the hand),
    and what it cost against the best (``value_lost``, ``points_lost``; 0 when it was the
    best)."""

    step: int
    chosen: str
    best: str
    value: float
    points: float
    value_lost: float
    points_lost: float

    def to_json(self) -> dict[str, Any]:
        """The judgement as JSON-ready data (``from_json`` reads it back)."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Judgement:
        """A judgement saved by ``to_json``."""
        return cls(**data)

    def line(self, replay: Replay, names: Sequence[str]) -> str:
        """The judgement in words: ``Step 12: Play 7♣ — best: Capture … (−1.5 points, −9%)``:
        the points and the search's value (in percent) the move made lost against the best."""
        made = _label(replay, self.chosen, names)
        if self.best == self.chosen:
            return _("Step {step}: {made} — the best move found").format(step=self.step, made=made)
        better = _label(replay, self.best, names)
        points = f"{-self.points_lost:+.1f}".replace("-", "−")
        value = f"{-100 * self.value_lost:+.0f}".replace("-", "−")
        return _("Step {step}: {made} — best: {better} ({points} points, {value}%)").format(
            step=self.step, made=made, better=better, points=points, value=value
        )


def _label(replay: Replay, text: str, names: Sequence[str]) -> str:
    return action_label(replay.game, replay.game.parse_action(text), names)


def decisions(replay: Replay, seat: int) -> list[ReplayStep]:
    """The steps where the game waited for ``seat`` and it had more than one legal move."""
    found = []
    for step in replay.moves_of(seat):
        before = replay.steps[step.index - 1].state
        if seat in before.waiting_for() and len(before.legal_actions(seat)) > 1:
            found.append(step)
    return found


def judge(
    replay: Replay, step: ReplayStep, ordinal: int, seed: int = 0, worlds: int = WORLDS
) -> Judgement:
    """The judgement of ``step``, the seat's decision number ``ordinal`` (from 0)."""
    assert step.seat is not None and step.action is not None
    seat, state = step.seat, replay.steps[step.index - 1].state
    game = replay.game
    legal = state.legal_actions(seat)
    chosen = game.parse_action(step.action)
    rng = random.Random(f"{seed}/review/{seat}/{ordinal}")
    policy, measure = heuristic(game), yardstick(game)
    view = state.agent_view(seat) if policy.needs_view else None
    preferred = policy.choose(view, legal, rng, False)
    pick = measure.candidates or spread
    moves = pick(legal, chosen if preferred is None else preferred, WIDTH, rng)
    if chosen not in moves:
        moves.append(chosen)
    values: list[list[float]] = [[] for _ in moves]
    points: list[list[float]] = [[] for _ in moves]
    for _world in range(worlds):
        deal_seed, play_seed = rng.getrandbits(48), rng.getrandbits(32)
        for index, move in enumerate(moves):
            world = state.determinize(seat, random.Random(deal_seed))
            before = play_on(world, seat, move, policy, play_seed, measure)
            values[index].append(outcome(world, seat, before, measure))
            points[index].append(hand_gains(world, before, measure)[seat])
    means = [statistics.fmean(found) for found in values]
    best = max(range(len(moves)), key=lambda index: (means[index], moves[index] == chosen))
    made = moves.index(chosen)
    expected = [statistics.fmean(found) for found in points]
    return Judgement(
        step.index,
        step.action,
        moves[best].text,
        means[made],
        expected[made],
        means[best] - means[made],
        expected[best] - expected[made],
    )


def judge_saved(
    record: str, seat: int, ordinal: int, seed: int = 0, worlds: int = WORLDS
) -> dict[str, Any]:
    """``judge`` of the seat's decision number ``ordinal`` in a record given as JSON text, as
    JSON-ready data: one decision at a time, for a worker process (picklable; the replay of
    the last records is kept, as a review asks for each decision in turn)."""
    replay = _replay(record)
    return judge(replay, decisions(replay, seat)[ordinal], ordinal, seed, worlds).to_json()


@lru_cache(maxsize=4)
def _replay(record: str) -> Replay:
    return Replay.of(json.loads(record))


def review(
    replay: Replay,
    seat: int,
    seed: int = 0,
    worlds: int = WORLDS,
    progress: Callable[[int, int], None] | None = None,
) -> list[Judgement]:
    """Every decision of ``seat`` judged, in game order; ``progress(done, total)`` is told
    after each."""
    steps = decisions(replay, seat)
    judged = []
    for ordinal, step in enumerate(steps):
        judged.append(judge(replay, step, ordinal, seed, worlds))
        if progress is not None:
            progress(ordinal + 1, len(steps))
    return judged


def costliest(judged: Sequence[Judgement], count: int = 5) -> list[Judgement]:
    """The ``count`` decisions that cost the most (value first, then points), in game order;
    only those that cost anything."""
    costly = [found for found in judged if found.best != found.chosen and found.value_lost > 0]
    costly.sort(key=lambda found: (-found.value_lost, -found.points_lost, found.step))
    return sorted(costly[:count], key=lambda found: found.step)


def review_lines(
    replay: Replay, seat: int, judged: Sequence[Judgement], names: Sequence[str]
) -> Iterator[str]:
    """The review as text: a summary line, then the costliest decisions."""
    worst = costliest(judged)
    kept = sum(found.best == found.chosen for found in judged)
    yield ngettext(
        "{player}: {count} decision reviewed, {kept} matched the best move found",
        "{player}: {count} decisions reviewed, {kept} matched the best move found",
        len(judged),
    ).format(player=names[seat], count=len(judged), kept=kept)
    if not worst:
        yield _("No move cost anything the search could measure.")
    for found in worst:
        yield found.line(replay, names)
