"""The GM's adjustments of a combatant's numbers: ``/gm adjust combatant: characteristic:
change:`` — Aid or Drain by hand (UTTAS "Take a Breather": "If character's Body is increased or
decreased using the Aid or Drain powers …"; the encounter's system names its characteristics,
``Ruleset.characteristic_names``) — and ``/gm advantage combatant: dice: [until]`` (UTTAS
Advantage or Disadvantage dice, Utopia favor or disfavor: ``Ruleset.boon_command``, named by
``Ruleset.boons``). Thin adapters; the rules are the ruleset's."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.engine.core.commands import CommandBase
from bot.services.combat import find_combatant
from bot.services.encounters import Encounter
from bot.ui.combat import named
from bot.ui.text import shown_name
from cogs.gm.groups import GmCommand, Name, NameChoices


def adjust_command(
    gm: GmCommand, names: NameChoices, characteristics: NameChoices
) -> app_commands.Command[Any, ..., None]:
    """The ``/gm adjust`` command, bound to the GM cog's runner and autocompletes."""

    @app_commands.command(
        name="adjust", description="Raise or lower a combatant's characteristic (Aid or Drain)"
    )
    @app_commands.describe(
        combatant="The combatant's exact name",
        characteristic="Which characteristic (this game system's: Agility, Body…)",
        change="How much: +4 raises it, -3 lowers it (the sheet keeps its natural value)",
    )
    async def adjust(
        interaction: discord.Interaction[Any],
        combatant: Name,
        characteristic: app_commands.Range[str, 1, 40],
        change: app_commands.Range[int, -100, 100],
    ) -> None:
        def make(current: Encounter) -> CommandBase:
            who = find_combatant(current.state, combatant)
            return current.rules.characteristic_command(who.id, characteristic, change)

        await gm(
            interaction,
            "adjust",
            {"combatant": combatant, "characteristic": characteristic, "change": change},
            make,
            action="adjust a characteristic",
            title=lambda current: (
                f"The GM adjusts {named(current, combatant)}'s {shown_name(characteristic.title())}"
            ),
        )

    @adjust.autocomplete("combatant")
    async def combatant_names(
        interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return await names(interaction, current)

    @adjust.autocomplete("characteristic")
    async def characteristic_names(
        interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return await characteristics(interaction, current)

    return adjust


def advantage_command(gm: GmCommand, names: NameChoices) -> app_commands.Command[Any, ..., None]:
    """The ``/gm advantage`` command: dice (UTTAS) or favor (Utopia) given or taken on a next
    roll or test, or until removed; refused in Untitled and Uune, which have none."""

    @app_commands.command(
        name="advantage",
        description="Give or take UTTAS Advantage dice or Utopia favor on a next roll or test "
        "(not in Untitled, Uune)",
    )
    @app_commands.describe(
        combatant="The combatant's exact name",
        dice="UTTAS: Advantage dice (negative: Disadvantage); Utopia: favor (negative: "
        "disfavor); 0 removes all",
        until="The next roll or test only (default), or every one until removed",
    )
    @app_commands.choices(
        until=[
            app_commands.Choice(name="the next roll", value="next"),
            app_commands.Choice(name="removed", value="removed"),
        ]
    )
    async def advantage(
        interaction: discord.Interaction[Any],
        combatant: Name,
        dice: app_commands.Range[int, -10, 10],
        until: app_commands.Choice[str] | None = None,
    ) -> None:
        lasting = until is not None and until.value == "removed"
        await gm(
            interaction,
            "advantage",
            {"combatant": combatant, "dice": dice, "until": "removed" if lasting else "next"},
            lambda current: current.rules.boon_command(
                find_combatant(current.state, combatant).id, dice, until_removed=lasting
            ),
            action="give or take what is on a combatant's rolls",
            title=lambda current: (
                f"The GM adjusts {named(current, combatant)}'s {current.rules.boons or 'rolls'}"
            ),
        )

    @advantage.autocomplete("combatant")
    async def combatant_names(
        interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return await names(interaction, current)

    return advantage
