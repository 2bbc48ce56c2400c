"""The words of cambio a player reads (docs/rules/cambio.md): the table's description, the
choices' labels and prompts, the round's scores and the winners, and why a move is refused.
Each sentence is one message (``engine.words``); a player is named through ``{s2}``."""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import RANK_TEXT, Card, describe_cards
from engine.core import Action, View, Word, scores_line
from engine.games.cambio.moves import (
    CAMBIO,
    SWAP,
    BlindSwap,
    Give,
    KingPeek,
    Look,
    OwnAndOtherMove,
    OwnMove,
    Peek,
    Replace,
    Snap,
    Spy,
)
from engine.games.cambio.snaps import snap_open
from engine.games.cambio.table import GIVE, LOOK, POWER, TURN, CambioTable, seat_ref
from engine.layout import Group, Layout, Shown, face_up, rows, stack
from engine.words import N_, _, ngettext

CALL_CAMBIO_CONFIRM = N_(
    "Call Cambio? The others get one more turn each, then every hand is revealed and the round "
    "is scored."
)
"""Asked before a player calls Cambio (§7: it ends the round for everyone)."""

_STEP_WORDS = {
    "draw": N_("Draw a card"),
    "cambio": N_("Call Cambio"),
    "discard": N_("Discard the drawn card"),
    "replace": N_("Keep it in place of one of yours"),
    "skip": N_("Do not use the power"),
    "swap": N_("Swap one of your cards with another player's"),
    "keep": N_("Keep the cards where they are"),
    "look": N_("Look at two of your cards"),
    "peek": N_("Look at one of your cards"),
    "spy": N_("Look at another player's card"),
    "snap": N_("Snap a matching card"),
    "give": N_("Give one of your cards"),
}
"""What each first step of a choice does, by its word."""

_PHASE_HINTS = {
    "drawn": N_(
        "'{action}' is not possible now: replace one of your cards with the drawn card, or "
        "discard it."
    ),
    "decide": N_(
        "'{action}' is not possible now: swap the two cards you looked at, or keep them where "
        "they are."
    ),
    "give": N_("'{action}' is not possible now: give one of your cards into the emptied position."),
}
_POWER_HINTS = {
    "peek": N_("'{action}' is not possible now: look at one of your own cards (peek B) or skip."),
    "spy": N_("'{action}' is not possible now: look at another player's card (spy s1.C) or skip."),
    "swap": N_(
        "'{action}' is not possible now: swap one of your cards with another player's "
        "(swap A s1.C) or skip."
    ),
    "king": N_(
        "'{action}' is not possible now: look at one of yours and another player's "
        "(peek A s1.C) or skip."
    ),
}
"""What an illegal action's answer says may be done instead, by phase (and power)."""


def _first_prompt(offered: Sequence[str]) -> str:
    """The question of a decision's first step, told apart by what it offers.

    >>> _first_prompt(["draw", "cambio", "snap"])
    'Draw a card or call Cambio? (Or snap a card that matches the discard.)'
    """
    if "draw" in offered:
        if "cambio" in offered:
            if "snap" in offered:
                return _("Draw a card or call Cambio? (Or snap a card that matches the discard.)")
            return _("Draw a card or call Cambio?")
        if "snap" in offered:
            return _("Draw a card? (Or snap a card that matches the discard.)")
        return _("Draw a card?")
    if "replace" in offered:
        return _("Keep the drawn card in place of one of yours, or discard it?")
    if "keep" in offered:
        return _("Swap the two cards you looked at, or keep them where they are?")
    if "skip" in offered:
        return _("Use the discarded card's power, or not?")
    if offered == ("snap",):
        return _("Snap a card that matches the discard?")
    return _("Your move:")


def _position_words(owner: str, label: str, names: Sequence[str]) -> str:
    """A position, never to be read as a rank: ``your card A``, ``AI 1's card C``.

    >>> _position_words("s1", "C", ["Ann", "AI 1"]), _position_words("you", "A", [])
    ("AI 1's card C", 'your card A')
    """
    if owner[:1] == "s" and owner[1:].isdigit():
        return _("{player}'s card {label}").format(player=names[int(owner[1:])], label=label)
    return _("your card {label}").format(label=label)


def step_label(chosen: tuple[str, ...], step: str, names: Sequence[str]) -> str | None:
    """A choice step's button: a move's first word, whose cards, or a position."""
    if step in _STEP_WORDS:
        return _(_STEP_WORDS[step])
    if step == "you":
        return _("Your own cards")
    if step[:1] == "s" and step[1:].isdigit():
        return _("{player}'s cards").format(player=names[int(step[1:])])
    owner = chosen[-1] if chosen else ""
    return _position_words(owner, step, names)


def step_prompt(
    chosen: tuple[str, ...], offered: tuple[str, ...], names: Sequence[str]
) -> str | None:
    """The question a choice asks after the steps ``chosen``."""
    if not chosen:
        return _first_prompt(offered)
    last = chosen[-1]
    if last == "you":
        if chosen[0] == "snap":
            return _("Snap which of your cards?")
        if chosen[0] == "spy":
            return _("Look at which of your cards?")
        return _("With which of your cards?")
    if last[:1] == "s" and last[1:].isdigit():
        player = names[int(last[1:])]
        if chosen[0] == "snap":
            prompt = _("Snap which of {player}'s cards?")
        elif chosen[0] == "spy":
            prompt = _("Look at which of {player}'s cards?")
        else:
            prompt = _("With which of {player}'s cards?")
        return prompt.format(player=player)
    if len(chosen) == 1:
        first = _FIRST_STEP_PROMPTS.get(last)
        return None if first is None else _(first)
    if chosen[0] == "look":
        return _("Your card {label} and which other?").format(label=last)
    return _("With whose card?")


def pick_prompt(
    chosen: tuple[str, ...], sizes: tuple[int, ...], names: Sequence[str]
) -> str | None:
    """The question of the opening look's pick of two positions (§4.3)."""
    return _("Look at which two of your cards?") if chosen == ("look",) else None


def action_label(action: Action, names: Sequence[str]) -> str | None:
    """A move in words; a position is always "your card A", never a bare letter."""
    if isinstance(action, Word):
        # a black king's swap after looking: the two cards are known by then
        return _("Swap the two cards") if action == SWAP else _(_STEP_WORDS[action.word])
    if isinstance(action, Look):
        return _("Look at your cards {first} and {second}").format(
            first=action.first, second=action.second
        )
    if isinstance(action, Replace):
        return _("Replace your card {label}").format(label=action.pos)
    if isinstance(action, Peek):
        return _("Look at your card {label}").format(label=action.pos)
    if isinstance(action, Give):
        return _("Give your card {label}").format(label=action.pos)
    if isinstance(action, Spy):
        return _("Look at {player}'s card {label}").format(
            player=names[action.seat], label=action.pos
        )
    if isinstance(action, BlindSwap):
        return _("Swap your card {own} with {player}'s card {label}, unseen").format(
            own=action.own, player=names[action.seat], label=action.pos
        )
    if isinstance(action, KingPeek):
        return _("Look at your card {own} and {player}'s card {label}").format(
            own=action.own, player=names[action.seat], label=action.pos
        )
    assert isinstance(action, Snap)
    if action.seat is None:
        return _("Snap your card {label}").format(label=action.pos)
    return _("Snap {player}'s card {label}").format(player=names[action.seat], label=action.pos)


def describe(view: View) -> list[str]:
    """The table in lines, from a view: the round, each player's positions, whose turn."""
    top = view["discard_top"]
    if top:
        discard = _("discard {top} ({size})").format(
            top=describe_cards([top]), size=view["discard_size"]
        )
    else:
        discard = _("discard empty")
    lines = [
        " · ".join(
            (
                _round_words(view),
                _("dealer {dealer}").format(dealer=seat_ref(view["dealer"])),
                _("stock {count}").format(count=view["stock"]),
                discard,
            )
        )
    ]
    seat = view.get("seat")
    known = view.get("known")
    revealed = view.get("revealed")
    for owner, labels in enumerate(view["positions"]):
        cards: dict[str, str] = {}
        if revealed:
            cards = revealed[owner]
        elif known:
            cards = known[owner]
        # "[B 3♦]" a known card, "[A ?]" an unknown one: a label never reads as a rank.
        shown = " ".join(
            f"[{label} {describe_cards([cards[label]]) if label in cards else '?'}]"
            for label in labels
        )
        line = _HAND_LINES[(owner == seat, bool(shown), view["caller"] == owner)]
        lines.append(_(line).format(player=seat_ref(owner), cards=shown))
    if view.get("drawn"):
        lines.append(_("You drew {card}").format(card=describe_cards([view["drawn"]])))
    seen = view.get("just_seen") or []
    if seen:
        lines.append(
            _("You just saw: {cards}").format(
                cards=", ".join(
                    (
                        _("your card {label}: {card}")
                        if owner == seat
                        else _("{player}'s card {label}: {card}")
                    ).format(player=seat_ref(owner), label=label, card=describe_cards([card]))
                    for owner, label, card in seen
                )
            )
        )
    phase = view["phase"]
    acting = view["to_act"][0] if view["to_act"] else view["turn"]
    if phase == "look":
        lines.append(_("Everyone looks at two of their own cards."))
    elif phase == "turn" and not view["over"]:
        parts = [
            _turn_words(view["turn"], seat),
            _("draw or call Cambio") if view["cambio_allowed"] else _("draw"),
        ]
        if view["snap_window"] and top:
            parts.append(_("snap window open on {card}").format(card=describe_cards([top])))
        lines.append(" · ".join(parts))
    elif phase in _PHASE_WORDS:
        lines.append(_turn_words(acting, seat) + " · " + _(_PHASE_WORDS[phase]))
    elif phase == "power":
        power = _POWER_WORDS[(view["power"], acting == seat)]
        lines.append(_turn_words(acting, seat) + " · " + _(power))
    lines.append(scores_line(view["scores"]))
    return lines


def summary(view: View) -> list[str]:
    """The table's short status: the round, a call, an open snap window, the scores."""
    lines = [
        _round_words(view) + " · " + _("dealer {dealer}").format(dealer=seat_ref(view["dealer"]))
    ]
    if view["caller"] is not None:
        lines.append(
            _("{player} called Cambio: their cards are locked").format(
                player=seat_ref(view["caller"])
            )
        )
    top = view["discard_top"]
    if view["phase"] == "turn" and view["snap_window"] and top:
        rank = RANK_TEXT[Card.parse(top).rank]
        lines.append(
            _("⚡ Snap window: the discard is {card}, snap any {rank}").format(
                card=describe_cards([top]), rank=rank
            )
        )
    lines.append(scores_line(view["scores"]))
    return lines


def _round_words(view: View) -> str:
    """ "Round 2 of 3", or the round and the score limit that ends the game."""
    if view["rounds"]:
        return _("Round {round} of {rounds}").format(round=view["round"], rounds=view["rounds"])
    limit = int(view["limit"])
    return ngettext(
        "Round {round} · until someone reaches {limit} point",
        "Round {round} · until someone reaches {limit} points",
        limit,
    ).format(round=view["round"], limit=limit)


def layout(view: View) -> Layout:
    """The table's picture: the stock, the discard, what was drawn, each player's cards."""
    # Positions are captioned "card A" (as the controls say "your card A") so that a
    # position never reads as a rank.
    faces = view.get("revealed") or view.get("known") or [{} for _hand in view["positions"]]
    just_seen = {(owner, label): card for owner, label, card in view.get("just_seen") or []}
    hands = [
        Group(
            _("You") if owner == view.get("seat") else seat_ref(owner),
            tuple(
                Shown(
                    Card.parse(card) if card else None,
                    _("card {label}").format(label=label),
                )
                for label in labels
                for card in [faces[owner].get(label) or just_seen.get((owner, label))]
            ),
            mine=owner == view.get("seat"),
        )
        for owner, labels in enumerate(view["positions"])
    ]
    table = [
        stack(_("Stock"), view["stock"]),
        stack(_("Discard"), view["discard_size"], view["discard_top"]),
    ]
    if view.get("drawn"):
        table.append(face_up(_("You drew"), [view["drawn"]], mine=True))
    return rows(table, hands)


def _turn_words(acting: int, seat: int | None) -> str:
    """Whose turn it is, as a description's line starts: ``Turn: You``, ``Turn: {s1}``."""
    if acting == seat:
        return _("Turn: You")
    return _("Turn: {player}").format(player=seat_ref(acting))


_HAND_LINES = {
    (True, True, False): N_("You: {cards}"),
    (True, True, True): N_("You: {cards} (called Cambio: locked)"),
    (True, False, False): N_("You: no cards"),
    (True, False, True): N_("You: no cards (called Cambio: locked)"),
    (False, True, False): N_("{player}: {cards}"),
    (False, True, True): N_("{player}: {cards} (called Cambio: locked)"),
    (False, False, False): N_("{player}: no cards"),
    (False, False, True): N_("{player}: no cards (called Cambio: locked)"),
}
"""A player's line in a description, by (the reader's own, any cards, called Cambio)."""

_PHASE_WORDS = {
    "give": N_("give a card into the snapped card's place"),
    "drawn": N_("replace a card with the drawn one, or discard it"),
    "decide": N_("swap the two looked-at cards, or keep them"),
}
"""What the acting player does now, by phase (a description's turn line)."""

_POWER_WORDS = {
    ("peek", True): N_("may look at one of your cards (or skip)"),
    ("peek", False): N_("may look at one of their cards (or skip)"),
    ("spy", True): N_("may look at another player's card (or skip)"),
    ("spy", False): N_("may look at another player's card (or skip)"),
    ("swap", True): N_("may swap one of your cards with another player's, unseen (or skip)"),
    ("swap", False): N_("may swap one of their cards with another player's, unseen (or skip)"),
    ("king", True): N_(
        "may look at one of your cards and another player's, then swap or keep (or skip)"
    ),
    ("king", False): N_(
        "may look at one of their cards and another player's, then swap or keep (or skip)"
    ),
}
"""The power the acting player may use, by (power, the reader acts)."""

_FIRST_STEP_PROMPTS = {
    "look": N_("Look at which two of your cards? The first:"),
    "replace": N_("Put the drawn card in place of which of your cards?"),
    "peek": N_("Look at which of your cards?"),
    "spy": N_("Look at whose card?"),
    "swap": N_("Swap which of your cards (unseen)?"),
    "snap": N_("Snap whose card?"),
    "give": N_("Give which of your cards?"),
}
"""The question after a decision's first step."""


def why_illegal(table: CambioTable, seat: int, action: Action) -> str:
    """Why ``seat`` may not make ``action`` now, found by asking the rules that would allow
    it (the phase's, the targets', the call's, the snap's)."""
    if isinstance(action, Snap):
        return _why_no_snap(table, seat, action)
    if table.phase == LOOK:
        if seat in table.looked:
            return _("You have already looked; wait for the others to look at their cards.")
        if isinstance(action, Look):
            return _("Look at two different positions of your own (like: look A B).")
        return _("First look at two of your cards (like: look C D).")
    if seat not in table.to_act():
        if table.phase == GIVE:
            return _("Wait: the snapper is choosing a card to give.")
        return _("It is not your turn.")
    if action == CAMBIO and table.phase == TURN:
        if table.caller is not None:
            return _("Cambio has already been called this round.")
        return _("You may call Cambio only once everybody has had a turn.")
    hand = table.hands[seat]
    own = _own_position(action)
    if own is not None and own not in hand:
        return _("You have no card in position {label}.").format(label=own)
    if isinstance(action, (Spy, BlindSwap, KingPeek)):
        if action.seat == seat:
            return _("Choose another player's card for that.")
        if action.seat == table.caller:
            return _("That player called Cambio: their cards are locked.")
        if not 0 <= action.seat < table.players or action.pos not in table.hands[action.seat]:
            return _("There is no card at {position}.").format(
                position=f"s{action.seat}.{action.pos}"
            )
    if table.phase == TURN:
        if table.may_call():
            expected = N_("'{action}' is not possible now: draw a card or call Cambio.")
        else:
            expected = N_("'{action}' is not possible now: draw a card.")
    elif table.phase == POWER:
        expected = _POWER_HINTS.get(table.power or "", N_("'{action}' is not possible now: skip."))
    else:
        expected = _PHASE_HINTS[table.phase]
    return _(expected).format(action=action.text)


def _own_position(action: Action) -> str | None:
    """The position of the mover's own that ``action`` names, if any."""
    if isinstance(action, OwnMove):
        return action.pos
    if isinstance(action, OwnAndOtherMove):
        return action.own
    return None


def _why_no_snap(table: CambioTable, seat: int, action: Snap) -> str:
    """Why this snap is refused (§8.1, §7.3)."""
    if not snap_open(table):
        return _("No snap is possible now: the snap window is closed.")
    if seat == table.caller:
        return _("You called Cambio: you may not snap any more.")
    if seat in table.snapped:
        return _("You have already tried a snap on this card.")
    target = seat if action.seat is None else action.seat
    if action.seat == seat:
        return _("Write your own card as '{action}'.").format(action=f"snap {action.pos}")
    if target == table.caller:
        return _("That player called Cambio: their cards are locked.")
    if not 0 <= target < table.players or action.pos not in table.hands[target]:
        return _("There is no card at {position}.").format(position=action.text.split()[1])
    return _("That snap is not possible now.")
