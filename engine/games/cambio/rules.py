"""The rules of a cambio round as they are played (docs/rules/cambio.md): the deal and the
opening look (§4), a turn (§5), the powers (§6), the Cambio call (§7), and scoring and the
game's end (§11). Snapping, out of turn, is in ``snaps``; taking from the stock (§9) and the
other things a rule does to the table are in ``table``.

Each rule is one function: the moves it allows (``moves`` lists them, phase by phase) and what
a move does (``apply_*``) to the table (``table.CambioTable``); the state
(``state.CambioState``) asks them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.core import Action, Event, counted_phrase, leader_order
from engine.games.cambio import knowledge, snaps
from engine.games.cambio.moves import (
    CAMBIO,
    DISCARD,
    DRAW,
    KEEP,
    SKIP,
    SWAP,
    BlindSwap,
    Give,
    KingPeek,
    Look,
    Peek,
    Replace,
    Spy,
)
from engine.games.cambio.table import (
    DECIDE,
    DRAWN,
    GIVE,
    HAND_SIZE,
    LOOK,
    OVER,
    PEEK,
    POWER,
    RESHUFFLES,
    SPY,
    SWAP_POWER,
    TURN,
    CambioTable,
    Slot,
    label_of,
    points,
    power_of,
    seat_ref,
    see,
    swap,
    take_card,
    unlocked_targets,
)
from engine.words import N_, Nn_

EMPTY_AFTER_RESHUFFLES: Final = Nn_(
    "the stock is empty after the round's {count} reshuffle",
    "the stock is empty after the round's {count} reshuffles",
)
"""Why nobody can draw once a round's reshuffles (§9.2) are spent, a count the language says."""


def start_round(table: CambioTable) -> list[Event]:
    """§4.2: 4 cards each, one at a time from the dealer's left, to A B C D; the rest is
    the stock. §4.3: then everyone looks at two of their positions."""
    deck = table.deck_plan.deck(table.round_index)
    order = leader_order((table.dealer + 1) % table.players, table.players)
    table.hands = [{} for _seat in range(table.players)]
    for index in range(HAND_SIZE * table.players):
        seat = order[index % table.players]
        table.hands[seat][label_of(index // table.players)] = Slot(deck[index])
    table.next_label = [HAND_SIZE] * table.players
    table.stock = deck[HAND_SIZE * table.players :]
    table.discard = []
    table.drawn = None
    table.phase = LOOK
    table.looked = set()
    table.draws = 0
    table.caller = None
    table.window = False
    table.snapped = set()
    table.power = None
    table.king = None
    table.gap = None
    table.giver = None
    table.reshuffles = 0
    table.recent = [[] for _seat in range(table.players)]
    table.turn = (table.dealer + 1) % table.players  # §5.1
    return [
        Event(
            N_("Round {round}: {dealer} deals. Everyone looks at two of their cards."),
            kind="deal",
            args=(("round", str(table.round_index + 1)), ("dealer", seat_ref(table.dealer))),
        )
    ]


def moves(table: CambioTable, seat: int) -> list[Action]:
    """The moves of a seat that may act, each listed by the rule that allows it."""
    phase = table.phase
    hand = table.hands[seat]
    if phase == LOOK:  # §4.3: any two own positions
        labels = list(hand)
        return [
            Look(first, second) for at, first in enumerate(labels) for second in labels[at + 1 :]
        ]
    if phase == TURN:
        listed: list[Action] = []
        if seat == table.turn:  # §5.2 draw, §7.1 or call
            listed.append(DRAW)
            if table.may_call():
                listed.append(CAMBIO)
        # a seat that may act now and is not the turn's may only snap (§8.1)
        if seat != table.turn or snaps.may_snap(table, seat):
            listed.extend(snaps.snap_moves(table, seat))
        return listed
    if phase == DRAWN:  # §5.2
        return [*[Replace(label) for label in hand], DISCARD]
    if phase == POWER:  # §6
        return [*power_moves(table, seat), SKIP]
    if phase == DECIDE:  # §6.4
        return [SWAP, KEEP]
    if phase == GIVE:  # §8.4
        return [Give(label) for label in hand]
    return []


def power_moves(table: CambioTable, seat: int) -> list[Action]:
    """§6.1–§6.4: what the discarded card's power may do."""
    own = table.hands[seat]
    power = table.power
    if power == PEEK:
        return [Peek(label) for label in own]
    targets = unlocked_targets(table, seat)
    if power == SPY:
        return [Spy(other, label) for other, label in targets]
    if power == SWAP_POWER:
        return [BlindSwap(mine, other, label) for mine in own for other, label in targets]
    return [KingPeek(mine, other, label) for mine in own for other, label in targets]


def has_power_target(table: CambioTable, seat: int, power: str) -> bool:
    """§6.5: whether a power has a target (else it is not offered)."""
    if power == PEEK:
        return bool(table.hands[seat])
    others = bool(unlocked_targets(table, seat))
    return others if power == SPY else others and bool(table.hands[seat])


def apply_look(table: CambioTable, seat: int, action: Look) -> list[Event]:
    """§4.3: the opening look; play starts once everyone has looked."""
    first = see(table, seat, seat, action.first)
    second = see(table, seat, seat, action.second)
    table.looked.add(seat)
    labels = (("first", action.first), ("second", action.second))
    events = [
        Event(
            N_("{player} looked at their cards {first} and {second}"),
            "look",
            args=(("player", seat_ref(seat)), *labels),
        ),
        Event(
            N_("You see your card {first}: {first_card}, your card {second}: {second_card}"),
            "look",
            frozenset((seat,)),
            (*labels, ("first_card", first), ("second_card", second)),
        ),
    ]
    if len(table.looked) == table.players:
        table.phase = TURN
        events.append(
            Event(
                N_("Everyone has looked; {player} plays first."),
                "turn",
                args=(("player", seat_ref(table.turn)),),
            )
        )
    return events


def apply_turn(table: CambioTable, seat: int, action: Action) -> list[Event]:
    """§5.2 draw (§9.3: nothing to take ends the round), or §7.1 call Cambio. Either
    closes the snap window (§8.2)."""
    table.window = False
    table.snapped = set()
    player = ("player", seat_ref(seat))
    if action == CAMBIO:
        table.caller = seat
        call = Event(
            N_("{player} calls Cambio! Everyone else has one more turn."),
            "call",
            args=(player,),
        )
        return [call, *end_turn(table, open_window=False)]
    events: list[Event] = []
    card = take_card(table, events)
    if card is None:
        if table.reshuffles == RESHUFFLES:
            empty = counted_phrase(EMPTY_AFTER_RESHUFFLES, RESHUFFLES)
            events.append(
                Event(N_("{player} cannot draw: {empty}."), "draw", args=(player, ("empty", empty)))
            )
        else:
            why = N_("{player} cannot draw: no cards are left to take.")
            events.append(Event(why, "draw", args=(player,)))
        return events + end_round(table)
    table.draws += 1
    table.drawn = card
    table.phase = DRAWN
    events.append(Event(N_("{player} drew a card"), "draw", args=(player,)))
    events.append(
        Event(N_("You drew {card}"), "draw", frozenset((seat,)), (("card", card.pretty),))
    )
    return events


def apply_drawn(table: CambioTable, seat: int, action: Action) -> list[Event]:
    """§5.2: replace an own card (no power), or discard the drawn card (its power, §6)."""
    drawn = table.drawn
    assert drawn is not None
    table.drawn = None
    player = ("player", seat_ref(seat))
    if isinstance(action, Replace):
        old = table.hands[seat][action.pos]
        table.hands[seat][action.pos] = Slot(drawn, {seat})
        table.discard.append(old.card)
        replaced = Event(
            N_(
                "{player} put the drawn card in place of their card {label}; "
                "{card} goes to the discard"
            ),
            "replace",
            args=(player, ("label", action.pos), ("card", old.card.pretty)),
        )
        return [replaced, *end_turn(table)]
    table.discard.append(drawn)
    events = [
        Event(N_("{player} discarded {card}"), "discard", args=(player, ("card", drawn.pretty)))
    ]
    power = power_of(drawn)
    if power is not None and has_power_target(table, seat, power):
        table.power = power
        table.phase = POWER
        return events
    return events + end_turn(table)


def apply_power(table: CambioTable, seat: int, action: Action) -> list[Event]:
    """§6: a power used or skipped (the black king's look leads to its swap or keep)."""
    only_me = frozenset((seat,))
    player = ("player", seat_ref(seat))
    if isinstance(action, Peek):  # §6.1
        card = see(table, seat, seat, action.pos)
        label = ("label", action.pos)
        events = [
            Event(N_("{player} looked at their card {label}"), "power", args=(player, label)),
            Event(N_("Your card {label} is {card}"), "power", only_me, (label, ("card", card))),
        ]
    elif isinstance(action, Spy):  # §6.2
        card = see(table, seat, action.seat, action.pos)
        spied = (("other", seat_ref(action.seat)), ("label", action.pos))
        events = [
            Event(
                N_("{player} looked at {other}'s card {label}"),
                "power",
                args=(player, *spied),
            ),
            Event(
                N_("{other}'s card {label} is {card}"),
                "power",
                only_me,
                (*spied, ("card", card)),
            ),
        ]
    elif isinstance(action, BlindSwap):  # §6.3
        swap(table, seat, action.own, action.seat, action.pos)
        swapped = (("own", action.own), ("other", seat_ref(action.seat)))
        events = [
            Event(
                N_("{player} swapped their card {own} with {other}'s card {label}, unseen"),
                "power",
                args=(player, *swapped, ("label", action.pos)),
            )
        ]
    elif isinstance(action, KingPeek):  # §6.4: look, then swap or keep
        mine = see(table, seat, seat, action.own)
        theirs = see(table, seat, action.seat, action.pos)
        table.king = (action.own, action.seat, action.pos)
        table.phase = DECIDE
        looked = (("own", action.own), ("other", seat_ref(action.seat)), ("label", action.pos))
        return [
            Event(
                N_("{player} looked at their card {own} and {other}'s card {label}"),
                "power",
                args=(player, *looked),
            ),
            Event(
                N_("Your card {own} is {own_card}; {other}'s card {label} is {card}"),
                "power",
                only_me,
                (*looked, ("own_card", mine), ("card", theirs)),
            ),
        ]
    elif table.phase == DECIDE:
        assert table.king is not None
        own, other, pos = table.king
        # The looked cards stay on show while the seat decided; now it must remember them.
        if action == SWAP:
            swap(table, seat, own, other, pos)
            events = [
                Event(
                    N_("{player} swapped their card {own} with {other}'s card {label}"),
                    "power",
                    args=(player, ("own", own), ("other", seat_ref(other)), ("label", pos)),
                )
            ]
        else:
            events = [Event(N_("{player} kept the cards where they were"), "power", args=(player,))]
    else:
        events = [Event(N_("{player} did not use the power"), "power", args=(player,))]
    return events + end_turn(table)


def end_turn(table: CambioTable, open_window: bool = True) -> list[Event]:
    """§5.1 pass the turn left; §8.1 a card on the discard opens a snap window. §7.2 when
    the turn comes back to the caller, the round ends at once (no window after the last
    final turn)."""
    table.phase = TURN
    table.power = None
    table.king = None
    table.snapped = set()
    following = (table.turn + 1) % table.players
    if following == table.caller:
        table.window = False
        return end_round(table)
    table.turn = following
    table.window = open_window and bool(table.discard)
    return []


def round_points(table: CambioTable) -> list[int]:
    """§11.1: each player's card points now (no cards: 0)."""
    return [sum([points(slot.card) for slot in hand.values()]) for hand in table.hands]


def end_round(table: CambioTable) -> list[Event]:
    """§11: reveal and score; then either end the game or deal the next round (§4.1: the
    deal passes left)."""
    for hand in table.hands:
        for slot in hand.values():
            slot.public = True
    scored = round_points(table)
    for seat, gained in enumerate(scored):
        table.totals[seat] += gained
    table.history.append(scored)
    table.window = False
    table.phase = TURN
    table.last_reveal = {**knowledge.public_view(table), "revealed": table.faces()}
    events = [round_scores(table, scored)]
    limit = table.options["limit"]
    rounds = table.options["rounds"] or table.players
    if (limit is not None and max(table.totals) >= int(limit)) or (
        limit is None and table.round_index + 1 >= int(rounds)
    ):
        table.over = True
        table.phase = OVER
        events.append(game_won(table.winners(), min(table.totals)))
        return events
    table.round_index += 1
    table.dealer = (table.dealer + 1) % table.players
    return events + start_round(table)


def round_scores(table: CambioTable, scored: Sequence[int]) -> Event:
    """§11.1: the round's scores, each card with its points so the sum can be checked
    (``5♠ 5, K♥ -1``), then the totals."""
    parts = []
    for seat, hand in enumerate(table.hands):
        cards = ", ".join([f"{slot.card.pretty} {points(slot.card)}" for slot in hand.values()])
        parts.append(f"{seat_ref(seat)} {scored[seat]} ({cards or 'no cards'})")
    shown = "; ".join(parts)
    totals = ", ".join([f"{seat_ref(seat)} {total}" for seat, total in enumerate(table.totals)])
    return Event(
        N_("Round {round} scores: {scores} · totals: {totals}"),
        kind="hand_end",
        args=(("round", str(table.round_index + 1)), ("scores", shown), ("totals", totals)),
    )


def game_won(winners: Sequence[int], best: int) -> Event:
    """§11.2: the lowest total wins; equal lowest share the win."""
    if len(winners) == 1:
        return Event(
            N_("{player} wins with {points} points"),
            "game_end",
            args=(("player", seat_ref(winners[0])), ("points", str(best))),
        )
    return Event(
        N_("{players} share the win with {points} points"),
        "game_end",
        args=(("players", " and ".join(map(seat_ref, winners))), ("points", str(best))),
    )
