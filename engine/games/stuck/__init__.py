"""stuck: a shedding game with face-down "stuck" cards (rules: docs/rules/stuck.md).

Where each rule lives, by the rules document's sections:

- §1 players, §2 the deal: ``StuckState.start_round`` (the first dealer in
  ``StuckState.__init__``).
- §3 a turn and §4 playing card by card: which cards may start a play, ``may_start``; which
  may follow, ``may_follow``; the legal moves, ``StuckState._legal_actions``; what a card
  does, ``StuckState.play_card``; a draw (§3.4), ``StuckState.draw_for_turn``.
- §5 the bonus: ``StuckState.finish_play``, ``bonus_targets``, ``give_bonus``.
- §6 stuck cards (seen by nobody, ``StuckState.zones``; picked up, ``after_bonus``; going
  out ends the round, ``finish_play``).
- §7 the draw pile running out: ``StuckState.draw_card``, ``reshuffle``.
- §8 a stalled round: ``StuckState.end_turn``.
- §9 scoring and winning: ``StuckState.end_round``, ``TotalsState.winners``.
- §10 move text: ``PlayCard``, ``Give``, ``DONE``, ``DRAW`` (``rules``);
  reading it, ``StuckGame.parse_action``.

The AI (``engine.ai.stuck``) reads what each player was seen to lack when drawing, public
memory kept in ``StuckState.lacks`` and shown only in ``agent_view``.
"""

from engine.games.stuck.game import GAME, StuckGame, follow_hint
from engine.games.stuck.rules import (
    DONE,
    DRAW,
    FOLLOW,
    GIVE,
    GIVES,
    HAND_SIZE,
    MAX_PLAYERS,
    MAX_STUCK,
    PHASES,
    PLAY,
    PLAYER_COUNTS,
    PLAYS,
    Give,
    PlayCard,
    may_follow,
    may_start,
)
from engine.games.stuck.state import StuckState

__all__ = [
    "DONE",
    "DRAW",
    "FOLLOW",
    "GAME",
    "GIVE",
    "GIVES",
    "HAND_SIZE",
    "MAX_PLAYERS",
    "MAX_STUCK",
    "PHASES",
    "PLAY",
    "PLAYER_COUNTS",
    "PLAYS",
    "Give",
    "PlayCard",
    "StuckGame",
    "StuckState",
    "follow_hint",
    "may_follow",
    "may_start",
]
