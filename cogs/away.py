"""``/away [until] [delegate]`` and ``/back`` (issue 17, "Away players").

Thin adapter over :class:`bot.services.away.AwayService`: while a member is away in this
server, the GM — or the member they named — acts and reacts for their combatants, and their
turn pings and reminders go to that member (or the GM). The trackers of the server's live
encounters show who is away. Said in the channel, but privately to a bystander of its fight (no GM
seat, no combatant: :func:`bot.services.away_stakes.is_bystander`); ``/back``
also tells them what waits on them now (:func:`bot.services.away_stakes.waiting_on`).
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import InvalidInput
from bot.services.away import AwayChange, AwayService
from bot.services.away_stakes import Waiting, is_bystander, waiting_on
from bot.services.encounters import EncounterService
from bot.ui.combat_flow import refresh_channel
from bot.ui.interaction import actor_of

PRIVATE_NOTE = (
    "\n-# Only you see this: you have no combatant and no GM seat in this channel's fight. "
    "The trackers of the server's fights show who is away."
)


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


def waiting_text(waiting: list[Waiting]) -> str:
    """What waits on a member who came back, a line each (the first ten); "" for nothing."""
    lines = []
    for wait in waiting[:10]:
        when = (
            f" (decide {discord.utils.format_dt(wait.deadline, 'R')})"
            if wait.deadline is not None
            else ""
        )
        lines.append(f"⏳ Waiting on you in <#{wait.channel_id}>: {wait.what}{when}.")
    if len(waiting) > 10:
        lines.append(f"… and {len(waiting) - 10} more (`/encounter recap` in each channel).")
    return "\n".join(lines)


class AwayCog(commands.Cog):
    """``/away`` and ``/back``."""

    def __init__(self, service: AwayService, encounters: EncounterService) -> None:
        self.service = service
        self.encounters = encounters
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
        actor = actor_of(interaction)
        # Asked first: a delegate going away no longer stands in once they are.
        public = not await is_bystander(self.encounters, interaction.channel_id, actor)
        change = await self.service.go_away(
            _guild(interaction),
            actor,
            until=until,
            delegate_id=delegate.id if delegate is not None else None,
            delegate_is_bot=bool(delegate is not None and delegate.bot),
        )
        mentioned = [discord.Object(delegate.id)] if delegate is not None else []
        await interaction.response.send_message(
            away_text(change) + ("" if public else PRIVATE_NOTE),
            ephemeral=not public,
            allowed_mentions=discord.AllowedMentions(users=mentioned),
        )
        for channel_id in change.channels:
            await refresh_channel(interaction.client, channel_id)

    @app_commands.command(name="back", description="You are back: end your /away")
    @app_commands.guild_only()
    async def back(self, interaction: discord.Interaction[Any]) -> None:
        actor = actor_of(interaction)
        change = await self.service.come_back(_guild(interaction), actor)
        public = not await is_bystander(self.encounters, interaction.channel_id, actor)
        waiting = waiting_text(await waiting_on(self.encounters, change.channels, actor))
        text = f"👋 <@{change.mark.user_id}> is back and acts for their combatants again."
        await interaction.response.send_message(
            text + (f"\n{waiting}" if waiting else "") + ("" if public else PRIVATE_NOTE),
            ephemeral=not public,
            allowed_mentions=discord.AllowedMentions.none(),
        )
        for channel_id in change.channels:
            await refresh_channel(interaction.client, channel_id)
