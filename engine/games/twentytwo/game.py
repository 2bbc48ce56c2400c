"""The game type of Twenty-Two: its name and moves as text, its saves, and how a position reads
and looks (docs/rules/twentytwo.md)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.cards import Card, cards_pretty, describe_cards, is_card_text
from engine.choices import count_words
from engine.core import (
    Action,
    CardSet,
    Game,
    State,
    View,
    cards_from_json,
    parse_error,
)
from engine.errors import ActionParseError, CardError, SavedStateError
from engine.games.twentytwo.rules import (
    KEEP,
    PLAYER_COUNTS,
    RANK_LABEL,
    Exchange,
    Play,
    in_rank_order,
    is_beat,
    ranks_of,
    strength,
)
from engine.games.twentytwo.state import TwentyTwoState
from engine.games.twentytwo.words import seat_names
from engine.layout import Layout, face_up, rows, stack, your_hand
from engine.words import N_, _, ngettext


class TwentyTwoGame(Game):
    """The game type of twentytwo."""

    state_class = TwentyTwoState

    lowest_wins = True
    full_deck_hands = 1  # penalty cards leave the deck, so later hands hold fewer

    id = "twentytwo"
    name = N_("Twenty-Two")
    player_counts = PLAYER_COUNTS
    options = ()
    pitch = N_(
        "Don't hold the highest last card: its penalty counts against you, and "
        "22 points puts you out."
    )

    def parse_action(self, text: str) -> Action:
        words = text.split()
        expected = "'keep', 'exchange CARD …' or 'play CARD …' (e.g. play 7C 7D)"
        if not words:
            raise parse_error(text, expected)
        verb = words[0].lower()
        if verb == "keep" and len(words) == 1:
            return KEEP
        if verb not in ("exchange", "play") or len(words) < 2:
            raise parse_error(text, expected)
        try:
            cards = [Card.parse(word) for word in words[1:]]
        except CardError as error:
            raise ActionParseError(f"cannot read {text!r}: {error}") from None
        if len(set(cards)) != len(cards):
            raise ActionParseError(f"cannot read {text!r}: a card is named twice")
        return Exchange.of(cards) if verb == "exchange" else Play.of(cards)

    def _state_from_json(self, data: Mapping[str, Any]) -> State:
        state = TwentyTwoState.from_saved_header(data)
        players = state.players
        state.hand_number = int(data["hand_number"])
        state.dealer = int(data["dealer"])
        state.dealer_draw = [
            [(int(seat), Card.parse(text)) for seat, text in draw] for draw in data["dealer_draw"]
        ]
        state.phase = str(data["phase"])
        if state.phase not in ("exchange", "play", "over"):
            raise SavedStateError(f"unknown twentytwo phase {state.phase!r}")
        state.dealt = int(data["dealt"])
        state.in_hand = [int(seat) for seat in data["in_hand"]]
        state.hands = [in_rank_order(cards_from_json(hand)) for hand in data["hands"]]
        state.discards = [cards_from_json(pile) for pile in data["discards"]]
        state.stock = cards_from_json(data["stock"])
        state.trick = [(int(seat), tuple(cards_from_json(cards))) for seat, cards in data["trick"]]
        best = data["best_seat"]
        state.best_seat = None if best is None else int(best)
        state.best = next(
            (ranks_of(cards) for seat, cards in state.trick if seat == state.best_seat), ()
        )
        state.played = cards_from_json(data["played"])
        state.revealed = cards_from_json(data["revealed"])
        state.pending = [int(seat) for seat in data["pending"]]
        # Games saved before floors were kept know none (a search then assumes less).
        state.floors = [int(floor) for floor in data.get("floors", [0] * players)]
        state.penalties = [cards_from_json(pile) for pile in data["penalties"]]
        state.totals = [int(total) for total in data["totals"]]
        last = data["last_hand"]
        state.last_hand = (
            None
            if last is None
            else {
                "hand": int(last["hand"]),
                "reveals": [[int(seat), str(text)] for seat, text in last["reveals"]],
                "losers": [int(seat) for seat in last["losers"]],
                "penalty": int(last["penalty"]),
            }
        )
        state.winner_seats = [int(seat) for seat in data["winners"]]
        if not (
            len(state.hands) == len(state.discards) == len(state.penalties) == players
            and len(state.totals) == players
        ):
            raise SavedStateError("saved twentytwo state does not match its player count")
        return state

    def step_label(self, chosen: tuple[str, ...], step: str, names: Sequence[str]) -> str | None:
        if is_card_text(step):  # suits never matter: a card is its rank
            return RANK_LABEL[strength(Card.parse(step))]
        if step == "keep":
            return _("Keep your hand")
        if step == "exchange":
            return _("Exchange cards")
        return None

    def card_set(self, action: Action) -> CardSet | None:
        """An exchange or a play is a set of cards, told apart by ranks only."""
        if not isinstance(action, Exchange | Play):
            return None
        members = tuple(card.text for card in action.cards)
        ranks = tuple(str(strength(card)) for card in action.cards)
        return CardSet(1 if isinstance(action, Exchange) else 0, members, ranks)

    def pick_prompt(
        self, chosen: tuple[str, ...], sizes: tuple[int, ...], names: Sequence[str]
    ) -> str | None:
        count = count_words(sizes)
        if chosen == ("exchange",):
            return _(
                "Exchange which cards for new ones from the stock? ({count}; only ranks matter)"
            ).format(count=count)
        if len(sizes) == 1:  # a follow plays as many cards as the lead
            return ngettext(
                "Play which card? (a beat, or your lowest)",
                "Play which {count} cards? (a beat, or your {count} lowest)",
                sizes[0],
            ).format(count=count)
        return _("Lead which cards? ({count} of one rank)").format(count=count)

    def step_prompt(
        self, chosen: tuple[str, ...], offered: tuple[str, ...], names: Sequence[str]
    ) -> str | None:
        if "keep" in offered:
            return _("Keep your hand, or exchange cards for new ones from the stock?")
        if chosen == ("exchange",):
            return _("Exchange which cards? Pick the lowest one first, then each next one up:")
        if chosen[:1] == ("exchange",):
            held = describe_cards(chosen[1:])
            return _("Exchanging {cards}: pick a higher card too, or take these?").format(
                cards=held
            )
        if chosen:
            return _("Playing {cards}: add a card, or play these?").format(
                cards=describe_cards(chosen)
            )
        # only a play of one card is walked from here: plays of several are a pick (pick_prompt)
        return _("Play which card?")

    def action_label(self, action: Action, names: Sequence[str]) -> str | None:
        if isinstance(action, Exchange):
            count = len(action.cards)
            return _("Exchange {cards} (draw {count} new)").format(
                cards=cards_pretty(action.cards), count=count
            )
        if isinstance(action, Play):
            return _("Play {cards}").format(cards=cards_pretty(action.cards))
        return self.step_label((), action.text, names)

    def only_move_reason(self, view: View, action: Action) -> str | None:
        if not isinstance(action, Play):  # an exchange always offers keeping too
            return None
        if not view["trick"]:
            rank = RANK_LABEL[action.ranks[0]]
            return _("You must keep a card in hand, so you lead a single {rank}.").format(rank=rank)
        best = next(play["cards"] for play in view["trick"] if play["seat"] == view["best_seat"])
        if is_beat(action.ranks, ranks_of(map(Card.parse, best))):
            shown = describe_cards(best)
            return _(
                "Whichever cards you pick, the play is the same, and it beats {cards}."
            ).format(cards=shown)
        return ngettext(
            "You can't beat {cards}, so you must play your lowest card.",
            "You can't beat {cards}, so you must play your {count} lowest cards.",
            len(best),
        ).format(cards=describe_cards(best), count=len(best))

    def describe(self, view: View) -> list[str]:
        lines = self._opening(view)
        if view["phase"] == "exchange" and view["to_act"]:
            player = f"{{s{view['to_act'][0]}}}"
            lines.append(_("Exchange: {player} to choose").format(player=player))
        if view["trick"]:
            parts = []
            for entry in view["trick"]:
                player, cards = f"{{s{entry['seat']}}}", describe_cards(entry["cards"])
                part = (
                    _("{player} {cards} (best)")
                    if entry["seat"] == view["best_seat"]
                    else _("{player} {cards}")
                )
                parts.append(part.format(player=player, cards=cards))
            lines.append(_("Trick: {plays}").format(plays="; ".join(parts)))
        elif view["phase"] == "play" and view["to_act"]:
            lines.append(_("{player} leads").format(player=f"{{s{view['to_act'][0]}}}"))
        scores = []
        for seat, total in enumerate(view["scores"]):
            pile = describe_cards(view["penalties"][seat])
            score = (_("{player} {total} ({cards})") if pile else _("{player} {total}")).format(
                player=f"{{s{seat}}}", total=total, cards=pile
            )
            scores.append(score if seat in view["in"] else _("{score} out").format(score=score))
        lines.append(_("Penalties: {scores}").format(scores=", ".join(scores)))
        if "hand" in view:
            held = describe_cards(view["hand"])
            lines.append(
                _("Your hand: {cards}").format(cards=held) if held else _("Your hand: (none)")
            )
        if view["over"]:
            lines.append(_("Winner: {players}").format(players=seat_names(view["winners"])))
        return lines

    def summary(self, view: View) -> list[str]:
        totals = ", ".join(
            (_("{player} {total}") if seat in view["in"] else _("{player} {total} out")).format(
                player=f"{{s{seat}}}", total=total
            )
            for seat, total in enumerate(view["scores"])
        )
        return [*self._opening(view), _("Penalties: {scores}").format(scores=totals)]

    def _opening(self, view: View) -> list[str]:
        """The first dealer's draw (in hand 1), the last hand's reveal, and this hand."""
        lines = []
        if view["hand_number"] == 1 and view["phase"] == "exchange" and view["dealer_draw"]:
            draws = _(" · then ").join(
                ", ".join(f"{{s{seat}}} {rank}" for seat, rank in draw)
                for draw in view["dealer_draw"]
            )
            lines.append(_("Draw for the first dealer: {draws}").format(draws=draws))
        last = view["last_hand"]
        if last is not None:
            shown = ", ".join(f"{{s{seat}}} {rank}" for seat, rank in last["reveals"])
            lines.append(
                _("Last hand: {shown} → {players} +{penalty}").format(
                    shown=shown, players=seat_names(last["losers"]), penalty=last["penalty"]
                )
            )
        lines.append(
            ngettext(
                "Hand {hand} · dealer {player} · {count} card each · stock {stock}",
                "Hand {hand} · dealer {player} · {count} cards each · stock {stock}",
                view["dealt"],
            ).format(
                hand=view["hand_number"],
                player=f"{{s{view['dealer']}}}",
                count=view["dealt"],
                stock=view["stock"],
            )
        )
        return lines

    def layout(self, view: View) -> Layout:
        best = view["best_seat"]
        trick = [
            face_up(
                (
                    _("{player}'s play · best") if play["seat"] == best else _("{player}'s play")
                ).format(player=f"{{s{play['seat']}}}"),
                play["cards"],
            )
            for play in view["trick"]
        ]
        hands = [
            stack(f"{{s{seat}}}", size)
            for seat, size in enumerate(view["hand_sizes"])
            if size and seat != view.get("seat")
        ]
        penalties = [
            face_up(_("{player}'s penalties").format(player=f"{{s{seat}}}"), pile)
            for seat, pile in enumerate(view["penalties"])
            if pile
        ]
        mine = your_hand(view)
        if view.get("discards"):
            mine.append(face_up(_("Your discards"), view["discards"], mine=True))
        shown = [face_up(_("Shown at the end"), view["revealed"])] if view["revealed"] else []
        return rows([*trick, stack(_("Stock"), view["stock"])], hands, [*shown, *penalties], mine)


GAME = TwentyTwoGame()
TwentyTwoState.game = GAME
