"""Scoreboards, stats and history: what is shown of finished games, and skill ratings."""
