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
    )


def channel_ids(interaction: discord.Interaction[Any]) -> tuple[int, int]:
    """``(guild_id, channel_id)``; encounters live in server channels only."""
    if interaction.guild_id is None or interaction.channel_id is None:
        raise InvalidInput("Encounters run in server channels, not in direct messages.")
    return interaction.guild_id, interaction.channel_id
