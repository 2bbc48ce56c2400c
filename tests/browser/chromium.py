"""Debian's chromium, as the browser tests and scripts/screens.py start it (Playwright's own
browser download needs a network this project does not assume)."""

from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
# headless as root, and quiet: without the last four it keeps trying Google's hosts
BROWSER_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
