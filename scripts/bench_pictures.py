"""Card picture speed and size: time to draw one picture (layout to PNG bytes, no cache) and
its bytes, over positions of random play of every game and player count.

    .venv/bin/python scripts/bench_pictures.py [--positions N]

Prints one JSON line per game (median and p99 milliseconds of CPU time per picture, median
and largest bytes), then one for all games. Card faces are drawn once per process and kept,
and the palette every picture is mapped to is picked once, as in the bot; a first picture of
the whole deck (which does both) is not counted. Not a test: figures vary with the machine
and with what else runs on it.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from bot.pictures import DeckStyle, render
from engine.cards import FULL_DECK
from engine.layout import Layout, face_up, rows
from engine.registry import games

NAMES = ["Ann", "🤖 Ada", "Bea", "Cy", "Dee", "Eve"]


def layouts(game_id: str, count: int) -> list[tuple[Layout, int]]:
    """About ``count`` layouts (seat and public views) from random games of every player count."""
    game = games()[game_id]
    found: list[tuple[Layout, int]] = []
    seed = 0
    while len(found) < count:
        players = game.player_counts[seed % len(game.player_counts)]
        state = game.new_state(players, seed)
        rng = random.Random(seed)
        while not state.is_over and len(found) < count:
            seat = state.waiting_for()[0]
            found.append((game.layout(state.view(seat)), players))
            if rng.random() < 0.3:
                found.append((game.layout(state.public_view()), players))
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rng.randrange(len(legal))])
        seed += 1
    return found


def figures(label: str, times: list[float], sizes: list[int]) -> dict[str, object]:
    """Median and p99 milliseconds, median and largest bytes."""
    ordered = sorted(times)
    return {
        "game": label,
        "pictures": len(times),
        "median_ms": round(statistics.median(ordered) * 1000, 2),
        "p99_ms": round(ordered[int(len(ordered) * 0.99)] * 1000, 2),
        "median_bytes": int(statistics.median(sizes)),
        "max_bytes": max(sizes),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=300, help="pictures per game")
    args = parser.parse_args()
    for style in DeckStyle:  # warm-up: draws and keeps every card face, as a running bot has
        render(rows([face_up("Deck", [card.text for card in FULL_DECK])]), NAMES, style)
    all_times: list[float] = []
    all_sizes: list[int] = []
    for game_id in games():
        times, sizes = [], []
        for index, (layout, players) in enumerate(layouts(game_id, args.positions)):
            style = DeckStyle.FOUR_COLOUR if index % 4 == 0 else DeckStyle.STANDARD
            started = time.process_time()
            picture = render(layout, NAMES[:players], style)
            times.append(time.process_time() - started)
            sizes.append(len(picture.data))
        print(json.dumps(figures(game_id, times, sizes)), flush=True)
        all_times += times
        all_sizes += sizes
    print(json.dumps(figures("all", all_times, all_sizes)), flush=True)


if __name__ == "__main__":
    main()
