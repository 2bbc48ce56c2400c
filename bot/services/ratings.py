"""Skill ratings for scoreboards: openskill's Plackett-Luce model over finished games.

A rating is per server, game and season, computed from that season's finished games in the
order they ended. Only places count (1 = winner, equal places tie), never raw scores: some
games are won by the lowest score. The shown figure is the conservative ordinal mu - 3 sigma,
which starts at 0 and only grows as results show skill, so many games alone do not top a
ranking. Only seats with a player are rated, against each other: AI seats take part in the
game but are not rated, so a game with fewer than two players changes no rating.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce, PlackettLuceRating

MODEL = PlackettLuce()


@dataclass(frozen=True, slots=True)
class PlayerRating:
    """A player's rating after some games."""

    mu: float
    sigma: float
    rated_games: int  # games that changed the rating (with at least one other player)

    @property
    def ordinal(self) -> float:
        """The conservative figure shown on scoreboards: mu - 3 sigma."""
        return self.mu - 3 * self.sigma


DEFAULT = PlayerRating(MODEL.mu, MODEL.sigma, 0)


def rate_games(games: Iterable[Sequence[tuple[int, int]]]) -> dict[int, PlayerRating]:
    """Ratings after ``games`` in order; each game lists (user id, place) of its rated seats.

    A user listed twice in one game counts once, with their first seat. Every user seen gets a
    rating (the default one if none of their games had another player).
    """
    current: dict[int, PlackettLuceRating] = {}
    counts: dict[int, int] = {}
    for game in games:
        places: dict[int, int] = {}
        for user_id, place in game:
            places.setdefault(user_id, place)
            if user_id not in current:
                current[user_id] = MODEL.rating()
                counts[user_id] = 0
        if len(places) < 2:
            continue
        users = list(places)
        rated = MODEL.rate([[current[u]] for u in users], ranks=[float(places[u]) for u in users])
        for user_id, (new,) in zip(users, rated, strict=True):
            current[user_id] = new
            counts[user_id] += 1
    return {
        user_id: PlayerRating(rating.mu, rating.sigma, counts[user_id])
        for user_id, rating in current.items()
    }


def lowest_score_wins(games: Iterable[Sequence[tuple[int, int]]]) -> bool:
    """Whether, going by recorded results, a game is won by the lowest score.

    Each game lists (score, place) of every seat; a game whose winners scored less than the
    other seats on average votes for lowest. The engine does not say which way its games
    count, so the results decide (ties and no decisive game: highest wins).
    """
    votes = 0
    for game in games:
        winners = [score for score, place in game if place == 1]
        others = [score for score, place in game if place != 1]
        if not winners or not others:
            continue
        difference = sum(winners) / len(winners) - sum(others) / len(others)
        votes += (difference < 0) - (difference > 0)
    return votes > 0
