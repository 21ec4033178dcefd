"""Acting as users: slash commands, autocomplete, button clicks, selects, modal submits.

Mixed into :class:`tests.harness.server.DiscordHarness`. Every action builds the
INTERACTION_CREATE Discord would send — typed from the commands the bot *registered* and the
components/modals the bot *actually sent* — dispatches it over the gateway and returns an
:class:`~tests.harness.models.InteractionRecord`. A test that asks for something a real user
could not do (an unregistered command or option, a button that is not on the message, a missing
required option) fails with :class:`HarnessError` before anything is sent.
"""

from __future__ import annotations

import asyncio
import copy
import mimetypes
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .models import (
    Channel,
    CommandNotRegistered,
    HarnessError,
    InteractionRecord,
    Member,
    Role,
    StoredFile,
    StoredMessage,
    User,
)

if TYPE_CHECKING:
    from .server import DiscordHarness

OPTION_TYPES = {
    3: "string",
    4: "integer",
    5: "boolean",
    6: "user",
    7: "channel",
    8: "role",
    9: "mentionable",
    10: "number",
    11: "attachment",
}


def _err(message: str) -> HarnessError:
    return HarnessError(message)


class UserActions:
    """Interaction-sending half of :class:`DiscordHarness` (see the module docstring)."""

    # -- attachments ---------------------------------------------------------------------------
    def make_attachment(
        self: DiscordHarness, filename: str, data: bytes | str, content_type: str | None = None
    ) -> StoredFile:
        """A file a user attaches to a slash command; its ``url`` is served by the harness."""
        if isinstance(data, str):
            data = data.encode("utf-8")
        ctype = content_type or mimetypes.guess_type(filename)[0] or "application/octet-stream"
        fid = self.ids.next()
        stored = StoredFile(
            id=fid,
            filename=filename,
            data=data,
            content_type=ctype,
            url=f"{self.base_url}/attachments/0/{fid}/{filename}",
        )
        self.files[fid] = stored
        return stored

    # -- the common envelope -------------------------------------------------------------------
    async def _send_interaction(
        self: DiscordHarness,
        itype: int,
        member: Member,
        channel: Channel,
        data: dict[str, Any],
        *,
        message: StoredMessage | None = None,
    ) -> InteractionRecord:
        if not isinstance(member, Member):
            raise _err(f"interactions in a guild need a harness Member, not {member!r}")
        if not self.live_sessions():
            raise _err("no bot is connected to the harness gateway")
        guild = member.guild
        if channel.guild_id != guild.id:
            raise _err(f"channel {channel.name!r} is not in {member.name}'s guild")
        if not self.sessions_for(guild.id):
            raise _err(f"no connected bot shard owns the guild {guild.name!r}")
        iid = self.ids.next()
        token = self.new_interaction_token(iid)
        # The member's permissions in this channel: their roles', plus their own overwrite.
        here = member.permissions | channel.member_allow.get(member.id, 0)
        payload: dict[str, Any] = {
            "id": str(iid),
            "application_id": str(self.application_id),
            "type": itype,
            "data": data,
            "guild_id": str(guild.id),
            "guild": {"id": str(guild.id), "locale": guild.locale, "features": []},
            "channel_id": str(channel.id),
            "channel": channel.interaction_payload(here),
            "member": {**member.payload(with_permissions=True), "permissions": str(here)},
            "token": token,
            "version": 1,
            "app_permissions": str(self.bot_permissions_in(channel)),
            "locale": "en-US",
            "guild_locale": guild.locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "authorizing_integration_owners": {"0": str(guild.id)},
            "context": 0,
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if message is not None:
            payload["message"] = copy.deepcopy(message.payload)
        loop = asyncio.get_running_loop()
        irec = InteractionRecord(
            id=iid,
            token=token,
            type=itype,
            payload=payload,
            member=member,
            channel=channel,
            sent_at=loop.time(),
            notify=self.notify,
            waiter=self.wait_for,
            source_message=message,
        )
        self.register_interaction(irec)
        await self.dispatch("INTERACTION_CREATE", payload)
        return irec

    # -- slash commands ------------------------------------------------------------------------
    def _registered_command(
        self: DiscordHarness, guild_id: int, name: str
    ) -> tuple[dict[str, Any], bool]:
        for cmd in self.commands.get(guild_id, []):
            if cmd["name"] == name and cmd.get("type", 1) == 1:
                return cmd, True
        for cmd in self.commands.get(None, []):
            if cmd["name"] == name and cmd.get("type", 1) == 1:
                return cmd, False
        known = sorted(c["name"] for key in (guild_id, None) for c in self.commands.get(key, []))
        raise CommandNotRegistered(f"/{name} is not registered by the bot (registered: {known})")

    def _command_data(
        self: DiscordHarness,
        member: Member,
        command: str,
        options: Mapping[str, Any],
        *,
        focused: str | None = None,
    ) -> dict[str, Any]:
        names = command.strip().lstrip("/").split()
        if not names:
            raise _err("empty command path")
        cmd, is_guild = self._registered_command(member.guild.id, names[0])
        data: dict[str, Any] = {"id": cmd["id"], "name": cmd["name"], "type": 1}
        if is_guild:
            data["guild_id"] = str(member.guild.id)
        container: list[dict[str, Any]] = []
        data["options"] = container
        defs: list[dict[str, Any]] = cmd.get("options") or []
        path = f"/{names[0]}"
        for sub in names[1:]:
            d = next((o for o in defs if o["name"] == sub and o["type"] in (1, 2)), None)
            if d is None:
                subs = [o["name"] for o in defs if o["type"] in (1, 2)]
                raise CommandNotRegistered(f"{path} has no subcommand {sub!r} (has {subs})")
            path += f" {sub}"
            node: dict[str, Any] = {"type": d["type"], "name": sub, "options": []}
            container.append(node)
            container = node["options"]
            defs = d.get("options") or []
        if any(o["type"] in (1, 2) for o in defs):
            subs = [o["name"] for o in defs if o["type"] in (1, 2)]
            raise _err(f"{path} needs a subcommand, one of {subs}")
        resolved: dict[str, dict[str, Any]] = {}
        given: dict[str, Any] = {}
        by_name = {o["name"]: o for o in defs}
        for key, value in options.items():
            name = key if key in by_name else key.replace("_", "-")
            if name not in by_name:
                raise CommandNotRegistered(
                    f"{path} has no option {key!r} (registered options: {sorted(by_name)})"
                )
            given[name] = value
        if focused is not None:
            fname = focused if focused in by_name else focused.replace("_", "-")
            fdef = by_name.get(fname)
            if fdef is None:
                raise CommandNotRegistered(f"{path} has no option {focused!r}")
            if not fdef.get("autocomplete"):
                raise _err(f"{path} option {fname!r} is not registered with autocomplete")
            if fname not in given:
                raise _err("autocomplete needs the focused option's current value")
            focused = fname
        else:
            missing = [o["name"] for o in defs if o.get("required") and o["name"] not in given]
            if missing:
                raise _err(f"{path} is missing required option(s) {missing}")
        for d in defs:  # Discord sends options in their registered order
            if d["name"] not in given:
                continue
            if d["name"] == focused:
                container.append(
                    {
                        "type": d["type"],
                        "name": d["name"],
                        "value": str(given[d["name"]]),
                        "focused": True,
                    }
                )
                continue
            container.append(self._option(path, d, given[d["name"]], member, resolved))
        if resolved:
            data["resolved"] = resolved
        return data

    def _option(
        self: DiscordHarness,
        path: str,
        d: dict[str, Any],
        value: Any,
        member: Member,
        resolved: dict[str, dict[str, Any]],
    ) -> dict[str, Any]:
        t = d["type"]
        where = f"{path} {d['name']}"
        out: dict[str, Any] = {"type": t, "name": d["name"]}

        def bad(expected: str) -> AssertionError:
            return _err(
                f"{where} is a {OPTION_TYPES.get(t, t)} option; {value!r} is not {expected}"
            )

        if t == 3:
            if not isinstance(value, (str, int, float)) or isinstance(value, bool):
                raise bad("a string")
            value = str(value)
            if not d.get("min_length", 0) <= len(value) <= d.get("max_length", 6000):
                raise _err(f"{where}: length {len(value)} outside min/max_length")
        elif t == 4:
            if not isinstance(value, int) or isinstance(value, bool):
                raise bad("an int")
        elif t == 10:
            if not isinstance(value, (int, float)) or isinstance(value, bool):
                raise bad("a number")
        elif t == 5:
            if not isinstance(value, bool):
                raise bad("a bool")
        elif t in (6, 9) and isinstance(value, (Member, User)):
            user = value.user if isinstance(value, Member) else value
            resolved.setdefault("users", {})[str(user.id)] = user.payload()
            if isinstance(value, Member):
                resolved.setdefault("members", {})[str(user.id)] = value.payload(
                    with_user=False, with_permissions=True
                )
            value = str(user.id)
        elif t in (8, 9) and isinstance(value, Role):
            resolved.setdefault("roles", {})[str(value.id)] = value.payload()
            value = str(value.id)
        elif t == 7 and isinstance(value, Channel):
            types = d.get("channel_types")
            if types and value.type not in types:
                raise _err(f"{where} only accepts channel types {types}, not {value.type}")
            resolved.setdefault("channels", {})[str(value.id)] = value.interaction_payload(
                member.permissions
            )
            value = str(value.id)
        elif t == 11:
            if isinstance(value, tuple):
                value = self.make_attachment(*value)
            if not isinstance(value, StoredFile):
                raise bad("a harness attachment (harness.make_attachment(...) or (name, bytes))")
            att = value.payload()
            att["ephemeral"] = True
            resolved.setdefault("attachments", {})[str(value.id)] = att
            value = str(value.id)
        else:
            raise bad("the right kind of object")
        if t in (4, 10):
            lo, hi = d.get("min_value"), d.get("max_value")
            if (lo is not None and value < lo) or (hi is not None and value > hi):
                raise _err(f"{where}: {value} outside [{lo}, {hi}]")
        choices = d.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise _err(f"{where}: {value!r} is not one of the registered choices {choices}")
        out["value"] = value
        return out

    async def slash(
        self: DiscordHarness,
        member: Member,
        channel: Channel,
        command: str,
        options: Mapping[str, Any] | None = None,
        /,
        **kwargs: Any,
    ) -> InteractionRecord:
        """Run ``/command [group] [sub]`` as ``member`` in ``channel`` with typed options.

        Options come as keyword arguments (``_`` matches ``-`` in option names) or as a mapping.
        Values: str/int/float/bool, harness ``Member``/``User``/``Role``/``Channel`` objects, and
        for attachments ``harness.make_attachment(name, data)`` or a ``(name, bytes)`` tuple.
        """
        opts = {**(options or {}), **kwargs}
        data = self._command_data(member, command, opts)
        return await self._send_interaction(2, member, channel, data)

    async def autocomplete(
        self: DiscordHarness,
        member: Member,
        channel: Channel,
        command: str,
        /,
        focused: str,
        value: str,
        timeout: float = 5.0,  # noqa: ASYNC109
        **options: Any,
    ) -> list[dict[str, Any]]:
        """Type ``value`` into option ``focused``; return the choices the bot answered with.

        The :class:`InteractionRecord` is ``harness.interactions[-1]`` afterwards.
        """
        opts = {**options, focused: value}
        data = self._command_data(member, command, opts, focused=focused)
        irec = await self._send_interaction(4, member, channel, data)
        body = await irec.response(timeout)
        if body.get("type") != 8:
            raise _err(f"bot answered autocomplete with callback type {body.get('type')}")
        return irec.choices

    # -- components ----------------------------------------------------------------------------
    def _component_on(
        self: DiscordHarness, message: StoredMessage | int, custom_id: str
    ) -> tuple[StoredMessage, dict[str, Any]]:
        msg = self.message(message)
        if msg.deleted:
            raise _err(f"message {msg.id} was deleted; nothing to click")
        for comp in msg.all_components():
            if comp.get("custom_id") == custom_id:
                if comp.get("disabled"):
                    raise _err(f"component {custom_id!r} on message {msg.id} is disabled")
                return msg, comp
        raise _err(
            f"no component with custom_id {custom_id!r} on the latest version of message "
            f"{msg.id}; it has {msg.custom_ids()}"
        )

    async def click(
        self: DiscordHarness, member: Member, message: StoredMessage | int, custom_id: str
    ) -> InteractionRecord:
        """Click the button ``custom_id`` on the latest version of ``message``."""
        msg, comp = self._component_on(message, custom_id)
        if comp.get("type") != 2:
            raise _err(f"{custom_id!r} is a component of type {comp.get('type')}, not a button")
        data = {"custom_id": custom_id, "component_type": 2}
        return await self._send_interaction(
            3, member, self.channels[msg.channel_id], data, message=msg
        )

    async def select(
        self: DiscordHarness,
        member: Member,
        message: StoredMessage | int,
        custom_id: str,
        values: list[Any],
    ) -> InteractionRecord:
        """Pick ``values`` in the select menu ``custom_id`` (string values, or harness
        Member/Role/Channel objects for the typed selects)."""
        msg, comp = self._component_on(message, custom_id)
        ctype = comp.get("type")
        if ctype not in (3, 5, 6, 7, 8):
            raise _err(f"{custom_id!r} is not a select menu")
        lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
        if not lo <= len(values) <= hi:
            raise _err(f"select {custom_id!r} takes {lo}-{hi} values, got {len(values)}")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": ctype}
        if ctype == 3:
            allowed = [o["value"] for o in comp.get("options") or []]
            for v in values:
                if v not in allowed:
                    raise _err(f"{v!r} is not an option of select {custom_id!r} ({allowed})")
            data["values"] = list(values)
        else:
            resolved: dict[str, dict[str, Any]] = {}
            ids: list[str] = []
            for v in values:
                if isinstance(v, (Member, User)):
                    user = v.user if isinstance(v, Member) else v
                    resolved.setdefault("users", {})[str(user.id)] = user.payload()
                    if isinstance(v, Member):
                        resolved.setdefault("members", {})[str(user.id)] = v.payload(
                            with_user=False, with_permissions=True
                        )
                    ids.append(str(user.id))
                elif isinstance(v, Role):
                    resolved.setdefault("roles", {})[str(v.id)] = v.payload()
                    ids.append(str(v.id))
                elif isinstance(v, Channel):
                    resolved.setdefault("channels", {})[str(v.id)] = v.interaction_payload(
                        member.permissions
                    )
                    ids.append(str(v.id))
                else:
                    raise _err(f"select {custom_id!r} needs harness objects, got {v!r}")
            data["values"] = ids
            data["resolved"] = resolved
        return await self._send_interaction(
            3, member, self.channels[msg.channel_id], data, message=msg
        )

    # -- modals --------------------------------------------------------------------------------
    def find_modal(
        self: DiscordHarness, custom_id: str, member: Member | None = None
    ) -> InteractionRecord:
        """The latest interaction the bot answered with the modal ``custom_id``."""
        candidates = [
            r
            for r in self.interactions
            if r.response_type == 9 and r.response_data.get("custom_id") == custom_id
        ]
        mine = [r for r in candidates if member is None or r.member is member]
        if not (mine or candidates):
            opened = sorted(
                {
                    r.response_data.get("custom_id")
                    for r in self.interactions
                    if r.response_type == 9
                }
            )
            raise _err(f"the bot never opened a modal {custom_id!r} (opened: {opened})")
        return (mine or candidates)[-1]

    async def submit_modal(
        self: DiscordHarness,
        member: Member,
        channel: Channel,
        custom_id: str,
        values: Mapping[str, Any],
    ) -> InteractionRecord:
        """Fill in and submit the modal ``custom_id`` the bot opened (``{field custom_id: value}``;
        a list of values for select fields)."""
        opened = self.find_modal(custom_id, member)
        modal = opened.response_data
        remaining = dict(values)

        def submit(comp: dict[str, Any]) -> dict[str, Any] | None:
            t = comp.get("type")
            cid = comp.get("custom_id")
            if t == 4:
                value = remaining.pop(cid, None)
                if value is None:
                    if comp.get("required", True):
                        raise _err(f"modal {custom_id!r}: required field {cid!r} not filled in")
                    value = ""
                value = str(value)
                lo, hi = comp.get("min_length") or 0, comp.get("max_length") or 4000
                if value and not lo <= len(value) <= hi:
                    raise _err(f"modal {custom_id!r}: {cid!r} must be {lo}-{hi} characters")
                out: dict[str, Any] = {"type": 4, "custom_id": cid, "value": value}
            elif t in (3, 5, 6, 7, 8):
                picked = remaining.pop(cid, [])
                out = {
                    "type": t,
                    "custom_id": cid,
                    "values": [str(v.id) if hasattr(v, "id") else str(v) for v in picked],
                }
            else:
                return None
            if "id" in comp:
                out["id"] = comp["id"]
            return out

        components: list[dict[str, Any]] = []
        for top in modal.get("components") or []:
            if top.get("type") == 1:
                inner = [s for s in map(submit, top.get("components") or []) if s]
                row: dict[str, Any] = {"type": 1, "components": inner}
                if "id" in top:
                    row["id"] = top["id"]
                components.append(row)
            elif top.get("type") == 18:
                inner_one = submit(top.get("component") or {})
                if inner_one is not None:
                    label: dict[str, Any] = {"type": 18, "component": inner_one}
                    if "id" in top:
                        label["id"] = top["id"]
                    components.append(label)
        if remaining:
            raise _err(f"modal {custom_id!r} has no field(s) {sorted(remaining)}")
        data = {"custom_id": custom_id, "components": components}
        source = opened.source_message if opened.type == 3 else None
        if source is not None:
            source = self.message(source)
        return await self._send_interaction(5, member, channel, data, message=source)

    # -- plain user messages -------------------------------------------------------------------
    async def send_message(
        self: DiscordHarness, member: Member, channel: Channel, content: str
    ) -> StoredMessage:
        """A user posts ``content`` in ``channel`` (MESSAGE_CREATE to the bot)."""
        msg = await self.create_message(channel, {"content": content}, author=member.user)
        return msg
