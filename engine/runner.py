"""Driving a game with agents: whose move is asked for, in what order (shared by the command
line, the benchmarks and the bot's AI seats); and ``collector_paused``, under which
``play_out`` plays (the bot's restore reads saved games under it too)."""

from __future__ import annotations

import gc
import random
from collections.abc import Callable, Sequence
from functools import cache
from typing import cast

from engine.cards import shuffle
from engine.core import Action, Agent, Choose, State, StateAgent


@cache
def thinks(kind: type) -> bool:
    """Whether agents of class ``kind`` are StateAgents (searches). Cached per class: an
    ``isinstance`` check against the ABC costs 0.2 µs, a twentieth of a self-play step."""
    return issubclass(kind, StateAgent)


def agent_move(
    state: State,
    seat: int,
    agent: Agent | StateAgent,
    rng: random.Random,
    optional: bool | None = None,
) -> Action | None:
    """The agent's move for ``seat`` (None when it declines an optional action).

    ``optional`` says whether the game waits for the seat; None works it out.
    """
    legal = state.legal_actions(seat)
    if not legal:
        return None
    if optional is None:
        optional = seat not in state.waiting_for()
    if isinstance(agent, StateAgent):
        return agent.choose_in(state, seat, legal, rng, optional)
    view = state.agent_view(seat) if agent.needs_view else None
    return agent.choose(view, legal, rng, optional)


def step(
    state: State,
    agents: Sequence[Agent | StateAgent],
    rngs: Sequence[random.Random],
    order_rng: random.Random | Callable[[], random.Random],
) -> tuple[int, Action]:
    """Apply one agent move and return (seat, action).

    Seats with optional actions (snaps) are asked first, in random order (``order_rng``, or
    the generator it makes when first needed), so they get their chance before the game moves
    on; then the seats the game waits for.
    """
    seats = state.to_act()
    if len(seats) == 1:  # the common case (and self-play's hot loop): one seat, waited for
        seat = seats[0]
        agent = agents[seat]
        legal = state.legal_actions(seat)
        if thinks(type(agent)):
            action = cast(StateAgent, agent).choose_in(state, seat, legal, rngs[seat], False)
        else:
            player = cast(Agent, agent)
            view = state.agent_view(seat) if player.needs_view else None
            action = player.choose(view, legal, rngs[seat], False)
        if action is not None:
            state.apply(seat, action)
            return seat, action
    else:
        waiting = state.waiting_for()
        optional = [seat for seat in seats if seat not in waiting]
        shuffle(optional, order_rng if isinstance(order_rng, random.Random) else order_rng())
        for seat in [*optional, *waiting]:
            action = agent_move(state, seat, agents[seat], rngs[seat], seat not in waiting)
            if action is not None:
                state.apply(seat, action)
                return seat, action
    raise RuntimeError(f"no seat of {seats} moved; the game waits for {state.waiting_for()}")


def play_out(
    state: State, agents: Sequence[Agent | StateAgent], seed: int, max_steps: int = 1_000_000
) -> int:
    """Play ``state`` to its end with one agent per seat; returns the number of actions."""
    rngs = [random.Random(f"{seed}/agent/{seat}") for seat in range(state.players)]
    made: list[random.Random] = []

    def order_rng() -> random.Random:
        """Made when first needed (seeding a generator costs 6 us, a twentieth of a two-player
        stuck game; only games with out-of-turn actions need this one), then the same one."""
        if not made:
            made.append(random.Random(f"{seed}/order"))
        return made[0]

    # The common step, one seat waited for and an agent that needs no view, is played as
    # ``step`` plays it by the state's ``play_sole_turns``, many in one call; any other step
    # goes through ``step``.
    choosers: list[Choose | None] = [
        None if thinks(type(agent)) or cast(Agent, agent).needs_view else cast(Agent, agent).choose
        for agent in agents
    ]
    steps = 0  # actions taken so far
    with collector_paused():
        while True:
            steps += state.play_sole_turns(choosers, rngs, max_steps - steps)
            if state.is_over:
                return steps
            if steps == max_steps:
                break
            step(state, agents, rngs, order_rng)
            steps += 1
    raise RuntimeError(f"game did not end within {max_steps} actions")


class collector_paused:  # named as the function it was: read as ``with collector_paused():``
    """Python's cyclic garbage collector paused for the block, then as it was: for work that
    makes many objects but no cyclic garbage, where its passes would find nothing.

    The engine makes none (a test plays every game at every level and finds none), so all it
    allocates is freed by reference counting. Yet in self-play the collector's passes, set off
    by every 700 or so new objects, cost twentytwo about a sixth of its time: an exchange
    listing makes up to 2,048 objects, which the passes meet half made and move on to the old
    generation, and that sets off passes over the whole heap. (Mercurial's ``util.nogc``
    pauses it for the same reason.) Process-wide: another thread's cycles wait for the
    collector's next pass after the block; a collector already paused (by the caller, or by
    another thread's block) is left to whoever paused it.

    A class rather than a ``contextlib.contextmanager``: compiled, entering and leaving the
    block are C calls, where contextlib's are Python frames (a microsecond a game, about 1% of
    a short one).
    """

    def __init__(self) -> None:
        self.pausing = False  # whether this block paused the collector (and so restarts it)

    def __enter__(self) -> None:
        self.pausing = gc.isenabled()
        if self.pausing:
            gc.disable()

    def __exit__(self, *raised: object) -> None:
        if self.pausing:
            gc.enable()
