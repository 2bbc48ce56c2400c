"""Typed errors of the engine. Every message is plain language, fit to show to a player."""


class EngineError(Exception):
    """Base of every error the engine raises on purpose."""


class IllegalActionError(EngineError):
    """An action that the seat may not take now (wrong turn, against the rules, stale)."""


class ActionParseError(EngineError, ValueError):
    """Action text that does not name any action of the game."""


class CardError(ActionParseError):
    """Text that is not a card."""


class SetupError(EngineError, ValueError):
    """A game that cannot be set up as asked: unknown game or option, player count, bad deck."""


class DeckError(SetupError):
    """A given deck that is not exactly the cards in play."""


class SavedStateError(EngineError, ValueError):
    """A saved state that cannot be read back (corrupt, wrong game, newer schema)."""
