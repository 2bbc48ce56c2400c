"""Shared test settings."""

from hypothesis import settings

# No per-example deadline: the suite runs on a busy 2-core machine, and timing is not what
# these properties check (speed has its own benchmark scripts).
settings.register_profile("cardroom", deadline=None)
settings.load_profile("cardroom")
