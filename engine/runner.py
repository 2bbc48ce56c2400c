"""Driving a game with agents: whose move is asked for, in what order (shared by the command
line, the benchmarks and the bot's AI seats)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import cache
from typing import cast

from engine.cards import shuffle
from engine.core import Action, Agent, State, StateAgent


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
    choosers = [
        None if thinks(type(agent)) or cast(Agent, agent).needs_view else cast(Agent, agent).choose
        for agent in agents
    ]
    steps = 0  # actions taken so far
    while True:
        steps += state.play_sole_turns(choosers, rngs, max_steps - steps)
        if state.is_over:
            return steps
        if steps == max_steps:
            break
        step(state, agents, rngs, order_rng)
        steps += 1
    raise RuntimeError(f"game did not end within {max_steps} actions")
