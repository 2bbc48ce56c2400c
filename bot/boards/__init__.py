"""Finished games as people see them: scoreboards, stats, history, seasons and ratings.

``commands`` (/scoreboard, /stats, /scoreboard-reset), ``pages`` (the pages, their buttons
and the reset confirmation) and ``ratings`` (skill ratings from the stored results).
"""
