"""REST routes of the harness that are not about messages: gateway discovery, the bot user and
application, application-command registration, guild/channel/member reads.

Mixed into :class:`tests.harness.server.DiscordHarness`; handlers take the
:class:`~tests.harness.models.RecordedRequest` and the route's regex match, and return the JSON
body (``None`` → 204) or raise :class:`Reply` for any other status.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from .models import Channel, Guild, RecordedRequest, StoredMessage


class Reply(Exception):
    """Raised inside a handler to answer immediately with ``status`` and ``body``."""

    def __init__(self, status: int, body: Any = None, headers: dict[str, str] | None = None):
        super().__init__(status, body)
        self.status = status
        self.body = body
        self.headers = headers or {}


def error_body(code: int, message: str) -> dict[str, Any]:
    return {"message": message, "code": code}


VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
READ_HISTORY = 1 << 16
SEND_IN_THREADS = 1 << 38
PIN_MESSAGES = 1 << 51

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


class RestRoutes:
    """Route table and the non-message handlers."""

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
        r("PUT", "/channels/{channel_id}/messages/pins/{message_id}", self._pin)
        r("DELETE", "/channels/{channel_id}/messages/pins/{message_id}", self._unpin)
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

    def _require(self, channel: Channel, *needed: int) -> None:
        """Refuse as Discord does when the bot lacks a permission in ``channel``: 50001 Missing
        Access without View Channel, else 50013 Missing Permissions."""
        granted = self.bot_permissions_in(channel)
        if not granted & VIEW_CHANNEL:
            raise Reply(403, error_body(50001, "Missing Access"))
        if any(not granted & bit for bit in needed):
            raise Reply(403, error_body(50013, "Missing Permissions"))

    def _send_permission(self, channel: Channel) -> int:
        return SEND_IN_THREADS if channel.type in (10, 11, 12) else SEND_MESSAGES

    async def _list_messages(self, rec: RecordedRequest, m: re.Match[str]) -> Any:
        channel = self._channel(m)
        self._require(channel, READ_HISTORY)
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
        self._require(channel, self._send_permission(channel))
        msg = await self.create_message(channel, rec.json or {}, rec.files)
        return msg.payload

    async def _get_channel_message(self, rec: RecordedRequest, m: re.Match[str]) -> Any:
        return self._visible_message(self._channel(m), m["message_id"]).payload

    async def _edit_channel_message(self, rec: RecordedRequest, m: re.Match[str]) -> Any:
        self._require(self._channel(m))
        msg = self._visible_message(self._channel(m), m["message_id"])
        if msg.author_id != self.bot_user.id:
            self.violate("edited a message authored by another user", rec)
            raise Reply(403, error_body(50005, "Cannot edit a message authored by another user"))
        await self.edit_message(msg, rec.json or {}, rec.files)
        return msg.payload

    async def _delete_channel_message(self, rec: RecordedRequest, m: re.Match[str]) -> None:
        msg = self._visible_message(self._channel(m), m["message_id"])
        await self.delete_message(msg)

    async def _pin(self, rec: RecordedRequest, m: re.Match[str]) -> None:
        channel = self._channel(m)
        granted = self.bot_permissions_in(channel)
        if not granted & (PIN_MESSAGES | MANAGE_MESSAGES):
            self._require(channel, PIN_MESSAGES)
        msg = self._visible_message(channel, m["message_id"])
        msg.payload["pinned"] = True

    async def _unpin(self, rec: RecordedRequest, m: re.Match[str]) -> None:
        channel = self._channel(m)
        msg = self._visible_message(channel, m["message_id"])
        msg.payload["pinned"] = False

    async def _add_reaction(self, rec: RecordedRequest, m: re.Match[str]) -> None:
        msg = self._visible_message(self._channel(m), m["message_id"])
        reactions = msg.payload.setdefault("reactions", [])
        reactions.append({"emoji": {"id": None, "name": m["emoji"]}, "count": 1, "me": True})
