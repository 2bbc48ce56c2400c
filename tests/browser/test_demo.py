"""``./run demo`` in a real browser: headless Chromium (Debian's) plays fishing on the page.

The demo runs as a person starts it (``python -m bot.demo``, a process of its own); the test
reads the addresses it prints, opens the #games page, starts a game from the message box, adds
an AI seat, starts, makes moves by clicking through the Hand view, checks the table, a friend's
tab (bob's view of #games) and the DM page (open since before the game), then stops the demo
with Ctrl-C (SIGINT) and checks it says so and exits cleanly. A closed terminal (SIGHUP), a
kill (SIGTERM) and a taken port are checked on the process alone. The demo's clock (kept in
step with real time) is checked with the demo in this process, where a test can move it.

Without /usr/bin/chromium the test fails in CI (CI=true) and is skipped elsewhere, with the
command that installs it (``./run test`` installs it itself where it can).
``CARDROOM_DEMO_SCREENSHOT=docs/images/demo.png`` saves the page as the README shows it.
"""

from __future__ import annotations

import asyncio
import os
import queue
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Coroutine, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import TypeVar

import pytest
from playwright.sync_api import Locator, Page, expect, sync_playwright

import bot.demo
from bot.demo import Demo, stop_demo
from bot.demo import start_demo as start_demo_here
from tests.browser.chromium import BROWSER_ARGS

ROOT = Path(__file__).resolve().parents[2]
URL = re.compile(r"http://127\.0\.0\.1:\d+/#\S+")
STOPPED = "Cardroom demo stopped."
WAIT_MS = 20_000  # the longest wait for one step (a busy 2-core machine)
T = TypeVar("T")


@dataclass
class DemoProcess:
    """``python -m bot.demo`` running, with the addresses it printed and its output after."""

    process: subprocess.Popen[str]
    lines: queue.Queue[str]
    reader: threading.Thread
    urls: list[str]

    def stop(self, signum: int) -> tuple[int, list[str]]:
        """Send ``signum``; the exit code and the lines printed after the addresses."""
        self.process.send_signal(signum)
        code = self.process.wait(timeout=30)
        self.reader.join()
        rest = []
        while not self.lines.empty():
            rest.append(self.lines.get())
        return code, rest


def start_demo(*args: str) -> DemoProcess:
    """Start the demo as a person does and wait (60 s at most) for its addresses."""
    process = subprocess.Popen(
        [sys.executable, "-m", "bot.demo", *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    lines: queue.Queue[str] = queue.Queue()

    def read() -> None:
        for line in process.stdout or ():
            lines.put(line)

    reader = threading.Thread(target=read)
    reader.start()
    demo = DemoProcess(process, lines, reader, [])
    printed: list[str] = []
    deadline = time.monotonic() + 60
    while not printed or "Ctrl-C" not in printed[-1]:
        try:
            printed.append(lines.get(timeout=max(0.1, deadline - time.monotonic())))
        except queue.Empty:
            demo.stop(signal.SIGKILL)
            pytest.fail("the demo printed no addresses in 60 s:\n" + "".join(printed))
        demo.urls += URL.findall(printed[-1])
    return demo


@pytest.fixture
def demo() -> Iterator[list[str]]:
    """The running demo's page addresses (#games first, then each person's DMs); at the end
    it is stopped with Ctrl-C (SIGINT) and must say so, alone, and exit 0."""
    running = start_demo("--friends", "1")
    try:
        yield running.urls
    finally:
        code, rest = running.stop(signal.SIGINT)
    assert (code, rest) == (0, [STOPPED + "\n"])


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGHUP, signal.SIGTERM], ids=["SIGHUP", "SIGTERM"])
def test_a_closed_terminal_or_a_kill_stops_the_demo_cleanly(signum: int) -> None:
    running = start_demo("--friends", "0")
    assert len(running.urls) == 2  # #games and ann's DMs
    assert running.stop(signum) == (0, [STOPPED + "\n"])


@pytest.mark.slow
def test_a_taken_port_is_one_plain_error() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run(
            [sys.executable, "-m", "bot.demo", "--port", str(port)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr == f"error: the demo could not start: preview could not bind port {port}\n"


def wait_ready(page: Page) -> None:
    """Wait until the preview page has drawn its state and has no action in flight."""
    page.wait_for_function(
        "() => window.simcordPreview && window.simcordPreview.ready === true", timeout=WAIT_MS
    )


def run_command(page: Page, command: str, choice: str) -> None:
    """Type ``/command`` in the message box and send it with the option ``choice``.

    Works whether the choice is a subcommand (``/game start fishing``) or an option of the
    command (``/game start game:Fishing``).
    """
    page.get_by_placeholder("Message #games").click()
    page.keyboard.type(f"/{command}")
    popup = page.locator(".command-popup")
    entries = popup.get_by_role("option")
    expect(entries.first).to_be_visible(timeout=WAIT_MS)
    subcommand = entries.filter(has_text=f"/{command} {choice.lower()}")
    if subcommand.count():
        subcommand.first.click()
    else:
        entries.filter(has_text=f"/{command}").first.click()
        popup.get_by_role("option", name=choice, exact=True).click()
    page.get_by_role("button", name="Send").click()
    wait_ready(page)


def open_lobby_with_an_ai(page: Page) -> Locator:
    """Start fishing from the message box and add an AI seat; the lobby."""
    run_command(page, "game start", "Fishing")
    lobby = page.locator("article.channel-message").filter(has_text="Fishing").last
    lobby.get_by_role("button", name="Add AI").click()
    wait_ready(page)
    expect(lobby).to_contain_text("🤖 Ada", timeout=WAIT_MS)
    return lobby


def start_table(page: Page, lobby: Locator) -> Locator:
    """Click the lobby's Start; the table message."""
    lobby.get_by_role("button", name="Start").click()
    wait_ready(page)
    table = (
        page.locator("article.channel-message:not(:has(.message-ephemeral-note))")
        .filter(has=page.get_by_role("button", name="Hand"))
        .last
    )
    expect(table).to_contain_text("Last moves", timeout=WAIT_MS)
    return table


def open_hand(page: Page, table: Locator) -> Locator:
    """At ann's turn, click the table's Hand; her private Hand message."""
    expect(table).to_contain_text("ann to play", timeout=WAIT_MS)
    table.get_by_role("button", name="Hand").click()
    wait_ready(page)
    hand = page.locator("article.channel-message:has(.message-ephemeral-note)").last
    expect(hand).to_contain_text("Your turn", timeout=WAIT_MS)
    return hand


def moves_by(table: Locator, name: str) -> set[str]:
    """The lines of the table's "Last moves" that tell what ``name`` did."""
    return {line for line in table.inner_text().splitlines() if line.startswith(f"• {name} ")}


def play_a_move(page: Page, table: Locator, screenshot: str | None = None) -> str:
    """At ann's turn, open her Hand and click through it until the move is made; the move's
    line in the table, which must appear. ``screenshot``: save the page with the Hand open."""
    before = moves_by(table, "ann")
    hand = open_hand(page, table)
    if screenshot:
        page.screenshot(path=screenshot)
    # green buttons finish a move, blue ones go on to its next step (card, then what it takes)
    finishing = hand.locator(".component-button.button-style-3")
    for _ in range(6):
        if finishing.count():
            break
        hand.locator(".component-button.button-style-1").first.click()
        wait_ready(page)
    finishing.first.click()
    wait_ready(page)
    # the bot edits the table message a moment after it answers (its edits are throttled)
    deadline = time.monotonic() + WAIT_MS / 1000
    while not moves_by(table, "ann") - before and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    made = moves_by(table, "ann") - before
    assert made, f"ann's move did not reach the table:\n{table.inner_text()}"
    return made.pop()


@pytest.mark.slow
def test_demo_page_plays_fishing(chromium: Path, demo: list[str], tmp_path: Path) -> None:
    urls = demo
    assert len(urls) == 3, urls  # #games, ann's DMs, bob's DMs
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch_persistent_context(
            tmp_path / "profile",
            executable_path=str(chromium),
            args=BROWSER_ARGS,
            viewport={"width": 1200, "height": 1000},
        )
        try:
            dms = browser.new_page()  # ann's DMs, open before the game: the hand must arrive
            dms.goto(urls[1])
            wait_ready(dms)
            page = browser.new_page()
            page.goto(urls[0])
            wait_ready(page)
            friend = browser.new_page()  # the friend's tab: the same address, viewing as bob
            friend.goto(urls[0])
            wait_ready(friend)
            friend.get_by_label("Viewing as").select_option(label="bob")
            wait_ready(friend)
            lobby = open_lobby_with_an_ai(page)
            # ann's click is drawn in bob's tab too
            bobs_lobby = friend.locator("article.channel-message").filter(has_text="Fishing").last
            expect(bobs_lobby).to_contain_text("🤖 Ada", timeout=WAIT_MS)
            table = start_table(page, lobby)
            first = play_a_move(page, table, os.environ.get("CARDROOM_DEMO_SCREENSHOT"))
            second = play_a_move(page, table)
            assert first != second
            expect(friend.locator("article.channel-message").filter(has_text=second)).to_be_visible(
                timeout=WAIT_MS
            )
            expect(dms.locator("article.channel-message").last).to_contain_text(
                "Fishing · ", timeout=WAIT_MS
            )
        finally:
            browser.close()


@dataclass
class DemoHere:
    """The demo in this process, its event loop in a thread of its own (Playwright's sync API
    runs in the test's), with no clock running: the test moves the simulated time."""

    loop: asyncio.AbstractEventLoop
    demo: Demo

    def run(self, work: Coroutine[object, object, T]) -> T:
        """Run ``work`` in the demo's loop and wait for it."""
        return asyncio.run_coroutine_threadsafe(work, self.loop).result(timeout=60)


@pytest.fixture
def demo_here(tmp_path: Path) -> Iterator[DemoHere]:
    """The demo with you alone, in this process."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever)
    thread.start()
    started = asyncio.run_coroutine_threadsafe(
        start_demo_here(tmp_path / "demo.db", friends=0, port=0), loop
    )
    here = DemoHere(loop, started.result(timeout=60))
    try:
        yield here
    finally:
        here.run(stop_demo(here.demo))
        loop.call_soon_threadsafe(loop.stop)
        thread.join()
        loop.close()


@pytest.mark.slow
def test_the_time_left_is_counted_from_now_after_a_quiet_spell(
    chromium: Path, demo_here: DemoHere
) -> None:
    """A page that nothing redrew for a quarter of an hour says "in 2 minutes" of a fresh turn
    (the page counts relative times from a clock of its own, which the demo must move on)."""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(chromium), args=BROWSER_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1200, "height": 1000})
            page.goto(demo_here.demo.pages[0].url)
            wait_ready(page)
            demo_here.run(demo_here.demo.catch_up(15 * 60))
            table = start_table(page, open_lobby_with_an_ai(page))
            if "ann to play" not in table.inner_text():  # the AI leads: let it play
                demo_here.run(demo_here.demo.catch_up(5))
            hand = open_hand(page, table)
            expect(hand).to_contain_text("Decide in 2 minutes", timeout=WAIT_MS)
        finally:
            browser.close()


class RealClock:
    """The real time the demo's clock follows (``time.monotonic`` as bot.demo reads it), moved
    by the test; and the demo clock's ticks, counted so the test waits for them, not for a
    fixed time."""

    def __init__(self, demo: Demo, monkeypatch: pytest.MonkeyPatch) -> None:
        self.seconds = 0.0
        self.ticks = 0
        self.ticked = threading.Condition()
        catch_up = demo.catch_up

        async def counted(seconds: float) -> None:
            await catch_up(seconds)
            with self.ticked:
                self.ticks += 1
                self.ticked.notify_all()

        monkeypatch.setattr(demo, "catch_up", counted)
        monkeypatch.setattr(bot.demo, "time", SimpleNamespace(monotonic=lambda: self.seconds))

    def wait_ticks(self, count: int) -> None:
        """Wait until the demo's clock has ticked ``count`` more times."""
        with self.ticked:
            wanted = self.ticks + count
            assert self.ticked.wait_for(lambda: self.ticks >= wanted, timeout=WAIT_MS / 1000)


@pytest.mark.slow
def test_the_clock_holds_while_it_is_ahead_of_real_time(
    demo_here: DemoHere, monkeypatch: pytest.MonkeyPatch
) -> None:
    """simcord moves its clock by itself when a bot timer comes due in real time; the demo's
    clock then waits for real time instead of adding each tick on top (which ran it ahead),
    and follows real time again, never past it, once real time has passed it."""
    demo = demo_here.demo
    real = RealClock(demo, monkeypatch)
    clock = asyncio.run_coroutine_threadsafe(demo.run_clock(), demo_here.loop)
    try:
        real.wait_ticks(1)
        origin = demo.env.now()
        demo_here.run(demo.env.advance_time(5))  # as simcord does when a timer fires
        real.seconds = 2
        real.wait_ticks(3)
        assert (demo.env.now() - origin).total_seconds() == pytest.approx(5, abs=0.01)
        real.seconds = 8  # real time passes the clock: it follows again
        real.wait_ticks(3)
        assert (demo.env.now() - origin).total_seconds() == pytest.approx(8, abs=0.01)
    finally:
        clock.cancel()
