"""Discord-facing pieces: routed buttons and the presenter that posts and edits messages."""
