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
import copy
import json
import logging
import re
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any

from aiohttp import web

from . import schema
from .actions import UserActions
from .gateway import INTENT_GUILD_MESSAGES, GatewaySession, gateway_handler
from .models import (
    FLAG_EPHEMERAL,
    FLAG_LOADING,
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
    utcnow_iso,
)

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


class Reply(Exception):
    """Raised inside a handler to answer immediately with ``status`` and ``body``."""

    def __init__(self, status: int, body: Any = None, headers: dict[str, str] | None = None):
        super().__init__(status, body)
        self.status = status
        self.body = body
        self.headers = headers or {}


def error_body(code: int, message: str) -> dict[str, Any]:
    return {"message": message, "code": code}


NOT_FOUND = {
    10003: "Unknown Channel",
    10004: "Unknown Guild",
    10007: "Unknown Member",
    10008: "Unknown Message",
    10011: "Unknown Role",
    10013: "Unknown User",
    10015: "Unknown Webhook",
    10062: "Unknown interaction",
    10063: "Unknown application command",
}


def not_found(code: int) -> Reply:
    return Reply(404, error_body(code, NOT_FOUND.get(code, "404: Not Found")))


Handler = Callable[[RecordedRequest, re.Match[str]], Awaitable[Any]]


class DiscordHarness(UserActions):
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
        self._failures: list[dict[str, Any]] = []

        self.sessions: list[GatewaySession] = []
        self.sessions_by_id: dict[str, GatewaySession] = {}
        self.ready_count = 0

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

    # =========================================================================================
    # the modelled guilds
    # =========================================================================================
    def add_guild(self, name: str = "Test Guild", *, owner: str = "guild-owner") -> Guild:
        gid = self.ids.next()
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
            "GUILD_MEMBER_ADD", lambda: {**member.payload(), "guild_id": str(guild.id)}
        )
        return member

    def guild_by_id(self, guild_id: int) -> Guild | None:
        return next((g for g in self.guilds if g.id == guild_id), None)

    def bot_member(self, guild: Guild) -> Member:
        member = guild.member(self.bot_user.id)
        assert member is not None
        return member

    def ready_payload(self, session_id: str) -> dict[str, Any]:
        user = self.bot_user.payload()
        user.update(verified=True, mfa_enabled=False, email=None, locale="en-US")
        return {
            "v": 10,
            "user": user,
            "guilds": [{"id": str(g.id), "unavailable": True} for g in self.guilds],
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

    async def dispatch(self, event: str, data: dict[str, Any], *, intent: int = 0) -> int:
        """Send a DISPATCH to every identified session (optionally only those with ``intent``)."""
        sent = 0
        for s in self.live_sessions():
            if intent and not s.intents & intent:
                continue
            await s.dispatch(event, data)
            sent += 1
        return sent

    def _broadcast_soon(self, event: str, make: Callable[[], dict[str, Any]]) -> None:
        """Tell already-connected bots about a model change made after they identified."""
        if not self.live_sessions():
            return
        payload = make()
        asyncio.get_running_loop().create_task(self.dispatch(event, payload))

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

    def message(self, message_id: int | StoredMessage) -> StoredMessage:
        """The latest version of a stored message."""
        mid = message_id if isinstance(message_id, int) else message_id.id
        return self.messages[mid]

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
        loop = asyncio.get_running_loop()
        raw_path = request.path
        is_api = bool(API_PREFIX.match(raw_path))
        path = API_PREFIX.sub("", raw_path) or "/"
        body, files = await self._read_body(request)
        rec = RecordedRequest(
            method=request.method,
            path=path,
            query=dict(request.query),
            json=body,
            files=files,
            time=loop.time(),
            headers=dict(request.headers),
        )
        self.requests.append(rec)
        try:
            if not is_api:
                return await self._serve_cdn(rec)
            status, out, headers = await self._dispatch_http(rec)
        finally:
            self.notify()
        rec.status, rec.response = status, out
        return self._json_response(status, out, headers)

    async def _dispatch_http(self, rec: RecordedRequest) -> tuple[int, Any, dict[str, str]]:
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

    # =========================================================================================
    # REST routes
    # =========================================================================================
    def _register_routes(self) -> None:
        r = self._route
        r("GET", "/gateway", self._get_gateway, auth=False)
        r("GET", "/gateway/bot", self._get_gateway_bot)
        r("GET", "/users/@me", self._get_me)
        r("GET", "/oauth2/applications/@me", self._get_application)
        r("GET", "/applications/@me", self._get_application)
        r("GET", "/users/{user_id}", self._get_user)
        r("POST", "/users/@me/channels", self._create_dm)
        for prefix in ("/applications/{app_id}", "/applications/{app_id}/guilds/{guild_id}"):
            r("GET", prefix + "/commands", self._get_commands)
            r("PUT", prefix + "/commands", self._put_commands)
            r("POST", prefix + "/commands", self._post_command)
            r("GET", prefix + "/commands/{command_id}", self._get_command)
            r("PATCH", prefix + "/commands/{command_id}", self._patch_command)
            r("DELETE", prefix + "/commands/{command_id}", self._delete_command)
        r("POST", "/interactions/{interaction_id}/{token}/callback", self._callback, auth=False)
        wh = "/webhooks/{app_id}/{token}"
        r("POST", wh, self._followup, auth=False)
        r("GET", wh + "/messages/{message_id}", self._webhook_get_message, auth=False)
        r("PATCH", wh + "/messages/{message_id}", self._webhook_edit_message, auth=False)
        r("DELETE", wh + "/messages/{message_id}", self._webhook_delete_message, auth=False)
        r("GET", "/channels/{channel_id}", self._get_channel)
        r("GET", "/channels/{channel_id}/messages", self._list_messages)
        r("POST", "/channels/{channel_id}/messages", self._create_channel_message)
        r("GET", "/channels/{channel_id}/messages/{message_id}", self._get_channel_message)
        r("PATCH", "/channels/{channel_id}/messages/{message_id}", self._edit_channel_message)
        r("DELETE", "/channels/{channel_id}/messages/{message_id}", self._delete_channel_message)
        r("POST", "/channels/{channel_id}/typing", self._no_content)
        reaction = "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}"
        r("PUT", reaction + "/@me", self._add_reaction)
        r("DELETE", reaction + "/@me", self._no_content)
        r("GET", "/guilds/{guild_id}", self._get_guild)
        r("GET", "/guilds/{guild_id}/channels", self._get_guild_channels)
        r("GET", "/guilds/{guild_id}/roles", self._get_guild_roles)
        r("GET", "/guilds/{guild_id}/members", self._list_members)
        r("GET", "/guilds/{guild_id}/members/{user_id}", self._get_member)

    async def _no_content(self, rec: RecordedRequest, m: re.Match[str]) -> None:
        return None

    async def _get_gateway(self, rec: RecordedRequest, m: re.Match[str]) -> Any:
        return {"url": self.gateway_url}

    async def _get_gateway_bot(self, rec: RecordedRequest, m: re.Match[str]) -> Any:
        return {
            "url": self.gateway_url,
            "shards": 1,
            "session_start_limit": {
                "total": 1000,
                "remaining": 999,
                "reset_after": 86_400_000,
                "max_concurrency": 1,
            },
        }

    async def _get_me(self, rec: RecordedRequest, m: re.Match[str]) -> Any:
        user = self.bot_user.payload()
        user.update(verified=True, mfa_enabled=False, email=None, locale="en-US")
        return user

    async def _get_application(self, rec: RecordedRequest, m: re.Match[str]) -> Any:
        return {
            "id": str(self.application_id),
            "name": self.bot_user.username,
            "icon": None,
            "description": "",
            "summary": "",
            "type": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": "0" * 64,
            "flags": 0,
            "owner": self.owner_user.payload(),
            "team": None,
            "bot": self.bot_user.payload(),
            "tags": [],
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "approximate_guild_count": len(self.guilds),
            "integration_types_config": {"0": {}},
        }

    async def _get_user(self, rec: RecordedRequest, m: re.Match[str]) -> Any:
        user = self.users.get(int(m["user_id"])) if m["user_id"].isdigit() else None
        if user is None:
            raise not_found(10013)
        return user.payload()

    async def _create_dm(self, rec: RecordedRequest, m: re.Match[str]) -> Any:
        uid = int(rec.json["recipient_id"])
        user = self.users.get(uid)
        if user is None:
            raise not_found(10013)
        for ch in self.channels.values():
            if ch.type == 1 and ch.recipients and ch.recipients[0].id == uid:
                return ch.payload()
        ch = Channel(id=self.ids.next(), guild_id=None, name="", type=1, recipients=[user])
        self.channels[ch.id] = ch
        return ch.payload()

    # -- application commands ------------------------------------------------------------------
    def _check_app(self, m: re.Match[str]) -> int | None:
        if m["app_id"] != str(self.application_id):
            raise Reply(403, error_body(50001, "Missing Access"))
        gid = m.groupdict().get("guild_id")
        if gid is None:
            return None
        if not gid.isdigit() or self.guild_by_id(int(gid)) is None:
            raise Reply(403, error_body(50001, "Missing Access"))
        return int(gid)

    def _command_payload(
        self, body: dict[str, Any], gid: int | None, old: dict[str, Any] | None
    ) -> dict[str, Any]:
        cmd = copy.deepcopy(body)
        cmd.setdefault("type", 1)
        cmd["id"] = old["id"] if old else str(self.ids.next())
        cmd["application_id"] = str(self.application_id)
        cmd["version"] = str(self.ids.next())
        cmd.setdefault("description", "")
        cmd.setdefault("default_member_permissions", None)
        cmd.setdefault("nsfw", False)
        if gid is not None:
            cmd["guild_id"] = str(gid)
        else:
            cmd.setdefault("contexts", None)
            cmd.setdefault("integration_types", [0])
        return cmd

    async def _get_commands(self, rec: RecordedRequest, m: re.Match[str]) -> Any:
        return self.commands.get(self._check_app(m), [])

    async def _put_commands(self, rec: RecordedRequest, m: re.Match[str]) -> Any:
        gid = self._check_app(m)
        old = {(c["type"], c["name"]): c for c in self.commands.get(gid, [])}
        new = [
            self._command_payload(c, gid, old.get((c.get("type", 1), c["name"])))
            for c in rec.json or []
        ]
        self.commands[gid] = new
        return new

    async def _post_command(self, rec: RecordedRequest, m: re.Match[str]) -> Any:
        gid = self._check_app(m)
        cmds = self.commands.setdefault(gid, [])
        key = (rec.json.get("type", 1), rec.json["name"])
        old = next((c for c in cmds if (c["type"], c["name"]) == key), None)
        cmd = self._command_payload(rec.json, gid, old)
        if old is not None:
            cmds[cmds.index(old)] = cmd
            return cmd
        cmds.append(cmd)
        raise Reply(201, cmd)

    def _find_command(self, m: re.Match[str]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        cmds = self.commands.get(self._check_app(m), [])
        for c in cmds:
            if c["id"] == m["command_id"]:
                return cmds, c
        raise not_found(10063)

    async def _get_command(self, rec: RecordedRequest, m: re.Match[str]) -> Any:
        return self._find_command(m)[1]

    async def _patch_command(self, rec: RecordedRequest, m: re.Match[str]) -> Any:
        _, cmd = self._find_command(m)
        cmd.update(copy.deepcopy(rec.json))
        return cmd

    async def _delete_command(self, rec: RecordedRequest, m: re.Match[str]) -> None:
        cmds, cmd = self._find_command(m)
        cmds.remove(cmd)

    # -- guild reads ---------------------------------------------------------------------------
    def _guild(self, m: re.Match[str]) -> Guild:
        gid = m["guild_id"]
        guild = self.guild_by_id(int(gid)) if gid.isdigit() else None
        if guild is None:
            raise not_found(10004)
        return guild

    async def _get_guild(self, rec: RecordedRequest, m: re.Match[str]) -> Any:
        data = self._guild(m).payload()
        for key in ("members", "channels", "threads", "presences", "voice_states", "joined_at"):
            data.pop(key, None)
        return data

    async def _get_guild_channels(self, rec: RecordedRequest, m: re.Match[str]) -> Any:
        return [c.payload() for c in self._guild(m).channels]

    async def _get_guild_roles(self, rec: RecordedRequest, m: re.Match[str]) -> Any:
        return [r.payload() for r in self._guild(m).roles]

    async def _list_members(self, rec: RecordedRequest, m: re.Match[str]) -> Any:
        guild = self._guild(m)
        after = int(rec.query.get("after", 0))
        limit = int(rec.query.get("limit", 1))
        members = sorted((x for x in guild.members if x.id > after), key=lambda x: x.id)
        return [x.payload() for x in members[:limit]]

    async def _get_member(self, rec: RecordedRequest, m: re.Match[str]) -> Any:
        guild = self._guild(m)
        member = guild.member(int(m["user_id"])) if m["user_id"].isdigit() else None
        if member is None:
            raise not_found(10007)
        return member.payload()

    # -- channel messages ----------------------------------------------------------------------
    def _channel(self, m: re.Match[str]) -> Channel:
        cid = m["channel_id"]
        channel = self.channels.get(int(cid)) if cid.isdigit() else None
        if channel is None:
            raise not_found(10003)
        return channel

    def _visible_message(self, channel: Channel, mid: str) -> StoredMessage:
        msg = self.messages.get(int(mid)) if mid.isdigit() else None
        if msg is None or msg.deleted or msg.ephemeral or msg.channel_id != channel.id:
            raise not_found(10008)
        return msg

    async def _get_channel(self, rec: RecordedRequest, m: re.Match[str]) -> Any:
        return self._channel(m).payload()

    async def _list_messages(self, rec: RecordedRequest, m: re.Match[str]) -> Any:
        channel = self._channel(m)
        msgs = self.messages_in(channel)
        q = rec.query
        if "before" in q:
            msgs = [x for x in msgs if x.id < int(q["before"])]
        if "after" in q:
            msgs = [x for x in msgs if x.id > int(q["after"])]
        limit = int(q.get("limit", 50))
        msgs = msgs[:limit] if "after" in q else msgs[-limit:]
        return [x.payload for x in reversed(msgs)]

    async def _create_channel_message(self, rec: RecordedRequest, m: re.Match[str]) -> Any:
        channel = self._channel(m)
        msg = await self.create_message(channel, rec.json or {}, rec.files)
        return msg.payload

    async def _get_channel_message(self, rec: RecordedRequest, m: re.Match[str]) -> Any:
        return self._visible_message(self._channel(m), m["message_id"]).payload

    async def _edit_channel_message(self, rec: RecordedRequest, m: re.Match[str]) -> Any:
        msg = self._visible_message(self._channel(m), m["message_id"])
        if msg.author_id != self.bot_user.id:
            self.violate("edited a message authored by another user", rec)
            raise Reply(403, error_body(50005, "Cannot edit a message authored by another user"))
        await self.edit_message(msg, rec.json or {}, rec.files)
        return msg.payload

    async def _delete_channel_message(self, rec: RecordedRequest, m: re.Match[str]) -> None:
        msg = self._visible_message(self._channel(m), m["message_id"])
        await self.delete_message(msg)

    async def _add_reaction(self, rec: RecordedRequest, m: re.Match[str]) -> None:
        msg = self._visible_message(self._channel(m), m["message_id"])
        reactions = msg.payload.setdefault("reactions", [])
        reactions.append({"emoji": {"id": None, "name": m["emoji"]}, "count": 1, "me": True})

    # -- message store -------------------------------------------------------------------------
    def _store_files(
        self,
        channel: Channel,
        body: dict[str, Any],
        files: list[tuple[str, str, str, bytes]],
        existing: list[dict[str, Any]],
    ) -> list[dict[str, Any]] | None:
        """The message's new ``attachments`` list, or None if the body leaves them alone."""
        uploads: dict[str, tuple[str, str, str, bytes]] = {}
        for name, filename, ctype, data in files:
            fm = re.match(r"^files\[(\d+)\]$", name) or re.match(r"^file(\d*)$", name)
            uploads[fm.group(1) if fm and fm.group(1) else str(len(uploads))] = (
                name,
                filename,
                ctype,
                data,
            )
        if "attachments" not in body and not uploads:
            return None
        old_by_id = {a["id"]: a for a in existing}
        result: list[dict[str, Any]] = []
        used: set[str] = set()
        requested = body.get("attachments")
        if requested is None:
            result = list(existing)
            requested = [{"id": k} for k in uploads]
        for att in requested or []:
            key = str(att.get("id"))
            if key in uploads and key not in used:
                used.add(key)
                _, filename, ctype, data = uploads[key]
                fid = self.ids.next()
                fname = att.get("filename") or filename
                stored = StoredFile(
                    id=fid,
                    filename=fname,
                    data=data,
                    content_type=ctype or "application/octet-stream",
                    url=f"{self.base_url}/attachments/{channel.id}/{fid}/{fname}",
                    description=att.get("description"),
                )
                self.files[fid] = stored
                result.append(stored.payload())
            elif key in old_by_id:
                result.append(old_by_id[key])
        return result

    def _normalise(self, body: dict[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key in ("content", "embeds", "components", "flags", "tts", "poll", "sticker_ids"):
            if key in body:
                out[key] = copy.deepcopy(body[key])
        if out.get("content") is None and "content" in out:
            out["content"] = ""
        if "embeds" in out:
            out["embeds"] = [{"type": "rich", **e} for e in out["embeds"] or []]
        if "components" in out and out["components"] is None:
            out["components"] = []
        return out

    async def create_message(
        self,
        channel: Channel,
        body: dict[str, Any],
        files: list[tuple[str, str, str, bytes]] | None = None,
        *,
        author: User | None = None,
        interaction: InteractionRecord | None = None,
        extra_flags: int = 0,
    ) -> StoredMessage:
        """Store a new message (as the bot unless ``author``) and tell the gateway about it."""
        author = author or self.bot_user
        mid = self.ids.next()
        fields = self._normalise(body)
        flags = int(fields.pop("flags", 0) or 0) | extra_flags
        payload: dict[str, Any] = {
            "id": str(mid),
            "channel_id": str(channel.id),
            "author": author.payload(),
            "content": fields.get("content", ""),
            "timestamp": utcnow_iso(),
            "edited_timestamp": None,
            "tts": bool(fields.get("tts", False)),
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": fields.get("embeds", []),
            "components": fields.get("components", []),
            "reactions": [],
            "pinned": False,
            "type": 0,
            "flags": flags,
        }
        if channel.guild_id is not None:
            payload["guild_id"] = str(channel.guild_id)
        if body.get("message_reference"):
            payload["message_reference"] = body["message_reference"]
            payload["type"] = 19
        if interaction is not None:
            payload.update(self._interaction_message_fields(interaction))
        msg = StoredMessage(
            id=mid,
            channel_id=channel.id,
            payload=payload,
            ephemeral=bool(flags & FLAG_EPHEMERAL),
            interaction=interaction,
        )
        attachments = self._store_files(channel, body, files or [], [])
        if attachments:
            payload["attachments"] = attachments
            msg.files = [self.files[int(a["id"])] for a in attachments]
        msg.versions.append(copy.deepcopy(payload))
        self.messages[mid] = msg
        if not msg.ephemeral:
            channel.last_message_id = mid
            await self.dispatch(
                "MESSAGE_CREATE", self._gateway_message(msg), intent=INTENT_GUILD_MESSAGES
            )
        return msg

    def _interaction_message_fields(self, irec: InteractionRecord) -> dict[str, Any]:
        user = irec.member.user if isinstance(irec.member, Member) else irec.member
        meta: dict[str, Any] = {
            "id": str(irec.id),
            "type": irec.type,
            "user": user.payload(),
            "authorizing_integration_owners": irec.payload.get(
                "authorizing_integration_owners", {}
            ),
        }
        if irec.type == 2:
            meta["name"] = irec.payload["data"]["name"]
            meta["command_type"] = 1
        if irec.source_message is not None:
            meta["interacted_message_id"] = str(irec.source_message.id)
        return {
            "webhook_id": str(self.application_id),
            "application_id": str(self.application_id),
            "type": 20 if irec.type == 2 else 0,
            "interaction_metadata": meta,
        }

    async def edit_message(
        self,
        msg: StoredMessage,
        body: dict[str, Any],
        files: list[tuple[str, str, str, bytes]] | None = None,
        *,
        clear_loading: bool = True,
    ) -> StoredMessage:
        channel = self.channels[msg.channel_id]
        fields = self._normalise(body)
        payload = msg.payload
        if "flags" in fields:
            # Only SUPPRESS_EMBEDS / components-v2 can change; keep ephemeral/loading state.
            keep = payload.get("flags", 0) & (FLAG_EPHEMERAL | FLAG_LOADING)
            payload["flags"] = int(fields.pop("flags") or 0) | keep
        payload.update(fields)
        if clear_loading:
            payload["flags"] = payload.get("flags", 0) & ~FLAG_LOADING
        attachments = self._store_files(
            channel, body, files or [], payload.get("attachments") or []
        )
        if attachments is not None:
            payload["attachments"] = attachments
            known = {f.id: f for f in msg.files}
            for a in attachments:
                known.setdefault(int(a["id"]), self.files[int(a["id"])])
            msg.files = list(known.values())
        payload["edited_timestamp"] = utcnow_iso()
        msg.versions.append(copy.deepcopy(payload))
        if not msg.ephemeral:
            await self.dispatch(
                "MESSAGE_UPDATE", self._gateway_message(msg), intent=INTENT_GUILD_MESSAGES
            )
        self.notify()
        return msg

    async def delete_message(self, msg: StoredMessage) -> None:
        msg.deleted = True
        if not msg.ephemeral:
            data = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
            if "guild_id" in msg.payload:
                data["guild_id"] = msg.payload["guild_id"]
            await self.dispatch("MESSAGE_DELETE", data, intent=INTENT_GUILD_MESSAGES)
        self.notify()

    def _gateway_message(self, msg: StoredMessage) -> dict[str, Any]:
        data = copy.deepcopy(msg.payload)
        channel = self.channels.get(msg.channel_id)
        if channel is not None and channel.guild_id is not None:
            guild = self.guild_by_id(channel.guild_id)
            member = guild.member(msg.author_id) if guild else None
            if member is not None:
                data["member"] = member.payload(with_user=False)
        return data

    # -- interactions: callback, followups, @original ------------------------------------------
    def register_interaction(self, irec: InteractionRecord) -> None:
        self.interactions.append(irec)
        self._interactions_by_id[irec.id] = irec
        self._interactions_by_token[irec.token] = irec

    async def _callback(self, rec: RecordedRequest, m: re.Match[str]) -> Any:
        loop = asyncio.get_running_loop()
        iid = m["interaction_id"]
        irec = self._interactions_by_id.get(int(iid)) if iid.isdigit() else None
        if irec is None or irec.token != m["token"]:
            self.violate("interaction callback for an unknown interaction id/token", rec)
            raise not_found(10062)
        irec.requests.append(rec)
        if irec.initial is not None:
            irec.rejected.append(rec)
            self.violate(f"second initial response to {irec!r}", rec)
            raise Reply(400, error_body(40060, "Interaction has already been acknowledged."))
        elapsed = rec.time - irec.sent_at
        if elapsed > self.response_deadline:
            irec.rejected.append(rec)
            self.violate(
                f"initial response to {irec!r} after {elapsed:.2f}s "
                f"(limit {self.response_deadline}s)",
                rec,
            )
            raise not_found(10062)
        body = rec.json or {}
        ctype = body.get("type")
        allowed = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7}}[irec.type]
        if irec.type == 5 and irec.source_message is None:
            allowed = {4, 5}
        if ctype not in allowed:
            irec.rejected.append(rec)
            self.violate(f"callback type {ctype} is not valid for {irec!r}", rec)
            raise Reply(400, error_body(50035, "Interaction response type is not valid"))
        data = body.get("data") or {}
        channel = irec.channel
        message: StoredMessage | None = None
        if ctype == 4:
            message = await self.create_message(channel, data, rec.files, interaction=irec)
        elif ctype == 5:
            message = await self.create_message(
                channel, {"flags": data.get("flags", 0)}, interaction=irec, extra_flags=FLAG_LOADING
            )
        elif ctype in (6, 7):
            assert irec.source_message is not None
            message = irec.source_message
            if ctype == 7:
                await self.edit_message(message, data, rec.files)
        irec.initial = body
        irec.initial_at = loop.time()
        irec.original = message
        if message is not None and message.interaction is None:
            message.interaction = irec
        self.notify()
        result: dict[str, Any] = {
            "interaction": {
                "id": str(irec.id),
                "type": irec.type,
                "response_message_loading": ctype == 5,
                "response_message_ephemeral": bool(message and message.ephemeral),
            },
            "resource": {"type": ctype},
        }
        if message is not None:
            result["interaction"]["response_message_id"] = str(message.id)
            if ctype != 6:
                result["resource"]["message"] = message.payload
        return result

    def _webhook_interaction(self, rec: RecordedRequest, m: re.Match[str]) -> InteractionRecord:
        irec = self._interactions_by_token.get(m["token"])
        if irec is None or m["app_id"] != str(self.application_id):
            self.violate("webhook request with an unknown application id or token", rec)
            raise not_found(10015)
        irec.requests.append(rec)
        if rec.time - irec.sent_at > self.token_lifetime:
            self.violate(f"interaction token of {irec!r} used after it expired", rec)
            raise Reply(401, error_body(50027, "Invalid Webhook Token"))
        if irec.initial is None:
            irec.rejected.append(rec)
            self.violate(f"followup/edit for {irec!r} before the initial response", rec)
            raise not_found(10015)
        return irec

    def _webhook_message(self, irec: InteractionRecord, mid: str) -> StoredMessage:
        if mid == "@original":
            if irec.original is None or irec.original.deleted:
                raise not_found(10008)
            return irec.original
        msg = self.messages.get(int(mid)) if mid.isdigit() else None
        if msg is None or msg.deleted or (msg is not irec.original and msg not in irec.followups):
            raise not_found(10008)
        return msg

    async def _followup(self, rec: RecordedRequest, m: re.Match[str]) -> Any:
        irec = self._webhook_interaction(rec, m)
        body = rec.json or {}
        if (
            irec.response_type == 5
            and irec.original is not None
            and irec.original.flags & FLAG_LOADING
        ):
            # The first followup after a "thinking" defer replaces the loading message.
            msg = await self.edit_message(irec.original, body, rec.files)
            irec.edits.append(copy.deepcopy(body))
        else:
            msg = await self.create_message(irec.channel, body, rec.files, interaction=irec)
        irec.followups.append(msg)
        self.notify()
        if rec.query.get("wait", "").lower() in ("true", "1"):
            return msg.payload
        return None

    async def _webhook_get_message(self, rec: RecordedRequest, m: re.Match[str]) -> Any:
        irec = self._webhook_interaction(rec, m)
        return self._webhook_message(irec, m["message_id"]).payload

    async def _webhook_edit_message(self, rec: RecordedRequest, m: re.Match[str]) -> Any:
        irec = self._webhook_interaction(rec, m)
        msg = self._webhook_message(irec, m["message_id"])
        body = rec.json or {}
        if m["message_id"] == "@original":
            irec.edits.append(copy.deepcopy(body))
        await self.edit_message(msg, body, rec.files)
        return msg.payload

    async def _webhook_delete_message(self, rec: RecordedRequest, m: re.Match[str]) -> None:
        irec = self._webhook_interaction(rec, m)
        await self.delete_message(self._webhook_message(irec, m["message_id"]))

    def new_interaction_token(self, iid: int) -> str:
        return f"aW50ZXJhY3Rpb24{iid}.{secrets.token_urlsafe(24)}"


# @everyone defaults roughly as Discord creates them: view, send, history, reactions, embed,
# attach, external emoji, use application commands, connect/speak.
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
