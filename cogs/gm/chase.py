"""``/gm chase start|end``: the Game Master runs a chase scene (UTTAS "Chase Scenes"; the
encounter's system says whether it has them, ``Ruleset.chase_command``). A thin adapter; the
rules are :mod:`bot.engine.uttas.chase`."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.engine.core.commands import CommandBase
from bot.services.combat import find_combatant
from bot.services.encounters import Encounter
from bot.ui.combat import named
from cogs.gm.groups import GmCommand, Name, NameChoices

OUTCOMES = [
    app_commands.Choice(name="the quarry is caught", value="caught"),
    app_commands.Choice(name="the quarry escapes", value="escaped"),
    app_commands.Choice(name="called off", value="called off"),
]


class ChaseGroup(app_commands.Group):
    """``/gm chase start quarry: pursuer: [gap]`` and ``/gm chase end [outcome]``."""

    def __init__(self, gm: GmCommand, names: NameChoices) -> None:
        super().__init__(
            name="chase", description="Run a chase scene: who chases whom, and its end"
        )
        self._gm = gm
        self._names = names

    @app_commands.command(name="start", description="A chase begins (same movement and Speed)")
    @app_commands.describe(
        quarry="Who flees (exact name)",
        pursuer="Who chases them (exact name); start again to add a pursuer",
        gap="How far apart they start, in meters (feet on a feet board; default: as placed)",
    )
    async def start(
        self,
        interaction: discord.Interaction[Any],
        quarry: Name,
        pursuer: Name,
        gap: app_commands.Range[float, 0.0, 10_000.0] | None = None,
    ) -> None:
        def make(current: Encounter) -> CommandBase:
            q = find_combatant(current.state, quarry)
            p = find_combatant(current.state, pursuer)
            far = current.rules.scale.to_meters(gap) if gap is not None else None
            return current.rules.chase_command(quarry=q.id, pursuer=p.id, gap_m=far)

        options = {"quarry": quarry, "pursuer": pursuer, "gap": gap}
        await self._gm(
            interaction,
            "chase start",
            {k: v for k, v in options.items() if v is not None},
            make,
            action="start a chase",
            title=lambda current: f"{named(current, pursuer)} chases {named(current, quarry)}",
        )

    @app_commands.command(name="end", description="The chase ends: caught, escaped or called off")
    @app_commands.describe(outcome="How it ends")
    @app_commands.choices(outcome=OUTCOMES)
    async def end(self, interaction: discord.Interaction[Any], outcome: str = "called off") -> None:
        await self._gm(
            interaction,
            "chase end",
            {"outcome": outcome},
            lambda current: current.rules.chase_command(outcome=outcome),
            action="end a chase",
            title="The chase ends",
        )

    @start.autocomplete("quarry")
    @start.autocomplete("pursuer")
    async def combatant_names(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return await self._names(interaction, current)
