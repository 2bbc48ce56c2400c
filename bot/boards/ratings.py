"""Skill ratings for scoreboards and stats: openskill's Plackett-Luce model over finished games.

A rating is per server, game and season, computed from that season's finished games in the
order they ended. Only places count (1 = winner, equal places tie), never raw scores: some
games are won by the lowest score. The figure behind a ranking is the conservative ordinal
mu - 3 sigma, which starts at 0 and grows as results show skill; people see it on a scale
they read (``shown_rating``: a new player's 1000, never below 0), marked provisional until
PROVISIONAL_GAMES rated games, and provisional players rank after the others, so neither one
lucky game nor many games alone top a ranking. Only seats with a player are rated, against
each other: AI seats take part in the game but are not rated, so a game with fewer than two
players changes no rating.

Storage returns the rows (``Results``); everything computed from them is here.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce, PlackettLuceRating
from pydantic import BaseModel

from bot.storage import PlacedSeat, Results

MODEL = PlackettLuce()
RATING_BASE = 1000  # what a new player (ordinal 0) is shown
RATING_SCALE = 40  # shown points per unit of ordinal: one win over an equal is about +300
PROVISIONAL_GAMES = 5  # rated games before a rating is taken as settled


def shown_rating(ordinal: float) -> int:
    """An ordinal on the scale people see: 1000 for a new player, never negative.

    >>> shown_rating(0.0), shown_rating(-1.8), shown_rating(-40.0)
    (1000, 928, 0)
    """
    return max(0, round(RATING_BASE + RATING_SCALE * ordinal))


def rating_text(rating: int, provisional: bool) -> str:
    """A shown rating with its provisional mark: ``1040?`` until it is settled.

    >>> rating_text(1040, True), rating_text(1312, False)
    ('1040?', '1312')
    """
    return f"{rating}?" if provisional else str(rating)


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

    @property
    def shown(self) -> int:
        """The ordinal on the scale people see (``shown_rating``)."""
        return shown_rating(self.ordinal)

    @property
    def provisional(self) -> bool:
        """Too few rated games for the rating to mean much yet."""
        return self.rated_games < PROVISIONAL_GAMES


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


class ScoreRow(BaseModel):
    """One player's line on a server's scoreboard for one game and season."""

    user_id: int
    name: str  # the name used in the player's latest game
    game_id: str
    season: int
    games: int
    wins: int
    win_rate: float  # wins / games, 0 to 1
    rating: int  # shown_rating of the ordinal (1000 for a new player)
    provisional: bool  # fewer than PROVISIONAL_GAMES rated games
    rank: int  # 1 = top of this game's scoreboard


class StatsRow(BaseModel):
    """One player's figures for one game on a server (all seasons; rating: current season)."""

    game_id: str
    games: int
    wins: int
    rating: int  # the current season's shown rating (1000, a new player's, without a game)
    provisional: bool  # fewer than PROVISIONAL_GAMES rated games this season
    season: int  # the current season of this game on this server
    season_games: int  # games in the current season
    best_score: int  # highest, or lowest where the lowest score wins
    average_score: float


def rank_season(game_id: str, season: int, games: Sequence[Sequence[PlacedSeat]]) -> list[ScoreRow]:
    """The scoreboard of one season: settled ratings before provisional ones, each by rating,
    then wins, then games, then id."""
    ratings = rate_games([(seat.user_id, seat.place) for seat in game] for game in games)
    games_played: dict[int, int] = defaultdict(int)
    wins: dict[int, int] = defaultdict(int)
    names: dict[int, str] = {}
    for game in games:
        for seat in game:
            games_played[seat.user_id] += 1
            wins[seat.user_id] += seat.place == 1
            names[seat.user_id] = seat.name
    order = sorted(
        games_played,
        key=lambda user: (
            ratings[user].provisional,
            -ratings[user].ordinal,
            -wins[user],
            -games_played[user],
            user,
        ),
    )
    return [
        ScoreRow(
            user_id=user,
            name=names[user],
            game_id=game_id,
            season=season,
            games=games_played[user],
            wins=wins[user],
            win_rate=wins[user] / games_played[user],
            rating=ratings[user].shown,
            provisional=ratings[user].provisional,
            rank=rank,
        )
        for rank, user in enumerate(order, start=1)
    ]


class Ratings:
    """Scoreboards and stats of a server, computed from the finished games in ``results``."""

    def __init__(self, results: Results) -> None:
        self._results = results

    async def scoreboard(
        self, guild_id: int, game_id: str | None = None, season: int | None = None
    ) -> list[ScoreRow]:
        """This server's ranking for ``game_id`` (None: every game, by game id then rank).

        ``season`` None is each game's current season. AI seats are not listed.
        """
        game_ids = [game_id] if game_id is not None else await self._results.game_ids(guild_id)
        board: list[ScoreRow] = []
        for each in game_ids:
            chosen = (
                season if season is not None else await self._results.current_season(guild_id, each)
            )
            games = await self._results.season_places(guild_id, each, chosen)
            board.extend(rank_season(each, chosen, games))
        return board

    async def stats(self, guild_id: int, user_id: int) -> list[StatsRow]:
        """A player's figures per game on this server: games, wins, best and average score over
        all seasons, and the rating of the current season. One row per game played."""
        result = []
        for totals in await self._results.player_totals(guild_id, user_id):
            season = await self._results.current_season(guild_id, totals.game_id)
            games = await self._results.season_places(guild_id, totals.game_id, season)
            rating = rate_games([(s.user_id, s.place) for s in game] for game in games).get(
                user_id, DEFAULT
            )
            season_games = sum(any(s.user_id == user_id for s in game) for game in games)
            low_wins = lowest_score_wins(await self._results.score_places(guild_id, totals.game_id))
            result.append(
                StatsRow(
                    game_id=totals.game_id,
                    games=totals.games,
                    wins=totals.wins,
                    rating=rating.shown,
                    provisional=rating.provisional,
                    season=season,
                    season_games=season_games,
                    best_score=totals.lowest_score if low_wins else totals.highest_score,
                    average_score=round(totals.average_score, 3),
                )
            )
        return result
