"""One module per game; each defines ``GAME`` (see engine.registry)."""
