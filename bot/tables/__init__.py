"""Running games: lobbies, table sessions and everything players see of them.

Sessions and services (no Discord): ``session`` (one running game and its transactional
intents), ``lobby``, ``service`` (all lobbies and tables), ``timers`` (AI moves, timeouts),
``display`` (batched updates), ``restore``, ``results``. Discord-facing:
``commands`` (/game), ``lobby_view``, ``hand_view``, ``table_view`` (messages and their
buttons) and ``presenter``.
"""
