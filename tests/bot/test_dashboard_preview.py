"""scripts/dashboard_preview.py evaluates the dashboard's queries as Prometheus would."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.scripts import load_script

ROOT = Path(__file__).resolve().parents[2]
preview = load_script("dashboard_preview")


def scrapes(*taken: tuple[float, dict[str, dict[tuple[tuple[str, str], ...], float]]]) -> Any:
    """The script's scrapes: (simulated seconds, samples by name and labels) each."""
    return [preview.Scrape(seconds, samples) for seconds, samples in taken]


def test_rate_and_increase_use_the_window_and_sum_by_groups() -> None:
    moves = "cardroom_moves_total"
    runs = scrapes(
        (0, {moves: {(("game", "fishing"),): 0, (("game", "cambio"),): 0}}),
        (60, {moves: {(("game", "fishing"),): 6, (("game", "cambio"),): 0}}),
        (120, {moves: {(("game", "fishing"),): 18, (("game", "cambio"),): 3}}),
    )
    assert preview.evaluate(f"rate({moves}[1m])", runs, 2) == {
        (("game", "fishing"),): 0.2,
        (("game", "cambio"),): 0.05,
    }
    assert preview.evaluate(f"sum by (game) (increase({moves}[5m]))", runs, 2) == {
        (("game", "fishing"),): 18,
        (("game", "cambio"),): 3,
    }
    assert preview.evaluate(f"rate({moves}[5m])", runs, 0) == {}, "no time passed yet"


def test_histogram_quantile_interpolates_within_the_bucket() -> None:
    bucket = "cardroom_save_duration_seconds_bucket"
    counts = {"0.1": 5.0, "1.0": 10.0, "+Inf": 10.0}
    runs = scrapes(
        (0, {bucket: {(("le", le),): 0.0 for le in counts}}),
        (60, {bucket: {(("le", le),): count for le, count in counts.items()}}),
    )
    rate = f"sum by (le) (rate({bucket}[5m]))"
    assert preview.evaluate(f"histogram_quantile(0.5, {rate})", runs, 1) == {(): pytest.approx(0.1)}
    assert preview.evaluate(f"histogram_quantile(0.75, {rate})", runs, 1) == {
        (): pytest.approx(0.55)
    }


def test_every_query_of_the_dashboards_is_evaluated_and_no_other() -> None:
    empty = scrapes((0, {}), (60, {}))
    for path in (ROOT / "deploy" / "grafana").glob("*.json"):
        for panel in json.loads(path.read_text(encoding="utf-8"))["panels"]:
            for target in panel["targets"]:
                assert preview.evaluate(target["expr"], empty, 1) == {}
    with pytest.raises(SystemExit, match="cannot evaluate"):
        preview.evaluate("avg(cardroom_moves_total)", empty, 1)
