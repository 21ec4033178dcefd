"""What every cog of turn commands shares (``/attack``, ``/act``, ``/check``…): run a command
for the member's combatant through the combat service and show it, and the autocompletes that
read the channel's encounter (its combatants, the member's own, the one acting)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine.core.state import CombatantBase
from bot.services.combat import CombatService, controls, pick_actor
from bot.services.encounters import Encounter, EncounterService
from bot.ui.combat import titled
from bot.ui.combat_flow import respond
from bot.ui.interaction import actor_of, channel_ids
from bot.ui.replies import autocomplete_guard
from bot.ui.text import name_choices

Choices = list[app_commands.Choice[str]]
AS_HELP = "Which of your combatants acts (when you control several; the GM may pick anyone)"


def choices(names: list[str], current: str) -> Choices:
    """Each name once (:func:`bot.ui.text.name_choices`), prefix matches first, at most 25."""
    return name_choices(names, current)


class TurnCommands(commands.Cog):
    """A cog of turn commands: holds the combat and encounter services."""

    def __init__(self, combat: CombatService, encounters: EncounterService) -> None:
        self.combat = combat
        self.encounters = encounters

    async def _do(
        self,
        interaction: discord.Interaction[Any],
        as_name: str | None,
        label: str,
        options: dict[str, Any],
        make: Any,
        doing: str | Callable[[Encounter], str],
        *,
        between_fights: bool = False,
    ) -> None:
        """Run one turn command for the member's combatant and show the result titled
        "<combatant> <doing>" (``doing`` may read the encounter after the command: a distance
        in its board's unit; ``between_fights``: see :meth:`CombatService.act`)."""
        _, channel_id = channel_ids(interaction)
        result = await self.combat.act(
            channel_id,
            actor_of(interaction),
            as_name,
            label,
            options,
            make,
            between_fights=between_fights,
        )
        title = doing(result.encounter) if callable(doing) else doing
        await respond(interaction, titled(result, title))

    async def _live(self, interaction: discord.Interaction[Any]) -> Encounter | None:
        if interaction.channel_id is None:
            return None
        with autocomplete_guard(interaction, "the channel's encounter"):
            return await self.encounters.live(interaction.channel_id)
        return None

    async def _names(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        encounter = await self._live(interaction)
        if encounter is None:
            return []
        return choices([c.name for c in encounter.state.combatants], current)

    async def _own_names(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        encounter = await self._live(interaction)
        if encounter is None:
            return []
        actor = actor_of(interaction)
        mine = [c.name for c in encounter.state.combatants if controls(encounter, actor, c)]
        return choices(mine, current)

    def _acting_for(
        self, encounter: Encounter, interaction: discord.Interaction[Any]
    ) -> CombatantBase | None:
        as_name = getattr(interaction.namespace, "as", None)
        with autocomplete_guard(interaction, "the acting combatant"):
            return pick_actor(encounter, actor_of(interaction), as_name)
        return None
