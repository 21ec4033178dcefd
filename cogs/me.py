"""``/me``: a member's own data in this server — export it as JSON, or erase it.

Thin adapter over :class:`bot.services.member_data.MemberDataService`; what is kept and what
erasing does is listed in :mod:`bot.services.member_sources` and ``docs/member-data.md``.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.services.member_data import MemberDataService
from bot.services.member_settings import MemberSettingsService
from bot.services.standing import StandingReactions
from bot.ui.interaction import actor_of, channel_ids
from bot.ui.member_views import (
    NONE,
    delete_question,
    guild_id_of,
    member_delete_prompt,
    send_export,
)
from bot.ui.standing_views import settings_text, standing_text
from bot.ui.text import name_choices


@app_commands.guild_only()
class MeCog(commands.GroupCog, group_name="me", group_description="Your own data in this server"):
    """``/me export``, ``/me delete`` and ``/me reactions``."""

    def __init__(
        self,
        service: MemberDataService,
        standing: StandingReactions,
        settings: MemberSettingsService,
    ) -> None:
        self.service = service
        self.standing = standing
        self.settings = settings
        super().__init__()

    @app_commands.command(
        name="settings", description="Your time zone and quiet hours (no reminders then)"
    )
    @app_commands.describe(
        timezone="Your IANA time zone, e.g. Europe/Berlin or America/New_York (default UTC)",
        quiet_hours="Local hours with no reminder mentions, e.g. 22:00-08:00; 'off' for none",
    )
    async def settings_(
        self,
        interaction: discord.Interaction[Any],
        timezone: app_commands.Range[str, 1, 60] | None = None,
        quiet_hours: app_commands.Range[str, 1, 20] | None = None,
    ) -> None:
        guild_id, actor = guild_id_of(interaction), actor_of(interaction)
        settings = await self.settings.change(guild_id, actor.user_id, timezone, quiet_hours)
        await interaction.response.send_message(
            settings_text(settings), ephemeral=True, allowed_mentions=NONE
        )

    @app_commands.command(
        name="reactions",
        description="What your combatant does when a reaction window runs out unanswered",
    )
    @app_commands.describe(
        combatant="Your combatant (needed when you control several)",
        rule="Steps in your system's words (leave out to see them, with an example); 'off' clears",
    )
    async def reactions(
        self,
        interaction: discord.Interaction[Any],
        combatant: app_commands.Range[str, 1, 80] | None = None,
        rule: app_commands.Range[str, 1, 200] | None = None,
    ) -> None:
        _, channel_id = channel_ids(interaction)
        change = await self.standing.change(channel_id, actor_of(interaction), combatant, rule)
        await interaction.response.send_message(
            standing_text(change), ephemeral=True, allowed_mentions=NONE
        )

    @reactions.autocomplete("combatant")
    async def reaction_combatants(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        if interaction.channel_id is None:
            return []
        own = await self.standing.own_names(interaction.channel_id, actor_of(interaction))
        return name_choices(own, current)

    @app_commands.command(
        name="export", description="Everything the bot keeps about you here, as a JSON file"
    )
    async def export(self, interaction: discord.Interaction[Any]) -> None:
        guild_id, actor = guild_id_of(interaction), actor_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        result = await self.service.export(
            guild_id, actor, actor.user_id, size_limit=interaction.filesize_limit
        )
        await send_export(interaction, result, "you")

    @app_commands.command(
        name="delete", description="Erase everything the bot keeps about you here (asks first)"
    )
    async def delete(self, interaction: discord.Interaction[Any]) -> None:
        guild_id, actor = guild_id_of(interaction), actor_of(interaction)
        preview = await self.service.open_delete(
            guild_id, interaction.channel_id, actor, actor.user_id
        )
        await interaction.response.send_message(
            delete_question(preview, actor.user_id),
            view=member_delete_prompt(preview.prompt_id),
            ephemeral=True,
            allowed_mentions=NONE,
        )
