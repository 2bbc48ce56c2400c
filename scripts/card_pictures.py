"""Save card pictures of every game for review: the table (public view) and a hand (seat 0's
view) a few moves into a seeded game with the AI playing, in the standard and the
four-colour deck.

    .venv/bin/python scripts/card_pictures.py [--out DIR] [--moves N] [--seed S]

Writes DIR/<game>-table.png, DIR/<game>-hand.png and DIR/<game>-hand-four-colour.png and
prints each file with its size and alt text. The README's examples come from the defaults.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from bot.pictures import DeckStyle, render
from engine.ai import agent
from engine.registry import games
from engine.runner import agent_move

NAMES = ["Ann", "🤖 Ada", "Bea", "Cy", "Dee", "Eve"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs/images"))
    parser.add_argument("--moves", type=int, default=12)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--players", type=int, default=3, help="(or the nearest count allowed)")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for game_id, game in games().items():
        players = min(game.player_counts, key=lambda count: abs(count - args.players))
        state = game.new_state(players, args.seed)
        agents = [agent(game, "ai") for _ in range(players)]
        rng = random.Random(args.seed)
        for _ in range(args.moves):
            seat = state.waiting_for()[0]
            action = agent_move(state, seat, agents[seat], rng)
            assert action is not None  # a waited-for seat never declines
            state.apply(seat, action)
        names = NAMES[:players]
        pictures = {
            "table": render(game.layout(state.public_view()), names),
            "hand": render(game.layout(state.view(0)), names),
            "hand-four-colour": render(game.layout(state.view(0)), names, DeckStyle.FOUR_COLOUR),
        }
        for kind, picture in pictures.items():
            path = args.out / f"{game_id}-{kind}.png"
            path.write_bytes(picture.data)
            print(f"{path} ({len(picture.data)} bytes): {picture.alt_text}")


if __name__ == "__main__":
    main()
