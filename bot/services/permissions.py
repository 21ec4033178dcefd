"""Who counts as a GM of the server (not just of one encounter)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.store import guild_settings
from bot.store.base import StoreConnection as Connection

if TYPE_CHECKING:  # encounters imports the start policy, which imports this module
    from bot.services.actor import Actor


async def is_server_gm(conn: Connection, guild_id: int, actor: Actor) -> bool:
    """A member with Manage Server or Manage Channels server-wide (:attr:`Actor.server_manager`:
    not by one channel's overwrite), or one holding the server's GM role (``/gm seat role``)."""
    if actor.server_manager:
        return True
    role = await guild_settings.gm_role(conn, guild_id)
    return role is not None and role in actor.role_ids
