"""``/help [topic]``: the player's guide, the GM's guide, and every command (ephemeral)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.ui import help as help_ui
from bot.ui.text import labelled_choices


class HelpCog(commands.Cog):
    """Help for newcomers: nothing here changes anything."""

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
        item = help_ui.topic(interaction.client.tree, topic)
        await interaction.response.send_message(embeds=help_ui.embeds(item), ephemeral=True)

    @help.autocomplete("topic")
    async def help_topic(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return labelled_choices(help_ui.topic_choices(interaction.client.tree, current))
