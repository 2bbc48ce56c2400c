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

import asyncio
import weakref
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce, PlackettLuceRating
from pydantic import BaseModel

from bot.storage import PlacedSeat, RecordedGame, Results
from engine.registry import games

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


class SeasonTally:
    """One season's ratings, games, wins and names, as far as game ``through`` (in record
    order); ``add`` brings it forward one game at a time, as openskill rates games in order."""

    def __init__(self) -> None:
        self.through = 0
        self._ratings: dict[int, PlackettLuceRating] = {}
        self._rated_games: dict[int, int] = defaultdict(int)
        self.games: dict[int, int] = defaultdict(int)
        self.wins: dict[int, int] = defaultdict(int)
        self.names: dict[int, str] = {}

    def add(self, seats: Sequence[PlacedSeat]) -> None:
        """Count one more game; each seat is a person and their place (a person seated twice
        is rated once, with their first seat). A game with fewer than two people changes no
        rating."""
        places: dict[int, int] = {}
        for seat in seats:
            places.setdefault(seat.user_id, seat.place)
            self.games[seat.user_id] += 1
            self.wins[seat.user_id] += seat.place == 1
            self.names[seat.user_id] = seat.name
            if seat.user_id not in self._ratings:
                self._ratings[seat.user_id] = MODEL.rating()
        if len(places) < 2:
            return
        users = list(places)
        rated = MODEL.rate(
            [[self._ratings[u]] for u in users], ranks=[float(places[u]) for u in users]
        )
        for user_id, (new,) in zip(users, rated, strict=True):
            self._ratings[user_id] = new
            self._rated_games[user_id] += 1

    def with_games(self, games: Iterable[RecordedGame]) -> SeasonTally:
        """A copy brought forward by ``games`` (this tally stays as it is, for its readers)."""
        tally = SeasonTally()
        tally.through = self.through
        tally._ratings = dict(self._ratings)
        tally._rated_games = defaultdict(int, self._rated_games)
        tally.games = defaultdict(int, self.games)
        tally.wins = defaultdict(int, self.wins)
        tally.names = dict(self.names)
        for game in games:
            tally.add(game.seats)
            tally.through = max(tally.through, game.recorded)
        return tally

    def rating(self, user_id: int) -> PlayerRating:
        """A user's rating (a new player's if they have none in this season)."""
        rating = self._ratings.get(user_id)
        if rating is None:
            return DEFAULT
        return PlayerRating(rating.mu, rating.sigma, self._rated_games[user_id])

    def board(self, game_id: str, season: int) -> list[ScoreRow]:
        """The scoreboard: settled ratings before provisional ones, each by rating, then wins,
        then games, then id."""
        ratings = {user: self.rating(user) for user in self.games}
        order = sorted(
            self.games,
            key=lambda u: (
                ratings[u].provisional,
                -ratings[u].ordinal,
                -self.wins[u],
                -self.games[u],
                u,
            ),
        )
        return [
            ScoreRow(
                user_id=user,
                name=self.names[user],
                game_id=game_id,
                season=season,
                games=self.games[user],
                wins=self.wins[user],
                win_rate=self.wins[user] / self.games[user],
                rating=ratings[user].shown,
                provisional=ratings[user].provisional,
                rank=rank,
            )
            for rank, user in enumerate(order, start=1)
        ]


def rate_games(games: Iterable[Sequence[tuple[int, int]]]) -> dict[int, PlayerRating]:
    """Ratings after ``games`` in order; each game lists (user id, place) of its rated seats.

    A user listed twice in one game counts once, with their first seat. Every user seen gets a
    rating (the default one if none of their games had another player).
    """
    tally = SeasonTally()
    for game in games:
        tally.add([PlacedSeat(user_id, "", place) for user_id, place in game])
    return {user_id: tally.rating(user_id) for user_id in tally.games}


def score_votes(games: Iterable[Sequence[tuple[int, int]]]) -> int:
    """Votes for "won by the lowest score": each game lists (score, place) of every seat; one
    whose winners scored less than the other seats on average votes +1, more votes -1."""
    votes = 0
    for game in games:
        winners = [score for score, place in game if place == 1]
        others = [score for score, place in game if place != 1]
        if not winners or not others:
            continue
        difference = sum(winners) / len(winners) - sum(others) / len(others)
        votes += (difference < 0) - (difference > 0)
    return votes


def lowest_score_wins(games: Iterable[Sequence[tuple[int, int]]]) -> bool:
    """Whether, going by recorded results, a game is won by the lowest score: for a game no
    longer registered (the engine says it of the others: ``Game.lowest_wins``), the results
    decide by ``score_votes`` (ties and no decisive game: highest wins).
    """
    return score_votes(games) > 0


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
    lowest_wins: bool  # the game is won by the lowest score (so its best score is the lowest)
    # highest, or lowest where the lowest score wins; of games played to the end (None: none)
    best_score: int | None
    average_score: float | None


@dataclass
class ScoreVotes:
    """The running ``score_votes`` of one game on one server, as far as game ``through``."""

    through: int = 0
    votes: int = 0


class Ratings:
    """Scoreboards and stats of a server, from the finished games in ``results``.

    Ratings are kept per (server, game, season) and brought up to date by reading only the
    games recorded since (``refresh``, called when a game ends, and before every answer), with
    the rating itself computed in a worker thread: a scoreboard or stats answer never rates a
    whole season on the event loop, nor holds the database while it does.
    """

    def __init__(self, results: Results) -> None:
        self._results = results
        # Only seasons and games with results are kept: a board of a season or game with none
        # (``/scoreboard season:N`` for any N) is answered without adding an entry.
        self._tallies: dict[tuple[int, str, int], SeasonTally] = {}
        self._votes: dict[tuple[int, str], ScoreVotes] = {}
        # one refresh at a time per server and game: two would both add the same new games;
        # a lock lives only while a refresh holds it or waits for it
        self._refreshing: weakref.WeakValueDictionary[tuple[int, str], asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )

    async def refresh(self, guild_id: int, game_id: str, season: int | None = None) -> None:
        """Bring the cached ratings of a season (None: the current one) and the score votes of
        ``game_id`` on this server up to date with the finished games."""
        if season is None:
            season = await self._results.current_season(guild_id, game_id)
        refreshing = self._refreshing.get((guild_id, game_id))
        if refreshing is None:
            refreshing = self._refreshing[guild_id, game_id] = asyncio.Lock()
        async with refreshing:
            tally = self._tallies.get((guild_id, game_id, season), SeasonTally())
            new_games = await self._results.season_places(guild_id, game_id, season, tally.through)
            if new_games:  # a new tally replaces the old: a board read from the old stays whole
                self._tallies[guild_id, game_id, season] = await asyncio.to_thread(
                    tally.with_games, new_games
                )
            votes = self._votes.get((guild_id, game_id), ScoreVotes())
            scored = await self._results.score_places(guild_id, game_id, votes.through)
            if scored:
                votes.votes += score_votes(game.scores for game in scored)
                votes.through = scored[-1].recorded
                self._votes[guild_id, game_id] = votes

    async def warm(self) -> None:
        """Rate the current season of every server and game (at start, in the background), so
        that no first /scoreboard after a restart rates a whole season while a person waits."""
        for guild_id, game_id in await self._results.played():
            await self.refresh(guild_id, game_id)

    def cached_seasons(self) -> dict[tuple[int, str, int], int]:
        """(server, game, season) → the number of the last game its cached ratings include."""
        return {key: tally.through for key, tally in self._tallies.items()}

    async def _tally(self, guild_id: int, game_id: str, season: int) -> SeasonTally:
        await self.refresh(guild_id, game_id, season)
        return self._tallies.get((guild_id, game_id, season), SeasonTally())

    async def _seasons(
        self, guild_id: int, game_id: str | None, season: int | None
    ) -> list[tuple[str, int]]:
        """The (game, season) pairs a scoreboard shows: ``game_id`` (None: every game played
        on this server), each in ``season`` (None: its current one)."""
        game_ids = [game_id] if game_id is not None else await self._results.game_ids(guild_id)
        return [
            (
                each,
                season
                if season is not None
                else await self._results.current_season(guild_id, each),
            )
            for each in game_ids
        ]

    async def rated(
        self, guild_id: int, game_id: str | None = None, season: int | None = None
    ) -> bool:
        """Whether every season ``scoreboard`` would show is rated already. If not, it rates
        it first: seconds at thousands of games, so whoever answers defers the answer."""
        pairs = await self._seasons(guild_id, game_id, season)
        return all((guild_id, each, chosen) in self._tallies for each, chosen in pairs)

    async def scoreboard(
        self, guild_id: int, game_id: str | None = None, season: int | None = None
    ) -> list[ScoreRow]:
        """This server's ranking for ``game_id`` (None: every game, by game id then rank).

        ``season`` None is each game's current season. AI seats are not listed.
        """
        board: list[ScoreRow] = []
        for each, chosen in await self._seasons(guild_id, game_id, season):
            board.extend((await self._tally(guild_id, each, chosen)).board(each, chosen))
        return board

    async def stats(self, guild_id: int, user_id: int) -> list[StatsRow]:
        """A player's figures per game on this server: games, wins, best and average score over
        all seasons, and the rating of the current season. One row per game played."""
        result = []
        for totals in await self._results.player_totals(guild_id, user_id):
            season = await self._results.current_season(guild_id, totals.game_id)
            tally = await self._tally(guild_id, totals.game_id, season)
            game = games().get(totals.game_id)
            votes = self._votes.get((guild_id, totals.game_id), ScoreVotes()).votes
            low_wins = game.lowest_wins if game else votes > 0
            average = totals.average_score
            result.append(
                StatsRow(
                    game_id=totals.game_id,
                    games=totals.games,
                    wins=totals.wins,
                    rating=tally.rating(user_id).shown,
                    provisional=tally.rating(user_id).provisional,
                    season=season,
                    season_games=tally.games.get(user_id, 0),
                    lowest_wins=low_wins,
                    best_score=totals.lowest_score if low_wins else totals.highest_score,
                    average_score=None if average is None else round(average, 3),
                )
            )
        return result
