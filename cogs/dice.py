"""``/roll``: any dice expression through the ``d20`` package, within limits."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.services import rolls
from bot.ui.text import shown_name


class DiceCog(commands.Cog):
    """Free-form dice rolls (no encounter needed)."""

    @app_commands.command(name="roll", description="Roll dice, e.g. 3d6+2, 4d6kh3, 1d20+6 dex save")
    @app_commands.describe(
        dice="A dice expression, then an optional label (at most 100 dice of up to 1000 sides)"
    )
    async def roll(
        self,
        interaction: discord.Interaction[Any],
        dice: app_commands.Range[str, 1, rolls.EXPRESSION_MAX],
    ) -> None:
        rolled = rolls.roll(dice)
        who = shown_name(interaction.user.display_name)
        description = f"{shown_name(rolled.label)}: {rolled.text}" if rolled.label else rolled.text
        embed = discord.Embed(
            title=f"{who} rolls {shown_name(rolled.expression)}"[:256],
            description=description[:4096],
            colour=discord.Colour.green(),
        )
        await interaction.response.send_message(
            embed=embed, allowed_mentions=discord.AllowedMentions.none()
        )
