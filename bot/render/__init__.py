"""Turning engine views, events and actions into text people read on Discord."""
