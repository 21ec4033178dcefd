"""The message store and the interaction-response endpoints of the harness.

* channel messages and interaction messages are :class:`~tests.harness.models.StoredMessage`
  objects keyed by id; edits update ``payload`` in place and append to ``versions``;
* ``POST /interactions/{id}/{token}/callback`` enforces the 3-second window and the single
  initial response (10062 / 40060 otherwise);
* ``/webhooks/{app}/{token}`` followups, and ``.../messages/@original|{id}`` reads, edits, deletes.

Mixed into :class:`tests.harness.server.DiscordHarness`.
"""

from __future__ import annotations

import asyncio
import copy
import re
import secrets
from typing import Any

from .gateway import INTENT_GUILD_MESSAGES
from .models import (
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    Channel,
    InteractionRecord,
    Member,
    RecordedRequest,
    StoredFile,
    StoredMessage,
    User,
    utcnow_iso,
)
from .rest import Reply, error_body, not_found


class MessageStore:
    """Messages, files and interaction responses."""

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
