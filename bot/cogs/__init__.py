"""Slash commands, one cog per feature."""
