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
from bot.ui.interaction import actor_of
from bot.ui.member_views import (
    NONE,
    delete_question,
    guild_id_of,
    member_delete_prompt,
    send_export,
)


@app_commands.guild_only()
class MeCog(commands.GroupCog, group_name="me", group_description="Your own data in this server"):
    """``/me export`` and ``/me delete``."""

    def __init__(self, service: MemberDataService) -> None:
        self.service = service
        super().__init__()

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
