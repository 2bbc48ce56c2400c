"""A way in for newcomers: ``/help`` (what Cardroom is, each game in a line, how to start) and
the rules texts, privately, from ``/game rules`` or a lobby's **How to play** button."""
