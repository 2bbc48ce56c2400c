"""The engine's command line: ``simulate``, ``play`` and ``replay`` (docs/development.md,
"The engine command line"; a replay's deck and action text: docs/rules/README.md)."""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, TextIO

from engine.ai import agent, level_name
from engine.ai.search import DEFAULT_BUDGET, Budget
from engine.choices import (
    Step,
    action_label,
    choice_label,
    descend,
    only_move_reason,
    resolve,
    step_prompt,
)
from engine.core import Action, Agent, Event, Game, State, StateAgent, score_lines
from engine.errors import ActionParseError, DeckError, IllegalActionError, SetupError
from engine.registry import games, get_game
from engine.runner import agent_move, play_out

EXIT_ILLEGAL = 1
EXIT_BAD_RECORD = 2
EXIT_INTERRUPTED = 130  # what shells report for Ctrl-C


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    simulate = commands.add_parser("simulate", help="play K games between agents, print JSON")
    simulate.add_argument("--game", required=True, choices=list(games()))
    simulate.add_argument("--players", type=int, help="default: the game's smallest count")
    simulate.add_argument("--games", type=int, default=100, help="default: 100")
    simulate.add_argument("--seed", type=int, default=0, help="default: 0")
    simulate.add_argument(
        "--agent",
        default="random",
        help="an AI level (random, easy, normal or ai, hard) for every seat, or one per seat "
        "separated by commas (hard,normal)",
    )
    simulate.add_argument(
        "--rollouts", type=int, help="hard thinks for this many playouts a move, not 0.3 s"
    )
    simulate.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")

    play = commands.add_parser(
        "play",
        help="play in the terminal against AI seats",
        description="Play a game in the terminal: you take the first seat, the AI the others.",
        epilog=options_help(games().values()),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    play.add_argument("game", choices=list(games()))
    play.add_argument("--players", type=int, help="default: the game's smallest count")
    play.add_argument("--seed", type=int, help="default: a random one (shown at the start)")
    play.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE", help="a game option"
    )
    play.add_argument("--ai", default="normal", help="the AI seats' level: easy, normal, hard")

    replay = commands.add_parser("replay", help="replay a JSON record, print the position")
    replay.add_argument("file", type=Path)

    argv = list(sys.argv[1:] if argv is None else argv)
    if len(argv) > 2 and argv[0] == "play" and argv[1] in games() and not _has_help(argv[:2]):
        # ``play ID --help``: the options of that game only.
        play.epilog = options_help([get_game(argv[1])])
    args = parser.parse_args(argv)
    try:
        if args.command == "simulate":
            return run_simulate(args)
        if args.command == "play":
            return run_play(args)
        return run_replay(args.file)
    except SetupError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_BAD_RECORD


def _has_help(words: Sequence[str]) -> bool:
    return any(word in ("-h", "--help") for word in words)


def options_help(shown: Iterable[Game]) -> str:
    """Each game's options with their defaults, for ``play --help``."""
    lines = []
    for game in shown:
        if not game.options:
            lines.append(f"{game.id} has no options.")
            continue
        lines.append(f"{game.id} options (--option NAME=VALUE):")
        width = max(len(option.name) for option in game.options)
        for option in game.options:
            if option.kind is bool:
                values = "on or off"
            elif option.minimum is not None and option.maximum is not None:
                values = f"{option.minimum} to {option.amount(option.maximum)}"
            else:
                values = "a whole number"
            if option.optional:
                values += ", or off" + ("" if option.unset == "off" else f" for {option.unset}")
            lines.append(
                f"  {option.name:<{width}}  {option.description}"
                f" ({values}; default {option.amount(option.default)})"
            )
    return "\n".join(lines)


def count_argument(name: str, value: int | None, default: int) -> int:
    """A count given on the command line (``--games``, ``--players``): a whole number above 0.

    >>> count_argument("--games", None, 100)
    100
    >>> count_argument("--games", 0, 100)
    Traceback (most recent call last):
    ...
    engine.errors.SetupError: --games must be 1 or more, not 0
    """
    if value is None:
        return default
    if value < 1:
        raise SetupError(f"{name} must be 1 or more, not {value}")
    return value


def parse_options(pairs: Sequence[str]) -> dict[str, str]:
    """``--option name=value`` pairs (values are checked by the game)."""
    options = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise SetupError(f"write options as NAME=VALUE, not {pair!r}")
        options[name.strip()] = value.strip()
    return options


# -- simulate ----------------------------------------------------------------------------------
def run_simulate(args: argparse.Namespace) -> int:
    """Play ``--games`` games and print one JSON object of figures."""
    game = get_game(args.game)
    players = count_argument("--players", args.players, game.player_counts[0])
    count = count_argument("--games", args.games, 100)
    game.check_players(players)
    kinds = args.agent.split(",")
    if len(kinds) == 1:
        kinds *= players
    if len(kinds) != players:
        raise SetupError(f"give one agent for every seat ({players}), or one for all")
    budget = Budget(rollouts=args.rollouts) if args.rollouts else DEFAULT_BUDGET
    agents = [agent(game, kind.strip(), budget) for kind in kinds]
    options = game.resolve_options(parse_options(args.option))
    print(json.dumps(simulate(game, players, count, args.seed, agents, options)))
    return 0


def simulate(
    game: Game,
    players: int,
    count: int,
    seed: int,
    agents: Sequence[Agent | StateAgent],
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Play ``count`` games (seeds ``seed``, ``seed + 1`` …) and measure them."""
    wins = [0] * players
    steps = 0
    started = time.perf_counter()
    for index in range(count):
        state = game.new_state(players, seed + index, options)
        steps += play_out(state, agents, seed + index)
        for seat in state.winners():
            wins[seat] += 1
    seconds = time.perf_counter() - started
    return {
        "game": game.id,
        "players": players,
        "games": count,
        "seconds": round(seconds, 3),
        "games_per_s": round(count / seconds, 1) if seconds else None,
        "steps_per_s": round(steps / seconds) if seconds else None,
        "mean_steps": round(steps / count, 2) if count else 0,
        "wins": wins,
    }


# -- replay ------------------------------------------------------------------------------------
def run_replay(path: Path) -> int:
    """Replay a record file; print the position (exit 0), an action error (1) or why the
    record is bad (2)."""
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise SetupError(f"cannot read the record {str(path)!r}: {error}") from None
    state, actions = start_replay(record)
    for index, entry in enumerate(actions):
        if not (
            isinstance(entry, (list, tuple))
            and len(entry) == 2
            and isinstance(entry[0], int)
            and not isinstance(entry[0], bool)
            and isinstance(entry[1], str)
        ):
            raise SetupError(f"action {index} is not [seat, text]: {entry!r}")
        seat, text = entry
        try:
            state.apply_text(seat, text)
        except DeckError as error:
            raise SetupError(
                f"action {index} ({text!r} by seat {seat}) starts a new hand, but {error}"
            ) from None
        except (ActionParseError, IllegalActionError) as error:
            print(json.dumps({"index": index, "action": [seat, text], "error": str(error)}))
            print(f"action {index} ({text!r} by seat {seat}): {error}", file=sys.stderr)
            return EXIT_ILLEGAL
    print(json.dumps(position(state)))
    return 0


def start_replay(record: object) -> tuple[State, list[Any]]:
    """The starting state and action list of a record; raises SetupError for a bad record."""
    if not isinstance(record, dict):
        raise SetupError("the record must be a JSON object")
    unknown = set(record) - {"game", "players", "seed", "options", "deck", "actions"}
    if unknown:
        raise SetupError(f"unknown field(s) in the record: {', '.join(sorted(unknown))}")
    if not isinstance(record.get("game"), str):
        raise SetupError("the record has no game id")
    game = get_game(record["game"])
    players, seed = record.get("players"), record.get("seed", 0)
    if not isinstance(players, int) or isinstance(players, bool):
        raise SetupError("the record needs a whole number of players")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise SetupError("the seed must be a whole number")
    options = record.get("options") or {}
    if not isinstance(options, dict):
        raise SetupError("options must be a JSON object")
    actions = record.get("actions", [])
    if not isinstance(actions, list):
        raise SetupError("actions must be a list of [seat, text]")
    return game.new_state(players, seed, options, record.get("deck")), actions


def position(state: State) -> dict[str, Any]:
    """The replay output: over, scores, winners, to_act and each acting seat's legal texts."""
    to_act = state.to_act()
    return {
        "over": state.is_over,
        "scores": list(state.scores()),
        "winners": list(state.winners()),
        "to_act": list(to_act),
        "legal": {
            str(seat): [action.text for action in state.legal_actions(seat)] for seat in to_act
        },
    }


# -- play --------------------------------------------------------------------------------------
def run_play(args: argparse.Namespace) -> int:
    """Play a game in the terminal: you are seat 0, the AI has the other seats."""
    stdin, stdout = sys.stdin, sys.stdout
    game = get_game(args.game)
    players = count_argument("--players", args.players, game.player_counts[0])
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**9)
    level = level_name(args.ai)
    state = game.new_state(players, seed, parse_options(args.option))
    try:
        TerminalGame(game, state, seed, stdin, stdout, level).run()
    except BrokenPipeError:
        # The reader went away (``| head``): nothing more can be said, and no traceback.
        # Python flushes stdout at exit: point it at devnull so that flush fails no more.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        # Ctrl-C is how most people leave: one line, no traceback.
        print("\nBye (game left unfinished).", file=stdout)
        return EXIT_INTERRUPTED
    return 0


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
    ) -> None:
        self.game, self.state, self.seed = game, state, seed
        self.stdin, self.stdout = stdin, stdout
        self.names = ["Player (you)"] + [f"AI {seat}" for seat in range(1, state.players)]
        self.agent = agent(game, level)
        self.rngs = [random.Random(f"{seed}/agent/{seat}") for seat in range(state.players)]
        self.order_rng = random.Random(f"{seed}/order")

    def say(self, text: str = "") -> None:
        print(Event(text).render(self.names), file=self.stdout)

    def show_events(self, events: Sequence[Event]) -> None:
        for event in events:
            if not event.visible(0):
                continue
            if event.kind == "hand_end":  # a player a line under the title
                title, *rest = score_lines(event.text)
                self.say(f"  · {title}:")
                for line in rest:
                    self.say(f"      {line}")
            else:
                self.say(f"  · {event.text}")

    def run(self) -> None:
        """Loop until the game ends (or the person quits)."""
        settings = "".join(
            f" · {option.setting(self.state.options[option.name])}" for option in self.game.options
        )
        self.say(f"{self.game.name} — {self.state.players} players, seed {self.seed}{settings}")
        self.say("Type the number of your choice and press Enter; b goes back, q quits.")
        self.show_events(self.state.opening_events())
        try:
            while not self.state.is_over:
                seat, action = self.next_move()
                was_in = self.state.is_in(0)
                self.show_events(self.state.apply(seat, action))
                if was_in and not self.state.is_in(0) and not self.state.is_over:
                    self.say("You are out: the game plays on without you to its end.")
        except QuitGame:
            self.say("Bye (game left unfinished).")
            return
        self.say("")
        for line in self.game.describe(self.state.view(0)):
            self.say(line)
        self.say(f"Final scores: {self.scores()}.")

    def scores(self) -> str:
        pairs = zip(self.names, self.state.scores(), strict=True)
        return ", ".join(f"{name} {score}" for name, score in pairs)

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
                self.say(
                    f"  ({{s{answered[0]}}} acted first, so your move was not made: choose again)"
                )
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
                    self.say(
                        f"Your only move: {label} (made for you)."
                        + (f" {reason}" if reason else "")
                    )
                return target
            self.say(step_prompt(self.game, target, self.names))
            for number, choice in enumerate(target.choices, start=1):
                self.say(f"  {number:>2}. {choice_label(self.game, target, choice, self.names)}")
            if shown:
                self.say("   b. back")
            if optional and not shown:
                self.say("   0. let it pass")
            answer = self.read()
            if answer.lower() in ("b", "back") and shown:
                prefix = shown.pop()
                continue
            if optional and not shown and answer == "0":
                return None
            # isdigit() alone accepts ² and other digits int() refuses.
            number = int(answer) if answer.isascii() and answer.isdigit() else 0
            if not 1 <= number <= len(target.choices):
                keys = f"a number from 1 to {len(target.choices)}"
                if shown:
                    keys += ", b to go back"
                elif optional:
                    keys += ", 0 to let it pass"
                self.say(f"{answer!r} is not one of the choices: type {keys} (q quits).")
                continue
            shown.append(prefix)
            prefix = (*prefix, target.choices[number - 1].index)

    def read(self) -> str:
        print("> ", end="", file=self.stdout, flush=True)
        line = self.stdin.readline()
        if not line:  # Ctrl-D: end the prompt's line before saying goodbye
            print(file=self.stdout)
            raise QuitGame
        if line.strip().lower() in ("q", "quit", "exit"):
            raise QuitGame
        return line.strip()


class QuitGame(Exception):
    """The person left the terminal game."""


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
