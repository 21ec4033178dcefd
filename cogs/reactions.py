"""``/dodge`` and ``/block``: answer the attack waiting on your combatant without scrolling
back to its buttons (UTTAS's Evade and Block, Utopia's Dodge and Block, Untitled's Combat
Defense alone and the raised shield: the ruleset says, ``Ruleset.typed_reaction``). The same
service call as the buttons."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.services.combat import CombatService
from bot.ui.combat import titled
from bot.ui.combat_flow import respond
from bot.ui.interaction import actor_of, channel_ids
from bot.ui.text import shown_name


class ReactionsCog(commands.Cog):
    """Off-turn reactions as slash commands."""

    def __init__(self, combat: CombatService) -> None:
        self.combat = combat

    @app_commands.command(
        name="dodge",
        description="Dodge the attack waiting on you (UTTAS: Evade; Untitled: no shield)",
    )
    @app_commands.guild_only()
    @app_commands.describe(maneuver="UTTAS: a custom Evade martial art (default: the basic Evade)")
    async def dodge(
        self,
        interaction: discord.Interaction[Any],
        maneuver: app_commands.Range[str, 1, 80] | None = None,
    ) -> None:
        _, channel_id = channel_ids(interaction)
        result = await self.combat.react_by_command(
            channel_id, actor_of(interaction), "dodge", maneuver
        )
        await respond(interaction, titled(result, f"reacts: {shown_name(result.label)}"))

    @app_commands.command(
        name="block",
        description="Block the attack waiting on you (Untitled: raise the shield)",
    )
    @app_commands.guild_only()
    @app_commands.describe(maneuver="UTTAS: a custom Block martial art (default: the basic Block)")
    async def block(
        self,
        interaction: discord.Interaction[Any],
        maneuver: app_commands.Range[str, 1, 80] | None = None,
    ) -> None:
        _, channel_id = channel_ids(interaction)
        result = await self.combat.react_by_command(
            channel_id, actor_of(interaction), "block", maneuver
        )
        await respond(interaction, titled(result, f"reacts: {shown_name(result.label)}"))
