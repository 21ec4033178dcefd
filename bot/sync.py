"""Command sync: push slash-command definitions to Discord only when they changed.

Creating commands is rate limited per day, so a restart with unchanged definitions must not
sync. The SHA-256 of the definitions (canonical JSON) is kept in ``bot_meta`` per scope (the
development guild or "global") and per application.
"""

from __future__ import annotations

import hashlib
import json
import logging
from typing import Any

import discord
from discord import app_commands

from bot.store import meta
from bot.store.base import Store

log = logging.getLogger(__name__)


class DevGuildRefused(Exception):
    """Discord refused to sync the slash commands to ``DEV_GUILD_ID`` (``guild_id``): the bot is
    not in that server, or was invited without the ``applications.commands`` scope."""

    def __init__(self, guild_id: int, error: discord.HTTPException) -> None:
        super().__init__(f"{error.status} {error.text or 'no details'}")
        self.guild_id = guild_id
        self.status = error.status
        self.text = error.text


def definitions_hash(tree: app_commands.CommandTree[Any], guild: discord.Object | None) -> str:
    """SHA-256 of the command payloads Discord would receive for ``guild`` (None: global)."""
    payload = [command.to_dict(tree) for command in tree.get_commands(guild=guild)]
    payload.sort(key=lambda command: (command.get("type", 1), command["name"]))
    canonical = json.dumps(payload, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


async def sync_if_changed(
    tree: app_commands.CommandTree[Any],
    db: Store,
    *,
    application_id: int,
    dev_guild_id: int | None,
) -> bool:
    """Sync to ``dev_guild_id`` when set (copying the global commands there), else globally —
    only when the definitions' hash differs from the last successful sync. Returns whether it
    synced. The hash is stored only after Discord accepted the sync. Raises
    :class:`DevGuildRefused` when Discord forbids the sync to ``dev_guild_id``."""
    guild = discord.Object(id=dev_guild_id) if dev_guild_id else None
    if guild is not None:
        tree.copy_global_to(guild=guild)
    digest = definitions_hash(tree, guild)
    key = f"command_sync:{application_id}:{dev_guild_id or 'global'}"
    async with db.read() as conn:
        previous = await meta.get(conn, key)
    if previous == digest:
        log.info("slash commands unchanged since the last sync; not syncing")
        return False
    try:
        synced = await tree.sync(guild=guild)
    except discord.Forbidden as error:
        if dev_guild_id is None:
            raise
        raise DevGuildRefused(dev_guild_id, error) from None
    async with db.transaction() as conn:
        await meta.put(conn, key, digest)
    scope = f"guild {dev_guild_id}" if guild else "globally"
    log.info("synced %d slash commands %s", len(synced), scope)
    return True
