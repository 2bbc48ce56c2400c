"""cambio: Cambio, a memory game (rules: docs/rules/cambio.md, cited by section, §8.4).

Each player has face-down cards in labelled positions (A B / C D, penalty cards add E, F, …)
and wants the lowest total. Where each rule lives:

- ``table``: card points (§2), powers (§6), position labels (§3), the slots that hold a card
  and who knows it (§10.1), the table itself (``CambioTable``, which every rule takes), and
  what the rules do to it: take a card from the stock (§9), look at a card, swap two, the
  unlocked targets (§6, §7.3), when Cambio may be called (§7.1);
- ``moves``: the moves and their text (§12);
- ``rules``: the deal and the opening look (§4), a turn (§5), powers (§6), the Cambio call
  (§7), scoring and the game's end (§11): the moves each rule allows and what they do;
- ``snaps``: snapping out of turn (§8);
- ``knowledge``: what each player knows and sees (§10), the worlds of a searching AI;
- ``state``: the state, a table that answers the engine by asking the rules (no rule
  imports it: pyproject.toml's import contract keeps these layers);
- ``words``: what a player reads, and why a move is refused; ``saves``: the save format;
  ``game``: the game type and its options (§1);
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
from engine.games.cambio.words import CALL_CAMBIO_CONFIRM

__all__ = [
    "CALL_CAMBIO_CONFIRM",
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
