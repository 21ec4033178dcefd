"""``/gm``: the GM's tools for the channel's encounter. Now: add NPCs from templates and
refresh a combatant from its sheet; later issues add more subcommands here.
"""

from __future__ import annotations

import dataclasses
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine import Command, React, ResolveSurrender
from bot.errors import RuleViolation
from bot.services.combat import CombatService
from bot.services.encounters import NPC_BATCH_MAX, Encounter, EncounterService
from bot.services.sheets import SheetService
from bot.ui import embeds
from bot.ui.combat_flow import respond
from bot.ui.encounter_end import actor_of
from cogs.character import Choices
from cogs.encounter import channel_ids

log = logging.getLogger(__name__)


@app_commands.guild_only()
class GmCog(commands.GroupCog, group_name="gm", group_description="GM tools for this encounter"):
    """The ``/gm`` command group."""

    def __init__(
        self, encounters: EncounterService, sheets: SheetService, combat: CombatService
    ) -> None:
        self.encounters = encounters
        self.sheets = sheets
        self.combat = combat
        super().__init__()

    @app_commands.command(
        name="resolve", description="Resolve the waiting attack with no reaction (GM only)"
    )
    async def resolve(self, interaction: discord.Interaction[Any]) -> None:
        _, channel_id = channel_ids(interaction)

        def make(current: Encounter) -> Command:
            pending = current.state.pending
            if pending is None:
                raise RuleViolation("No attack is waiting for a decision.")
            if pending.awaiting == "attacker":
                return ResolveSurrender(actor=pending.attacker, complete=False)
            return React(actor=pending.target, choice="none")

        result = await self.combat.gm_command(
            channel_id,
            actor_of(interaction),
            "resolve",
            {},
            make,
            action="force a decision",
        )
        await respond(
            interaction, dataclasses.replace(result, label="The GM resolves the waiting attack")
        )

    @app_commands.command(name="add-npc", description="Add NPCs from a template (GM only)")
    @app_commands.describe(
        template="The NPC template's exact name",
        count="How many (1-25); they are numbered: Thug 1, Thug 2, …",
    )
    async def add_npc(
        self,
        interaction: discord.Interaction[Any],
        template: str,
        count: app_commands.Range[int, 1, NPC_BATCH_MAX] = 1,
    ) -> None:
        guild_id, channel_id = channel_ids(interaction)
        actor = actor_of(interaction)
        await self.encounters.require_gm(channel_id, actor, "add NPCs")
        sheet = await self.sheets.template(guild_id, template)
        encounter, names = await self.encounters.add_npcs(
            channel_id, actor, template=sheet.name, sheet=sheet.model, count=count
        )
        listed = ", ".join(f"**{n}**" for n in names)
        await interaction.response.send_message(
            f"Added {listed}."[:2000],
            embed=embeds.tracker(encounter),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @add_npc.autocomplete("template")
    async def template_names(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        """NPC templates, for the encounter's GM (its starter or a member who manages it)."""
        if interaction.guild_id is None or interaction.channel_id is None:
            return []
        try:
            actor = actor_of(interaction)
            encounter = await self.encounters.live(interaction.channel_id)
            if not encounter.is_gm(actor):
                return []
            names = await self.sheets.template_names(
                interaction.guild_id, current, encounter.row.ruleset
            )
        except Exception:
            log.exception("template autocomplete failed")
            return []
        return [app_commands.Choice(name=n, value=n) for n in names]

    @app_commands.command(name="refresh", description="Update a combatant from its sheet (GM only)")
    @app_commands.describe(combatant="The combatant's name in this encounter")
    async def refresh(self, interaction: discord.Interaction[Any], combatant: str) -> None:
        guild_id, channel_id = channel_ids(interaction)
        actor = actor_of(interaction)
        encounter = await self.encounters.require_gm(
            channel_id, actor, "refresh a combatant from its sheet"
        )
        fighter = encounter.state.find(combatant)
        source = await self.sheets.source_of(
            guild_id,
            is_npc=fighter.is_npc,
            controller_id=fighter.controller_id,
            sheet_name=fighter.sheet.name,
        )
        await self.encounters.refresh(
            channel_id, actor, combatant_id=fighter.id, sheet=source.model
        )
        await interaction.response.send_message(
            f"**{fighter.name}** now uses the current **{source.name}** sheet.",
            ephemeral=True,
        )

    @refresh.autocomplete("combatant")
    async def combatant_names(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        if interaction.channel_id is None:
            return []
        try:
            encounter = await self.encounters.live(interaction.channel_id)
        except Exception:
            return []
        if not encounter.is_gm(actor_of(interaction)):
            return []
        folded = current.strip().casefold()
        names = [c.name for c in encounter.state.combatants if folded in c.name.casefold()]
        return [app_commands.Choice(name=n, value=n) for n in names[:25]]
