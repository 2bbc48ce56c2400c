"""stuck's game type: reading move text and saves, and its words for people (prompts,
labels, the description and the picture of a view)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.cards import (
    SUIT_NAME,
    SUIT_SYMBOL,
    Card,
    describe_cards,
)
from engine.core import (
    Action,
    Game,
    State,
    View,
    cards_from_json,
    joined,
    parse_error,
    scores_line,
    seat_words,
)
from engine.errors import ActionParseError, CardError, SavedStateError
from engine.games.stuck.rules import (
    DONE,
    DRAW,
    FOLLOW,
    GIVES,
    MAX_PLAYERS,
    PHASES,
    PLAY,
    PLAYER_COUNTS,
    PLAYS,
    Give,
    rank_name,
)
from engine.games.stuck.state import StuckState
from engine.layout import Group, Layout, face_down, face_up, rows, stack, your_hand
from engine.words import N_, _


class StuckGame(Game):
    """The game type of stuck."""

    state_class = StuckState

    lowest_wins = True

    id = "stuck"
    name = N_("Stuck")
    player_counts = PLAYER_COUNTS
    pitch = N_(
        "Shed your hand by rank or suit; rank plays stick a card on an opponent. Fewest points win."
    )

    def parse_action(self, text: str) -> Action:
        words = text.lower().split()
        expected = _("'play CARD', 'done', 'give sN' or 'draw' (e.g. play 7H, give s2)")
        if words == ["done"]:
            return DONE
        if words == ["draw"]:
            return DRAW
        if len(words) == 2 and words[0] == "play":
            try:
                return PLAYS[Card.parse(words[1])]
            except CardError as error:
                raise ActionParseError(
                    _("cannot read {text}: {error}").format(text=repr(text), error=error)
                ) from None
        if len(words) == 2 and words[0] == "give":
            digits = words[1][1:]
            if words[1].startswith("s") and digits.isdigit() and int(digits) < MAX_PLAYERS:
                return GIVES[int(digits)]
        raise parse_error(text, expected)

    def _state_from_json(self, data: Mapping[str, Any]) -> State:
        state = StuckState.from_saved_header(data)
        players = state.players
        state.round_index = int(data["round_index"])
        state.dealer = int(data["dealer"])
        state.turn = int(data["turn"])
        state.hands = [sorted(cards_from_json(hand)) for hand in data["hands"]]
        state.stuck = [cards_from_json(cards) for cards in data["stuck"]]
        state.discard = cards_from_json(data["discard"])
        state.pile = cards_from_json(data["pile"])
        state.phase = str(data["phase"])
        state.run = cards_from_json(data["run"])
        state.idle = int(data["idle"])
        state.reshuffles = int(data["reshuffles"])
        state.read_totals(data)
        state.went_out = [None if seat is None else int(seat) for seat in data["went_out"]]
        state.lacks = [
            ({int(suit) for suit in suits}, {int(rank) for rank in ranks})
            for suits, ranks in data["lacks"]
        ]
        if state.phase not in PHASES or (state.phase != PLAY and not state.run):
            raise SavedStateError(f"saved stuck state has a bad phase {state.phase!r}")
        if len(state.hands) != players or len(state.stuck) != players or not state.discard:
            raise SavedStateError("saved stuck state does not match its player count")
        return state

    def step_prompt(
        self, chosen: tuple[str, ...], offered: tuple[str, ...], names: Sequence[str]
    ) -> str | None:
        if offered[0].startswith("give"):
            return _("Bonus: stick a card from the draw pile on whom?")
        if DONE.text in offered:
            return _("Play another card, or end your play?")
        return _("Play which card?")

    def action_label(self, action: Action, names: Sequence[str]) -> str | None:
        if isinstance(action, Give):
            return _("Stick a card on {player}").format(player=names[action.seat])
        if action == DONE:
            return _("Done: end your play")
        if action == DRAW:
            return _("Draw (you have no card to play)")
        return None

    def describe(self, view: View) -> list[str]:
        players = len(view["stuck"])
        header, scores, *hint = self.summary(view)
        current = describe_cards([view["current"]])
        if view["run"]:
            played = describe_cards(view["run"])
            table = _("Current card: {card} · played this turn: {cards}").format(
                card=current, cards=played
            )
        else:
            table = _("Current card: {card}").format(card=current)
        cards = ", ".join(
            _("{player} {held} in hand + {stuck} stuck").format(
                player=seat_words(seat), held=view["hand_sizes"][seat], stuck=view["stuck"][seat]
            )
            for seat in range(players)
        )
        lines = [
            _("{round} · draw pile {count}").format(round=header, count=view["draw_pile"]),
            table,
            _("Cards: {cards}").format(cards=cards),
            scores,
            *hint,
        ]
        if "hand" in view:
            hand = describe_cards(view["hand"]) or _("(empty)")
            lines.append(_("Your hand: {cards}").format(cards=hand))
        if view["over"]:
            winners = joined([seat_words(seat) for seat in view["winners"]])
            said = winners if isinstance(winners, str) else winners.translated()
            lines.append(_("Game over: {players}").format(players=said))
        return lines

    def summary(self, view: View) -> list[str]:
        lines = [
            _("Round {round} of {rounds} · dealer {dealer}").format(
                round=view["round"], rounds=view["rounds"], dealer=seat_words(view["dealer"])
            ),
            scores_line(view["scores"]),
        ]
        if view["run"] and view["phase"] == FOLLOW:
            lines.append(follow_hint(cards_from_json(view["run"])))
        return lines

    def layout(self, view: View) -> Layout:
        table = [
            face_up(_("Current card"), [view["current"]]),
            stack(_("Draw pile"), view["draw_pile"]),
        ]
        if view["run"]:
            table.append(face_up(_("Played this turn"), view["run"]))
        players: list[Group] = []
        for seat, size in enumerate(view["hand_sizes"]):
            yours = seat == view.get("seat")
            if not yours:
                players.append(stack(seat_words(seat), size))
            if view["stuck"][seat]:
                label = (
                    _("You · stuck")
                    if yours
                    else _("{player} · stuck").format(player=seat_words(seat))
                )
                players.append(face_down(label, view["stuck"][seat], yours))
        return rows(table, players, your_hand(view))


def follow_hint(run: Sequence[Card]) -> str:
    """What may follow this turn's cards, for people."""
    first = run[0]
    suit = _("{suit} ({symbol})").format(
        suit=_(SUIT_NAME[first.suit]), symbol=SUIT_SYMBOL[first.suit]
    )
    rank = rank_name(first.rank)
    if all(card.rank == first.rank for card in run):
        if len(run) == 1:
            return _("Next: another {rank}, a {suit}, or done.").format(rank=rank, suit=suit)
        return _("Next: another {rank}, or done.").format(rank=rank)
    return _("Next: another {suit}, or done.").format(suit=suit)


GAME = StuckGame()
StuckState.game = GAME
