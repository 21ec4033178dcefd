"""``/gm roll-order [combatant] [other]``: the GM's die roll for the turn order (Untitled
"Combat": the Storyteller "may ask for a die roll to help randomize the order or resolve a
tie"; the encounter's system says whether it has one, ``Ruleset.order_roll_command``). A thin
adapter; the rules are the ruleset's."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.engine.core.commands import CommandBase
from bot.errors import InvalidInput
from bot.services.combat import find_combatant
from bot.services.encounters import Encounter
from cogs.gm.groups import GmCommand, Name, NameChoices


def roll_order_command(gm: GmCommand, names: NameChoices) -> app_commands.Command[Any, ..., None]:
    """The ``/gm roll-order`` command, bound to the GM cog's runner and autocomplete."""

    @app_commands.command(
        name="roll-order",
        description="Roll the order die: everyone, or two combatants to break a tie (GM only)",
    )
    @app_commands.describe(
        combatant="One of two who roll (empty: everyone rolls)",
        other="The other of the two",
    )
    async def roll_order(
        interaction: discord.Interaction[Any],
        combatant: Name | None = None,
        other: Name | None = None,
    ) -> None:
        given = [n for n in (combatant, other) if n]
        if len(given) == 1:
            raise InvalidInput(
                "Name two combatants to break a tie between them, or none for everyone."
            )

        def make(current: Encounter) -> CommandBase:
            among = tuple(find_combatant(current.state, n).id for n in given)
            return current.rules.order_roll_command(among)

        await gm(
            interaction,
            "roll-order",
            {"combatant": combatant, "other": other},
            make,
            action="roll for the turn order",
            title="The GM rolls for the turn order",
            watch_order=True,
        )

    @roll_order.autocomplete("combatant")
    async def combatant_names(
        interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return await names(interaction, current)

    @roll_order.autocomplete("other")
    async def other_names(
        interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return await names(interaction, current)

    return roll_order
