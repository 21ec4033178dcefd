"""``/roll``: any dice expression through the ``d20`` package, within limits."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.services import rolls


class DiceCog(commands.Cog):
    """Free-form dice rolls (no encounter needed)."""

    @app_commands.command(name="roll", description="Roll dice, e.g. 3d6+2 or 4d6kh3")
    @app_commands.describe(dice="A dice expression (at most 100 dice of up to 1000 sides)")
    async def roll(
        self, interaction: discord.Interaction[Any], dice: app_commands.Range[str, 1, 200]
    ) -> None:
        rolled = rolls.roll(dice)
        embed = discord.Embed(
            title=f"{interaction.user.display_name} rolls {rolled.expression}"[:256],
            description=rolled.text[:4096],
            colour=discord.Colour.green(),
        )
        await interaction.response.send_message(embed=embed)
