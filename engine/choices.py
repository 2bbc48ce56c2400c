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
from engine.core import Action, CardSet, Game, View
from engine.words import _

HERE = -1
"""Index meaning "the action whose path ends at this step" (when other paths go on from it, or
to confirm an action that asks for it)."""

MAX_CHOICES = 25
"""The most choices a step offers at once (Discord's limit on a select menu); the bot pages
longer steps."""


class StaleChoice(Exception):
    """The indices do not name a step of this legal list (an old or forged choice)."""


class NotAMove(Exception):
    """Members chosen together at a ``Pick`` that make no legal action (say, two cards of
    different ranks where a play takes one rank)."""


@dataclass(frozen=True, slots=True)
class StepChoice:
    """One choice of a step: its path element, and the single action it leads to, if only one."""

    index: int  # its index in the step, or HERE for the action that ends at this step
    step: str
    only: Action | None
    rest: tuple[str, ...]  # the remaining steps of ``only`` after this one
    leads: tuple[Action, ...] = ()  # every action it leads to


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
        choices.append(StepChoice(index, step, only, rest, tuple(actions)))
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
    base, _equals, value = word.partition("=")
    if is_card_text(base):
        card = Card.parse(base).pretty
        return _("{card} as {value}").format(card=card, value=value) if value else card
    if word[:1] == "s" and word[1:].isdigit() and word[1:].isascii():
        seat = int(word[1:])
        return names[seat] if seat < len(names) else _("seat {number}").format(number=seat)
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
        return _("Your move:")
    so_far = " › ".join(
        step_label(game, chosen[:depth], step, names) for depth, step in enumerate(chosen)
    )
    return _("{steps} — then:").format(steps=so_far)


def only_move_reason(game: Game, view: View, legal: Sequence[Action]) -> str | None:
    """Why a seat has a single legal move, when it has one and the game says why."""
    return game.only_move_reason(view, legal[0]) if len(legal) == 1 else None


def choice_label(game: Game, step: Step, choice: StepChoice, names: Sequence[str]) -> str:
    """A choice of ``step`` as offered: the whole action when it leads to one, else what it
    does next (the game's ``leads_label``, else its step), with ``…`` to say more steps
    follow."""
    if choice.only is not None:
        return action_label(game, choice.only, names)
    leads = game.leads_label(step.chosen, choice.step, choice.leads, names)
    return (leads or step_label(game, step.chosen, choice.step, names)) + " …"


# -- several members in one step ----------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Pick:
    """A step that may be answered by choosing several of ``items`` at once (the bot's
    multi-select, the terminal's numbers on one line), derived from the legal actions and the
    game's ``card_set``: ``sizes`` are the legal counts, ``chosen`` the path words before the
    set (what it is for), ``keys`` each item's key (equal keys are interchangeable) and
    ``sets`` each legal set's sorted keys with its action."""

    prefix: tuple[int, ...]
    chosen: tuple[str, ...]
    items: tuple[str, ...]
    keys: tuple[str, ...]
    sizes: tuple[int, ...]
    sets: tuple[tuple[tuple[str, ...], Action], ...]

    def action(self, picked: Sequence[int]) -> Action:
        """The legal action the item indices ``picked`` name together.

        Raises StaleChoice for an index that names no item (or one named twice), NotAMove
        when the items make no legal action together."""
        if len(set(picked)) != len(picked) or not all(0 <= i < len(self.items) for i in picked):
            raise StaleChoice("no such item")
        keys = tuple(sorted(self.keys[i] for i in picked))
        for legal_keys, action in self.sets:
            if legal_keys == keys:
                return action
        raise NotAMove(f"{len(picked)} chosen make no move")


def pick_at(game: Game, legal: Sequence[Action], prefix: Sequence[int]) -> Pick | None:
    """The step at ``prefix`` as one choice of several members, when the game allows it:
    every action left is a set of the game's (``Game.card_set``) starting at the same depth
    after the same path, the sets tell their actions apart, some set has two members or more
    and the items fit one menu (``MAX_CHOICES``). None otherwise (the step is offered one
    choice at a time).

    Raises StaleChoice when the indices name nothing in ``legal``.

    >>> from engine.registry import get_game
    >>> cambio = get_game("cambio")
    >>> legal = [cambio.parse_action(t) for t in ("look A B", "look A C", "look B C")]
    >>> pick = pick_at(cambio, legal, ())
    >>> pick.items, pick.sizes, pick.action([2, 1]).text
    (('A', 'B', 'C'), (2,), 'look B C')
    """
    candidates, _, here = _candidates(legal, prefix)
    if here is not None or len(candidates) < 2:
        return None
    first = game.card_set(candidates[0])
    if first is None or first.depth < len(prefix):
        return None
    depth, shared = first.depth, candidates[0].path[: first.depth]
    found: list[tuple[Action, CardSet]] = []
    for action in candidates:  # stops at the first action that is no such set
        card_set = game.card_set(action)
        if card_set is None or card_set.depth != depth or action.path[:depth] != shared:
            return None
        found.append((action, card_set))
    # items by key, the keys in their first appearance (ranks low to high, positions A B C)
    by_key: dict[str, dict[str, None]] = {}
    sets: dict[tuple[str, ...], Action] = {}
    for action, card_set in found:
        for member, key in zip(card_set.members, card_set.keys, strict=True):
            by_key.setdefault(key, {})[member] = None
        sets.setdefault(tuple(sorted(card_set.keys)), action)
    items = tuple((member, key) for key, members in by_key.items() for member in members)
    sizes = tuple(sorted({len(card_set.members) for _, card_set in found}))
    if len(sets) < len(found) or sizes[-1] < 2 or len(items) > MAX_CHOICES:
        return None
    return Pick(
        tuple(prefix),
        shared,
        tuple(member for member, _ in items),
        tuple(key for _, key in items),
        sizes,
        tuple(sets.items()),
    )


def picked_path(
    game: Game, legal: Sequence[Action], prefix: Sequence[int], picked: Sequence[int]
) -> tuple[int, ...]:
    """The indices (as ``resolve`` reads them) of the action that the items ``picked`` of
    the pick at ``prefix`` name together.

    Raises StaleChoice when there is no such pick or item, NotAMove when the items make no
    legal action together.

    >>> from engine.registry import get_game
    >>> cambio = get_game("cambio")
    >>> legal = [cambio.parse_action(t) for t in ("look A B", "look A C", "look B C")]
    >>> resolve(legal, picked_path(cambio, legal, (), [0, 2])).text
    'look A C'
    """
    pick = pick_at(game, legal, prefix)
    if pick is None:
        raise StaleChoice("no choice of several here")
    return path_of(legal, pick.action(picked))


def path_of(legal: Sequence[Action], action: Action) -> tuple[int, ...]:
    """The indices that lead to ``action`` among ``legal`` (``HERE`` last when other actions
    go on from its path).

    >>> from engine.core import Word
    >>> legal = [Word("draw"), Word("done")]
    >>> path_of(legal, Word("done"))
    (1,)
    """
    candidates = list(legal)
    indices: list[int] = []
    for depth, element in enumerate(action.path):
        steps = list(dict.fromkeys(a.path[depth] for a in candidates if len(a.path) > depth))
        indices.append(steps.index(element))
        candidates = [a for a in candidates if len(a.path) > depth and a.path[depth] == element]
    return (*indices, HERE) if len(candidates) > 1 else tuple(indices)


def pick_labels(game: Game, pick: Pick, names: Sequence[str]) -> tuple[str, ...]:
    """How each item of ``pick`` reads in a menu; copies that read alike (twentytwo's cards
    of one rank) are counted: ``7``, ``7 (2nd)``.

    >>> from engine.registry import get_game
    >>> cambio = get_game("cambio")
    >>> legal = [cambio.parse_action(t) for t in ("look A B", "look A C", "look B C")]
    >>> pick_labels(cambio, pick_at(cambio, legal, ()), [])
    ('Your card A', 'Your card B', 'Your card C')
    """
    labels: list[str] = []
    seen: dict[str, int] = {}
    for item in pick.items:
        words = step_label(game, pick.chosen, item, names)
        words = words[:1].upper() + words[1:]
        seen[words] = copies = seen.get(words, 0) + 1
        labels.append(words if copies == 1 else _copy_label(words, copies))
    return tuple(labels)


def _copy_label(label: str, copy: int) -> str:
    """``label`` of the ``copy``-th item that reads alike: ``7 (2nd)``."""
    if copy == 2:
        return _("{label} (2nd)").format(label=label)
    if copy == 3:
        return _("{label} (3rd)").format(label=label)
    return _("{label} ({number}th)").format(label=label, number=copy)


def pick_prompt(game: Game, pick: Pick, names: Sequence[str]) -> str:
    """What choosing a set at ``pick`` does, with how many to choose (the game's words, else
    "Choose 2", "Choose 1 to 4").

    >>> from engine.registry import get_game
    >>> cambio = get_game("cambio")
    >>> legal = [cambio.parse_action(t) for t in ("look A B", "look A C", "look B C")]
    >>> pick_prompt(get_game("stuck"), pick_at(cambio, legal, ()), [])
    'Choose 2'
    """
    own = game.pick_prompt(pick.chosen, pick.sizes, names)
    return own if own is not None else _("Choose {count}").format(count=count_words(pick.sizes))


def count_words(sizes: Sequence[int]) -> str:
    """Legal counts in words: ``2``, ``1 to 4`` (a run), ``2 or 4``.

    >>> count_words([2]), count_words([1, 2, 3, 4]), count_words([2, 4]), count_words([1, 3, 4])
    ('2', '1 to 4', '2 or 4', '1, 3 or 4')
    """
    if len(sizes) == 1:
        return str(sizes[0])
    if list(sizes) == list(range(sizes[0], sizes[-1] + 1)):
        return _("{low} to {high}").format(low=sizes[0], high=sizes[-1])
    return _("{counts} or {last}").format(counts=", ".join(map(str, sizes[:-1])), last=sizes[-1])
