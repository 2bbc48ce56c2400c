"""Cardroom's Discord side: commands, views, rendering, sessions and storage."""
