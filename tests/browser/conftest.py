"""The browser the browser tests drive."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.browser.chromium import CHROMIUM


@pytest.fixture
def chromium() -> Path:
    """Debian's chromium; the test fails in CI, and is skipped elsewhere, without it."""
    if CHROMIUM.exists():
        return CHROMIUM
    how = "Debian's chromium is missing: install it with `apt-get install -y chromium` (as root)"
    if os.environ.get("CI") == "true":
        pytest.fail(how)
    pytest.skip(how)
