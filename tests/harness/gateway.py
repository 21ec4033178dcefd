"""The gateway half of the harness: one :class:`GatewaySession` per websocket connection.

Speaks plain-text JSON frames (discord.py only decompresses binary frames, so asking for
``compress=zlib-stream`` in the URL is harmless). Handshake: HELLO → IDENTIFY → READY → one
GUILD_CREATE per guild. Heartbeats are acknowledged; RESUME of a known session replays nothing
and answers RESUMED; an unknown session gets INVALID_SESSION (false) so the client re-identifies.

Sharding, as Discord does it: an IDENTIFY with ``shard: [shard_id, shard_count]`` makes the
connection that shard; it is told about, and sent the events of, only the guilds the shard owns
(:func:`guild_shard`), and events that belong to no guild (DMs) go to shard 0. A shard id not
below its count closes the connection with 4010 (Invalid shard). A connection that identifies
without ``shard`` is the one shard of an unsharded bot and gets everything.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

if TYPE_CHECKING:
    from .server import DiscordHarness

log = logging.getLogger(__name__)

HEARTBEAT_INTERVAL_MS = 41250
INTENT_GUILDS = 1 << 0
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_MESSAGES = 1 << 9
GUILD_EVENTS_KEYED_BY_ID = frozenset({"GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE"})


def guild_shard(guild_id: int, shard_count: int) -> int:
    """The shard that owns a guild: ``(guild_id >> 22) % shard_count`` (Discord's rule)."""
    return (guild_id >> 22) % shard_count


def event_guild_id(event: str, data: dict[str, Any]) -> int | None:
    """The guild a DISPATCH belongs to (``None``: no guild, e.g. a DM)."""
    if data.get("guild_id"):
        return int(data["guild_id"])
    if event in GUILD_EVENTS_KEYED_BY_ID and data.get("id"):
        return int(data["id"])
    return None


class GatewaySession:
    def __init__(self, harness: DiscordHarness, ws: web.WebSocketResponse) -> None:
        self.harness = harness
        self.ws = ws
        self.session_id: str | None = None
        self.seq = 0
        self.identified = False
        self.intents = 0
        self.identify: dict[str, Any] | None = None
        self.received: list[dict[str, Any]] = []
        # Every DISPATCH sent on this connection: (event name, the guild it belongs to or None).
        self.sent: list[tuple[str, int | None]] = []

    @property
    def open(self) -> bool:
        return not self.ws.closed

    @property
    def shard(self) -> tuple[int, int] | None:
        """``(shard_id, shard_count)`` from the IDENTIFY, or ``None`` for an unsharded bot."""
        shard = (self.identify or {}).get("shard")
        if not shard:
            return None
        return int(shard[0]), int(shard[1])

    def owns(self, guild_id: int | None) -> bool:
        """Whether this connection is sent the events of ``guild_id`` (``None``: no guild)."""
        if self.shard is None:
            return True
        shard_id, count = self.shard
        if guild_id is None:
            return shard_id == 0
        return guild_shard(guild_id, count) == shard_id

    async def send(self, payload: dict[str, Any]) -> None:
        if self.ws.closed:
            return
        try:
            await self.ws.send_str(json.dumps(payload))
        except (ConnectionError, RuntimeError) as exc:  # peer went away mid-send
            log.debug("gateway send failed: %s", exc)

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        self.sent.append((event, event_guild_id(event, data)))
        self.seq += 1
        await self.send({"op": 0, "t": event, "s": self.seq, "d": data})

    async def run(self) -> None:
        await self.send(
            {"op": 10, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}, "s": None, "t": None}
        )
        async for msg in self.ws:
            if msg.type != WSMsgType.TEXT:
                if msg.type == WSMsgType.ERROR:
                    break
                continue
            try:
                payload = json.loads(msg.data)
            except ValueError:
                await self.ws.close(code=4002, message=b"Error while decoding payload.")
                break
            self.received.append(payload)
            await self.handle(payload)

    async def handle(self, payload: dict[str, Any]) -> None:
        op = payload.get("op")
        data = payload.get("d")
        h = self.harness
        if op == 1:  # heartbeat
            await self.send({"op": 11, "d": None, "s": None, "t": None})
        elif op == 2:  # identify
            if self.identified:
                await self.ws.close(code=4005, message=b"Already authenticated.")
                return
            if data.get("token") != h.token:
                await self.ws.close(code=4004, message=b"Authentication failed.")
                return
            shard = data.get("shard")
            if shard is not None and not _valid_shard(shard):
                await self.ws.close(code=4010, message=b"Invalid shard.")
                return
            self.identify = data
            self.intents = int(data.get("intents") or 0)
            self.session_id = secrets.token_hex(16)
            self.identified = True
            h.sessions_by_id[self.session_id] = self
            # A server the bot was removed from is not among its servers any more.
            owned = [g for g in h.guilds if self.owns(g.id) and not g.bot_removed]
            await self.dispatch("READY", h.ready_payload(self.session_id, owned, self.shard))
            for guild in owned:
                await self.dispatch("GUILD_CREATE", guild.payload())
            h.ready_count += 1
            h.notify()
        elif op == 6:  # resume
            old = h.sessions_by_id.get((data or {}).get("session_id"))
            if old is None or data.get("token") != h.token:
                await self.send({"op": 9, "d": False, "s": None, "t": None})
                return
            self.session_id = old.session_id
            self.seq = max(old.seq, int(data.get("seq") or 0))
            self.intents = old.intents
            self.identify = old.identify
            self.identified = True
            h.sessions_by_id[self.session_id] = self
            await self.dispatch("RESUMED", {})
            h.notify()
        elif op == 8:  # request guild members
            guild = h.guild_by_id(int(data["guild_id"])) if data.get("guild_id") else None
            if guild is not None:
                wanted = {int(u) for u in data.get("user_ids") or []}
                query = (data.get("query") or "").lower()
                members = [
                    m
                    for m in guild.members
                    if (not wanted or m.id in wanted) and m.name.lower().startswith(query)
                ]
                chunk: dict[str, Any] = {
                    "guild_id": str(guild.id),
                    "members": [m.payload() for m in members],
                    "chunk_index": 0,
                    "chunk_count": 1,
                }
                if data.get("nonce"):
                    chunk["nonce"] = data["nonce"]
                await self.dispatch("GUILD_MEMBERS_CHUNK", chunk)
        # op 3 (presence), op 4 (voice state) and anything else: accepted and ignored.


def _valid_shard(shard: object) -> bool:
    return (
        isinstance(shard, list)
        and len(shard) == 2
        and all(isinstance(n, int) and not isinstance(n, bool) for n in shard)
        and 0 <= shard[0] < shard[1]
    )


async def gateway_handler(harness: DiscordHarness, request: web.Request) -> web.StreamResponse:
    ws = web.WebSocketResponse(autoping=True, max_msg_size=0)
    await ws.prepare(request)
    session = GatewaySession(harness, ws)
    harness.sessions.append(session)
    harness.notify()
    try:
        await session.run()
    except asyncio.CancelledError:
        raise
    except Exception as error:  # keep the server alive; the test fails at once
        harness.harness_error("running a gateway session", error, None)
    finally:
        if not ws.closed:
            await ws.close()
        harness.notify()
    return ws
