"""``/away [until] [delegate]`` and ``/back`` (issue 17, "Away players").

Thin adapter over :class:`bot.services.away.AwayService`: while a member is away in this
server, the GM — or the member they named — acts and reacts for their combatants, and their
turn pings and reminders go to that member (or the GM). The trackers of the server's live
encounters show who is away.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import InvalidInput
from bot.services.away import AwayChange, AwayService
from bot.ui.combat_flow import refresh_channel
from bot.ui.interaction import actor_of


def _guild(interaction: discord.Interaction[Any]) -> int:
    if interaction.guild_id is None:
        raise InvalidInput("You are away in a server: use `/away` in one of its channels.")
    return interaction.guild_id


def away_text(change: AwayChange) -> str:
    """What the channel is told: who is away, until when, and who acts for them."""
    mark = change.mark
    until = "until they say `/back`"
    if mark.until is not None:
        fmt = discord.utils.format_dt
        until = f"until {fmt(mark.until, 'f')} ({fmt(mark.until, 'R')})"
    stand_in = (
        f"<@{mark.delegate_id}> acts and reacts for their combatants meanwhile (or the GM)"
        if mark.delegate_id is not None
        else "the GM acts and reacts for their combatants meanwhile"
    )
    return (
        f"💤 <@{mark.user_id}> is away {until}: {stand_in}, and their turn pings and "
        "reminders go there."
    )


class AwayCog(commands.Cog):
    """``/away`` and ``/back``."""

    def __init__(self, service: AwayService) -> None:
        self.service = service
        super().__init__()

    @app_commands.command(
        name="away", description="Mark yourself away: the GM or a member you name acts for you"
    )
    @app_commands.guild_only()
    @app_commands.describe(
        until="How long (2d, 12h) or until when (2026-12-24, 2026-12-24 18:00 UTC); "
        "leave out: until /back",
        delegate="A member who acts and reacts for your combatants meanwhile (default: the GM)",
    )
    async def away(
        self,
        interaction: discord.Interaction[Any],
        until: app_commands.Range[str, 1, 40] | None = None,
        delegate: discord.Member | None = None,
    ) -> None:
        change = await self.service.go_away(
            _guild(interaction),
            actor_of(interaction),
            until=until,
            delegate_id=delegate.id if delegate is not None else None,
            delegate_is_bot=bool(delegate is not None and delegate.bot),
        )
        mentioned = [discord.Object(delegate.id)] if delegate is not None else []
        await interaction.response.send_message(
            away_text(change), allowed_mentions=discord.AllowedMentions(users=mentioned)
        )
        for channel_id in change.channels:
            await refresh_channel(interaction.client, channel_id)

    @app_commands.command(name="back", description="You are back: end your /away")
    @app_commands.guild_only()
    async def back(self, interaction: discord.Interaction[Any]) -> None:
        change = await self.service.come_back(_guild(interaction), actor_of(interaction))
        await interaction.response.send_message(
            f"👋 <@{change.mark.user_id}> is back and acts for their combatants again.",
            allowed_mentions=discord.AllowedMentions.none(),
        )
        for channel_id in change.channels:
            await refresh_channel(interaction.client, channel_id)
