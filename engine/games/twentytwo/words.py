"""What Twenty-Two says at the table: its events, one message each (``engine.words``), with the
seats and cards as arguments."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.cards import Card, cards_pretty
from engine.core import Arg, Event, counted_phrase
from engine.games.twentytwo.rules import PLAYER_COUNTS, RANK_LABEL, strength
from engine.words import N_, Nn_, _

ONLY: Final = tuple(frozenset((seat,)) for seat in range(max(PLAYER_COUNTS)))
"""``ONLY[seat]``: who may see a private event of ``seat``."""
PLAYER_ARGS: Final = tuple(("player", f"{{s{seat}}}") for seat in range(max(PLAYER_COUNTS)))
"""``PLAYER_ARGS[seat]``: the argument naming the seat a message is about (``{player}`` is
``{s2}``), made once, as nearly every event has one."""
CARDS: Final = Nn_("{count} card", "{count} cards")
"""How many cards an exchange changes, or a short deck deals each."""

LOSS: Final = N_("Hand {hand}: {players} loses with {rank} and scores {penalty} · totals: {totals}")
LOSS_OUT: Final = N_(
    "Hand {hand}: {players} loses with {rank} and scores {penalty} · totals: {totals} · out: {out}"
)
TIES: Final = {
    2: N_("Hand {hand}: {players} tie with 2s and score {penalty} each · totals: {totals}"),
    3: N_("Hand {hand}: {players} tie with 3s and score {penalty} each · totals: {totals}"),
    4: N_("Hand {hand}: {players} tie with 4s and score {penalty} each · totals: {totals}"),
    5: N_("Hand {hand}: {players} tie with 5s and score {penalty} each · totals: {totals}"),
    6: N_("Hand {hand}: {players} tie with 6s and score {penalty} each · totals: {totals}"),
    7: N_("Hand {hand}: {players} tie with 7s and score {penalty} each · totals: {totals}"),
    8: N_("Hand {hand}: {players} tie with 8s and score {penalty} each · totals: {totals}"),
    9: N_("Hand {hand}: {players} tie with 9s and score {penalty} each · totals: {totals}"),
    10: N_("Hand {hand}: {players} tie with 10s and score {penalty} each · totals: {totals}"),
    11: N_("Hand {hand}: {players} tie with jacks and score {penalty} each · totals: {totals}"),
    12: N_("Hand {hand}: {players} tie with queens and score {penalty} each · totals: {totals}"),
    13: N_("Hand {hand}: {players} tie with kings and score {penalty} each · totals: {totals}"),
    14: N_("Hand {hand}: {players} tie with aces and score {penalty} each · totals: {totals}"),
}
"""The end of a hand lost by several players at once, by the rank they tie with (its plural
is a word, so each rank has its sentence)."""
TIES_OUT: Final = {
    2: N_(
        "Hand {hand}: {players} tie with 2s and score {penalty} each · totals: {totals}"
        " · out: {out}"
    ),
    3: N_(
        "Hand {hand}: {players} tie with 3s and score {penalty} each · totals: {totals}"
        " · out: {out}"
    ),
    4: N_(
        "Hand {hand}: {players} tie with 4s and score {penalty} each · totals: {totals}"
        " · out: {out}"
    ),
    5: N_(
        "Hand {hand}: {players} tie with 5s and score {penalty} each · totals: {totals}"
        " · out: {out}"
    ),
    6: N_(
        "Hand {hand}: {players} tie with 6s and score {penalty} each · totals: {totals}"
        " · out: {out}"
    ),
    7: N_(
        "Hand {hand}: {players} tie with 7s and score {penalty} each · totals: {totals}"
        " · out: {out}"
    ),
    8: N_(
        "Hand {hand}: {players} tie with 8s and score {penalty} each · totals: {totals}"
        " · out: {out}"
    ),
    9: N_(
        "Hand {hand}: {players} tie with 9s and score {penalty} each · totals: {totals}"
        " · out: {out}"
    ),
    10: N_(
        "Hand {hand}: {players} tie with 10s and score {penalty} each · totals: {totals}"
        " · out: {out}"
    ),
    11: N_(
        "Hand {hand}: {players} tie with jacks and score {penalty} each · totals: {totals}"
        " · out: {out}"
    ),
    12: N_(
        "Hand {hand}: {players} tie with queens and score {penalty} each · totals: {totals}"
        " · out: {out}"
    ),
    13: N_(
        "Hand {hand}: {players} tie with kings and score {penalty} each · totals: {totals}"
        " · out: {out}"
    ),
    14: N_(
        "Hand {hand}: {players} tie with aces and score {penalty} each · totals: {totals}"
        " · out: {out}"
    ),
}
"""``TIES``, when one of the losers or more reaches 22 and is out."""


def seat_names(seats: Sequence[int]) -> str:
    """Seats for people: ``{s0}``, ``{s0} and {s1}``, ``{s0}, {s1} and {s2}``."""
    names = [f"{{s{seat}}}" for seat in seats]
    if len(names) == 1:
        return names[0]
    return _("{players} and {last}").format(players=", ".join(names[:-1]), last=names[-1])


def cards_event(seat: int, message: str, cards: Sequence[Card], kind: str) -> Event:
    """A public line of a seat showing cards (``{s0} leads 7♣ 7♦``)."""
    return Event(message, kind, None, (PLAYER_ARGS[seat], ("cards", cards_pretty(cards))))


def seat_event(seat: int, message: str, kind: str) -> Event:
    """A line naming only a seat (``{s0} wins the trick``)."""
    return Event(message, kind, None, (PLAYER_ARGS[seat],))


def deal_event(hand: int, dealer: int, count: int, deck: int, wanted: int, left: int) -> Event:
    """§3: the opening line of hand ``hand`` (from 1): who deals, how many each, the stock."""
    if count == wanted:  # 7, or a penalty: never one card
        message = N_("Hand {hand}: {player} deals {count} cards each; {left} left in the stock")
        dealt: tuple[str, Arg] = ("count", str(count))
    else:  # a short deck may leave one card each
        message = N_(
            "Hand {hand}: {player} deals {cards} each (the deck of {deck} is short for"
            " {wanted} each); {left} left in the stock"
        )
        dealt = ("cards", counted_phrase(CARDS, count))
    numbers = (
        PLAYER_ARGS[dealer],
        ("hand", str(hand)),
        dealt,
        ("left", str(left)),
        ("deck", str(deck)),
        ("wanted", str(wanted)),
    )
    return Event(message, "deal", None, numbers)


def dealt_event(seat: int, hand: Sequence[Card]) -> Event:
    """§3.1: a seat's own cards, seen by that seat only."""
    return Event(
        N_("{player} is dealt {cards}"),
        "hand",
        ONLY[seat],
        (PLAYER_ARGS[seat], ("cards", cards_pretty(hand))),
    )


def exchange_events(
    seat: int, cards: Sequence[Card], drawn: Sequence[Card], left: int
) -> list[Event]:
    """§4.1: an exchange as everyone sees it (how many) and as its player does (which)."""
    message = N_("{player} exchanges {cards}; {left} left in the stock")
    counts = (PLAYER_ARGS[seat], ("cards", counted_phrase(CARDS, len(cards))), ("left", str(left)))
    private = (PLAYER_ARGS[seat], ("cards", cards_pretty(cards)), ("drawn", cards_pretty(drawn)))
    return [
        Event(message, "exchange", None, counts),
        Event(N_("{player} discards {cards} and draws {drawn}"), "exchange", ONLY[seat], private),
    ]


def skipped_event(seats: Sequence[int]) -> Event:
    """§4.2: the stock ran out before ``seats`` had their exchange."""
    skipped = ", ".join([f"{{s{seat}}}" for seat in seats])
    message = N_("The stock is empty: {players} keep their cards")
    return Event(message, "exchange", None, (("players", skipped),))


def draw_events(rounds: Sequence[Sequence[tuple[int, Card]]]) -> list[Event]:
    """§2.1: the high-card draw as table-log lines (ranks only: suits never matter, and the
    cards go back into the deck before the shuffle)."""
    events = []
    for index, drawn in enumerate(rounds):
        what = ", ".join([f"{{s{seat}}} {RANK_LABEL[strength(card)]}" for seat, card in drawn])
        message = (
            N_("Draw for the first dealer: {draws}")
            if index == 0
            else N_("Tied players draw again: {draws}")
        )
        events.append(Event(message, "draw", None, (("draws", what),)))
    dealer = max(rounds[-1], key=lambda pair: strength(pair[1]))[0]
    events.append(seat_event(dealer, N_("{player} drew highest and deals first"), "draw"))
    return events


def loss_event(
    hand: int,
    losers: Sequence[int],
    rank: int,
    points: int,
    totals: Sequence[int],
    out: Sequence[int],
) -> Event:
    """§6.1, §7.2: the end of hand ``hand`` (from 1): who lost with which rank and scored
    what, everyone's totals, and who is out."""
    if len(losers) == 1:
        message = LOSS_OUT if out else LOSS
    else:
        message = TIES_OUT[rank] if out else TIES[rank]
    args = (
        ("hand", str(hand)),
        ("players", seat_names(losers)),
        ("rank", RANK_LABEL[rank]),
        ("penalty", str(points)),
        ("totals", ", ".join([f"{{s{seat}}} {total}" for seat, total in enumerate(totals)])),
        ("out", ", ".join([f"{{s{seat}}}" for seat in out])),
    )
    return Event(message, "hand_end", None, args)


def winners_event(winners: Sequence[int]) -> Event:
    """§7.3: who won."""
    if len(winners) == 1:
        return seat_event(winners[0], N_("{player} wins"), "game_end")
    shared = N_("{players} share the win")
    return Event(shared, "game_end", None, (("players", seat_names(winners)),))
