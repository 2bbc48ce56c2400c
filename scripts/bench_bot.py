"""The bot's own time per move, from the interaction's arrival to its first response (the click
acknowledged) and to the finished view (the answer with the new private view), with many games
running at once under simcord (offline). Prints one JSON line; not a timed test.

    python scripts/bench_bot.py [--games 200] [--rounds 2] [--game fishing] [--ai-level hard]
                                [--clock wall|cpu] [--metrics on|off] [--review-load]

Every game has one simulated person and one AI seat (``--ai-level``: normal by default; hard
thinks in the bot's worker processes for its default 0.3 s a move, while people move). All
games are opened first; then in each round every person whose turn it is makes one move
through the Hand view (the AI answers at once, or when its search ends);
``games_running_at_the_end`` tells whether all were still on. The stamps come from
``MoveClock``, which this script installs around the bot (the bot itself keeps no timing):
interaction arrival → the first response (``first_response_*``: the click acknowledged) →
validation, the engine move, the SQLite save, and the finished view (``finished_view_*``: the
answer with the new private view, its card picture drawn unless the picture cache held it).
The answers go to simcord's in-process Discord, so no network time is in them; the coalesced
table and DM edits (and the Hand views that follow the game) come outside them.
``picture_*``: the CPU time to draw each card picture the bot drew (the
table's, the Hand views', the DMs') and its PNG size. ``finished_view_parts_*``: where a
finished view's time goes, the mean over all moves and over the slowest 5%: the pictures
drawn within it, the save, simcord answering the bot's requests (its in-process Discord; real
use has the network there), the cyclic garbage collector, and the rest (validation, the
engine's move, the view's message, discord.py). ``--clock cpu`` times the moves in the
main thread's CPU time instead of the wall clock: on a shared, loaded machine the wall clock
mostly measures how long the process waited for a core. ``--metrics off`` replaces the
bot's metric recording (bot/ops/metrics.py) with no-ops and serves no /metrics, to measure
what the metrics cost a move; on (the default) serves them on a free port, as METRICS_PORT
does, and scrapes them once at the end.

``--review-load`` plays hard AI seats (in the bot's real worker processes, with the bot's
settings for hard) for ``--rounds`` rounds, then as many again while move reviews of a finished
game of the same kind run one after another in a review worker (``Reviewer`` with the bot's
settings: niceness 19, each decision only once no live search waits or runs), so one is always
under way; ``ai_decision_*`` is each AI move's time from the move being asked for to its answer
(the wait for a free worker included), without and ``*_with_review`` with the review running.
The other figures cover both halves' moves.

simcord settles after every simulated click, in this script's task, and each pass checks
every pending task against every timer: with 200 games that is 200 sleeping turn timers, tens
of milliseconds a pass. It runs whenever the bot awaits (mostly while SQLite works in its
thread), so the event loop's time in this script's task within a move is taken out
(``SimulatorTime``); ``total_with_simcord_*`` keeps it in. Where a pass covered SQLite's work
in its thread, that wait goes out with it, so the save may read low by up to one save.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import gc
import json
import random
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import datetime
from pathlib import Path
from typing import Any, NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import aiohttp
import discord
import simcord
import simcord.http.client
from prometheus_client.metrics import MetricWrapperBase

from bot.app import CardroomBot, create_bot
from bot.ops import metrics
from bot.pictures import Picture, draw
from bot.replays.book import ReplayedGame
from bot.replays.reviewing import Reviewer
from bot.settings import Settings
from bot.tables.hand_view import PickSelect, StepButton, StepSelect
from bot.tables.thinking import AiPlayers
from engine.core import Action, State
from engine.replay import Replay, played_record
from tests.bot.helpers import add_player, move_by_hand, open_table

# simcord waits, in real time, for every bot timer due before a settlement's deadline (and for
# the AI searches under way). Far above the 5 s default, so a loaded machine does not fail the
# run.
SETTLE_SECONDS = 30.0
# Each sleeping turn timer keeps a real-time fallback in simcord: once the run has lasted
# TURN_SECONDS - SETTLE_SECONDS of real time, the first tables' timers fall inside every
# settlement's deadline, which then waits for them (and the timeouts they start) until it gives
# up: "bot did not settle". With 120 s that came after opening 200 tables on a loaded machine.
# The bench times moves, not timeouts: an hour (the longest turn allowed) keeps every timer
# asleep, as many of them as with 120 s.
TURN_SECONDS = 3600


class MoveTiming(NamedTuple):
    """``stamp()`` times of one accepted move."""

    arrived: float  # the interaction reached the bot
    acknowledged: float  # its first response went out
    save_started: float  # the database work of the move began
    save_ended: float
    answered: float  # the player has the answer (their new private view)
    parts: dict[str, list[tuple[float, float]]]  # PARTS: when each part of its work ran

    @property
    def total(self) -> float:
        """Seconds from arrival to answer."""
        return self.answered - self.arrived

    @property
    def first_response(self) -> float:
        """Seconds from arrival to the first response."""
        return self.acknowledged - self.arrived

    @property
    def save(self) -> float:
        """Seconds of database work."""
        return self.save_ended - self.save_started


# What every move is timed with: the wall clock, or with --clock cpu the CPU time of the main
# thread (where the bot and simcord run; SQLite works in its own thread). On a loaded machine
# the wall clock mostly measures the wait for a core; the CPU time is the bot's own work.
CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.thread_time}
stamp = CLOCKS["wall"]

# the saves made within one step click (and the work it starts); the first is its move's
SAVES: ContextVar[list[tuple[float, float]] | None] = ContextVar("saves", default=None)
# when the timed parts of one step click's work ran (pictures, simcord's answers, the collector)
PARTS: ContextVar[dict[str, list[tuple[float, float]]] | None] = ContextVar("parts", default=None)


def note_part(name: str, started: float) -> None:
    """Note that part ``name`` of the step click being handled ran from ``started`` to now."""
    parts = PARTS.get()
    if parts is not None:
        parts.setdefault(name, []).append((started, stamp()))


class MoveClock:
    """Times every accepted move from the outside: notes when a step click arrives (an
    ``on_interaction`` listener) and when it is first answered (discord.py's interaction
    response calls), wraps the step handlers and the running-game save."""

    def __init__(self) -> None:
        self.arrivals: dict[int, float] = {}
        self.responses: dict[int, float] = {}
        self.moves: list[MoveTiming] = []

    def install(self, bot: CardroomBot) -> None:
        """Hook into a bot whose storage is open (after its setup)."""
        bot.add_listener(self.arrived, "on_interaction")
        for name in ("defer", "edit_message", "send_message"):
            setattr(
                discord.InteractionResponse,
                name,
                self.responding(getattr(discord.InteractionResponse, name)),
            )
        for step in (StepButton, StepSelect, PickSelect):
            step.callback = self.timed(step.callback)  # type: ignore[method-assign,assignment]
        running = bot.storage.running
        save = running.save

        # whatever else a save takes (the revision it expects, the lobby it replaces)
        async def timed_save(game: Any, *args: Any, **kwargs: Any) -> None:
            started = stamp()
            await save(game, *args, **kwargs)
            saves = SAVES.get()
            if saves is not None:
                saves.append((started, stamp()))

        running.save = timed_save  # type: ignore[method-assign]

    async def arrived(self, interaction: discord.Interaction) -> None:
        """Note a step click's arrival."""
        data: dict[str, Any] = dict(interaction.data or {})
        if str(data.get("custom_id", "")).startswith("cr:step"):
            self.arrivals[interaction.id] = stamp()

    def responding(self, respond: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        """``respond`` (a first response to an interaction) noting when it went out."""

        async def noted(
            response: discord.InteractionResponse[Any], *args: Any, **kwargs: Any
        ) -> Any:
            answered = await respond(response, *args, **kwargs)
            self.responses.setdefault(response._parent.id, stamp())
            return answered

        return noted

    def timed(
        self, handler: Callable[[Any, discord.Interaction], Awaitable[None]]
    ) -> Callable[[Any, discord.Interaction], Awaitable[None]]:
        """``handler`` noting the move it made, if it made one."""

        async def timed_handler(item: Any, interaction: discord.Interaction) -> None:
            arrived = self.arrivals.pop(interaction.id, stamp())
            saves: list[tuple[float, float]] = []
            parts: dict[str, list[tuple[float, float]]] = {}
            token, parts_token = SAVES.set(saves), PARTS.set(parts)
            try:
                await handler(item, interaction)
            finally:
                SAVES.reset(token)
                PARTS.reset(parts_token)
            answered = stamp()
            acknowledged = self.responses.pop(interaction.id, answered)
            if saves:
                started, ended = saves[0]
                timing = MoveTiming(arrived, acknowledged, started, ended, answered, parts)
                self.moves.append(timing)

        return timed_handler


class PictureClock:
    """Times every card picture the bot draws (a cache miss: a hit draws nothing) and notes
    its size, by wrapping the renderer its picture cache calls."""

    def __init__(self) -> None:
        self.seconds: list[float] = []
        self.sizes: list[int] = []

    def install(self) -> None:
        """Wrap ``bot.pictures.draw.render`` (what ``PictureCache.picture`` calls)."""
        render = draw.render

        def timed_render(*args: Any, **kwargs: Any) -> Picture:
            started, part_started = time.process_time(), stamp()
            picture = render(*args, **kwargs)
            self.seconds.append(time.process_time() - started)
            note_part("picture", part_started)
            self.sizes.append(len(picture.data))
            return picture

        draw.render = timed_render


def time_simcord_and_collector() -> None:
    """Note, as parts of the step click being handled, simcord answering each of the bot's
    requests (to its HTTP client and its interaction webhooks) and each cyclic collection."""
    for client in (simcord.http.client.FakeHTTPClient, simcord.http.client.FakeWebhookAdapter):
        request = client.request

        def timed_request(*args: Any, _request: Any = request, **kwargs: Any) -> Any:
            async def answered() -> Any:
                started = stamp()
                try:
                    return await _request(*args, **kwargs)
                finally:
                    note_part("simcord_requests", started)

            return answered()

        client.request = timed_request  # type: ignore[method-assign]
    collecting: list[float] = []

    def collector(phase: str, _info: dict[str, Any]) -> None:
        if phase == "start":
            collecting[:] = [stamp()]
        elif collecting:
            note_part("gc", collecting.pop())

    gc.callbacks.append(collector)


class SimulatorTime:
    """When the event loop ran one task's steps (here this script's: simcord settling)."""

    def __init__(self, task: asyncio.Task[Any]) -> None:
        self.task = task
        self.starts: list[float] = []
        self.ends: list[float] = []

    @contextmanager
    def recording(self) -> Iterator[None]:
        """Note the start and end of every step of the task run inside the block."""
        original = asyncio.Handle._run
        task = self.task

        def run(handle: asyncio.Handle) -> None:
            # A task's steps and wake-ups are callbacks bound to the task itself.
            if getattr(getattr(handle, "_callback", None), "__self__", None) is not task:
                original(handle)
                return
            begin = stamp()
            try:
                original(handle)
            finally:
                self.starts.append(begin)
                self.ends.append(stamp())

        asyncio.Handle._run = run  # type: ignore[method-assign,assignment]
        try:
            yield
        finally:
            asyncio.Handle._run = original  # type: ignore[method-assign]

    def own(self, move: MoveTiming, spans: list[tuple[float, float]]) -> float:
        """Seconds of ``spans`` within ``move``, without the recorded steps. A task the move
        started may still draw or ask simcord after the answer: that is not the move's."""
        total = 0.0
        for begin, end in spans:
            start, stop = max(begin, move.arrived), min(end, move.answered)
            if stop > start:
                total += stop - start - self.within(start, stop)
        return total

    def within(self, start: float, end: float) -> float:
        """Seconds of the recorded steps that fall between ``start`` and ``end``."""
        total = 0.0
        # Steps never overlap (one thread), so both lists are sorted.
        index = bisect.bisect_right(self.ends, start)
        while index < len(self.starts) and self.starts[index] < end:
            total += min(end, self.ends[index]) - max(start, self.starts[index])
            index += 1
        return total


class AiClock:
    """Times every AI move the bot asks for, from the request to the move (a search's wait
    for a worker included)."""

    def __init__(self) -> None:
        self.seconds: list[float] = []

    def install(self, ai: AiPlayers) -> None:
        """Wrap ``ai``'s move (what an AI seat's move awaits)."""
        move = ai.move

        def timed_move(
            state: State, seat: int, level: str, seed: str, server: int
        ) -> Awaitable[Action | None]:
            started = time.perf_counter()
            thinking = move(state, seat, level, seed, server)

            async def answered() -> Action | None:
                try:
                    return await thinking
                finally:
                    self.seconds.append(time.perf_counter() - started)

            return answered()

        ai.move = timed_move  # type: ignore[method-assign]


class ReviewStopped(Exception):
    """Raised between two judged decisions to end ``ReviewLoad``'s reviewing."""


class ReviewLoad:
    """Move reviews of one finished game, run one after another by a ``Reviewer`` with the
    bot's settings (its own review worker) from a thread of their own, so one is under way from
    ``start`` until ``stop`` (simcord's settling never waits for them). As in the bot, each
    decision waits until the bot's AI workers are quiet (asked in the bot's event loop)."""

    def __init__(self, bot: CardroomBot, game_id: str) -> None:
        loop = asyncio.get_running_loop()
        ai = bot.tables.ai

        def live_quiet() -> Awaitable[None]:
            return asyncio.wrap_future(asyncio.run_coroutine_threadsafe(ai.quiet(), loop))

        self.reviewer = Reviewer(bot.settings, bot.storage, datetime.now, live_quiet)
        record = played_record(game_id, 2, 1)
        self.game = ReplayedGame("bench-review", record, Replay.of(record), [])
        self.judged = 0  # decisions judged so far
        self.busy = threading.Event()  # set once the first decision is judged
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=asyncio.run, args=(self.reviewing(),))

    async def reviewing(self) -> None:
        """Review seat 0 again and again (no cache, no per-person limit) until stopped."""

        async def judged(_done: int, _total: int) -> None:
            self.judged += 1
            self.busy.set()
            if self.stopping.is_set():
                raise ReviewStopped

        with contextlib.suppress(ReviewStopped):
            while True:
                await self.reviewer.judge_all(self.game, 0, judged)

    async def start(self) -> None:
        """Start reviewing; return once the worker has judged a decision (it is up)."""
        self.thread.start()
        await asyncio.to_thread(self.busy.wait)

    async def stop(self) -> None:
        """Stop after the decision being judged, and the review's worker."""
        self.stopping.set()
        await asyncio.to_thread(self.thread.join)
        self.reviewer.close()


class NoMetric:
    """A metric that records nothing: what ``--metrics off`` puts in place of each."""

    def labels(self, *_values: str) -> NoMetric:
        return self

    def inc(self, _amount: float = 1) -> None:
        pass

    def time(self) -> contextlib.nullcontext[None]:
        return contextlib.nullcontext()

    def track_inprogress(self) -> contextlib.nullcontext[None]:
        return contextlib.nullcontext()


def metrics_off() -> None:
    """Replace every metric the bot records into with one that records nothing."""
    for name, value in vars(metrics).items():
        if isinstance(value, MetricWrapperBase):
            setattr(metrics, name, NoMetric())


async def scraped_samples(bot: CardroomBot) -> int:
    """The number of samples /metrics serves (proof that it served them)."""
    assert bot.observer.server is not None
    url = f"http://127.0.0.1:{bot.observer.server.port}/metrics"
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        text = await response.text()
    return sum(1 for line in text.splitlines() if line and not line.startswith("#"))


async def bench(
    games: int, rounds: int, game_id: str, ai_level: str, with_metrics: bool, review_load: bool
) -> dict[str, object]:
    """Run the benchmark and return its figures."""
    if not with_metrics:
        metrics_off()
    task = asyncio.current_task()
    assert task is not None
    simulator = SimulatorTime(task)
    with tempfile.TemporaryDirectory() as directory:
        settings = Settings(
            _env_file=None,  # type: ignore[call-arg]
            database_url=str(Path(directory) / "bench.db"),
            ai_delay_seconds=0.0,
            table_edit_seconds=0.0,  # edits follow at once (outside the measured time)
            turn_seconds=TURN_SECONDS,
            metrics_port=0 if with_metrics else None,  # 0: any free port
            round_break_seconds=0,  # the next deal at once: a break for reading is no move
            # the supervisor's timer, due every 30 s of simulated time, would keep simcord
            # from settling in real time; it plays no part in a move's time
            supervisor_seconds=0,
            # each table in a channel of its own: a thread would add a request at Start only
            table_threads=False,
            # every table in one server (one bench guild): the per-server cap is for real ones
            max_tables_per_server=max(games, 100),
        )
        bot = create_bot(settings)
        async with simcord.run(bot, settle_timeout=SETTLE_SECONDS) as env:
            try:
                await bot.tree.sync()
                clock = MoveClock()
                clock.install(bot)
                pictures = PictureClock()
                pictures.install()
                time_simcord_and_collector()
                guild = env.create_guild(name="bench")
                progress(f"opening {games} {game_id} tables")
                opening = time.perf_counter()
                tables = []
                for number in range(games):
                    channel = guild.create_text_channel(f"table-{number}")
                    player = add_player(env, guild, f"player{number}")
                    table = await open_table(bot, channel, [player], game_id, 1, ai_level=ai_level)
                    tables.append((player, channel, table))
                started = time.perf_counter()
                progress(f"opened in {started - opening:.1f} s")
                rng = random.Random(1)
                searches = AiClock()
                searches.install(bot.tables.ai)

                async def play(label: str) -> None:
                    with simulator.recording():
                        for number in range(rounds):
                            progress(f"round {number + 1} of {rounds}{label}: one move per game")
                            for player, channel, table in tables:
                                if table.ended or 0 not in table.state.waiting_for():
                                    continue
                                await move_by_hand(player, channel, table, rng)
                            await env.advance_time(1.1)

                await play("")
                quiet = searches.seconds[:]  # every search has answered once simcord settled
                review_figures: dict[str, object] = {}
                if review_load:
                    load = ReviewLoad(bot, game_id)
                    progress("starting the move reviews")
                    await load.start()
                    try:
                        await play(" with a review running")
                    finally:
                        await load.stop()
                    loaded = searches.seconds[len(quiet) :]
                    review_figures = {
                        "review_decisions_judged": load.judged,
                        "ai_decisions": len(quiet),
                        "ai_decisions_with_review": len(loaded),
                        **percentiles("ai_decision", "", quiet),
                        **percentiles("ai_decision", "_with_review", loaded),
                    }
                finished = time.perf_counter()
                progress(f"moves made in {finished - started:.1f} s")
                running = sum(not table.ended for _, _, table in tables)
                measured = clock.moves
                served = await scraped_samples(bot) if with_metrics else 0
            finally:
                await bot.observer.close()
                # aiosqlite's worker thread is not a daemon: left open, it keeps the process
                # alive after an error.
                await bot.tables.close()
                bot.reviews.close()
                await bot.storage.close()
    save = [m.save - simulator.within(m.save_started, m.save_ended) for m in measured]
    total = [m.total - simulator.within(m.arrived, m.answered) for m in measured]
    first = sorted(m.first_response - simulator.within(m.arrived, m.acknowledged) for m in measured)
    own = sorted(t - s for t, s in zip(total, save, strict=True))
    with_simcord = sorted(m.total for m in measured)
    parts = [
        {name: simulator.own(move, spans) for name, spans in move.parts.items()}
        | {"save": move_save}
        for move, move_save in zip(measured, save, strict=True)
    ]
    slowest = [p for _, p in sorted(zip(total, parts, strict=True), key=lambda t: t[0])]
    slowest = slowest[len(slowest) * 95 // 100 :]
    save.sort()
    total.sort()
    return {
        "benchmark": "bot time per move (interaction arrival → first response, finished view)",
        "game": game_id,
        "ai_level": ai_level,
        "clock": "cpu" if stamp is time.thread_time else "wall",
        "metrics": "on" if with_metrics else "off",
        "metrics_samples_served": served,
        "games_at_once": games,
        "games_running_at_the_end": running,
        "moves": len(total),
        "own_median_ms": ms(statistics.median(own)),
        "own_p99_ms": ms(p99(own)),
        "save_median_ms": ms(statistics.median(save)),
        "save_p99_ms": ms(p99(save)),
        "first_response_median_ms": ms(statistics.median(first)),
        "first_response_p99_ms": ms(p99(first)),
        "finished_view_median_ms": ms(statistics.median(total)),
        "finished_view_p99_ms": ms(p99(total)),
        "total_with_simcord_median_ms": ms(statistics.median(with_simcord)),
        "total_with_simcord_p99_ms": ms(p99(with_simcord)),
        "pictures_drawn": len(pictures.seconds),
        "picture_median_ms": ms(statistics.median(pictures.seconds)),
        "picture_p99_ms": ms(p99(sorted(pictures.seconds))),
        "finished_view_parts_mean_ms": mean_parts(parts, total),
        "finished_view_parts_mean_ms_slowest_5pct": mean_parts(
            slowest, total[len(total) * 95 // 100 :]
        ),
        "picture_median_bytes": int(statistics.median(pictures.sizes)),
        "picture_largest_bytes": max(pictures.sizes),
        "opening_seconds": round(started - opening, 1),
        "moving_seconds": round(finished - started, 1),
        **review_figures,
    }


def mean_parts(parts: list[dict[str, float]], totals: list[float]) -> dict[str, float]:
    """The mean milliseconds of each part of the moves' work, and of the rest of ``totals``."""
    names = ("picture", "save", "simcord_requests", "gc")
    means = {name: ms(statistics.mean(p.get(name, 0.0) for p in parts)) for name in names}
    return means | {"rest": round(ms(statistics.mean(totals)) - sum(means.values()), 3)}


def percentiles(name: str, suffix: str, seconds: list[float]) -> dict[str, float]:
    """``seconds``' median and p99 in milliseconds, as ``{name}_median_ms{suffix}`` and
    ``{name}_p99_ms{suffix}``."""
    ordered = sorted(seconds)
    return {
        f"{name}_median_ms{suffix}": ms(statistics.median(ordered)),
        f"{name}_p99_ms{suffix}": ms(p99(ordered)),
    }


def progress(text: str) -> None:
    """A line on stderr saying which phase the benchmark is in (stdout keeps the figures)."""
    print(f"bench_bot: {text}", file=sys.stderr, flush=True)


def p99(values: list[float]) -> float:
    """The 99th percentile of sorted values."""
    return values[min(len(values) - 1, int(len(values) * 0.99))]


def ms(seconds: float) -> float:
    """Seconds as milliseconds, rounded."""
    return round(seconds * 1000, 3)


def main() -> None:
    """Parse the arguments and print the figures as one JSON line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--game", default="fishing")
    parser.add_argument("--ai-level", default="normal", choices=("easy", "normal", "hard"))
    parser.add_argument("--clock", default="wall", choices=sorted(CLOCKS))
    parser.add_argument("--metrics", default="on", choices=("on", "off"))
    parser.add_argument(
        "--review-load",
        action="store_true",
        help="hard AI seats; their moves timed without, then with, a move review running",
    )
    args = parser.parse_args()
    global stamp
    stamp = CLOCKS[args.clock]
    ai_level = "hard" if args.review_load else args.ai_level
    figures = bench(
        args.games, args.rounds, args.game, ai_level, args.metrics == "on", args.review_load
    )
    print(json.dumps(asyncio.run(figures)))


if __name__ == "__main__":
    main()
