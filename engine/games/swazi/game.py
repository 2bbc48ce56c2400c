"""The game type of swazi: its name, option, move reading, saved games, and the words of its
choices and views (docs/rules/swazi.md §1, §11)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from engine.cards import Card, describe_cards, is_card_text
from engine.core import (
    Action,
    CardSet,
    Game,
    Option,
    State,
    View,
    cards_from_json,
    scores_line,
)
from engine.errors import SavedStateError
from engine.layout import Layout, face_up, rows, stack, your_hand
from engine.words import N_, _, ngettext

from .moves import (
    AUGMENT,
    BUILD,
    CAPTURE,
    CARDLESS_BUILD,
    CHANGE,
    DISCARD,
    TOP_BUILD,
    Move,
    parse_move,
)
from .rules import Build
from .state import SwaziState
from .words import KIND_WORDS, item_words, or_list, pick_question, pretty_word, seat_name


class SwaziGame(Game):
    """The game type of swazi."""

    state_class = SwaziState

    id = "swazi"
    name = N_("Swazi Casino")
    player_counts = (2,)
    options = (
        Option(
            "target",
            21,
            N_("points to reach to win (both reach it: the higher total; a tie plays on)"),
            minimum=1,
            maximum=500,
            label=N_("Target"),
            unit=N_("point"),
        ),
    )
    pitch = N_(
        "Two-player casino with builds: capture by value, build, and steal the "
        "top of your opponent's pile."
    )

    def parse_action(self, text: str) -> Action:
        return parse_move(text)

    def _state_from_json(self, data: Mapping[str, Any]) -> State:
        if int(data["players"]) != 2:
            raise SavedStateError("a saved swazi game has exactly 2 players")
        state = SwaziState.from_saved_header(data)
        state.deal_number = int(data["deal_number"])
        state.dealer = int(data["dealer"])
        state.turn = int(data["turn"])
        state.half = int(data["half"])
        state.hands = [sorted(cards_from_json(hand)) for hand in data["hands"]]
        state.piles = [cards_from_json(pile) for pile in data["piles"]]
        state.loose = sorted(cards_from_json(data["layout"]))
        state.builds = {
            int(build["value"]): Build(
                int(build["value"]),
                int(build["owner"]),
                bool(build["augmented"]),
                cards_from_json(build["cards"]),
            )
            for build in data["builds"]
        }
        if any(not 2 <= value <= TOP_BUILD for value in state.builds):  # §6.2
            raise SavedStateError("a saved swazi build is worth 2 to 14")
        state.stock = cards_from_json(data["stock"])
        state.last_capturer = data["last_capturer"]
        state.read_totals(data)
        named = [card for zone in state.zones() for card in zone.cards]
        if len(set(named)) != len(named):
            raise SavedStateError("a saved swazi game names a card twice")
        return state

    def step_label(self, chosen: tuple[str, ...], step: str, names: Sequence[str]) -> str | None:
        return item_words(step)

    def step_prompt(
        self, chosen: tuple[str, ...], offered: tuple[str, ...], names: Sequence[str]
    ) -> str | None:
        if not chosen:
            return _("Your move: which hand card (or a build with table cards only)?")
        first = chosen[0]
        targets = 1 if first == "build" or first.startswith("augment") else 2
        if len(chosen) < targets:
            return _("What to do with {item}?").format(item=item_words(first))
        # Targets are picked one at a time: say which are picked so far.
        picked = " + ".join(item_words(word) for word in chosen[targets:])
        if not picked:
            return pick_question(chosen[:targets], one_at_a_time=True)
        if first == "build":
            return _("Building with {picked}: what else?").format(picked=picked)
        if targets == 1:
            return _("Adding {picked} to {build}: what else?").format(
                picked=picked, build=item_words(first.split()[1])
            )
        card = item_words(first)
        if chosen[1] == "build on":
            return _("Building {card} on {picked}: what else?").format(card=card, picked=picked)
        return _("Capturing {picked} with {card}: what else?").format(card=card, picked=picked)

    def leads_label(
        self, chosen: tuple[str, ...], step: str, actions: Sequence[Action], names: Sequence[str]
    ) -> str | None:
        if chosen:  # a kind of move with a hand card: what it does with the card
            if step == "build on":
                return _("Build {card} on table cards").format(card=item_words(chosen[0]))
            return item_words(f"capture {chosen[0]}") if step == "capture" else None
        if not is_card_text(step):
            return None
        kinds = dict.fromkeys(cast(Move, action).kind for action in actions)
        return _("{card}: {choices}").format(
            card=Card.parse(step).pretty, choices=or_list([_(KIND_WORDS[kind]) for kind in kinds])
        )

    def card_set(self, action: Action) -> CardSet | None:
        """A build, an augment or a capture is a set of targets after its first steps."""
        assert isinstance(action, Move)
        if action.kind in (CHANGE, DISCARD):
            return None
        depth = 1 if action.kind in (CARDLESS_BUILD, AUGMENT) else 2
        targets = action.path[depth:]
        return CardSet(depth, targets, targets)

    def pick_prompt(
        self, chosen: tuple[str, ...], sizes: tuple[int, ...], names: Sequence[str]
    ) -> str | None:
        return pick_question(chosen, one_at_a_time=False)

    def action_label(self, action: Action, names: Sequence[str]) -> str | None:
        assert isinstance(action, Move)
        kind, card = action.kind, action.card
        loose = [c.pretty for c in action.cards]
        if kind == CARDLESS_BUILD:
            value = sum(c.rank for c in action.cards)
            return _("Build {value} from {cards}").format(value=value, cards=" + ".join(loose))
        if kind == AUGMENT:
            items = [item_words(word) for word in action.augment_items()]
            return _("Add {items} to your build of {value}").format(
                items=" + ".join(items), value=action.build
            )
        assert card is not None
        word = pretty_word(card, action.ace)
        if kind == CAPTURE:
            taken = ([item_words(f"b{action.build}")] if action.build else []) + loose
            return _("Capture {taken} with {card}").format(taken=" + ".join(taken), card=word)
        if kind == BUILD:
            value = sum(c.rank for c in action.cards) + card.rank
            return _("Build {value}: {card} on {cards}").format(
                value=value, card=word, cards=" + ".join(loose)
            )
        if kind == CHANGE:
            value = action.build + (action.ace or card.rank)
            return _("Change your opponent's build of {old} into {value} with {card}").format(
                old=action.build, value=value, card=word
            )
        return _("Lay {card} on the table").format(card=card.pretty)

    def describe(self, view: View) -> list[str]:
        header, scores = self.summary(view)
        layout = describe_cards(view["layout"]) or _("(empty)")
        lines = [header, _("Layout: {cards}").format(cards=layout)]
        for build in view["builds"]:
            line = _("Build of {value} ({owner}, augmented): {cards}")
            if not build["augmented"]:
                line = _("Build of {value} ({owner}): {cards}")
            owner, cards = seat_name(build["owner"]), describe_cards(build["cards"])
            lines.append(line.format(value=build["value"], owner=owner, cards=cards))
        for seat, pile in enumerate(view["piles"]):
            size = pile["size"]
            # the English says "cards" for one too: the plural forms are for other languages
            line = ngettext(
                "Pile of {owner}: {size} cards, top {top}",
                "Pile of {owner}: {size} cards, top {top}",
                size,
            )
            if not pile["top"]:
                line = ngettext(
                    "Pile of {owner}: {size} cards, top empty",
                    "Pile of {owner}: {size} cards, top empty",
                    size,
                )
            top = describe_cards([pile["top"]]) if pile["top"] else ""
            lines.append(line.format(owner=seat_name(seat), size=size, top=top))
        lines.append(scores)
        if "hand" in view:
            hand = describe_cards(view["hand"]) or _("(empty)")
            lines.append(_("Your hand: {cards}").format(cards=hand))
        if view["turn"] is not None:
            lines.append(_("To play: {player}").format(player=seat_name(view["turn"])))
        return lines

    def summary(self, view: View) -> list[str]:
        header = _("Deal {deal} (second half) · dealer {dealer} · playing to {target}")
        if view["half"] == "first":
            header = _("Deal {deal} (first half) · dealer {dealer} · playing to {target}")
        return [
            header.format(
                deal=view["deal_number"],
                dealer=seat_name(view["dealer"]),
                target=self.option("target").amount(view["target"]),
            ),
            scores_line(view["scores"]),
        ]

    def layout(self, view: View) -> Layout:
        builds = [
            face_up(
                _("Build {value} · {owner}").format(
                    value=build["value"], owner=seat_name(build["owner"])
                ),
                build["cards"],
            )
            for build in view["builds"]
        ]
        piles = [
            stack(_("{owner}'s pile").format(owner=seat_name(seat)), pile["size"], pile["top"])
            for seat, pile in enumerate(view["piles"])
        ]
        return rows(
            [face_up(_("Layout"), view["layout"]), *builds],
            [*piles, stack(_("Stock"), view["stock"])],
            your_hand(view),
        )


GAME = SwaziGame()
SwaziState.game = GAME
