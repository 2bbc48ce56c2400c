"""Bringing running games and open lobbies back after a restart.

Each saved game (its state read back once, by storage) becomes a session again, with the log,
deal count and hand summaries saved with it: nothing is replayed, so 10,000 games come back in
seconds. A game saved before those were (migration 008) has them rebuilt by replaying its
actions from its seed (the engine is deterministic). A saved game that cannot be read back is
set aside in storage unchanged and reported, never restored. An open lobby comes back as it
was saved; one whose game or options are no longer known is dropped.
"""

from __future__ import annotations

import asyncio
import logging

from bot.storage import READ_IN_TURNS, ActionRecord, BrokenGame, LoadedGame, Shards, Storage
from bot.tables.lobby import Lobby, ServerLanguage, restored_language
from bot.tables.records import LoggedEvent, RoundEnd, Seat, SessionContext, summary_of
from bot.tables.session import RESTARTED, TableSession
from engine.errors import EngineError, SetupError
from engine.runner import collector_paused

log = logging.getLogger(__name__)


async def restore_sessions(
    storage: Storage,
    context: SessionContext,
    server_language: ServerLanguage,
    shards: Shards | None = None,
) -> tuple[list[TableSession], list[BrokenGame]]:
    """The saved running games (of the servers on ``shards``; None: all) as sessions, each
    in its language (``restored_language``), and those that could not be read back (already
    set aside in storage, so the next start does not report them again)."""
    sessions: list[TableSession] = []
    broken: list[BrokenGame] = []
    # Each game brings hundreds of objects that all stay: a running collector would scan them
    # again and again for garbage there is none of (half of a start's time at 10,000 games).
    with collector_paused():
        for index, loaded in enumerate(await storage.running.load(shards)):
            if index and index % READ_IN_TURNS == 0:
                await asyncio.sleep(0)  # the other tasks' turn, as while reading them
            if isinstance(loaded, LoadedGame):
                server = server_language(loaded.saved.guild_id)
                sessions.append(session_from_saved(loaded, context, server))
                continue
            await storage.running.set_aside(loaded)
            broken.append(loaded)
    return sessions, broken


async def restore_lobbies(
    storage: Storage, server_language: ServerLanguage, shards: Shards | None = None
) -> tuple[list[Lobby], list[str]]:
    """The saved open lobbies (of the servers on ``shards``; None: all), each in its language
    (``restored_language``), and the problems of those dropped (deleted from storage)."""
    saved, problems = await storage.lobbies.load(shards)
    lobbies: list[Lobby] = []
    for each in saved:
        try:
            lobbies.append(Lobby.from_saved(each, server_language))
        except SetupError as error:
            problems.append(f"lobby {each.lobby_id}: {error}")
            await storage.lobbies.delete(each.lobby_id)
    return lobbies, problems


def session_from_saved(
    loaded: LoadedGame, context: SessionContext, server_language: str | None
) -> TableSession:
    """A saved game (its state already read back by storage) as a running session; one
    saved in a language Cardroom no longer ships, or without its log, speaks as its lobby
    would (``restored_language``): ``server_language`` (its server's, as an admin chose
    it), else its host's, else English. Without its log, the log is rebuilt from its
    moves."""
    saved, state = loaded.saved, loaded.state
    seats = [Seat.from_record(record) for record in saved.seats]
    session = TableSession(
        saved.table_id,
        saved.guild_id,
        saved.channel_id,
        saved.host_id,
        state.game,
        dict(saved.options),
        saved.seed,
        seats,
        state,
        saved.started_at,
        context=context,
        revision=saved.revision,
        stored_revision=saved.revision,
        actions=saved.actions,
        table_message_id=saved.table_message_id,
        turn_seconds=saved.turn_seconds,
        parent_channel_id=saved.parent_channel_id,
        table_posted_at=context.clock() if saved.table_message_id is not None else None,
    )
    kept = saved.table_log
    session.language = restored_language(
        kept.language if kept else None, server_language, seats, saved.host_id
    )
    if kept is None:  # saved before the log was kept, or its log damaged in storage
        replay_log(session)
    else:
        # a stored line damaged in storage reads as unreadable: the game itself goes on
        table_id, unreadable = saved.table_id, context.unreadable
        session.log.extend(
            LoggedEvent.from_record(event, table_id, unreadable) for event in kept.events
        )
        session.summaries.extend(summary_of(hand, table_id, unreadable) for hand in kept.summaries)
        session.deals = kept.deals
        if kept.round_end is not None:
            session.round_end = RoundEnd.from_record(kept.round_end, table_id, unreadable)
    for info in seats:  # the hand DM shows the current deal: edit it, do not send anew
        info.dm_deal = session.deals if info.dm_message_id else -1
    session.resume(RESTARTED)
    if saved.paused_since is not None:  # still paused: its channel was closed then
        session.pause(saved.paused_since)
    return session


def replay_log(session: TableSession) -> None:
    """Rebuild a restored session's log, deal count and hand summaries (saved without them)
    by playing its actions again from its seed. If they do not lead to its saved state, the
    saved state stays and the log and summaries start empty."""
    state, revision, actions = session.state, session.revision, session.actions
    try:
        deck = state.deck_plan.to_json()  # a game dealt from a given deck replays from it
        session.state = session.game.new_state(
            len(session.seats), session.seed, session.options, deck
        )
        session.revision, session.actions = 0, ActionRecord()
        session.log_opening()
        for seat, text in actions:
            session.record(seat, text, session.state.apply_text(seat, text))
        if session.revision == revision and session.state.to_json() == state.to_json():
            return
    except EngineError:
        pass
    log.warning("table %s: its actions do not replay to its saved state", session.table_id)
    session.log.clear()
    session.summaries.clear()
    session.state, session.revision, session.actions, session.deals = state, revision, actions, 0
