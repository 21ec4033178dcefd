"""The turn pings that still carry buttons (issue 17, "Act from the ping"; ``turn_pings``,
migration 0020).

A message that says it is a combatant's turn carries End turn, the breather and Attack… for
that turn (:mod:`bot.ui.turn_view`). Once the turn is over — however it ended: one of its own
buttons, a typed command, ``/gm next``, a passed deadline, the end of the fight — the ping
should not offer them any more (a press would only be refused). The presentation records each
ping it posts (:meth:`TurnPings.posted`) and, after each change in the channel, asks which are
over (:meth:`TurnPings.over`), takes their buttons off and forgets them
(:meth:`TurnPings.forget`). Kept in the database, so a ping posted before a restart still loses
its buttons after it.
"""

from __future__ import annotations

from bot.errors import NotFound
from bot.services.encounters import Encounter, EncounterService
from bot.store import turn_pings as repo
from bot.store.turn_pings import TurnPing


class TurnPings:
    """Records turn pings and tells which ones are over."""

    def __init__(self, encounters: EncounterService) -> None:
        self._encounters = encounters

    async def posted(self, encounter: Encounter, message_id: int) -> None:
        """``message_id`` was posted with the buttons of ``encounter``'s current turn."""
        ping = TurnPing(
            message_id, encounter.id, encounter.row.channel_id, encounter.state.turn_seq
        )
        async with self._encounters.db.transaction() as conn:
            await repo.put(conn, ping)

    async def over(self, channel_id: int, encounter: Encounter | None = None) -> list[TurnPing]:
        """The channel's recorded pings whose turn is over: of another encounter than the
        channel's running fight (it ended), of a fight no longer running, or of an earlier
        turn than ``encounter``'s (the channel's fight as a change just left it; read from the
        database when not given). A ping of a later turn than ``encounter`` — posted by a
        change that committed after it — is kept."""
        async with self._encounters.db.read() as conn:
            pings = await repo.of_channel(conn, channel_id)
        if not pings:
            return []
        if encounter is None or encounter.row.channel_id != channel_id:
            try:
                encounter = await self._encounters.live(channel_id)
            except NotFound:
                encounter = None
        running = (
            encounter is not None
            and encounter.row.status == "live"
            and encounter.state.phase == "active"
        )
        if encounter is None or not running:
            return pings
        return [
            p
            for p in pings
            if p.encounter_id != encounter.id or p.turn_seq < encounter.state.turn_seq
        ]

    async def forget(self, message_id: int) -> None:
        """The ping ``message_id`` has no buttons any more (or is gone)."""
        async with self._encounters.db.transaction() as conn:
            await repo.remove(conn, message_id)
