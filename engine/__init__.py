"""Cardroom's card games: pure, synchronous and deterministic (no Discord, no I/O, no asyncio)."""
