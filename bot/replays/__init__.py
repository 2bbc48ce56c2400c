"""Replays of finished games in Discord: ``/game replay``, the Replay buttons of the history
and of every result message, and the private view that steps through a game with every card
face up (``engine.replay``). Only finished games have a replay record, so a running game is
never offered one.

- ``book``: a finished game's replay from storage (no Discord);
- ``views``: the replay message and its buttons;
- ``commands``: ``/game replay`` and the buttons to register.
"""
