"""The harness's model of Discord: guilds, channels, roles, members, messages, interactions.

Everything here is plain data plus the JSON payloads Discord would send for it. The server
(:mod:`tests.harness.server`) owns the instances and mutates them in response to REST calls.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

DISCORD_EPOCH_MS = 1420070400000
ALL_PERMISSIONS = (1 << 53) - 1
ADMINISTRATOR = 1 << 3
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7


class HarnessError(AssertionError):
    """A test asked the harness for something Discord's client would not let a user do."""


class CommandNotRegistered(HarnessError):
    """The bot did not register the command, subcommand or option a test tried to use."""


def utcnow_iso() -> str:
    return dt.datetime.now(dt.UTC).isoformat()


class Snowflakes:
    """Snowflake ids as Discord makes them: the current time (ms since the Discord epoch) in the
    high bits, so an interaction's id dates it as Discord's would, and a counter in the low bits;
    strictly increasing even within one millisecond."""

    def __init__(self) -> None:
        self._last_ms = 0
        self._n = 0

    def next(self) -> int:
        now_ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        self._n += 1
        if now_ms > self._last_ms:
            self._last_ms, self._n = now_ms, 0
        elif self._n > 0xFFF:  # 4096 ids in one millisecond: borrow the next one
            self._last_ms, self._n = self._last_ms + 1, 0
        return (self._last_ms << 22) | self._n

    def next_on_shard(self, shard_id: int, shard_count: int) -> int:
        """The next id whose owner is shard ``shard_id`` of ``shard_count``
        (``(id >> 22) % shard_count``): the next id, moved on to the next millisecond that
        shard owns (at most ``shard_count - 1`` ms ahead of the clock, as ids may be)."""
        snowflake = self.next()
        ms = snowflake >> 22
        ahead = (shard_id - ms) % shard_count
        if ahead:
            self._last_ms, self._n = ms + ahead, 0
            snowflake = self._last_ms << 22
        return snowflake


def _perm_value(permissions: Any) -> int:
    if permissions is None:
        return 0
    if isinstance(permissions, int):
        return permissions
    value = getattr(permissions, "value", None)  # discord.Permissions
    if isinstance(value, int):
        return value
    raise TypeError(f"permissions must be an int or discord.Permissions, not {permissions!r}")


@dataclass(eq=False)
class User:
    id: int
    username: str
    global_name: str | None = None
    bot: bool = False

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.username,
            "discriminator": "0",
            "global_name": self.global_name or self.username,
            "avatar": None,
            "bot": self.bot,
            "system": False,
            "public_flags": 0,
            "flags": 0,
            "banner": None,
            "accent_color": None,
            "avatar_decoration_data": None,
            "primary_guild": None,
            "collectibles": None,
        }

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass(eq=False)
class Role:
    id: int
    guild_id: int
    name: str
    permissions: int = 0
    position: int = 1
    color: int = 0
    hoist: bool = False
    mentionable: bool = False
    managed: bool = False

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": self.color,
            "colors": {
                "primary_color": self.color,
                "secondary_color": None,
                "tertiary_color": None,
            },
            "hoist": self.hoist,
            "managed": self.managed,
            "mentionable": self.mentionable,
            "icon": None,
            "unicode_emoji": None,
            "flags": 0,
            "description": None,
        }

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"


@dataclass(eq=False)
class Channel:
    id: int
    guild_id: int | None
    name: str
    type: int = 0  # 0 text, 2 voice, 4 category, 5 news, 15 forum, 1 DM
    position: int = 0
    parent_id: int | None = None
    topic: str | None = None
    nsfw: bool = False
    last_message_id: int | None = None
    recipients: list[User] = field(default_factory=list)
    # Permission bits a channel overwrite denies the bot here (``DiscordHarness.deny_bot``).
    bot_deny: int = 0
    # Permission bits a member's own overwrite grants them here (``DiscordHarness.allow_member``).
    member_allow: dict[int, int] = field(default_factory=dict)

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "name": self.name,
            "flags": 0,
            "last_message_id": str(self.last_message_id) if self.last_message_id else None,
        }
        if self.guild_id is None:
            data["recipients"] = [u.payload() for u in self.recipients]
            return data
        data.update(
            guild_id=str(self.guild_id),
            position=self.position,
            parent_id=str(self.parent_id) if self.parent_id else None,
            topic=self.topic,
            nsfw=self.nsfw,
            rate_limit_per_user=0,
            permission_overwrites=[],
        )
        if self.type == 2:
            data.update(bitrate=64000, user_limit=0, rtc_region=None)
        if self.type in (10, 11, 12):  # threads
            data.update(
                owner_id=str(self.guild_id),
                member_count=1,
                message_count=0,
                thread_metadata={
                    "archived": False,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": utcnow_iso(),
                    "locked": False,
                },
            )
        return data

    def interaction_payload(self, permissions: int) -> dict[str, Any]:
        """The channel as sent inside an interaction (and in ``resolved.channels``)."""
        data = self.payload()
        data["permissions"] = str(permissions)
        return data

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"


@dataclass(eq=False)
class Member:
    user: User
    guild: Guild
    roles: list[Role] = field(default_factory=list)
    nick: str | None = None
    joined_at: str = field(default_factory=utcnow_iso)

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def name(self) -> str:
        return self.user.username

    @property
    def mention(self) -> str:
        return self.user.mention

    @property
    def permissions(self) -> int:
        """Guild-level permissions as Discord computes them (owner/admin → all)."""
        if self.guild.owner_id == self.id:
            return ALL_PERMISSIONS
        value = self.guild.everyone.permissions
        for role in self.roles:
            value |= role.permissions
        return ALL_PERMISSIONS if value & ADMINISTRATOR else value

    def payload(self, *, with_user: bool = True, with_permissions: bool = False) -> dict[str, Any]:
        data: dict[str, Any] = {
            "roles": [str(r.id) for r in self.roles],
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user.payload()
        if with_permissions:
            data["permissions"] = str(self.permissions)
        return data


@dataclass(eq=False)
class Guild:
    id: int
    name: str
    owner_id: int
    everyone: Role
    roles: list[Role] = field(default_factory=list)
    channels: list[Channel] = field(default_factory=list)
    members: list[Member] = field(default_factory=list)
    locale: str = "en-US"
    bot_removed: bool = False  # the bot was removed from it (``DiscordHarness.remove_bot``)

    def member(self, user_id: int) -> Member | None:
        return next((m for m in self.members if m.id == user_id), None)

    def channel(self, name_or_id: str | int) -> Channel | None:
        return next((c for c in self.channels if name_or_id in (c.id, c.name)), None)

    def role(self, name_or_id: str | int) -> Role | None:
        return next((r for r in self.roles if name_or_id in (r.id, r.name)), None)

    def payload(self) -> dict[str, Any]:
        """The full GUILD_CREATE payload."""
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner_id),
            "region": None,
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [r.payload() for r in self.roles],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "vanity_url_code": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": self.locale,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "max_members": 500000,
            "max_video_channel_users": 25,
            "joined_at": utcnow_iso(),
            "large": False,
            "unavailable": False,
            "member_count": len(self.members),
            "voice_states": [],
            "members": [m.payload() for m in self.members],
            "channels": [c.payload() for c in self.channels],
            "threads": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }


@dataclass(eq=False)
class StoredFile:
    """A file the bot uploaded (multipart ``files[n]``) or a test provided as an attachment."""

    id: int
    filename: str
    data: bytes
    content_type: str
    url: str
    description: str | None = None

    @property
    def size(self) -> int:
        return len(self.data)

    def text(self, encoding: str = "utf-8") -> str:
        return self.data.decode(encoding)

    def json(self) -> Any:
        return json.loads(self.data)

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
        }
        if self.description:
            data["description"] = self.description
        return data


@dataclass(eq=False)
class StoredMessage:
    """A message as the channel shows it. ``payload`` is always the latest version."""

    id: int
    channel_id: int
    payload: dict[str, Any]
    ephemeral: bool = False
    deleted: bool = False
    files: list[StoredFile] = field(default_factory=list)
    versions: list[dict[str, Any]] = field(default_factory=list)
    interaction: InteractionRecord | None = None  # the interaction that produced it, if any

    @property
    def content(self) -> str:
        return self.payload.get("content") or ""

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return self.payload.get("embeds") or []

    @property
    def components(self) -> list[dict[str, Any]]:
        return self.payload.get("components") or []

    @property
    def flags(self) -> int:
        return self.payload.get("flags") or 0

    @property
    def author_id(self) -> int:
        return int(self.payload["author"]["id"])

    @property
    def attachments(self) -> list[StoredFile]:
        ids = {a["id"] for a in self.payload.get("attachments") or []}
        return [f for f in self.files if str(f.id) in ids]

    def attachment(self, filename: str) -> StoredFile:
        for f in self.attachments:
            if f.filename == filename:
                return f
        raise KeyError(f"no attachment {filename!r} on message {self.id}")

    def all_components(self) -> list[dict[str, Any]]:
        from .schema import walk_components

        return list(walk_components(self.components))

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in self.all_components() if "custom_id" in c]

    def component(
        self, custom_id: str | None = None, *, label: str | None = None
    ) -> dict[str, Any]:
        for c in self.all_components():
            if custom_id is not None and c.get("custom_id") == custom_id:
                return c
            if label is not None and c.get("label") == label:
                return c
        raise KeyError(f"no component custom_id={custom_id!r} label={label!r} on message {self.id}")

    def text(self) -> str:
        """Content plus every embed's visible text, for loose assertions."""
        parts = [self.content]
        for e in self.embeds:
            parts += [e.get("title") or "", e.get("description") or ""]
            for f in e.get("fields") or []:
                parts += [f.get("name") or "", f.get("value") or ""]
            parts.append((e.get("footer") or {}).get("text") or "")
            parts.append((e.get("author") or {}).get("name") or "")
        return "\n".join(p for p in parts if p)

    def __repr__(self) -> str:
        state = " deleted" if self.deleted else ""
        eph = " ephemeral" if self.ephemeral else ""
        return (
            f"<StoredMessage id={self.id} channel={self.channel_id}{eph}{state} {self.content!r}>"
        )


@dataclass(eq=False)
class RecordedRequest:
    """One HTTP request the bot (or anyone) made to the harness."""

    method: str
    path: str  # without the /api/v10 prefix
    query: dict[str, str]
    json: Any  # JSON body, or the multipart payload_json, or None
    files: list[tuple[str, str, str, bytes]]  # (field name, filename, content type, data)
    time: float  # loop.time() when received
    headers: dict[str, str]
    status: int = 0
    response: Any = None
    violations: list[str] = field(default_factory=list)

    def __repr__(self) -> str:
        return f"<{self.method} {self.path} -> {self.status}>"


@dataclass(eq=False)
class Violation:
    """A request Discord would have rejected (or a rule like the 3-second ack was broken)."""

    message: str
    request: RecordedRequest | None = None

    def __str__(self) -> str:
        if self.request is None:
            return self.message
        body = json.dumps(self.request.json, default=str)
        if len(body) > 600:
            body = body[:600] + "..."
        return f"{self.message}\n    in {self.request.method} {self.request.path} body={body}"


class InteractionRecord:
    """An interaction the harness sent, and everything the bot did with it."""

    def __init__(
        self,
        *,
        id: int,
        token: str,
        type: int,
        payload: dict[str, Any],
        member: Member | User,
        channel: Channel,
        sent_at: float,
        notify: Callable[[], None],
        waiter: Callable[..., Any],
        source_message: StoredMessage | None = None,
    ) -> None:
        self.id = id
        self.token = token
        self.type = type
        self.payload = payload
        self.member = member
        self.channel = channel
        self.sent_at = sent_at
        self.source_message = source_message  # the message a component lived on
        self.initial: dict[str, Any] | None = None  # the callback body (type + data)
        self.initial_at: float | None = None
        self.original: StoredMessage | None = None  # message @original refers to
        self.followups: list[StoredMessage] = []
        self.edits: list[dict[str, Any]] = []  # PATCH @original bodies, in order
        self.requests: list[RecordedRequest] = []
        self.rejected: list[RecordedRequest] = []  # late/second acks and the like
        self.unanswered_reported = False
        self._notify = notify
        self._wait = waiter

    # -- plain reads ---------------------------------------------------------------------------
    @property
    def responded(self) -> bool:
        return self.initial is not None

    @property
    def response_type(self) -> int | None:
        return None if self.initial is None else self.initial.get("type")

    @property
    def response_data(self) -> dict[str, Any]:
        return (self.initial or {}).get("data") or {}

    @property
    def deferred(self) -> bool:
        return self.response_type in (5, 6)

    @property
    def ephemeral(self) -> bool:
        """Whether the initial response (or, for a defer, its message) is ephemeral."""
        if self.original is not None and self.response_type in (4, 5):
            return self.original.ephemeral
        return bool((self.response_data.get("flags") or 0) & FLAG_EPHEMERAL)

    @property
    def message(self) -> StoredMessage | None:
        """The latest version of the message @original refers to."""
        return self.original

    @property
    def choices(self) -> list[dict[str, Any]]:
        return self.response_data.get("choices") or []

    @property
    def modal(self) -> dict[str, Any] | None:
        return self.response_data if self.response_type == 9 else None

    @property
    def response_latency(self) -> float | None:
        return None if self.initial_at is None else self.initial_at - self.sent_at

    def all_messages(self) -> list[StoredMessage]:
        msgs = [self.original] if self.original is not None else []
        return msgs + self.followups

    # -- waiting -------------------------------------------------------------------------------
    async def wait_for(
        self,
        predicate: Callable[[InteractionRecord], Any],
        timeout: float = 5.0,  # noqa: ASYNC109
    ) -> Any:
        return await self._wait(lambda: predicate(self), timeout=timeout, what=f"{self!r}")

    async def response(self, timeout: float = 5.0) -> dict[str, Any]:  # noqa: ASYNC109 - timeout is the public API
        """Wait for the initial response and return its body (``{"type": .., "data": ..}``)."""
        await self.wait_for(lambda r: r.initial is not None, timeout)
        assert self.initial is not None
        return self.initial

    async def followup(self, index: int = 0, timeout: float = 5.0) -> StoredMessage:  # noqa: ASYNC109 - timeout is the public API
        """Wait for followup number ``index`` (0-based) and return its latest version."""
        await self.wait_for(lambda r: len(r.followups) > index, timeout)
        return self.followups[index]

    async def edit(self, index: int = 0, timeout: float = 5.0) -> dict[str, Any]:  # noqa: ASYNC109 - timeout is the public API
        """Wait for edit number ``index`` of the original response and return its body."""
        await self.wait_for(lambda r: len(r.edits) > index, timeout)
        return self.edits[index]

    async def original_message(self, timeout: float = 5.0) -> StoredMessage:  # noqa: ASYNC109 - timeout is the public API
        """Wait until the original response is a visible message (not a loading defer)."""
        await self.wait_for(
            lambda r: r.original is not None and not (r.original.flags & FLAG_LOADING), timeout
        )
        assert self.original is not None
        return self.original

    def __repr__(self) -> str:
        kind = {2: "command", 3: "component", 4: "autocomplete", 5: "modal"}.get(self.type, "?")
        name = self.payload.get("data", {}).get("name") or self.payload.get("data", {}).get(
            "custom_id"
        )
        return f"<InteractionRecord {kind} {name!r} id={self.id} response={self.response_type}>"


class Notifier:
    """A level-triggered "something changed" signal for polling predicates without busy-waiting."""

    def __init__(self) -> None:
        self._event = asyncio.Event()

    def notify(self) -> None:
        self._event.set()
        self._event = asyncio.Event()

    async def wait(self, timeout: float) -> None:  # noqa: ASYNC109 - timeout is the public API
        event = self._event
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), timeout)
