"""The terminal game and the command line, driven through their input and output."""

from __future__ import annotations

import gettext
import io
import json
import os
import pty
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine import cli, languages, words
from engine.cards import FULL_DECK
from engine.choices import Step, descend, pick_at, pick_labels, resolve, step_prompt
from engine.cli import EXIT_INTERRUPTED, main
from engine.core import Action, State, View
from engine.languages import RULES_DIR
from engine.registry import games, get_game
from engine.terminal import (
    COMMANDS,
    RED_CARD,
    QuitGame,
    TerminalGame,
    rules_for_terminal,
    wants_colour,
)
from tests.engine.decks import round_robin_deck
from tests.engine.helpers import sampled_steps
from tests.engine.test_twentytwo import deal_deck


def terminal(state: State, answers: str) -> tuple[TerminalGame, io.StringIO]:
    """A terminal game on ``state`` that reads ``answers`` (one per line)."""
    out = io.StringIO()
    return TerminalGame(state.game, state, 7, io.StringIO(answers), out), out


def random_position(game_id: str, players: int, wanted: Any, seed: int = 0) -> State:
    """Play random moves until ``wanted(state)`` holds (the person, seat 0, may act)."""
    game = get_game(game_id)
    for attempt in range(200):
        state = game.new_state(players, seed + attempt)
        rng = random.Random(attempt)
        for _ in range(2000):
            if state.is_over:
                break
            if wanted(state):
                return state
            seat = state.waiting_for()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    raise AssertionError(f"no {game_id} position found")


# -- steps and Back --------------------------------------------------------------------------
def deep_step(state: State) -> bool:
    """The person has a step after the first to decide (so there is something to go back to)."""
    if 0 not in state.waiting_for():
        return False
    legal = state.legal_actions(0)
    prefix, first = descend(legal, ())
    if not isinstance(first, Step) or pick_at(state.game, legal, prefix) is not None:
        return False
    for choice in first.choices:
        if choice.only is None:
            _, target = descend(legal, (*prefix, choice.index))
            if isinstance(target, Step):
                return True
    return False


def group_number(step: Step) -> int:
    """The number of the first choice leading to more steps."""
    return 1 + next(i for i, choice in enumerate(step.choices) if choice.only is None)


@pytest.mark.parametrize(
    ("game_id", "players"), [("fishing", 2), ("twentytwo", 3), ("swazi", 2), ("cambio", 3)]
)
def test_back_returns_to_the_first_step_from_every_later_step(game_id: str, players: int) -> None:
    state = random_position(game_id, players, deep_step)
    legal = state.legal_actions(0)
    prefix, first = descend(legal, ())
    assert isinstance(first, Step)
    # choose a step, go back, choose it again and go down as far as the steps go, then back
    # out step by step to the first one, and leave
    number = group_number(first)
    answers = [str(number), "b", str(number)]
    prefix, depth = (*prefix, first.choices[number - 1].index), 0
    while True:
        prefix, target = descend(legal, prefix)
        if not isinstance(target, Step) or all(c.only is not None for c in target.choices):
            break
        if pick_at(state.game, legal, prefix) is not None:  # the cards at once: the last step
            break
        pick = group_number(target)
        answers.append(str(pick))
        prefix, depth = (*prefix, target.choices[pick - 1].index), depth + 1
    answers += ["b"] * (depth + 1) + ["q"]
    session, out = terminal(state, "\n".join(answers) + "\n")
    with pytest.raises(QuitGame):
        session.ask(optional=False)
    menus = out.getvalue().split("> ")
    opening = menus[0].splitlines()[-len(first.choices) - 1 :]
    # the first step is shown again after the first Back and after backing out of every step
    assert menus[2].endswith("\n".join(opening) + "\n")
    assert menus[-2].endswith("\n".join(opening) + "\n")
    assert "b. back" in menus[1] and "b. back" not in menus[-2]
    assert state.legal_actions(0) == legal  # nothing was played


def test_twentytwo_exchange_can_be_taken_back_to_keeping_the_hand() -> None:
    state = random_position(
        "twentytwo", 2, lambda s: s.waiting_for() == (0,) and s.phase == "exchange"
    )
    session, out = terminal(state, "2\nb\n1\n")
    action = session.ask(optional=False)
    assert action is not None and action.text == "keep"
    shown = out.getvalue()
    assert "b. back" in shown


def test_several_cards_are_chosen_on_one_line() -> None:
    state = get_game("cambio").new_state(2, 3)
    session, out = terminal(state, "1\n1 1\n1 3\n")
    action = session.ask(optional=False)
    assert action is not None and action.text == "look A C"
    shown = out.getvalue()
    assert "Look at which two of your cards?\n   1. Your card A\n   2. Your card B" in shown
    assert "Type 2 of these numbers on one line (1 3)." in shown
    assert shown.count("'1' is not one of the choices: type 2 numbers from 1 to 4") == 1
    assert "'1 1' is not one of the choices" in shown


def test_cards_that_make_no_move_together_are_refused_and_asked_again() -> None:
    twentytwo = get_game("twentytwo")
    hands = {1: "2D 3D 4D 5D 6D 7D 8D", 0: "9C 9D 10C 10D JC QC KC"}
    state = twentytwo.new_state(2, 1, deck=deal_deck(2, 0, hands))
    for seat, text in ((1, "keep"), (0, "keep"), (1, "play 2D"), (0, "play KC")):
        state.apply_text(seat, text)
    pick = pick_at(twentytwo, state.legal_actions(0), ())
    assert pick is not None
    number = {label: str(place) for place, label in enumerate(pick_labels(twentytwo, pick, []), 1)}
    answers = [f"{number['9']} {number['10']}", f"{number['9 (2nd)']}, {number['9']}"]
    session, out = terminal(state, "\n".join(answers) + "\n")
    action = session.ask(optional=False)
    assert action is not None and action.text == "play 9C 9D"
    assert "Lead which cards? (1 to 2 of one rank)" in out.getvalue()
    assert "9 + 10 is not a move together; choose again." in out.getvalue()


# -- odd input, Ctrl-C, Ctrl-D ---------------------------------------------------------------
def test_any_input_that_is_not_a_listed_number_asks_again() -> None:
    state = get_game("fishing").new_state(2, 5)
    while 0 not in state.waiting_for():
        seat = state.waiting_for()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    first = resolve(state.legal_actions(0), ())
    assert isinstance(first, Step)
    odd = ["²", "٣", "0", "-1", "99", "", "b", "1.5", "one", " "]
    session, out = terminal(state, "\n".join(odd) + "\n1\n" + "1\n" * 5)
    action = session.ask(optional=False)
    assert action in state.legal_actions(0)
    text = out.getvalue()
    assert text.count("is not one of the choices") == len(odd)
    assert text.count("Your move") >= len(odd) + 1


def test_ctrl_d_and_q_leave_with_one_line(capsys: Any) -> None:
    for answers in ["", "q\n"]:
        out = io.StringIO()
        args = ["play", "fishing", "--seed", "3"]
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr("sys.stdin", io.StringIO(answers))
            patch.setattr("sys.stdout", out)
            assert main(args) == 0
        assert out.getvalue().rstrip().splitlines()[-1].endswith("Bye (game left unfinished).")
        assert "Traceback" not in out.getvalue()


class CtrlC(io.StringIO):
    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        raise KeyboardInterrupt


def test_ctrl_c_leaves_with_one_line_and_no_traceback(capsys: Any) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("sys.stdin", CtrlC())
        assert main(["play", "swazi", "--seed", "1"]) == EXIT_INTERRUPTED
    out, err = capsys.readouterr()
    assert out.rstrip().splitlines()[-1] == "Bye (game left unfinished)."
    assert err == ""


# -- out-of-turn windows and forced moves ----------------------------------------------------
class AlwaysActs:
    """An agent that takes its first legal move at once (it would win every race)."""

    needs_view = False

    def __init__(self) -> None:
        self.asked: list[bool] = []

    def choose(
        self, view: View | None, legal: Any, rng: random.Random, optional: bool
    ) -> Action | None:
        self.asked.append(optional)
        first: Action = legal[0]
        return first


def snap_window_for_person_and_ai(state: State) -> bool:
    optional = set(state.to_act()) - set(state.waiting_for())
    return 0 in optional and len(optional) > 1


def test_the_person_is_offered_a_snap_window_before_the_ai_seats() -> None:
    state = random_position("cambio", 3, snap_window_for_person_and_ai)
    session, out = terminal(state, "1\n1\n1\n1\n")
    session.agent = agent = AlwaysActs()
    seat, action = session.next_move()
    assert seat == 0 and action.text.startswith("snap")
    assert agent.asked == []
    assert "let it pass" in out.getvalue()


def test_a_window_passed_by_the_person_goes_to_the_ai_seats() -> None:
    state = random_position("cambio", 3, snap_window_for_person_and_ai)
    session, _ = terminal(state, "0\n")
    session.agent = agent = AlwaysActs()
    seat, _ = session.next_move()
    assert seat != 0 and agent.asked == [True]


def test_the_persons_turn_move_waits_for_the_window_as_at_the_bot() -> None:
    def person_to_draw_while_ai_may_snap(state: State) -> bool:
        others = set(state.to_act()) - set(state.waiting_for())
        return state.waiting_for() == (0,) and bool(others - {0})

    state = random_position("cambio", 3, person_to_draw_while_ai_may_snap)
    session, out = terminal(state, "1\n")  # 1 is Draw
    session.agent = AlwaysActs()
    seat, _ = session.next_move()
    assert seat != 0
    assert "acted first" in out.getvalue()


def test_a_single_move_is_made_for_the_person_with_a_line_saying_so() -> None:
    def forced(state: State) -> bool:
        return state.waiting_for() == (0,) and len(state.legal_actions(0)) == 1

    state = random_position("stuck", 2, forced)
    session, out = terminal(state, "")  # reading would leave the game
    action = session.ask(optional=False)
    assert action == state.legal_actions(0)[0]
    assert "(made for you)" in out.getvalue()
    # nothing to decide, so the table is not printed again for it
    assert not any(line in out.getvalue() for line in state.game.describe(state.view(0)))


def test_a_twentytwo_player_put_out_is_told_the_game_plays_on_without_them() -> None:
    game = get_game("twentytwo")
    state = game.new_state(3, 0)
    session = TerminalGame(game, state, 0, io.StringIO("1\n" * 20000), out := io.StringIO())
    session.run()  # always the first choice: seat 0 is put out (seed 0), the others play on
    assert not state.is_in(0) and 0 not in state.winners()
    said = out.getvalue()
    assert said.count("You are out: the game plays on without you") == 1
    assert said.index("You are out") < said.index("Final scores")


def test_a_single_optional_move_is_never_taken_for_the_person() -> None:
    state = random_position("cambio", 3, snap_window_for_person_and_ai)
    session, _ = terminal(state, "0\n")
    assert session.ask(optional=True) is None


# -- words -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "game_id",
    ["fishing", pytest.param("twentytwo", marks=pytest.mark.slow), "swazi", "cambio", "stuck"],
)
def test_every_step_asks_what_is_being_decided(game_id: str) -> None:
    """At every position of three random games, the steps each seat could be shown (a seeded
    sample: ``sampled_steps``) ask what they decide."""
    game, names = get_game(game_id), ["Player (you)", "AI 1", "AI 2"]
    prompts = set()
    for seed in range(3):
        state, rng = (
            game.new_state(game.player_counts[-1] if game_id == "swazi" else 3, seed),
            random.Random(seed),
        )
        sampler = random.Random(f"steps/{seed}")
        for _ in range(150 if game_id != "swazi" else 40):
            if state.is_over:
                break
            for seat in state.to_act():
                for step in sampled_steps(state.legal_actions(seat), sampler):
                    prompt = step_prompt(game, step, names)
                    # the generic words say nothing of what is decided
                    assert prompt != "Your move:" and not prompt.endswith("— then:"), prompt
                    prompts.add(prompt)
            seat = state.waiting_for()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert len(prompts) > 1


def test_the_stuck_bonus_asks_whom_to_stick_a_card_on_by_name() -> None:
    state = random_position("stuck", 3, lambda s: s.waiting_for() == (0,) and s.phase == "give")
    session, out = terminal(state, "1\n")
    action = session.ask(optional=False)
    assert action is not None
    shown = out.getvalue()
    assert "Bonus: stick a card from the draw pile on whom?" in shown
    assert "1. Stick a card on AI " in shown and "s1" not in shown and "s2" not in shown
    assert action.text.startswith("give s")


@pytest.mark.parametrize("game_id", ["fishing", "twentytwo", "swazi", "cambio", "stuck"])
def test_every_game_opens_its_first_round_with_a_line(game_id: str) -> None:
    state = get_game(game_id).new_state(2, 4)
    session, out = terminal(state, "q\n")
    session.run()
    opening = out.getvalue().split("\n\n")[0]
    word = {"swazi": "Deal 1:", "cambio": "Round 1:", "stuck": "Round 1 of 2:"}.get(
        game_id, "Hand 1:"
    )
    assert f"  · {word}" in opening
    if game_id == "stuck":  # the up card is seen even when the AI plays first
        assert "the up card is " in opening


# -- the command line ------------------------------------------------------------------------
def test_play_help_lists_each_options_default(capsys: Any) -> None:
    with pytest.raises(SystemExit) as done:
        main(["play", "fishing", "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert "target" in out and "default 21 points" in out and "multi_capture" in out
    assert "memory_aid" not in out  # only fishing's
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    out = capsys.readouterr().out
    assert "memory_aid" in out and "default off" in out and "twentytwo has no options" in out
    assert all(f"{game.id}: {game.pitch}" in out for game in games().values())
    # an option left unset says what that means, in the help and in the header
    assert "rounds to play (1 to 50, or off for one per player; default one per player)" in out
    session, shown = terminal(get_game("cambio").new_state(2, 1), "q\n")
    session.run()
    assert "Rounds: one per player · Score limit: off" in shown.getvalue().splitlines()[0]


def test_a_reader_that_goes_away_ends_the_game_quietly() -> None:
    # ``./run play fishing | head -3``: no BrokenPipeError traceback
    game = subprocess.Popen(
        [sys.executable, "-m", "engine", "play", "fishing", "--seed", "1"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert game.stdout is not None and game.stdin is not None
    game.stdout.readline()
    game.stdout.close()
    _, err = game.communicate(b"1\n" * 200, timeout=60)
    assert game.returncode == 0 and err == b""


def test_the_header_shows_the_options_in_use_in_peoples_words() -> None:
    state = get_game("fishing").new_state(2, 1, {"target": 11})
    session, out = terminal(state, "")
    session.run()
    assert out.getvalue().splitlines()[0] == (
        "Fishing — 2 players, seed 7 · Target: 11 points · Several captures at once: off"
    )


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "--game", "fishing", "--games", "-3"],
        ["simulate", "--game", "fishing", "--games", "0"],
        ["simulate", "--game", "fishing", "--players", "0"],
        ["play", "fishing", "--players", "0"],
        ["play", "fishing", "--players", "-2"],
    ],
)
def test_bad_counts_are_refused_in_one_line(args: list[str], capsys: Any) -> None:
    assert main(args) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert len(err.splitlines()) == 1 and "must be 1 or more" in err


def write(tmp_path: Path, record: dict[str, Any]) -> str:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    return str(path)


def test_replay_checks_every_given_deck_before_playing(tmp_path: Path, capsys: Any) -> None:
    good = round_robin_deck(["AC 2C 3C 4C", "AD 2D 3D 4D"], after=["5C 5D 5H 5S"])
    bad = [*good[:-1], good[0]]  # the last card replaced by a repeat of the first
    short = good[:-1]
    record = {"game": "fishing", "players": 2, "seed": 1, "deck": [good, good, short]}
    assert main(["replay", write(tmp_path, record)]) == 2
    err = capsys.readouterr().err
    assert "hand 3" in err and f"missing: {good[-1]}" in err
    record["deck"] = [good, bad]
    assert main(["replay", write(tmp_path, record)]) == 2
    assert "twice" in capsys.readouterr().err


def test_a_later_twentytwo_deck_names_the_action_that_reached_it(
    tmp_path: Path, capsys: Any
) -> None:
    first = [card.text for card in FULL_DECK]
    state = get_game("twentytwo").new_state(2, 4, deck=[first])
    actions = []
    while state.hand_number == 0:  # type: ignore[attr-defined]
        seat = state.waiting_for()[0]
        action = state.legal_actions(seat)[0]
        actions.append([seat, action.text])
        state.apply(seat, action)
    # the second deck holds all 52 cards, but hand 1's penalty card is out of play
    record = {
        "game": "twentytwo",
        "players": 2,
        "seed": 4,
        "deck": [first, first],
        "actions": actions,
    }
    assert main(["replay", write(tmp_path, record)]) == 2
    err = capsys.readouterr().err
    assert f"action {len(actions) - 1}" in err and "hand 2" in err and "not in play" in err


# -- ./run -----------------------------------------------------------------------------------
RUN = Path(__file__).resolve().parents[2] / "run"


def test_run_reads_paths_from_the_callers_folder(tmp_path: Path) -> None:
    (tmp_path / "r0.json").write_text(json.dumps({"game": "stuck", "players": 2, "seed": 1}))
    done = subprocess.run(
        [str(RUN), "engine", "replay", "r0.json"], cwd=tmp_path, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["over"] is False


def test_run_help_is_the_command_list_only() -> None:
    done = subprocess.run([str(RUN)], capture_output=True, text=True)
    assert done.returncode == 0
    lines = done.stdout.splitlines()
    assert lines[-1].strip().startswith("./run bench")
    assert not any("set -e" in line for line in lines)
    assert [" ".join(line.split()[1:3]) for line in lines if line.startswith("  ./run")] == [
        "demo try",
        "bot start",
        "backup [FILE]",
        "restore FILE",
        "migrate [--check]",
        "doctor [--online]",
        "play fishing",
        "test lint,",
        "test --fast",
        "engine ARGS...",
        "build build",
        "lock write",
        "catalogs extract",
        "bench print",
    ]


# -- help key, colours, names ----------------------------------------------------------------
def test_the_help_key_shows_the_keys_and_the_rules_then_asks_again() -> None:
    state = get_game("cambio").new_state(2, 1)
    session, out = terminal(state, "?\nq\n")
    session.run()
    shown = out.getvalue()
    assert shown.splitlines()[1] == state.game.pitch  # the game in a line, under its name
    assert "? shows help" in shown.splitlines()[2]  # said at the start
    assert COMMANDS in shown
    rules = rules_for_terminal(state.game)
    assert rules in shown and "## Your turn" in rules
    # the rules text without its emphasis marks: "**low**" reads "low"
    assert "**" not in rules and "*Example:*" not in rules
    assert "Keep your total low: you play" in rules
    assert "**low**" in (RULES_DIR / "cambio.md").read_text(encoding="utf-8")
    after_help = shown[shown.index(rules) :]
    assert "Look at which two of your cards?\n" in after_help  # the question again
    assert shown.count("Look at which two of your cards?\n") == 2


def test_red_cards_are_red_only_when_colours_are_on() -> None:
    state = get_game("fishing").new_state(2, 1)
    plain, out = terminal(state, "q\n")
    plain.run()
    assert "\033[" not in out.getvalue()
    red = next(card for card in RED_CARD.findall(out.getvalue()))
    black = next(word for word in out.getvalue().split() if word.endswith(("♠", "♣")))
    coloured = TerminalGame(
        state.game, state, 7, io.StringIO("q\n"), shown := io.StringIO(), colour=True
    )
    coloured.run()
    assert f"\033[31m{red}\033[0m" in shown.getvalue()
    assert f"\033[31m{black}" not in shown.getvalue()


class Tty(io.StringIO):
    """An output that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_colours_are_off_for_a_pipe_and_for_no_color() -> None:
    assert wants_colour(Tty(), {})
    assert not wants_colour(io.StringIO(), {})  # a pipe or a file
    assert not wants_colour(Tty(), {"NO_COLOR": "1"})
    assert wants_colour(Tty(), {"NO_COLOR": ""})  # no-color.org: set and not empty


def test_the_play_command_colours_a_terminal_but_not_a_pipe() -> None:
    command = [sys.executable, "-m", "engine", "play", "fishing", "--seed", "1"]
    piped = subprocess.run(command, input=b"q\n", capture_output=True, timeout=60, check=True)
    assert RED_CARD.search(piped.stdout.decode()) and b"\033[" not in piped.stdout
    for environ, expected in [({}, True), ({"NO_COLOR": "1"}, False)]:
        leader, follower = pty.openpty()
        env = {key: value for key, value in os.environ.items() if key != "NO_COLOR"}
        game = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=follower, env={**env, **environ}
        )
        os.close(follower)
        game.communicate(b"q\n", timeout=60)
        said = b""
        while chunk := _read_pty(leader):
            said += chunk
        os.close(leader)
        assert (b"\033[31m" in said) is expected, environ


def _read_pty(leader: int) -> bytes:
    try:
        return os.read(leader, 65536)
    except OSError:  # the other end closed: everything was read
        return b""


THIRD_PERSON = {"is", "has", "goes", "was", "deals", "plays", "wins", "takes", "calls"}
THIRD_PERSON |= {"chooses", "leads", "beats", "discards", "exchanges", "keeps", "loses"}
THIRD_PERSON |= {"shows", "sticks", "starts", "looks", "draws", "puts", "snaps"}


@pytest.mark.parametrize(("game_id", "seed"), [("cambio", 3), ("stuck", 1), ("twentytwo", 2)])
def test_the_person_is_you_and_your_in_every_line(game_id: str, seed: int) -> None:
    game = get_game(game_id)
    state = game.new_state(2, seed)
    # the first choice, or the first two where two cards are chosen at once
    answers = io.StringIO("1 2\n1\n" * 5000)
    session = TerminalGame(game, state, seed, answers, out := io.StringIO())
    session.run()
    said = out.getvalue()
    assert "Player (you)" not in said and "{s0}" not in said
    verbs = set(re.findall(r"\b[Yy]ou ([a-z]+)\b", said))
    assert verbs and not verbs & THIRD_PERSON, verbs & THIRD_PERSON
    assert not re.search(r"^[ ·]*You [^.;\n]*\btheir\b", said, re.MULTILINE)
    if game_id == "cambio":  # the AI looked at one of the person's cards
        assert re.search(r"AI 1 looked at your card [A-D]\b", said)


def test_the_terminal_reads_the_rules_in_its_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "fishing.md").write_text("# Fishing\n\nThe **English** rules.")
    (tmp_path / "fishing.de.md").write_text("# Fischen\n\nDie **deutschen** Regeln.")
    monkeypatch.setattr(languages, "RULES_DIR", tmp_path)
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "de_AT.UTF-8")
    assert rules_for_terminal(get_game("fishing")) == "# Fischen\n\nDie deutschen Regeln."
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")  # no French text: the English one
    assert rules_for_terminal(get_game("fishing")) == "# Fishing\n\nThe English rules."


def test_the_terminal_speaks_the_language_of_its_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    loaded: dict[str, gettext.NullTranslations] = {}

    def load(language: str) -> gettext.NullTranslations:
        return loaded.setdefault(language, gettext.NullTranslations())

    spoken: list[gettext.NullTranslations] = []

    def replay(file: Path) -> int:
        spoken.append(words._active.get())
        return 0

    monkeypatch.setattr(languages, "_compiled", load)
    monkeypatch.setattr(cli, "run_replay", replay)
    monkeypatch.setenv("LANGUAGE", "ja:pt_BR")
    assert main(["replay", str(tmp_path / "game.json")]) == 0
    assert spoken == [loaded["pt_BR"]]


def test_the_terminal_says_you_in_english_and_names_you_in_another_language() -> None:
    state = get_game("fishing").new_state(2, 0)
    english = TerminalGame(state.game, state, 0, io.StringIO(), out := io.StringIO())
    english.say("{s0} deals; {s1} plays first")
    with words.speaking(languages.catalog("es")):
        spanish = TerminalGame(state.game, state, 0, io.StringIO(), out)
        spanish.say("{s0} ha jugado 6♦")
    assert out.getvalue().splitlines() == ["You deal; AI 1 plays first", "Tú ha jugado 6♦"]
