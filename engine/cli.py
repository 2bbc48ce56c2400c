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
from typing import Any

from engine.ai import agent, level_name
from engine.ai.search import DEFAULT_BUDGET, Budget
from engine.core import Agent, Game, Option, State, StateAgent
from engine.errors import ActionParseError, DeckError, IllegalActionError, SetupError
from engine.languages import catalog, environment_language
from engine.registry import games, get_game
from engine.replay import Replay, start
from engine.review import review, review_lines
from engine.runner import play_out
from engine.terminal import TerminalGame, wants_colour
from engine.words import _, speaking

EXIT_ILLEGAL = 1
EXIT_BAD_RECORD = 2
EXIT_INTERRUPTED = 130  # what shells report for Ctrl-C


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    smallest = _("default: the game's smallest count")
    simulate = commands.add_parser("simulate", help=_("play K games between agents, print JSON"))
    simulate.add_argument("--game", required=True, choices=list(games()))
    simulate.add_argument("--players", type=int, help=smallest)
    simulate.add_argument("--games", type=int, default=100, help=_("default: 100"))
    simulate.add_argument("--seed", type=int, default=0, help=_("default: 0"))
    simulate.add_argument(
        "--agent",
        default="random",
        help=_(
            "an AI level (random, easy, normal or ai, hard) for every seat, or one per seat "
            "separated by commas (hard,normal)"
        ),
    )
    simulate.add_argument(
        "--rollouts", type=int, help=_("hard thinks for this many playouts a move, not 0.3 s")
    )
    simulate.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")

    play = commands.add_parser(
        "play",
        help=_("play in the terminal against AI seats"),
        description=_("Play a game in the terminal: you take the first seat, the AI the others."),
        epilog=options_help(games().values()),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    play.add_argument("game", choices=list(games()))
    play.add_argument("--players", type=int, help=smallest)
    play.add_argument("--seed", type=int, help=_("default: a random one (shown at the start)"))
    play.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE", help=_("a game option")
    )
    play.add_argument("--ai", default="normal", help=_("the AI seats' level: easy, normal, hard"))

    replay = commands.add_parser("replay", help=_("replay a JSON record, print the position"))
    replay.add_argument("file", type=Path)
    replay.add_argument(
        "--review",
        type=int,
        metavar="SEAT",
        help=_("print the hard AI's review of this seat's decisions instead (seats from 0)"),
    )
    replay.add_argument("--seed", type=int, default=0, help=_("the review's seed (default: 0)"))

    argv = list(sys.argv[1:] if argv is None else argv)
    if len(argv) > 2 and argv[0] == "play" and argv[1] in games() and not _has_help(argv[:2]):
        # ``play ID --help``: the options of that game only.
        play.epilog = options_help([get_game(argv[1])])
    args = parser.parse_args(argv)
    # the terminal speaks its environment's language (LANG and the others, as gettext reads them)
    with speaking(catalog(environment_language(os.environ))):
        try:
            if args.command == "simulate":
                return run_simulate(args)
            if args.command == "play":
                return run_play(args)
            if args.review is not None:
                return run_review(args.file, args.review, args.seed)
            return run_replay(args.file)
        except SetupError as error:
            print(_("error: {error}").format(error=error), file=sys.stderr)
            return EXIT_BAD_RECORD


def _has_help(words: Sequence[str]) -> bool:
    return any(word in ("-h", "--help") for word in words)


def options_help(shown: Iterable[Game]) -> str:
    """Each game's pitch and options with their defaults, for ``play --help``."""
    lines = []
    for game in shown:
        lines.append(f"{game.id}: {_(game.pitch)}")
        if not game.options:
            lines.append(_("{game} has no options.").format(game=game.id))
            continue
        lines.append(_("{game} options (--option NAME=VALUE):").format(game=game.id))
        width = max(len(option.name) for option in game.options)
        for option in game.options:
            lines.append(f"  {option.name:<{width}}  {option_help(option)}")
    return "\n".join(lines)


def option_help(option: Option) -> str:
    """An option's description, the values it takes and its default, in words."""
    if option.kind is bool:
        values = _("on or off")
    elif option.minimum is not None and option.maximum is not None:
        values = _("{lowest} to {highest}").format(
            lowest=option.minimum, highest=option.amount(option.maximum)
        )
    else:
        values = _("a whole number")
    if option.optional and option.unset == "off":
        values = _("{values}, or off").format(values=values)
    elif option.optional:
        values = _("{values}, or off for {unset}").format(values=values, unset=_(option.unset))
    return _("{description} ({values}; default {default})").format(
        description=_(option.description), values=values, default=option.amount(option.default)
    )


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
        raise SetupError(_("{name} must be 1 or more, not {value}").format(name=name, value=value))
    return value


def parse_options(pairs: Sequence[str]) -> dict[str, str]:
    """``--option name=value`` pairs (values are checked by the game)."""
    options = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise SetupError(_("write options as NAME=VALUE, not {pair}").format(pair=repr(pair)))
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
        raise SetupError(
            _("give one agent for every seat ({players}), or one for all").format(players=players)
        )
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
def read_record(path: Path) -> Any:
    """A record file's JSON; raises SetupError when it cannot be read."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise SetupError(
            _("cannot read the record {path}: {error}").format(path=repr(str(path)), error=error)
        ) from None


def run_replay(path: Path) -> int:
    """Replay a record file; print the position (exit 0), an action error (1) or why the
    record is bad (2)."""
    state, actions = start(read_record(path))
    for index, (seat, text) in enumerate(actions):
        try:
            state.apply_text(seat, text)
        except DeckError as error:
            raise SetupError(
                _("action {index} ({move} by seat {seat}) starts a new hand, but {error}").format(
                    index=index, move=repr(text), seat=seat, error=error
                )
            ) from None
        except (ActionParseError, IllegalActionError) as error:
            print(json.dumps({"index": index, "action": [seat, text], "error": str(error)}))
            said = _("action {index} ({move} by seat {seat}): {error}")
            print(
                said.format(index=index, move=repr(text), seat=seat, error=error), file=sys.stderr
            )
            return EXIT_ILLEGAL
    print(json.dumps(position(state)))
    return 0


def run_review(path: Path, seat: int, seed: int) -> int:
    """Print the review of ``seat``'s decisions in a record file, with progress on stderr
    (exit 0), or why the record is bad (2)."""
    replay = Replay.of(read_record(path))
    if not 0 <= seat < replay.players:
        raise SetupError(
            _("the game had seats 0 to {last}, not {seat}").format(
                last=replay.players - 1, seat=seat
            )
        )

    def progress(done: int, total: int) -> None:
        print(_("reviewing move {done} of {total}").format(done=done, total=total), file=sys.stderr)

    judged = review(replay, seat, seed, progress=progress)
    names = [_("seat {index}").format(index=index) for index in range(replay.players)]
    for line in review_lines(replay, seat, judged, names):
        print(line)
    return 0


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
    colour = wants_colour(stdout, os.environ)
    try:
        TerminalGame(game, state, seed, stdin, stdout, level, colour=colour).run()
    except BrokenPipeError:
        # The reader went away (``| head``): nothing more can be said, and no traceback.
        # Python flushes stdout at exit: point it at devnull so that flush fails no more.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        # Ctrl-C is how most people leave: one line, no traceback.
        print("\n" + _("Bye (game left unfinished)."), file=stdout)
        return EXIT_INTERRUPTED
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
