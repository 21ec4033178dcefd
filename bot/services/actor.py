"""Who acts: the member behind a command, as every use case sees them."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Actor:
    """The member behind a command: their user id, whether Discord grants them Manage Server
    or Manage Channels in this channel (which makes them a GM of any encounter there), whether
    they manage the server itself (they may set its GM role), the ids of their roles (a
    member holding the server's GM role is a GM too), and when they issued the command as an
    ordinal that only grows (the interaction's snowflake id; ``None`` for the bot's own
    timers), which dates commands that move the fight on.

    ``manages_server_channels``: whether their roles grant them Manage Server or Manage
    Channels in the server — server-wide, not by one channel's overwrite — which makes them a
    server GM (:attr:`server_manager`); ``None`` (the bot's own actors) takes
    ``manages_channel``."""

    user_id: int
    manages_channel: bool = False
    manages_guild: bool = False
    role_ids: frozenset[int] = frozenset()
    issued: int | None = None
    manages_server_channels: bool | None = None

    @property
    def server_manager(self) -> bool:
        """Manage Server or Manage Channels server-wide (a server GM by permission): a member
        granted Manage Channels in one channel only is a GM of that channel's encounter, not of
        the server's tables, templates, other channels' fights or other members' data."""
        if self.manages_server_channels is None:
            return self.manages_channel
        return self.manages_server_channels
