"""Reading what an interaction says about who acts and where: the acting member as a service
:class:`~bot.services.encounters.Actor`, and the server and channel an encounter lives in."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.errors import InvalidInput
from bot.services.actor import Actor

Choices = list[app_commands.Choice[str]]
"""What an autocomplete callback returns."""


def actor_of(interaction: discord.Interaction[Any]) -> Actor:
    """The acting member, with whether they manage this server or channel, their roles (the
    server's GM role makes a member a GM) and when they issued this interaction (its snowflake's
    snowflake id, which dates commands that move the fight on)."""
    perms = interaction.permissions
    user = interaction.user
    roles = frozenset(r.id for r in user.roles) if isinstance(user, discord.Member) else frozenset()
    return Actor(
        user_id=user.id,
        manages_channel=perms.manage_guild or perms.manage_channels,
        manages_guild=perms.manage_guild,
        role_ids=roles,
        issued=interaction.id,
        manages_server_channels=_server_wide(user),
    )


def _server_wide(user: discord.User | discord.Member) -> bool | None:
    """Whether ``user``'s roles grant Manage Server or Manage Channels in the whole server
    (their permissions in the channel may come from an overwrite of that channel alone), or
    ``None`` when that is not known here — not a server member, or a server whose roles the
    bot has not cached (unavailable in an outage): their permissions in the channel count
    then, as before."""
    if not isinstance(user, discord.Member) or user.guild.default_role is None:
        return None
    server = user.guild_permissions
    return server.manage_guild or server.manage_channels


def actor_of_member(member: discord.Member, interaction: discord.Interaction[Any]) -> Actor:
    """Another member named in ``interaction`` (a ``discord.Member`` option, e.g. ``/gm
    transfer member:``), as a service :class:`Actor`: whether they manage this server or channel
    and their roles, read as :func:`actor_of` reads the acting member. Their permissions are
    the ones Discord resolved for them in this channel (sent with the option), else computed
    from the cached channel, else their server-wide permissions. ``issued_at`` is ``None``:
    they issued nothing."""
    perms = member.resolved_permissions
    if perms is None:
        channel = interaction.channel
        if isinstance(channel, (discord.abc.GuildChannel, discord.Thread)):
            perms = channel.permissions_for(member)
        else:
            perms = member.guild_permissions
    return Actor(
        user_id=member.id,
        manages_channel=perms.manage_guild or perms.manage_channels,
        manages_guild=perms.manage_guild,
        role_ids=frozenset(r.id for r in member.roles),
        manages_server_channels=_server_wide(member),
    )


def channel_ids(interaction: discord.Interaction[Any]) -> tuple[int, int]:
    """``(guild_id, channel_id)``; encounters live in server channels only."""
    if interaction.guild_id is None or interaction.channel_id is None:
        raise InvalidInput("Encounters run in server channels, not in direct messages.")
    return interaction.guild_id, interaction.channel_id
