"""cambio: Cambio, a memory game (rules: docs/rules/cambio.md, cited by section, §8.4).

Each player has face-down cards in labelled positions (A B / C D, penalty cards add E, F, …)
and wants the lowest total. Where each rule lives:

- ``table``: card points (§2), powers (§6), position labels (§3), the slots that hold a card
  and who knows it (§10.1);
- ``moves``: the moves and their text (§12);
- ``state``: the deal and the opening look (§4), a turn (§5), powers (§6), the Cambio call
  (§7), the stock running out (§9), scoring and the game's end (§11);
- ``snaps``: snapping out of turn (§8);
- ``knowledge``: what each player knows and sees (§10), the worlds of a searching AI;
- ``words``: what a player reads; ``saves``: the save format; ``game``: the game type and its
  options (§1);
- the heuristic AI: ``engine.ai.cambio``.
"""

from __future__ import annotations

from engine.games.cambio.game import GAME, CambioGame
from engine.games.cambio.moves import (
    CAMBIO,
    DISCARD,
    DRAW,
    KEEP,
    SKIP,
    SWAP,
    BlindSwap,
    Give,
    KingPeek,
    Look,
    Peek,
    Replace,
    Snap,
    Spy,
)
from engine.games.cambio.state import CambioState
from engine.games.cambio.table import Slot, label_index, label_of, points, power_of

__all__ = [
    "CAMBIO",
    "DISCARD",
    "DRAW",
    "GAME",
    "KEEP",
    "SKIP",
    "SWAP",
    "BlindSwap",
    "CambioGame",
    "CambioState",
    "Give",
    "KingPeek",
    "Look",
    "Peek",
    "Replace",
    "Slot",
    "Snap",
    "Spy",
    "label_index",
    "label_of",
    "points",
    "power_of",
]
