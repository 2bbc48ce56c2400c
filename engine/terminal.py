"""The terminal game (``python -m engine play``): a person in seat 0 against AI seats, asked
for each move step by step, with the engine's text said to them as "you"."""

from __future__ import annotations

import gettext
import os
import random
import re
from collections.abc import Mapping, Sequence
from typing import TextIO

from engine.ai import agent
from engine.choices import (
    NotAMove,
    Pick,
    Step,
    action_label,
    choice_label,
    count_words,
    descend,
    only_move_reason,
    path_of,
    pick_at,
    pick_labels,
    pick_prompt,
    resolve,
    step_prompt,
)
from engine.core import Action, Event, Game, State, score_lines
from engine.languages import environment_language, rules_path
from engine.runner import agent_move
from engine.words import N_, _, active_catalog

HELP_KEYS = ("?", "h", "help")
KEYS = N_("Type the number of your choice and press Enter; b goes back, ? shows help, q quits.")
COMMANDS = N_("""Commands, at any question:
  a number  takes that choice
  1 3       several numbers on one line choose those cards together (when asked to)
  b         goes back a step
  0         lets an optional move pass (when offered)
  ?         shows this help and the rules
  q         quits (so does Ctrl-D or Ctrl-C)""")
_BOLD = re.compile(r"\*\*(.+?)\*\*", re.DOTALL)
_ITALIC = re.compile(r"(?<![\w*])\*(\S[^*]*?)\*(?![\w*])")
RED_CARD = re.compile(r"(?:10|[2-9AJQK])[♦♥]")
RED, PLAIN = "\033[31m", "\033[0m"
# Seat 0 is the person at the terminal: engine text about "{s0}" is said to them.
_ABOUT_YOU = re.compile(r"^[\s·]*\{s0\} ")
_YOUR_VERB = re.compile(r"\{s0\} ([a-z]+s)\b")
_IRREGULAR = {"is": "are", "has": "have", "goes": "go", "was": "were"}
_THEIR = re.compile(r"\b(their|themselves)\b")
_AND_VERB = re.compile(r"^([^.;]*? and(?:, [^,]*,)? )([a-z]+s)\b")  # the first clause's 2nd verb
_NOUN_OF_YOU = re.compile(r"\b([A-Z][a-z]+) of \{s0\}")  # a heading: "Pile of {s0}"
# "Scores: You 3", but "unseen: your new card E"
_SENTENCE_START = re.compile(r"(^[\s·(]*|(?<!\d)[.!?] +)(you|your)\b|(: +)(you)\b")


def wants_colour(stream: TextIO, environ: Mapping[str, str]) -> bool:
    """ANSI colours only on a terminal, and never when NO_COLOR is set (no-color.org)."""
    return not environ.get("NO_COLOR") and stream.isatty()


def coloured(text: str) -> str:
    """``text`` with its hearts and diamonds cards in red.

    >>> coloured("9♦ and 3♠") == "\\033[31m9♦\\033[0m and 3♠"
    True
    """
    return RED_CARD.sub(lambda match: f"{RED}{match.group(0)}{PLAIN}", text)


def _present(verb: str) -> str:
    """A verb said of "you", from the form said of someone else: deals → deal."""
    if verb in _IRREGULAR:
        return _IRREGULAR[verb]
    return verb[:-2] if verb.endswith(("sses", "shes", "ches", "xes")) else verb[:-1]


def addressed(text: str) -> str:
    """Engine text (with ``{s0}`` for seat 0) as said to the person in seat 0: you, your.

    >>> addressed("{s1} looked at {s0}'s card A")
    '{s1} looked at your card A'
    >>> addressed("  · {s0} looked at their cards A and B; {s0} plays first.")
    '  · You looked at your cards A and B; you play first.'
    >>> addressed("Round 1: {s0} deals. {s0} is out. Scores: {s0} 0, {s1} 3")
    'Round 1: You deal. You are out. Scores: You 0, {s1} 3'
    >>> addressed("{s0} cannot play and, with 3 stuck cards, draws"), addressed("Pile of {s0}:")
    ('You cannot play and, with 3 stuck cards, draw', 'Your pile:')
    >>> addressed("{s0} takes a card, unseen: {s0}'s new card E"), addressed(" 1. {s0}'s card A")
    ('You take a card, unseen: your new card E', ' 1. your card A')

    """
    if _ABOUT_YOU.match(text):
        text = _THEIR.sub(lambda match: "your" if match.group(1) == "their" else "yourself", text)
        text = _AND_VERB.sub(lambda match: match.group(1) + _present(match.group(2)), text)
    text = _NOUN_OF_YOU.sub(lambda match: f"Your {match.group(1).lower()}", text)
    text = text.replace("{s0}'s", "your")
    text = _YOUR_VERB.sub(lambda match: f"you {_present(match.group(1))}", text)
    text = text.replace("{s0}", "you")
    return _SENTENCE_START.sub(_capitalised, text)


def _capitalised(match: re.Match[str]) -> str:
    before, word = (match.group(1), match.group(2)) if match.group(2) else match.group(3, 4)
    return before + word.capitalize()


def rules_for_terminal(game: Game) -> str:
    """The game's rules text in the terminal's language (data/rules/<id>.<language>.md, else
    the English data/rules/<id>.md) without markdown's emphasis marks, which a terminal shows
    as they are; or its pitch where the text is missing (an engine installed without the
    repository's data folder)."""
    path = rules_path(game.id, environment_language(os.environ))
    if not path.is_file():
        return _("{game}: {pitch}\n(The full rules are in data/rules/{id}.md.)").format(
            game=_(game.name), pitch=_(game.pitch), id=game.id
        )
    text = path.read_text(encoding="utf-8").rstrip()
    return _ITALIC.sub(r"\1", _BOLD.sub(r"\1", text))


class TerminalGame:
    """A game between a person at the terminal (seat 0) and AI seats."""

    def __init__(
        self,
        game: Game,
        state: State,
        seed: int,
        stdin: TextIO,
        stdout: TextIO,
        level: str = "normal",
        *,
        colour: bool = False,
    ) -> None:
        self.game, self.state, self.seed = game, state, seed
        self.stdin, self.stdout, self.colour = stdin, stdout, colour
        self.names = [_("You")] + [
            _("AI {seat}").format(seat=seat) for seat in range(1, state.players)
        ]
        # the verbs said to "you" are rewritten in English only (``addressed``); another
        # language names seat 0 with its word for "you"
        self.in_english = type(active_catalog()) is gettext.NullTranslations
        self.agent = agent(game, level)
        self.rngs = [random.Random(f"{seed}/agent/{seat}") for seat in range(state.players)]
        self.order_rng = random.Random(f"{seed}/order")

    def say(self, text: str = "") -> None:
        """Engine text (seat placeholders filled in, seat 0 as "you")."""
        self.write(Event(addressed(text) if self.in_english else text).render(self.names))

    def write(self, text: str) -> None:
        """Text as it is, red cards in red when colours are on."""
        print(coloured(text) if self.colour else text, file=self.stdout)

    def show_help(self) -> None:
        """The keys and the game's rules; the question is asked again after them."""
        self.write("")
        self.write(_(COMMANDS))
        self.write("")
        self.write(rules_for_terminal(self.game))
        self.write("")

    def show_events(self, events: Sequence[Event]) -> None:
        for event in events:
            if not event.visible(0):
                continue
            if event.kind == "hand_end":  # a player a line under the title
                title, *rest = score_lines(event.translated())
                self.say(f"  · {title}:")
                for line in rest:
                    self.say(f"      {line}")
            else:
                self.say(f"  · {event.translated()}")

    def run(self) -> None:
        """Loop until the game ends (or the person quits)."""
        settings = "".join(
            f" · {option.setting(self.state.options[option.name])}" for option in self.game.options
        )
        opening = _("{game} — {players} players, seed {seed}").format(
            game=_(self.game.name), players=self.state.players, seed=self.seed
        )
        self.say(opening + settings)
        self.write(_(self.game.pitch))
        self.say(_(KEYS))
        self.show_events(self.state.opening_events())
        try:
            while not self.state.is_over:
                seat, action = self.next_move()
                was_in = self.state.is_in(0)
                self.show_events(self.state.apply(seat, action))
                if was_in and not self.state.is_in(0) and not self.state.is_over:
                    self.say(_("You are out: the game plays on without you to its end."))
        except QuitGame:
            self.say(_("Bye (game left unfinished)."))
            return
        self.say("")
        for line in self.game.describe(self.state.view(0)):
            self.say(line)
        self.say(_("Final scores: {scores}.").format(scores=self.scores()))

    def scores(self) -> str:
        pairs = zip(self.names, self.state.scores(), strict=True)
        return ", ".join(
            _("{player} {points}").format(player=name, points=score) for name, score in pairs
        )

    def next_move(self) -> tuple[int, Action]:
        """The next move: the person is asked first whenever they may act (so they are offered
        an out-of-turn window before the AI seats answer it), then the AI seats.

        As at the bot's tables, a move the game waits for is taken only once the window is over:
        if the person's move would close the window, the AI seats answer it first (and when one
        of them acts, that move is applied and the person is asked again).
        """
        seats, waiting = self.state.to_act(), self.state.waiting_for()
        optional = [seat for seat in seats if seat not in waiting and seat != 0]
        self.order_rng.shuffle(optional)
        if 0 in seats:
            action = self.ask(optional=0 not in waiting)
            if action is not None:
                if 0 not in waiting or not optional or not self.closes_window(action, optional):
                    return 0, action
                answered = self.answer_window(optional)
                if answered is None:
                    return 0, action
                said = _("({player} acted first, so your move was not made: choose again)")
                self.say("  " + said.format(player=f"{{s{answered[0]}}}"))
                return answered
        answered = self.answer_window(optional)
        if answered is not None:
            return answered
        for seat in waiting:
            if seat != 0:
                action = agent_move(self.state, seat, self.agent, self.rngs[seat], False)
                if action is not None:
                    return seat, action
        raise RuntimeError("nobody moved")

    def answer_window(self, seats: Sequence[int]) -> tuple[int, Action] | None:
        """The first AI seat (in ``seats``) that takes its optional move, if one does."""
        for seat in seats:
            action = agent_move(self.state, seat, self.agent, self.rngs[seat], True)
            if action is not None:
                return seat, action
        return None

    def closes_window(self, action: Action, others: Sequence[int]) -> bool:
        """Whether the person's ``action`` would end the other seats' out-of-turn window."""
        trial = self.game.state_from_json(self.state.to_json())
        trial.apply(0, action)
        return not any(seat in trial.to_act() for seat in others)

    def ask(self, optional: bool) -> Action | None:
        """Ask the person for a move, step by step along the actions' choice paths (None: the
        person lets an optional move pass). ``b`` goes back a step."""
        legal = self.state.legal_actions(0)
        if optional or len(legal) > 1:
            # A forced move prints no table: the person sees it at their next real choice.
            self.say("")
            for line in self.game.describe(self.state.view(0)):
                self.say(line)
        shown: list[tuple[int, ...]] = []  # the steps offered so far, for going back
        prefix: tuple[int, ...] = ()
        while True:
            # An optional move is never taken for the person, even when it is the only one.
            if optional and not shown:
                target: Action | Step = resolve(legal, prefix, self.game.confirmation)
            else:
                prefix, target = descend(legal, prefix, self.game.confirmation)
            if not isinstance(target, Step):
                if not shown:
                    label = action_label(self.game, target, self.names)
                    reason = only_move_reason(self.game, self.state.view(0), legal)
                    said = _("Your only move: {move} (made for you).").format(move=label)
                    self.say(f"{said} {reason}" if reason else said)
                return target
            # several cards chosen at once, where the game allows: numbers on one line
            pick = pick_at(self.game, legal, prefix) if target.confirms is None else None
            if pick is None:
                self.say(step_prompt(self.game, target, self.names))
                labels = [choice_label(self.game, target, c, self.names) for c in target.choices]
            else:
                self.say(pick_prompt(self.game, pick, self.names))
                labels = list(pick_labels(self.game, pick, self.names))
            for number, label in enumerate(labels, start=1):
                self.say(f"  {number:>2}. {label}")
            if pick is not None:
                said = _("Type {count} of these numbers on one line (1 3).")
                self.say("   " + said.format(count=count_words(pick.sizes)))
            if shown:
                self.say("   b. " + _("back"))
            if optional and not shown:
                self.say("   0. " + _("let it pass"))
            answer = self.read()
            if answer.lower() in HELP_KEYS:
                self.show_help()
                continue
            if answer.lower() in ("b", "back") and shown:
                prefix = shown.pop()
                continue
            if optional and not shown and answer == "0":
                return None
            numbers = _numbers(answer, len(labels))
            sizes = pick.sizes if pick is not None else (1,)
            if numbers is None or len(numbers) not in sizes:
                self.say(self.not_a_choice(answer, pick, sizes, len(labels), shown, optional))
                continue
            if pick is not None:
                picked = self._picked(legal, pick, numbers, labels)
                if picked is None:
                    continue
                shown.append(prefix)
                prefix = picked
                continue
            shown.append(prefix)
            prefix = (*prefix, target.choices[numbers[0] - 1].index)

    @staticmethod
    def not_a_choice(
        answer: str,
        pick: Pick | None,
        sizes: Sequence[int],
        choices: int,
        shown: Sequence[object],
        optional: bool,
    ) -> str:
        """What to type instead of ``answer``, which is none of the ``choices``."""
        if pick is not None:
            keys = _("{count} numbers from 1 to {last}").format(
                count=count_words(sizes), last=choices
            )
        else:
            keys = _("a number from 1 to {last}").format(last=choices)
        if shown:
            keys = _("{keys}, b to go back").format(keys=keys)
        elif optional:
            keys = _("{keys}, 0 to let it pass").format(keys=keys)
        return _("{answer} is not one of the choices: type {keys} (? help, q quits).").format(
            answer=repr(answer), keys=keys
        )

    def _picked(
        self, legal: Sequence[Action], pick: Pick, numbers: Sequence[int], labels: Sequence[str]
    ) -> tuple[int, ...] | None:
        """The indices of the action the numbered items make together, or None (said why)."""
        try:
            return path_of(legal, pick.action([number - 1 for number in numbers]))
        except NotAMove:
            chosen = " + ".join(labels[number - 1] for number in numbers)
            self.say(_("{choices} is not a move together; choose again.").format(choices=chosen))
            return None

    def read(self) -> str:
        print("> ", end="", file=self.stdout, flush=True)
        line = self.stdin.readline()
        if not line:  # Ctrl-D: end the prompt's line before saying goodbye
            print(file=self.stdout)
            raise QuitGame
        if line.strip().lower() in ("q", "quit", "exit"):
            raise QuitGame
        return line.strip()


def _numbers(answer: str, count: int) -> list[int] | None:
    """The distinct numbers from 1 to ``count`` typed in ``answer`` (spaces or commas
    between), or None when anything else was typed."""
    words = answer.replace(",", " ").split()
    # isdigit() alone accepts ² and other digits int() refuses.
    if not words or not all(word.isascii() and word.isdigit() for word in words):
        return None
    numbers = [int(word) for word in words]
    if len(set(numbers)) != len(numbers) or not all(1 <= n <= count for n in numbers):
        return None
    return numbers


class QuitGame(Exception):
    """The person left the terminal game."""
