"""The engine's command line: ``simulate``, ``play`` and ``replay`` (DESIGN.md, contract)."""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from engine.ai import agent, level_name
from engine.ai.search import DEFAULT_BUDGET, Budget
from engine.cards import Card, is_card_text
from engine.core import Action, Agent, Event, Game, State, StateAgent
from engine.errors import ActionParseError, IllegalActionError, SetupError
from engine.registry import games, get_game
from engine.runner import agent_move, play_out

EXIT_ILLEGAL = 1
EXIT_BAD_RECORD = 2


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    simulate = commands.add_parser("simulate", help="play K games between agents, print JSON")
    simulate.add_argument("--game", required=True, choices=list(games()))
    simulate.add_argument("--players", type=int)
    simulate.add_argument("--games", type=int, default=100)
    simulate.add_argument("--seed", type=int, default=0)
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

    play = commands.add_parser("play", help="play in the terminal against AI seats")
    play.add_argument("game", choices=list(games()))
    play.add_argument("--players", type=int)
    play.add_argument("--seed", type=int)
    play.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    play.add_argument("--ai", default="normal", help="the AI seats' level: easy, normal, hard")

    replay = commands.add_parser("replay", help="replay a JSON record, print the position")
    replay.add_argument("file", type=Path)

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
    players = args.players or game.player_counts[0]
    game.check_players(players)
    kinds = args.agent.split(",")
    if len(kinds) == 1:
        kinds *= players
    if len(kinds) != players:
        raise SetupError(f"give one agent for every seat ({players}), or one for all")
    budget = Budget(rollouts=args.rollouts) if args.rollouts else DEFAULT_BUDGET
    agents = [agent(game, kind.strip(), budget) for kind in kinds]
    options = game.resolve_options(parse_options(args.option))
    print(json.dumps(simulate(game, players, args.games, args.seed, agents, options)))
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
def run_play(
    args: argparse.Namespace, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout
) -> int:
    """Play a game in the terminal: you are seat 0, the AI has the other seats."""
    game = get_game(args.game)
    players = args.players or game.player_counts[0]
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**9)
    level = level_name(args.ai)
    state = game.new_state(players, seed, parse_options(args.option))
    TerminalGame(game, state, seed, stdin, stdout, level).run()
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
        self.agent = game.agent(level)
        self.rngs = [random.Random(f"{seed}/agent/{seat}") for seat in range(state.players)]
        self.order_rng = random.Random(f"{seed}/order")

    def say(self, text: str = "") -> None:
        print(Event(text).render(self.names), file=self.stdout)

    def show_events(self, events: Sequence[Event]) -> None:
        for event in events:
            if event.visible(0):
                self.say(f"  · {event.text}")

    def run(self) -> None:
        """Loop until the game ends (or the person quits)."""
        self.say(
            f"{self.game.name} — {self.state.players} players, seed {self.seed}. "
            "Type a number to choose, q to quit."
        )
        self.show_events(self.state.opening_events())
        try:
            while not self.state.is_over:
                seat, action = self.next_move()
                self.show_events(self.state.apply(seat, action))
        except QuitGame:
            self.say("Bye.")
            return
        self.say("")
        for line in self.game.describe(self.state.view(0)):
            self.say(line)
        winners = " and ".join(self.names[seat] for seat in self.state.winners())
        self.say(f"Game over. Scores: {self.scores()}. Winner: {winners}.")

    def scores(self) -> str:
        pairs = zip(self.names, self.state.scores(), strict=True)
        return ", ".join(f"{name} {score}" for name, score in pairs)

    def next_move(self) -> tuple[int, Action]:
        """AI seats with optional actions first, then the person, then the AI seats waited for."""
        seats, waiting = self.state.to_act(), self.state.waiting_for()
        optional = [seat for seat in seats if seat not in waiting and seat != 0]
        self.order_rng.shuffle(optional)
        for seat in [*optional, *(["you"] if 0 in seats else []), *waiting]:
            if seat == "you":
                action = self.ask(optional=0 not in waiting)
                if action is not None:
                    return 0, action
            elif seat != 0:
                assert isinstance(seat, int)
                action = agent_move(self.state, seat, self.agent, self.rngs[seat])
                if action is not None:
                    return seat, action
        raise RuntimeError("nobody moved")

    def ask(self, optional: bool) -> Action | None:
        """Ask the person for a move, step by step along the actions' choice paths (None: the
        person lets an optional move pass)."""
        legal = list(self.state.legal_actions(0))
        self.say("")
        for line in self.game.describe(self.state.view(0)):
            self.say(line)
        depth = 0
        while True:
            groups = group_by_step(legal, depth)
            if len(groups) == 1 and len(legal) > 1:
                depth += 1
                continue
            labels = list(groups)
            self.say("You may act now (0 to let it pass):" if optional else "Your move:")
            for number, label in enumerate(labels, start=1):
                shown = groups[label][0].text if len(groups[label]) == 1 else label + " …"
                self.say(f"  {number:>2}. {prettify(shown)}")
            answer = self.read()
            if optional and answer == "0":
                return None
            if not answer.isdigit() or not 1 <= int(answer) <= len(labels):
                self.say(f"Type a number from 1 to {len(labels)}.")
                continue
            legal = groups[labels[int(answer) - 1]]
            if len(legal) == 1:
                return legal[0]
            depth += 1

    def read(self) -> str:
        print("> ", end="", file=self.stdout, flush=True)
        line = self.stdin.readline()
        if not line or line.strip().lower() in ("q", "quit", "exit"):
            raise QuitGame
        return line.strip()


class QuitGame(Exception):
    """The person left the terminal game."""


def group_by_step(legal: Sequence[Action], depth: int) -> dict[str, list[Action]]:
    """Legal actions grouped by their choice path's step at ``depth`` (first-seen order)."""
    groups: dict[str, list[Action]] = {}
    for action in legal:
        path = action.path
        label = path[depth] if depth < len(path) else action.text
        groups.setdefault(label, []).append(action)
    return groups


def prettify(text: str, card: Callable[[str], str] = lambda word: Card.parse(word).pretty) -> str:
    """Action text with cards in people form: ``play 6D`` → ``play 6♦``."""
    words = []
    for word in text.split():
        base, eq, value = word.partition("=")
        words.append(card(base) + eq + value if is_card_text(base) else word)
    return " ".join(words)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
