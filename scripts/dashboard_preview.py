"""A picture of the Grafana dashboard (deploy/grafana/*.json) drawn from a short run of the
real bot under simcord (offline), since Grafana and Prometheus are not installed here.

    python scripts/dashboard_preview.py [--out docs/images/dashboard.png]

Four people play fishing against AI seats (normal and easy), the tables opened one after
another; one save is made to fail and one table's driver is cancelled, so the failure and
repair panels have something to show. After every round of moves the script scrapes
``/metrics`` over HTTP, as Prometheus would, stamped with the bot's simulated clock. The
supervisor's own timer is off (simcord backs simulated timers with real ones); the script
calls its check at each scrape instead, which is what the timer does.

Each panel of the dashboard becomes a small line chart with the panel's title, its queries
evaluated over the scrapes by a small evaluator of the shapes the dashboard uses:

- ``metric`` and ``sum by (labels) (metric)``: the scraped value, summed by the labels;
- ``rate(m[w])`` and ``increase(m[w])``: the counter's change from the earliest scrape within
  ``w`` of simulated time (the first scrape when the run is shorter than ``w``) to this one,
  divided by the seconds between them for ``rate``; no extrapolation to the window's edges
  and no counter resets (the run has none), where Prometheus does both;
- ``histogram_quantile(q, sum by (le, ...) (rate(m_bucket[w])))``: the buckets' changes over
  the window, interpolated linearly within the bucket holding the quantile, as Prometheus
  does; no value while no observation fell in the window.

Anything else in a query stops the script with its text. Time on the charts is simulated
time, so the rates are per simulated second: they show the shape of the figures, not a
production server's load. simcord answers the bot in process, not through discord.py's HTTP
client, so the interaction and Discord-error panels stay flat (those counters are tested in
tests/bot/test_metrics.py against a local HTTP server instead).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import sqlite3
import sys
import tempfile
from pathlib import Path
from typing import NamedTuple
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import aiohttp
import simcord
from PIL import Image, ImageDraw
from prometheus_client.parser import text_string_to_metric_families

from bot.app import CardroomBot, create_bot
from bot.pictures.faces import font
from bot.settings import Settings
from tests.bot.helpers import Playthrough, add_player, open_table

ROOT = Path(__file__).resolve().parents[1]
DASHBOARDS = ROOT / "deploy" / "grafana"
AI_LEVELS = ("normal", "easy", "normal", "easy")  # one table each, opened in this order
ROUNDS_BETWEEN_OPENINGS = 6
STEPS_PER_ROUND = 4  # a person's move each, or time passing for the AI seat
MOST_ROUNDS = 80  # the tables still running then are left unfinished
SETTLE_SECONDS = 30.0
# simcord backs each simulated timer with a real one, which a settlement waits for once the
# run has lasted TURN_SECONDS - SETTLE_SECONDS of real time; the preview plays no timeouts
TURN_SECONDS = 3600  # as scripts/bench_bot.py: a loaded machine must not fail the run

Labels = tuple[tuple[str, str], ...]
Series = dict[Labels, float]


class Scrape(NamedTuple):
    """One scrape of /metrics: simulated seconds since the start, and every sample."""

    seconds: float
    samples: dict[str, Series]


async def scrape(bot: CardroomBot, seconds: float) -> Scrape:
    """Every sample the bot's /metrics serves now."""
    assert bot.observer.server is not None
    url = f"http://127.0.0.1:{bot.observer.server.port}/metrics"
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        text = await response.text()
    samples: dict[str, Series] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            labels = tuple(sorted(sample.labels.items()))
            samples.setdefault(sample.name, {})[labels] = sample.value
    return Scrape(seconds, samples)


async def play(scrapes: list[Scrape]) -> None:
    """Run the bot, play the tables to their ends and scrape after every round."""
    with tempfile.TemporaryDirectory() as directory:
        settings = Settings(
            _env_file=None,  # type: ignore[call-arg]
            database_url=str(Path(directory) / "preview.db"),
            ai_delay_seconds=0.0,
            table_edit_seconds=0.0,  # a pending edit is a real timer simcord would wait for
            turn_seconds=TURN_SECONDS,
            metrics_port=0,  # any free port
            round_break_seconds=0,  # the next deal at once: a break for reading is no move
            supervisor_seconds=0,  # checked at each scrape instead (see the docstring)
            table_threads=False,  # each table in a channel of its own, where it is played
        )
        bot = create_bot(settings)
        async with simcord.run(bot, settle_timeout=SETTLE_SECONDS) as env:
            try:
                await bot.tree.sync()
                start = bot.tables.timers.clock()
                guild = env.create_guild(name="preview")
                rng = random.Random("dashboard")
                plays: list[Playthrough] = []
                for round_number in range(MOST_ROUNDS):
                    opening = round_number // ROUNDS_BETWEEN_OPENINGS
                    if round_number % ROUNDS_BETWEEN_OPENINGS == 0 and opening < len(AI_LEVELS):
                        channel = guild.create_text_channel(f"table-{opening}")
                        player = add_player(env, guild, f"player{opening}")
                        level = AI_LEVELS[opening]
                        table = await open_table(
                            bot, channel, [player], "fishing", 1, ai_level=level
                        )
                        plays.append(Playthrough(env, channel, [player], table, rng))
                    running = [p for p in plays if not p.table.ended]
                    if not running and opening >= len(AI_LEVELS):
                        break
                    for playthrough in running:
                        await disturbed(bot, playthrough, round_number)
                    await env.advance_time(10)
                    bot.tables.supervisor.check()
                    seconds = (bot.tables.timers.clock() - start).total_seconds()
                    scrapes.append(await scrape(bot, seconds))
                    print(f"round {round_number}: {len(running)} tables", file=sys.stderr)
            finally:
                await bot.observer.close()
                await bot.close()


async def disturbed(bot: CardroomBot, playthrough: Playthrough, round_number: int) -> None:
    """A round's steps of a table; the first table's save fails once, the second loses its
    driver."""
    first, second = ROUNDS_BETWEEN_OPENINGS + 2, 2 * ROUNDS_BETWEEN_OPENINGS + 2
    channel = playthrough.channel.name
    if second <= round_number < second + 3 and channel == "table-1":
        # its person waits while the supervisor finds the table without a driver twice
        if round_number == second:
            bot.tables.timers.drivers[playthrough.table.table_id].cancel()
        return
    if round_number == first and channel == "table-0":
        with mock.patch.object(bot.storage.running, "save", side_effect=sqlite3.Error):
            await playthrough.step()
    for _ in range(STEPS_PER_ROUND):
        if playthrough.table.ended:
            return
        await playthrough.step()


# --- the query evaluator ---------------------------------------------------------------------

SUM_BY = re.compile(r"^sum by \(([\w, ]+)\) \((.*)\)$")
QUANTILE = re.compile(r"^histogram_quantile\(([\d.]+), (.*)\)$")
RANGE = re.compile(r"^(rate|increase)\((\w+)\[(\d+)([mh])\]\)$")
NAME = re.compile(r"^\w+$")
UNIT_SECONDS = {"m": 60, "h": 3600}


def evaluate(query: str, scrapes: list[Scrape], at: int) -> Series:
    """The query's value at scrape ``at`` (see the module's docstring for what it covers)."""
    if match := QUANTILE.match(query):
        buckets = evaluate(match[2], scrapes, at)
        return quantiles(float(match[1]), buckets)
    if match := SUM_BY.match(query):
        kept = [label.strip() for label in match[1].split(",")]
        summed: Series = {}
        for labels, value in evaluate(match[2], scrapes, at).items():
            key = tuple((k, v) for k, v in labels if k in kept)
            summed[key] = summed.get(key, 0.0) + value
        return summed
    if match := RANGE.match(query):
        function, name = match[1], match[2]
        window = int(match[3]) * UNIT_SECONDS[match[4]]
        now = scrapes[at]
        earliest = next(s for s in scrapes[: at + 1] if now.seconds - s.seconds <= window)
        elapsed = now.seconds - earliest.seconds
        if elapsed <= 0:
            return {}
        then = earliest.samples.get(name, {})
        change = {k: v - then.get(k, 0.0) for k, v in now.samples.get(name, {}).items()}
        return change if function == "increase" else {k: v / elapsed for k, v in change.items()}
    if NAME.match(query):
        return dict(scrapes[at].samples.get(query, {}))
    raise SystemExit(f"the preview cannot evaluate {query!r}")


def quantiles(q: float, buckets: Series) -> Series:
    """histogram_quantile over bucket series (their labels include ``le``), by other labels."""
    grouped: dict[Labels, list[tuple[float, float]]] = {}
    for labels, count in buckets.items():
        rest = tuple((k, v) for k, v in labels if k != "le")
        grouped.setdefault(rest, []).append((float(dict(labels)["le"]), count))
    found: Series = {}
    for rest, bounds in grouped.items():
        bounds.sort()
        total = bounds[-1][1]
        if total <= 0:
            continue
        rank = q * total
        lower, below = 0.0, 0.0
        for upper, count in bounds:
            if count >= rank:
                if upper == float("inf"):
                    found[rest] = lower  # Prometheus answers the highest finite bound
                else:
                    found[rest] = lower + (upper - lower) * (rank - below) / (count - below)
                break
            lower, below = upper, count
    return found


# --- the picture -----------------------------------------------------------------------------

COLUMNS = 4
PANEL = (400, 230)
MARGIN = 12
PLOT_INSET = (52, 34, 12, 46)  # left, top, right, bottom
BACKGROUND, PANEL_FILL, GRID, INK, FAINT = "#111217", "#181b1f", "#2c3036", "#d8d9da", "#8e8e8e"
COLOURS = ("#73bf69", "#f2cc0c", "#5794f2", "#ff780a", "#f2495c", "#b877d9", "#8ab8ff")


def legend_name(labels: Labels, query: str) -> str:
    """A series' name in the legend: its labels, the quantile, or the metric's short name."""
    named = ", ".join(f"{k} {v}" if v.isdigit() else v for k, v in labels)
    if match := QUANTILE.match(query):
        named = f"p{float(match[1]) * 100:g}" + (f" {named}" if named else "")
    if named:
        return named
    metric = re.findall(r"cardroom_(\w+?)(?:_total|_seconds)?\b", query)
    return metric[0].replace("_", " ") if metric else "value"


def figure(value: float) -> str:
    """An axis label: short, in the value's own scale."""
    if value == 0:
        return "0"
    if abs(value) >= 100:
        return f"{value:.0f}"
    if abs(value) >= 1:
        return f"{value:.3g}"
    return f"{value:.2g}"


def draw_panel(
    canvas: ImageDraw.ImageDraw,
    origin: tuple[int, int],
    title: str,
    lines: dict[str, list[tuple[float, float]]],
    span: float,
) -> None:
    """One panel: its title, a frame, the y axis from 0 to the highest value, and the lines."""
    x0, y0 = origin
    width, height = PANEL
    canvas.rectangle((x0, y0, x0 + width, y0 + height), fill=PANEL_FILL, outline=GRID)
    canvas.text((x0 + 10, y0 + 8), title, font=font(15), fill=INK)
    left, top = x0 + PLOT_INSET[0], y0 + PLOT_INSET[1]
    right, bottom = x0 + width - PLOT_INSET[2], y0 + height - PLOT_INSET[3]
    highest = max((v for points in lines.values() for _, v in points), default=0.0) or 1.0
    for step in range(5):
        y = bottom - (bottom - top) * step / 4
        canvas.line((left, y, right, y), fill=GRID)
        label = figure(highest * step / 4)
        canvas.text((left - 6, y), label, font=font(11), fill=FAINT, anchor="rm")
    for minute in range(0, int(span // 60) + 1, max(1, int(span // 60) // 4)):
        x = left + (right - left) * minute * 60 / span
        canvas.text((x, bottom + 4), f"{minute} min", font=font(11), fill=FAINT, anchor="mt")
    if not lines:
        canvas.text(
            ((left + right) / 2, (top + bottom) / 2),
            "No data",
            font=font(13),
            fill=FAINT,
            anchor="mm",
        )
    legend_x = x0 + 10
    for (name, points), colour in zip(sorted(lines.items()), COLOURS * 3, strict=False):
        xy = [
            (left + (right - left) * t / span, bottom - (bottom - top) * v / highest)
            for t, v in points
        ]
        if len(xy) == 1:
            canvas.ellipse((xy[0][0] - 2, xy[0][1] - 2, xy[0][0] + 2, xy[0][1] + 2), fill=colour)
        else:
            canvas.line(xy, fill=colour, width=2)
        canvas.rectangle((legend_x, y0 + height - 16, legend_x + 10, y0 + height - 10), fill=colour)
        canvas.text((legend_x + 14, y0 + height - 13), name, font=font(11), fill=INK, anchor="lm")
        legend_x += 24 + int(font(11).getlength(name))


def draw_dashboard(dashboard: dict[str, object], scrapes: list[Scrape]) -> Image.Image:
    """Every panel of one dashboard, in a grid of COLUMNS, under the dashboard's title."""
    panels = dashboard["panels"]
    assert isinstance(panels, list)
    rows = -(-len(panels) // COLUMNS)
    header = 44
    size = (
        MARGIN + COLUMNS * (PANEL[0] + MARGIN),
        header + rows * (PANEL[1] + MARGIN),
    )
    image = Image.new("RGB", size, BACKGROUND)
    canvas = ImageDraw.Draw(image)
    canvas.text((MARGIN, 12), str(dashboard["title"]), font=font(20), fill=INK)
    span = scrapes[-1].seconds
    for number, panel in enumerate(panels):
        targets = panel["targets"]
        lines: dict[str, list[tuple[float, float]]] = {}
        for target in targets:
            for at, taken in enumerate(scrapes):
                for labels, value in evaluate(target["expr"], scrapes, at).items():
                    name = legend_name(labels, target["expr"])
                    lines.setdefault(name, []).append((taken.seconds, value))
        origin = (
            MARGIN + (number % COLUMNS) * (PANEL[0] + MARGIN),
            header + (number // COLUMNS) * (PANEL[1] + MARGIN),
        )
        draw_panel(canvas, origin, panel["title"], lines, span)
    return image


def main() -> None:
    """Play, scrape, and draw each dashboard of deploy/grafana/ (the first to ``--out``)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images" / "dashboard.png")
    out: Path = parser.parse_args().out
    scrapes: list[Scrape] = []
    asyncio.run(play(scrapes))
    for number, path in enumerate(sorted(DASHBOARDS.glob("*.json"))):
        dashboard = json.loads(path.read_text(encoding="utf-8"))
        target = out if number == 0 else out.with_stem(f"{out.stem}-{path.stem}")
        draw_dashboard(dashboard, scrapes).save(target, optimize=True)
        print(f"{target}: {len(scrapes)} scrapes over {scrapes[-1].seconds / 60:.0f} min")


if __name__ == "__main__":
    main()
