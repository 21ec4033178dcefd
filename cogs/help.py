"""``/help [topic]``: the player's guide, the GM's guide, and every command (ephemeral)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.services.encounters import EncounterService
from bot.ui import help as help_ui
from bot.ui.text import labelled_choices


class HelpCog(commands.Cog):
    """Help for newcomers: nothing here changes anything. ``encounters``: read for the game
    system of the channel's fight, whose guide ``/help`` with no topic shows."""

    def __init__(self, encounters: EncounterService | None = None) -> None:
        self.encounters = encounters

    @app_commands.command(name="help", description="How to play and run fights, and each command")
    @app_commands.describe(
        topic="player, gm, utopia, untitled, uune, commands, or a command's name "
        "(e.g. attack, gm hp)"
    )
    async def help(
        self,
        interaction: discord.Interaction[Any],
        topic: app_commands.Range[str, 1, 100] | None = None,
    ) -> None:
        here = None
        if topic is None and self.encounters is not None and interaction.channel_id is not None:
            here = await self.encounters.live_ruleset(interaction.channel_id)
        item = help_ui.topic(interaction.client.tree, topic, here=here)
        await interaction.response.send_message(embeds=help_ui.embeds(item), ephemeral=True)

    @help.autocomplete("topic")
    async def help_topic(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return labelled_choices(help_ui.topic_choices(interaction.client.tree, current))
