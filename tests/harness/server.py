"""A Discord-compatible REST + gateway server on loopback for driving the real bot in tests.

Start one with ``harness = DiscordHarness(); await harness.start()`` (or use the
``discord_harness`` fixture from :mod:`tests.harness.plugin`), point discord.py at
``harness.api_base`` / ``harness.gateway_url`` (``harness.patch_discord()`` does it for an
in-process bot, ``harness.env()`` gives the settings for a subprocess), then act as users with
:meth:`DiscordHarness.slash`, :meth:`~DiscordHarness.click`, … (see :mod:`tests.harness.actions`).

Every request is recorded in :attr:`DiscordHarness.requests`; every body is validated against
Discord's OpenAPI description plus the limits it cannot express (:mod:`tests.harness.schema`).
Problems land in :attr:`DiscordHarness.violations` and — as Discord would — the request is
answered with a 400 "Invalid Form Body" so the bot sees the failure too.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any

from aiohttp import web

from . import schema
from .actions import UserActions
from .gateway import (
    INTENT_GUILD_MEMBERS,
    INTENT_GUILDS,
    GatewaySession,
    event_guild_id,
    gateway_handler,
)
from .messages import MessageStore
from .models import (
    Channel,
    Guild,
    HarnessError,
    InteractionRecord,
    Member,
    Notifier,
    RecordedRequest,
    Role,
    Snowflakes,
    StoredFile,
    StoredMessage,
    User,
    Violation,
    _perm_value,
)
from .rest import Reply, RestRoutes, error_body

log = logging.getLogger(__name__)

API_PREFIX = re.compile(r"^/api(?:/v\d+)?")

# What a freshly invited bot typically gets: view, send, embed, attach, history, reactions,
# external emojis, application commands, send in threads.
DEFAULT_BOT_PERMISSIONS = (
    (1 << 10)
    | (1 << 11)
    | (1 << 14)
    | (1 << 15)
    | (1 << 16)
    | (1 << 6)
    | (1 << 18)
    | (1 << 31)
    | (1 << 38)
)
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
TOKEN_LIFETIME = 15 * 60
ADMINISTRATOR = 1 << 3
ALL_PERMISSIONS = (1 << 53) - 1


Handler = Callable[[RecordedRequest, re.Match[str]], Awaitable[Any]]


class Hold:
    """A request :meth:`DiscordHarness.hold_next` holds: ``request`` once it came."""

    def __init__(self, method: str, rx: re.Pattern[str]) -> None:
        self.method = method
        self.rx = rx
        self.request: RecordedRequest | None = None
        self.released = asyncio.Event()
        self.dropped = False

    def release(self) -> None:
        """Serve the held request (or the next matching one, if none came yet) as usual."""
        self.released.set()

    def drop(self) -> None:
        """Answer the held request with a 500 and do nothing of it: the bot that sent it died
        before it was through (nothing it asked for happens)."""
        self.dropped = True
        self.released.set()


class DiscordHarness(UserActions, MessageStore, RestRoutes):
    """The fake Discord. All state is public so tests can look at it directly."""

    def __init__(
        self,
        *,
        token: str = "harness-bot-token",
        bot_name: str = "HarnessBot",
        bot_permissions: int | Any = DEFAULT_BOT_PERMISSIONS,
        response_deadline: float = 3.0,
        token_lifetime: float = TOKEN_LIFETIME,
        reject_invalid: bool = True,
        host: str = "127.0.0.1",
        port: int = 0,
    ) -> None:
        self.token = token
        self.host = host
        self.port = port
        self.response_deadline = response_deadline
        self.token_lifetime = token_lifetime
        self.reject_invalid = reject_invalid
        self.ids = Snowflakes()
        self.application_id = self.ids.next()
        self.bot_user = User(self.application_id, bot_name, bot=True)
        self.bot_permissions = _perm_value(bot_permissions)
        self.owner_user = User(self.ids.next(), "app-owner")

        self.guilds: list[Guild] = []
        # Set by the discord_harness fixture: the default guild and text channel.
        self.guild: Guild | None = None
        self.channel: Channel | None = None
        self.users: dict[int, User] = {self.bot_user.id: self.bot_user}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, StoredMessage] = {}
        self.files: dict[int, StoredFile] = {}
        self.commands: dict[int | None, list[dict[str, Any]]] = {}  # guild id (None=global)
        self.interactions: list[InteractionRecord] = []
        self._interactions_by_id: dict[int, InteractionRecord] = {}
        self._interactions_by_token: dict[str, InteractionRecord] = {}

        self.requests: list[RecordedRequest] = []
        self.unknown_requests: list[RecordedRequest] = []
        self.violations: list[Violation] = []
        self.allow_violations = False
        # Exceptions inside the harness itself (a bug, or a spec that cannot be loaded): each is
        # also a violation, cannot be allowed or popped, and makes every wait fail at once.
        self.harness_errors: list[str] = []
        self._failures: list[dict[str, Any]] = []
        self._holds: list[Hold] = []

        self.sessions: list[GatewaySession] = []
        self.sessions_by_id: dict[str, GatewaySession] = {}
        self.ready_count = 0

        self._pending_events: list[tuple[str, dict[str, Any], int]] = []
        self._send_lock = asyncio.Lock()
        self._tasks: set[asyncio.Task[None]] = set()
        self._notifier: Notifier | None = None
        self._runner: web.AppRunner | None = None
        self._routes: list[tuple[str, re.Pattern[str], Handler, bool]] = []
        self._register_routes()

    # =========================================================================================
    # lifecycle
    # =========================================================================================
    async def start(self) -> DiscordHarness:
        self._notifier = Notifier()
        app = web.Application(client_max_size=64 * 1024 * 1024)

        async def gateway(request: web.Request) -> web.StreamResponse:
            return await gateway_handler(self, request)

        app.router.add_get("/gateway", gateway)
        app.router.add_get("/gateway/", gateway)
        app.router.add_route("*", "/{tail:.*}", self._handle)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        server = site._server
        assert server is not None and server.sockets  # type: ignore[attr-defined]
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]
        return self

    async def stop(self) -> None:
        for hold in self._holds:  # a test that failed holding a request lets it go
            hold.release()
        for session in list(self.sessions):
            if not session.ws.closed:
                with contextlib.suppress(Exception):
                    await session.ws.close(code=1001)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> DiscordHarness:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def api_base(self) -> str:
        """Value for ``discord.http.Route.BASE`` / the bot's ``DISCORD_API_BASE`` setting."""
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        """Value for ``DiscordWebSocket.DEFAULT_GATEWAY`` / ``DISCORD_GATEWAY_URL``."""
        return f"ws://{self.host}:{self.port}/gateway"

    def env(self) -> dict[str, str]:
        """Environment for a bot subprocess (``python -m bot``)."""
        return {
            "DISCORD_API_BASE": self.api_base,
            "DISCORD_GATEWAY_URL": self.gateway_url,
            "DISCORD_TOKEN": self.token,
            "DISCORD_APPLICATION_ID": str(self.application_id),
        }

    @contextlib.contextmanager
    def patch_discord(self) -> Iterator[None]:
        """Point this process's discord.py at the harness; restore the old values afterwards."""
        import discord.gateway
        import discord.http
        import yarl

        old_base = discord.http.Route.BASE
        old_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
        discord.http.Route.BASE = self.api_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)
        try:
            yield
        finally:
            discord.http.Route.BASE = old_base
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gateway

    @contextlib.asynccontextmanager
    async def run_client(self, client: Any, *, ready_timeout: float = 10.0) -> AsyncIterator[Any]:
        """Run a discord.py ``Client``/``Bot`` in this event loop against the harness.

        Waits until ``client.is_ready()`` (lower ``guild_ready_timeout`` on the client to make
        that quick), yields the client, and closes it afterwards.
        """
        with self.patch_discord():
            task = asyncio.create_task(client.start(self.token), name="harness-client")
            try:
                await self.wait_for(
                    lambda: client.is_ready() or task.done(),
                    timeout=ready_timeout,
                    what="the client to become ready",
                )
                if task.done():
                    task.result()
                    raise HarnessError("the client stopped before it became ready")
                yield client
            finally:
                await client.close()
                with contextlib.suppress(BaseException):
                    await asyncio.wait_for(task, 5)

    # =========================================================================================
    # waiting and violations
    # =========================================================================================
    def notify(self) -> None:
        if self._notifier is not None:
            self._notifier.notify()

    async def wait_for(
        self,
        predicate: Callable[[], Any],
        timeout: float = 5.0,  # noqa: ASYNC109
        *,
        what: str | None = None,
    ) -> Any:
        """Wait until ``predicate()`` is truthy (re-checked on every harness event); return it."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            self.raise_harness_errors()
            result = predicate()
            if result:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(
                    f"timed out after {timeout}s waiting for {what or predicate!r}"
                    + self._recent_summary()
                )
            assert self._notifier is not None, "harness not started"
            await self._notifier.wait(min(remaining, 0.05))

    def _recent_summary(self) -> str:
        lines = [f"  {r.method} {r.path} -> {r.status}" for r in self.requests[-8:]]
        viol = [f"  ! {v.message}" for v in self.violations[-5:]]
        return ("\nlast requests:\n" + "\n".join(lines) if lines else "") + (
            "\nviolations:\n" + "\n".join(viol) if viol else ""
        )

    async def wait_until_connected(self, timeout: float = 10.0) -> None:  # noqa: ASYNC109 - timeout is the public API
        """Wait until a bot has identified (READY + GUILD_CREATEs sent)."""
        await self.wait_for(lambda: self.live_sessions(), timeout, what="a bot to IDENTIFY")

    def violate(self, message: str, request: RecordedRequest | None = None) -> None:
        log.warning("Discord harness violation: %s", message)
        self.violations.append(Violation(message, request))
        if request is not None:
            request.violations.append(message)
        self.notify()

    def harness_error(
        self, what: str, error: BaseException, request: RecordedRequest | None
    ) -> None:
        """Record an exception raised inside the harness while serving ``what``: logged with
        its traceback, kept in :attr:`harness_errors` and as a violation, and raised by every
        later :meth:`wait_for` so the test fails now instead of waiting out its timeout."""
        log.error("Discord harness error while %s", what, exc_info=error)
        message = f"harness error while {what}: {type(error).__name__}: {error}"
        self.harness_errors.append(message)
        self.violate(message, request)

    def raise_harness_errors(self) -> None:
        """Raise :class:`HarnessError` if the harness itself failed (see :meth:`harness_error`)."""
        if self.harness_errors:
            raise HarnessError("; ".join(self.harness_errors))

    def check_unanswered(self) -> list[InteractionRecord]:
        """Record a violation for every interaction the bot never acknowledged although its
        3-second window has passed (the user saw "This interaction failed"). Returns them.

        Interactions still inside their window are not judged. The fixture calls this at
        teardown."""
        now = asyncio.get_running_loop().time()
        late = [
            r
            for r in self.interactions
            if r.initial is None
            and not r.rejected
            and not r.unanswered_reported
            and now - r.sent_at > self.response_deadline
        ]
        for r in late:
            r.unanswered_reported = True
            self.violate(f"{r!r} was never acknowledged (user sees 'This interaction failed')")
        return late

    def pop_violations(self) -> list[Violation]:
        """Return and clear the recorded violations (for tests that expect some)."""
        out, self.violations = self.violations, []
        return out

    def assert_no_violations(self) -> None:
        if self.violations:
            text = "\n".join(f"- {v}" for v in self.violations)
            raise AssertionError(f"{len(self.violations)} Discord API violation(s):\n{text}")

    def fail_next(
        self,
        method: str,
        path_regex: str,
        *,
        status: int = 500,
        code: int = 0,
        message: str = "Injected failure",
        times: int = 1,
        retry_after: float | None = None,
    ) -> None:
        """Make the next ``times`` matching requests fail (e.g. 429 with a ``Via`` header)."""
        self._failures.append(
            {
                "method": method.upper(),
                "rx": re.compile(path_regex),
                "status": status,
                "code": code,
                "message": message,
                "times": times,
                "retry_after": retry_after,
            }
        )

    def hold_next(self, method: str, path_regex: str) -> Hold:
        """Hold the next matching request (recorded as it arrives, so Discord's clocks judge
        it by then) until :meth:`Hold.release`: a request the bot sent and Discord has not
        answered yet — the bot meanwhile between sending it and hearing back."""
        hold = Hold(method.upper(), re.compile(path_regex))
        self._holds.append(hold)
        return hold

    # =========================================================================================
    # the modelled guilds
    # =========================================================================================
    def add_guild(
        self,
        name: str = "Test Guild",
        *,
        owner: str = "guild-owner",
        shard: tuple[int, int] | None = None,
    ) -> Guild:
        """A guild with its owner and the bot as members. ``shard=(shard_id, shard_count)``
        picks its id so that shard owns it (``(guild_id >> 22) % shard_count``)."""
        gid = self.ids.next() if shard is None else self.ids.next_on_shard(*shard)
        everyone = Role(id=gid, guild_id=gid, name="@everyone", permissions=_EVERYONE, position=0)
        owner_user = User(self.ids.next(), owner)
        guild = Guild(id=gid, name=name, owner_id=owner_user.id, everyone=everyone)
        guild.roles.append(everyone)
        self.users[owner_user.id] = owner_user
        guild.members.append(Member(owner_user, guild))
        bot_role = Role(
            id=self.ids.next(),
            guild_id=gid,
            name=self.bot_user.username,
            permissions=self.bot_permissions,
            managed=True,
            position=1,
        )
        guild.roles.append(bot_role)
        guild.members.append(Member(self.bot_user, guild, roles=[bot_role]))
        self.guilds.append(guild)
        self._broadcast_soon("GUILD_CREATE", guild.payload)
        return guild

    def add_channel(
        self,
        guild: Guild,
        name: str = "general",
        *,
        type: int = 0,
        parent: Channel | None = None,
        topic: str | None = None,
    ) -> Channel:
        channel = Channel(
            id=self.ids.next(),
            guild_id=guild.id,
            name=name,
            type=type,
            position=len(guild.channels),
            parent_id=parent.id if parent else None,
            topic=topic,
        )
        guild.channels.append(channel)
        self.channels[channel.id] = channel
        self._broadcast_soon("CHANNEL_CREATE", channel.payload)
        return channel

    def add_role(
        self,
        guild: Guild,
        name: str,
        *,
        permissions: int | Any = 0,
        color: int = 0,
        mentionable: bool = False,
    ) -> Role:
        role = Role(
            id=self.ids.next(),
            guild_id=guild.id,
            name=name,
            permissions=_perm_value(permissions),
            position=len(guild.roles),
            color=color,
            mentionable=mentionable,
        )
        guild.roles.append(role)
        self._broadcast_soon(
            "GUILD_ROLE_CREATE", lambda: {"guild_id": str(guild.id), "role": role.payload()}
        )
        return role

    def add_member(
        self,
        guild: Guild,
        name: str,
        *,
        permissions: int | Any = None,
        roles: list[Role] | tuple[Role, ...] = (),
        nick: str | None = None,
    ) -> Member:
        """A guild member. ``permissions`` become a personal role, so both the interaction's
        ``member.permissions`` and discord.py's ``Member.guild_permissions`` agree."""
        user = User(self.ids.next(), name)
        self.users[user.id] = user
        role_list = list(roles)
        perms = _perm_value(permissions)
        if perms:
            role_list.append(self.add_role(guild, f"{name} permissions", permissions=perms))
        member = Member(user, guild, roles=role_list, nick=nick)
        guild.members.append(member)
        self._broadcast_soon(
            "GUILD_MEMBER_ADD",
            lambda: {**member.payload(), "guild_id": str(guild.id)},
            INTENT_GUILD_MEMBERS,
        )
        return member

    async def delete_role(self, guild: Guild, role: Role) -> None:
        """The role is deleted on Discord: gone from the server and from every member who held
        it (GUILD_ROLE_DELETE)."""
        guild.roles.remove(role)
        for member in guild.members:
            if role in member.roles:
                member.roles.remove(role)
        await self.dispatch(
            "GUILD_ROLE_DELETE", {"guild_id": str(guild.id), "role_id": str(role.id)}
        )

    async def remove_bot(self, guild: Guild) -> None:
        """The bot is removed from ``guild`` (kicked, or the server's admin removed the app):
        GUILD_DELETE without ``unavailable`` (discord.py's ``on_guild_remove``), and from now
        on the REST routes refuse the bot every channel of it (403 50001 Missing Access) until
        :meth:`add_bot_back`."""
        guild.bot_removed = True
        await self.dispatch("GUILD_DELETE", {"id": str(guild.id)})

    async def add_bot_back(self, guild: Guild) -> None:
        """The bot is invited to ``guild`` again: GUILD_CREATE, and its channels are its again."""
        guild.bot_removed = False
        await self.dispatch("GUILD_CREATE", guild.payload())

    def guild_by_id(self, guild_id: int) -> Guild | None:
        return next((g for g in self.guilds if g.id == guild_id), None)

    def bot_permissions_in(self, channel: Channel) -> int:
        """The bot's permissions in ``channel``: its guild permissions less what the channel's
        overwrite denies it (``deny_bot``); Administrator grants everything."""
        if channel.guild_id is None:
            return ALL_PERMISSIONS
        guild = next(g for g in self.guilds if g.id == channel.guild_id)
        if guild.bot_removed:
            return 0
        granted = self.bot_member(guild).permissions
        if granted & ADMINISTRATOR:
            return ALL_PERMISSIONS
        return granted & ~channel.bot_deny

    def deny_bot(self, channel: Channel, permissions: int | Any) -> None:
        """Deny the bot ``permissions`` in ``channel`` (as a channel permission overwrite would);
        pass 0 to lift it. Interactions there carry the reduced ``app_permissions`` and the REST
        routes refuse what Discord would (403 50001 Missing Access, 50013 Missing Permissions)."""
        channel.bot_deny = _perm_value(permissions)

    def allow_member(self, channel: Channel, member: Member, permissions: int | Any) -> None:
        """Grant ``member`` ``permissions`` in ``channel`` only, as a member's own channel
        permission overwrite does: their interactions there carry them (``member.permissions``),
        their roles — and so their server-wide permissions — do not."""
        channel.member_allow[member.id] = _perm_value(permissions)

    def bot_member(self, guild: Guild) -> Member:
        member = guild.member(self.bot_user.id)
        assert member is not None
        return member

    def ready_payload(
        self,
        session_id: str,
        guilds: list[Guild] | None = None,
        shard: tuple[int, int] | None = None,
    ) -> dict[str, Any]:
        """READY for a new session: ``guilds`` (default all) marked unavailable, and the
        ``shard`` pair when the session identified as one."""
        user = self.bot_user.payload()
        user.update(verified=True, mfa_enabled=False, email=None, locale="en-US")
        listed = self.guilds if guilds is None else guilds
        extra: dict[str, Any] = {} if shard is None else {"shard": list(shard)}
        return {
            **extra,
            "v": 10,
            "user": user,
            "guilds": [{"id": str(g.id), "unavailable": True} for g in listed],
            "session_id": session_id,
            "session_type": "normal",
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "geo_ordered_rtc_regions": [],
            "guild_join_requests": [],
            "user_settings": {},
            "_trace": ["harness"],
        }

    # =========================================================================================
    # gateway dispatch
    # =========================================================================================
    def live_sessions(self) -> list[GatewaySession]:
        return [s for s in self.sessions if s.identified and s.open]

    def sessions_for(self, guild_id: int | None) -> list[GatewaySession]:
        """The live sessions sent the events of ``guild_id``: every unsharded one, and the
        connection of the shard that owns the guild (``None``: no guild, shard 0)."""
        return [s for s in self.live_sessions() if s.owns(guild_id)]

    async def dispatch(self, event: str, data: dict[str, Any], *, intent: int = 0) -> int:
        """Send a DISPATCH to every identified session that owns the event's guild (see
        :meth:`sessions_for`; only those with ``intent``, if given).

        Model changes queued by ``add_member``/``add_role``/… are delivered first, so the bot
        always knows a member or role before an interaction mentions it."""
        async with self._send_lock:
            await self._flush_locked()
            return await self._send_locked(event, data, intent)

    async def flush_events(self) -> None:
        """Deliver queued model-change events now."""
        async with self._send_lock:
            await self._flush_locked()

    async def _flush_locked(self) -> None:
        while self._pending_events:
            event, payload, intent = self._pending_events.pop(0)
            await self._send_locked(event, payload, intent)

    async def _send_locked(self, event: str, data: dict[str, Any], intent: int) -> int:
        sent = 0
        for s in self.sessions_for(event_guild_id(event, data)):
            if intent and not s.intents & intent:
                continue
            await s.dispatch(event, data)
            sent += 1
        return sent

    def _broadcast_soon(
        self, event: str, make: Callable[[], dict[str, Any]], intent: int = INTENT_GUILDS
    ) -> None:
        """Queue a model change for already-connected bots (a new bot gets it in GUILD_CREATE)."""
        if not self.live_sessions():
            return
        self._pending_events.append((event, make(), intent))
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # called from sync code: delivered with the next dispatch
            return
        task = loop.create_task(self.flush_events())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def reconnect_gateway(self, *, resume: bool = True) -> None:
        """Ask connected bots to reconnect (op 7) or invalidate their session (op 9 false)."""
        for s in self.live_sessions():
            if resume:
                await s.send({"op": 7, "d": None, "s": None, "t": None})
            else:
                self.sessions_by_id.pop(s.session_id or "", None)
                await s.send({"op": 9, "d": False, "s": None, "t": None})

    # =========================================================================================
    # reads for tests
    # =========================================================================================
    def messages_in(
        self,
        channel: Channel | int,
        *,
        include_ephemeral: bool = False,
        include_deleted: bool = False,
    ) -> list[StoredMessage]:
        """What the channel shows, oldest first (latest version of each message)."""
        cid = channel if isinstance(channel, int) else channel.id
        return [
            m
            for m in sorted(self.messages.values(), key=lambda m: m.id)
            if m.channel_id == cid
            and (include_deleted or not m.deleted)
            and (include_ephemeral or not m.ephemeral)
        ]

    def last_message(self, channel: Channel | int, **kw: Any) -> StoredMessage | None:
        msgs = self.messages_in(channel, **kw)
        return msgs[-1] if msgs else None

    def message(
        self, message_id: int | StoredMessage, *, include_deleted: bool = False
    ) -> StoredMessage:
        """The latest version of a stored message. One that was deleted raises
        :class:`HarnessError` — nobody sees it any more, so asserting on what it says would
        test a post that is gone — unless the caller asks for it (``include_deleted``: what it
        said before it went; :meth:`is_deleted` tells whether it went)."""
        mid = message_id if isinstance(message_id, int) else message_id.id
        msg = self.messages[mid]
        if msg.deleted and not include_deleted:
            raise HarnessError(
                f"message {mid} was deleted (it said {msg.content[:80]!r}): nobody sees it; "
                "pass include_deleted=True to read it all the same"
            )
        return msg

    def is_deleted(self, message_id: int | StoredMessage) -> bool:
        """Whether the message was deleted."""
        mid = message_id if isinstance(message_id, int) else message_id.id
        return self.messages[mid].deleted

    def registered_commands(self, guild: Guild | None = None) -> list[dict[str, Any]]:
        return self.commands.get(guild.id if guild else None, [])

    def requests_to(self, method: str, path_regex: str) -> list[RecordedRequest]:
        rx = re.compile(path_regex)
        return [r for r in self.requests if r.method == method.upper() and rx.search(r.path)]

    # =========================================================================================
    # HTTP plumbing
    # =========================================================================================
    def _route(self, method: str, pattern: str, handler: Handler, *, auth: bool = True) -> None:
        rx = re.compile("^" + re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", pattern) + "/?$")
        self._routes.append((method, rx, handler, auth))

    async def _read_body(
        self, request: web.Request
    ) -> tuple[Any, list[tuple[str, str, str, bytes]]]:
        files: list[tuple[str, str, str, bytes]] = []
        ctype = request.content_type
        if ctype == "multipart/form-data":
            payload: Any = None
            reader = await request.multipart()
            while True:
                part = await reader.next()
                if part is None:
                    break
                data = await part.read()  # type: ignore[union-attr]
                name = part.name or ""  # type: ignore[union-attr]
                filename = part.filename  # type: ignore[union-attr]
                if name == "payload_json":
                    payload = json.loads(data.decode("utf-8"))
                elif filename is not None:
                    files.append(
                        (
                            name,
                            filename,
                            part.headers.get("Content-Type", "application/octet-stream"),
                            bytes(data),
                        )
                    )
            return payload, files
        raw = await request.read()
        if not raw:
            return None, files
        if ctype == "application/json":
            return json.loads(raw), files
        try:
            return json.loads(raw), files
        except ValueError:
            return raw.decode("utf-8", "replace"), files

    @staticmethod
    def _json_response(
        status: int, body: Any, headers: dict[str, str] | None = None
    ) -> web.Response:
        if status == 204 or body is None:
            return web.Response(status=204, headers=headers)
        # body= (bytes) keeps Content-Type exactly "application/json" — discord.py needs that.
        return web.Response(
            status=status,
            body=json.dumps(body).encode(),
            content_type="application/json",
            headers=headers,
        )

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        """Serve one HTTP request. An exception inside the harness becomes a recorded
        :meth:`harness_error` and a 500 answer, so neither the bot nor the test waits on it."""
        loop = asyncio.get_running_loop()
        raw_path = request.path
        is_api = bool(API_PREFIX.match(raw_path))
        path = API_PREFIX.sub("", raw_path) or "/"
        rec = RecordedRequest(
            method=request.method,
            path=path,
            query=dict(request.query),
            json=None,
            files=[],
            time=loop.time(),
            headers=dict(request.headers),
        )
        recorded = False
        try:
            rec.json, rec.files = await self._read_body(request)
            rec.time = loop.time()
            self.requests.append(rec)
            recorded = True
            if not is_api:
                return await self._serve_cdn(rec)
            status, out, headers = await self._dispatch_http(rec)
        except asyncio.CancelledError:
            raise
        except Exception as error:  # a harness bug must fail the test, not hang it
            if not recorded:  # the body could not be read
                self.requests.append(rec)
            self.harness_error(f"serving {rec.method} {rec.path}", error, rec)
            status, out, headers = 500, error_body(0, "500: harness error (see the test)"), {}
        finally:
            self.notify()
        rec.status, rec.response = status, out
        return self._json_response(status, out, headers)

    async def _dispatch_http(self, rec: RecordedRequest) -> tuple[int, Any, dict[str, str]]:
        for hold in self._holds:
            if hold.request is None and hold.method == rec.method and hold.rx.search(rec.path):
                hold.request = rec
                self.notify()
                await hold.released.wait()
                if hold.dropped:
                    return 500, error_body(0, "500: dropped (the sender is gone)"), {}
                break
        for failure in self._failures:
            if (
                failure["times"] > 0
                and failure["method"] == rec.method
                and failure["rx"].search(rec.path)
            ):
                failure["times"] -= 1
                headers: dict[str, str] = {}
                out: dict[str, Any] = error_body(failure["code"], failure["message"])
                if failure["status"] == 429:
                    headers["Via"] = "1.1 google"
                    out.update(retry_after=failure["retry_after"] or 0.01, **{"global": False})
                    headers["Retry-After"] = str(failure["retry_after"] or 0.01)
                return failure["status"], out, headers
        for method, rx, handler, auth in self._routes:
            if method != rec.method:
                continue
            m = rx.match(rec.path)
            if m is None:
                continue
            if auth and rec.headers.get("Authorization") != f"Bot {self.token}":
                return 401, error_body(0, "401: Unauthorized"), {}
            if rec.json is not None:
                problems = schema.validate(rec.method, rec.path, rec.json)
                for p in problems:
                    self.violate(p, rec)
                if problems and self.reject_invalid:
                    self._reject_interaction_request(rec)
                    return (
                        400,
                        {
                            "message": "Invalid Form Body",
                            "code": 50035,
                            "errors": {"_harness": problems},
                        },
                        {},
                    )
            try:
                result = await handler(rec, m)
            except Reply as r:
                return r.status, r.body, r.headers
            return (204, None, {}) if result is None else (200, result, {})
        self.unknown_requests.append(rec)
        log.info("harness: unmodelled route %s %s", rec.method, rec.path)
        return 404, error_body(0, "404: Not Found"), {}

    def _reject_interaction_request(self, rec: RecordedRequest) -> None:
        m = re.match(r"^/(?:interactions/\d+|webhooks/\d+)/([^/]+)", rec.path)
        if m and (irec := self._interactions_by_token.get(m.group(1))) is not None:
            irec.requests.append(rec)
            irec.rejected.append(rec)

    async def _serve_cdn(self, rec: RecordedRequest) -> web.Response:
        m = re.match(r"^/attachments/\d+/(\d+)/", rec.path)
        stored = self.files.get(int(m.group(1))) if m else None
        if rec.method != "GET" or stored is None:
            rec.status = 404
            self.unknown_requests.append(rec)
            return web.Response(status=404, text="404: Not Found")
        rec.status = 200
        return web.Response(body=stored.data, content_type=stored.content_type)


_EVERYONE = (
    (1 << 10)
    | (1 << 11)
    | (1 << 16)
    | (1 << 6)
    | (1 << 14)
    | (1 << 15)
    | (1 << 18)
    | (1 << 31)
    | (1 << 20)
    | (1 << 21)
)
