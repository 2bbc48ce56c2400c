"""fishing's game type: options, reading move text and saves, and its words for people
(prompts, labels, the description and the picture of a view)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engine.cards import Card, describe_cards, parse_cards
from engine.core import (
    Action,
    Game,
    Option,
    State,
    View,
    cards_from_json,
    parse_error,
    scores_line,
    seat_words,
)
from engine.errors import ActionParseError, CardError
from engine.games.fishing.rules import PLAYER_COUNTS, Play
from engine.games.fishing.state import FishingState
from engine.layout import Layout, face_up, rows, stack, your_hand
from engine.words import N_, _


def capture_words(take: Iterable[Card], card: Card) -> str:
    """``Capture 3♥ + 4♠ with 7♣``."""
    return _("Capture {cards} with {card}").format(
        cards=" + ".join(c.pretty for c in take), card=card.pretty
    )


class FishingGame(Game):
    """The game type of fishing."""

    state_class = FishingState

    id = "fishing"
    name = N_("Fishing")
    player_counts = PLAYER_COUNTS
    options = (
        Option(
            "target",
            21,
            N_("points to reach to win (highest total, no tie)"),
            minimum=1,
            maximum=500,
            label=N_("Target"),
            unit="point",
        ),
        Option(
            "multi_capture",
            False,
            N_("one card may take several sum sets plus one same-rank card (Casino style)"),
            kind=bool,
            label=N_("Several captures at once"),
        ),
    )
    pitch = N_("Capture table cards by rank or by sum; most cards, most clubs, 2♣ and 10♦ score.")

    def player_count_message(self, players: int) -> str:
        if players == 5:
            return _(
                "fishing cannot be played by 5: the 48 cards after the table do not deal "
                "out evenly; play with 2, 3, 4 or 6"
            )
        return super().player_count_message(players)

    def parse_action(self, text: str) -> Action:
        words = text.split()
        expected = _("'play CARD' or 'play CARD take CARD …' (e.g. play 6D take 2H 4S)")
        if len(words) < 2 or words[0].lower() != "play" or len(words) == 3:
            raise parse_error(text, expected)
        if len(words) > 2 and words[2].lower() != "take":
            raise parse_error(text, expected)
        try:
            card = Card.parse(words[1])
            take = tuple(sorted(Card.parse(word) for word in words[3:]))
        except CardError as error:
            raise ActionParseError(
                _("cannot read {text}: {error}").format(text=repr(text), error=error)
            ) from None
        if len(set(take)) != len(take) or card in take:
            raise ActionParseError(
                _("cannot read {text}: a card is named twice").format(text=repr(text))
            )
        return Play(card, take)

    def _state_from_json(self, data: Mapping[str, Any]) -> State:
        state = FishingState.from_saved_header(data)
        state.hand_number = int(data["hand_number"])
        state.dealer = int(data["dealer"])
        state.turn = int(data["turn"])
        state.hands = [sorted(cards_from_json(hand)) for hand in data["hands"]]
        state.piles = [cards_from_json(pile) for pile in data["piles"]]
        state.table = sorted(cards_from_json(data["table"]))
        state.stock = cards_from_json(data["stock"])
        state.last_capturer = data["last_capturer"]
        state.read_totals(data)
        return state

    def step_label(self, chosen: tuple[str, ...], step: str, names: Sequence[str]) -> str | None:
        if chosen and step == "leave it":
            return _("Play {card} to the table").format(card=Card.parse(chosen[0]).pretty)
        if chosen and step.startswith("take "):
            return capture_words(parse_cards(step.split()[1:]), Card.parse(chosen[0]))
        return None

    def leads_label(
        self, chosen: tuple[str, ...], step: str, actions: Sequence[Action], names: Sequence[str]
    ) -> str | None:
        # a card leads on only when it may capture (leaving it is always possible too)
        if chosen:
            return None
        return _("Capture with {card}").format(card=Card.parse(step).pretty)

    def step_prompt(
        self, chosen: tuple[str, ...], offered: tuple[str, ...], names: Sequence[str]
    ) -> str | None:
        if not chosen:
            return _("Your move: play which card?")
        return _("Capture with {card}, or leave it on the table?").format(
            card=Card.parse(chosen[0]).pretty
        )

    def action_label(self, action: Action, names: Sequence[str]) -> str | None:
        assert isinstance(action, Play)
        if action.take:
            return capture_words(action.take, action.card)
        return _("Play {card} to the table").format(card=action.card.pretty)

    def describe(self, view: View) -> list[str]:
        header, scores = self.summary(view)
        piles = ", ".join(
            _("{player} {count}").format(player=seat_words(seat), count=size)
            for seat, size in enumerate(view["pile_sizes"])
        )
        lines = [
            header,
            _("Table: {cards}").format(cards=describe_cards(view["table"]) or _("(empty)")),
            _("Piles: {piles}").format(piles=piles),
            scores,
        ]
        if "hand" in view:
            hand = describe_cards(view["hand"]) or _("(empty)")
            lines.append(_("Your hand: {cards}").format(cards=hand))
        return lines

    def summary(self, view: View) -> list[str]:
        if view["multi_capture"]:
            header = _(
                "Hand {hand} · dealer {dealer} · stock {stock} · playing to {target}"
                " · several captures at once"
            )
        else:
            header = _("Hand {hand} · dealer {dealer} · stock {stock} · playing to {target}")
        words = header.format(
            hand=view["hand_number"],
            dealer=seat_words(view["dealer"]),
            stock=view["stock"],
            target=self.option("target").amount(view["target"]),
        )
        return [words, scores_line(view["scores"])]

    def layout(self, view: View) -> Layout:
        piles = [
            stack(_("{player}'s pile").format(player=seat_words(seat)), size)
            for seat, size in enumerate(view["pile_sizes"])
        ]
        return rows(
            [face_up(_("Table"), view["table"])],
            [stack(_("Stock"), view["stock"]), *piles],
            your_hand(view),
        )


GAME = FishingGame()
FishingState.game = GAME
