"""Offering a seat's legal actions in steps, in the words players use.

Every action has a choice path (``Action.path``): legal actions sharing a prefix share those
steps. This module is the one place that turns a legal list into a tree of steps (for the
terminal game and the bot alike) and that words a step, a whole action and the question a step
asks. A game words its own steps through ``Game.step_label``, ``Game.step_prompt`` and
``Game.action_label`` (a cambio position is a place in a row, never a rank); what a game leaves
to the generic words gets its cards written with suit symbols and its seats by name.

A step is named by the indices chosen so far (``(2, 0)``: the third choice of the first step,
then the first of the second). Choices keep the order of their first appearance in the legal
list, so the same legal list always gives the same indices: a button naming a position's
revision and these indices names one action for good.

>>> from engine.core import Word
>>> legal = [Word("draw"), Word("done")]
>>> [choice.step for choice in resolve(legal, ()).choices]
['draw', 'done']
>>> resolve(legal, (1,))
Word(word='done')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.cards import Card, is_card_text
from engine.core import Action, Game, View

HERE = -1
"""Index meaning "the action whose path ends at this step" (when other paths go on from it, or
to confirm an action that asks for it)."""

MAX_CHOICES = 25
"""The most choices a step offers at once (Discord's limit on a select menu); the bot pages
longer steps."""


class StaleChoice(Exception):
    """The indices do not name a step of this legal list (an old or forged choice)."""


@dataclass(frozen=True, slots=True)
class StepChoice:
    """One choice of a step: its path element, and the single action it leads to, if only one."""

    index: int  # its index in the step, or HERE for the action that ends at this step
    step: str
    only: Action | None
    rest: tuple[str, ...]  # the remaining steps of ``only`` after this one


@dataclass(frozen=True, slots=True)
class Step:
    """A step: what was chosen so far and what may be chosen next; ``confirms``: the question
    of a step that only confirms the one action chosen (its one choice, at ``HERE``)."""

    prefix: tuple[int, ...]
    chosen: tuple[str, ...]
    choices: tuple[StepChoice, ...]
    confirms: str | None = None


Confirmation = Callable[[Action], "str | None"]
"""The question to confirm an action with before it is made, or None (``Game.confirmation``)."""


def no_confirmation(action: Action) -> str | None:
    """No action asks to be confirmed."""
    return None


def _candidates(
    legal: Sequence[Action], prefix: Sequence[int]
) -> tuple[list[Action], list[str], Action | None]:
    candidates = list(legal)
    chosen: list[str] = []
    for depth, index in enumerate(prefix):
        if index == HERE:
            ends = [a for a in candidates if len(a.path) == depth]
            if len(ends) != 1 or depth != len(prefix) - 1:
                raise StaleChoice("no action ends here")
            return ends, chosen, ends[0]
        steps = list(dict.fromkeys(a.path[depth] for a in candidates if len(a.path) > depth))
        if not 0 <= index < len(steps):
            raise StaleChoice("no such choice")
        chosen.append(steps[index])
        candidates = [
            a for a in candidates if len(a.path) > depth and a.path[depth] == steps[index]
        ]
    return candidates, chosen, None


def resolve(
    legal: Sequence[Action], prefix: Sequence[int], confirmation: Confirmation = no_confirmation
) -> Action | Step:
    """The action the indices lead to (when only one is left), or the next step to offer. An
    action whose whole path is chosen and that ``confirmation`` asks about is offered once
    more, as a step of its own (``Step.confirms``); ``HERE`` then confirms it.

    Raises StaleChoice when the indices name nothing in ``legal``.

    >>> from engine.core import Word
    >>> legal = [Word("draw"), Word("cambio")]
    >>> def ask(action): return "Sure?" if action.text == "cambio" else None
    >>> resolve(legal, (1,), ask).confirms
    'Sure?'
    >>> resolve(legal, (1, HERE), ask)
    Word(word='cambio')
    >>> resolve(legal, (0,), ask)
    Word(word='draw')
    """
    candidates, chosen, here = _candidates(legal, prefix)
    if here is not None:
        return here
    if len(candidates) == 1 and prefix:
        action = candidates[0]
        question = confirmation(action)
        if question is not None and len(prefix) == len(action.path):
            return Step(
                tuple(prefix), tuple(chosen), (StepChoice(HERE, action.text, action, ()),), question
            )
        return action
    return _step(candidates, chosen, prefix)


def first_step(legal: Sequence[Action]) -> Step:
    """The step every move among ``legal`` starts with (``resolve(legal, ())``, always a step).

    Raises StaleChoice when ``legal`` is empty.

    >>> from engine.core import Word
    >>> [choice.step for choice in first_step([Word("draw")]).choices]
    ['draw']
    >>> first_step([Word("draw"), Word("done")]) == resolve([Word("draw"), Word("done")], ())
    True
    """
    return _step(list(legal), [], ())


def _step(candidates: list[Action], chosen: list[str], prefix: Sequence[int]) -> Step:
    """The step after ``prefix`` (which chose ``chosen``), among the actions it leaves."""
    if not candidates:
        raise StaleChoice("nothing to choose")
    depth = len(prefix)
    choices: list[StepChoice] = []
    ends = [a for a in candidates if len(a.path) == depth]
    if ends:
        choices.append(StepChoice(HERE, ends[0].text, ends[0], ()))
    groups: dict[str, list[Action]] = {}
    for action in candidates:
        if len(action.path) > depth:
            groups.setdefault(action.path[depth], []).append(action)
    for index, (step, actions) in enumerate(groups.items()):
        only = actions[0] if len(actions) == 1 else None
        rest = tuple(only.path[depth + 1 :]) if only is not None else ()
        choices.append(StepChoice(index, step, only, rest))
    return Step(tuple(prefix), tuple(chosen), tuple(choices))


def descend(
    legal: Sequence[Action], prefix: Sequence[int], confirmation: Confirmation = no_confirmation
) -> tuple[tuple[int, ...], Action | Step]:
    """Like ``resolve``, but passing through steps that offer a single choice (nothing to
    decide there, unless it confirms an action); returns the indices reached with what they
    lead to.

    >>> from engine.core import Word
    >>> descend([Word("draw")], ())
    ((), Word(word='draw'))
    """
    indices = tuple(prefix)
    while True:
        target = resolve(legal, indices, confirmation)
        if isinstance(target, Step) and len(target.choices) == 1 and target.confirms is None:
            if not indices and target.choices[0].only is not None:
                return indices, target.choices[0].only
            indices = (*indices, target.choices[0].index)
            continue
        return indices, target


# -- words -------------------------------------------------------------------------------------
def readable(text: str, names: Sequence[str]) -> str:
    """Machine words in people form: cards with suit symbols (an ace's chosen value after it)
    and seats (``s1``) by the names shown at the table.

    >>> readable("play 6D take 2H 4S", ["Ann", "Bob"])
    'play 6♦ take 2♥ 4♠'
    >>> readable("give s1", ["Ann", "Bob"])
    'give Bob'
    >>> readable("AC=14", ["Ann", "Bob"])
    'A♣ as 14'
    """
    return " ".join(_readable_word(word, names) for word in text.split())


def _readable_word(word: str, names: Sequence[str]) -> str:
    base, _, value = word.partition("=")
    if is_card_text(base):
        return Card.parse(base).pretty + (f" as {value}" if value else "")
    if word[:1] == "s" and word[1:].isdigit() and word[1:].isascii():
        seat = int(word[1:])
        return names[seat] if seat < len(names) else f"seat {seat}"
    return word


def step_label(game: Game, chosen: Sequence[str], step: str, names: Sequence[str]) -> str:
    """How the choice ``step`` (after ``chosen``) reads on a button or a numbered line."""
    own = game.step_label(tuple(chosen), step, names)
    return own if own is not None else readable(step, names)


def action_label(game: Game, action: Action, names: Sequence[str]) -> str:
    """How a whole action reads ("Play 7♣ to the table").

    >>> from engine.core import Word
    >>> from engine.registry import get_game
    >>> action_label(get_game("stuck"), Word("draw"), ["You", "AI 1"])
    'Draw (you have no card to play)'
    """
    own = game.action_label(action, names)
    if own is not None:
        return own
    words = readable(action.text, names)
    return words[:1].upper() + words[1:]


def step_prompt(game: Game, step: Step, names: Sequence[str]) -> str:
    """The question ``step`` asks (what is being decided).

    >>> from engine.core import Word
    >>> from engine.registry import get_game
    >>> step = resolve([Word("give s1"), Word("give s2")], ())
    >>> assert isinstance(step, Step)
    >>> step_prompt(get_game("stuck"), step, ["You", "AI 1", "AI 2"])
    'Bonus: stick a card from the draw pile on whom?'
    """
    if step.confirms is not None:
        return step.confirms
    chosen = step.chosen
    own = game.step_prompt(chosen, tuple(choice.step for choice in step.choices), names)
    if own is not None:
        return own
    if not chosen:
        return "Your move:"
    so_far = " › ".join(
        step_label(game, chosen[:depth], step, names) for depth, step in enumerate(chosen)
    )
    return f"{so_far} — then:"


def only_move_reason(game: Game, view: View, legal: Sequence[Action]) -> str | None:
    """Why a seat has a single legal move, when it has one and the game says why."""
    return game.only_move_reason(view, legal[0]) if len(legal) == 1 else None


def choice_label(game: Game, step: Step, choice: StepChoice, names: Sequence[str]) -> str:
    """A choice of ``step`` as offered: the whole action when it leads to one, else its step
    (with ``…`` to say more steps follow)."""
    if choice.only is not None:
        return action_label(game, choice.only, names)
    return step_label(game, step.chosen, choice.step, names) + " …"
