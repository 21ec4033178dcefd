"""``/act`` and ``/check``: the verbs every game system shares (issue 10, decision D). What a
combatant can do is the encounter's ruleset's data (:class:`bot.engine.core.verbs.ActionSpec`):
``action:`` autocompletes its actions with their costs, ``detail:`` what the chosen action
takes (the combatant's weapons, stances, spells, resources…), ``skill:`` its skills; the ruleset
builds the command and refuses, with a message, what its system does not have."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.engine.core.commands import CommandBase
from bot.engine.core.state import CombatantBase
from bot.engine.core.verbs import ActInput, require_options, spec_for
from bot.services.combat import find_combatant
from bot.services.encounters import Encounter
from bot.ui.replies import autocomplete_guard
from bot.ui.text import shown_name
from bot.ui.turn_commands import AS_HELP, Choices, TurnCommands, choices

Name = app_commands.Range[str, 1, 80]


class ActCog(TurnCommands):
    """``/act`` and ``/check``."""

    @app_commands.command(name="act", description="Take one of your game system's actions")
    @app_commands.guild_only()
    @app_commands.rename(as_="as")
    @app_commands.describe(
        action="The action (the list shows each with its cost)",
        target="Who it is aimed at, if anyone (exact name)",
        detail="What the action needs in words: a stance, a skill, a power, what you say…",
        amount="A number the action needs: meters (feet on a feet board) to move, a difficulty…",
        as_=AS_HELP,
    )
    async def act(
        self,
        interaction: discord.Interaction[Any],
        action: Name,
        target: Name | None = None,
        detail: app_commands.Range[str, 1, 300] | None = None,
        amount: app_commands.Range[float, 0.0, 10_000.0] | None = None,
        as_: Name | None = None,
    ) -> None:
        def make(current: Encounter, me: CombatantBase) -> CommandBase:
            aimed = find_combatant(current.state, target).id if target else None
            # the action typed by its label, as the list shows it ("Sheath a weapon"), is taken
            # as its key: every system's builder knows its actions by key
            rules = current.rules
            spec = spec_for(rules.actions(current.state, me), action)
            key = spec.key if spec is not None else action
            given = ActInput(key=key, target=aimed, detail=detail, amount=amount)
            if spec is not None:
                require_options(spec, given)  # an option the action takes not: refused
                # an attack named by no detail: the one attack the combatant has, else refused
                # (the attack's own line names the attack made: "attacks Vesna with Knife")
                given = rules.naming_attack(current.state, me, given)
            return rules.act(current.state, me, given)

        options = {"action": action, "target": target, "detail": detail, "amount": amount}
        await self._do(
            interaction,
            as_,
            "act",
            {k: v for k, v in options.items() if v is not None},
            make,
            f"acts: {shown_name(action)}",
            between_fights=True,  # the ruleset says which actions need a fight (most do)
        )

    @act.autocomplete("action")
    async def action_names(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        encounter = await self._live(interaction)
        me = self._acting_for(encounter, interaction) if encounter else None
        if encounter is None or me is None:
            return []
        typed = current.strip().casefold()
        found = [
            app_commands.Choice(name=spec.choice_name(), value=spec.key)
            for spec in encounter.rules.actions(encounter.state, me)
            if typed in spec.key or typed in spec.label.casefold()
        ]
        return found[:25]

    @act.autocomplete("detail")
    async def detail_names(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        """What ``detail:`` may be for the ``action:`` chosen (its key or its label), from the
        acting combatant's sheet and state (:meth:`Ruleset.detail_choices`); nothing before an
        action is chosen, or when the detail is the member's own words."""
        encounter = await self._live(interaction)
        me = self._acting_for(encounter, interaction) if encounter else None
        chosen = str(getattr(interaction.namespace, "action", None) or "").strip()
        if encounter is None or me is None or not chosen:
            return []
        spec = spec_for(encounter.rules.actions(encounter.state, me), chosen)
        if spec is None or spec.detail is None:
            return []
        with autocomplete_guard(interaction, "the detail suggestions"):
            return [
                app_commands.Choice(name=shown, value=value)
                for shown, value in encounter.rules.detail_choices(
                    encounter.state, me, spec.key, current
                )
            ]
        return []

    @app_commands.command(
        name="check",
        description="Roll a check in your game system (a skill, a trait test, an action roll)",
    )
    @app_commands.guild_only()
    @app_commands.rename(as_="as")
    @app_commands.describe(
        skill="A skill on your sheet (Utopia: a trait or subtrait, e.g. Awareness)",
        difficulty="The number to reach, if the GM set one",
        target="Against whom: an opposed check or test (UTTAS: Perception against someone hidden)",
        against="The skill or trait the target opposes with (default: the game system's)",
        as_=AS_HELP,
    )
    async def check(
        self,
        interaction: discord.Interaction[Any],
        skill: Name,
        difficulty: app_commands.Range[int, 0, 1000] | None = None,
        target: Name | None = None,
        against: Name | None = None,
        as_: Name | None = None,
    ) -> None:
        def make(current: Encounter, me: CombatantBase) -> CommandBase:
            aimed = find_combatant(current.state, target).id if target else None
            return current.rules.check(
                current.state, me, skill, difficulty, target=aimed, against=against
            )

        options = {"skill": skill, "difficulty": difficulty, "target": target, "against": against}
        await self._do(
            interaction,
            as_,
            "check",
            {k: v for k, v in options.items() if v is not None},
            make,
            f"checks {shown_name(skill)}",
            between_fights=True,  # the ruleset says whether a check needs a fight
        )

    @check.autocomplete("skill")
    async def skill_names(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        encounter = await self._live(interaction)
        me = self._acting_for(encounter, interaction) if encounter else None
        if encounter is None or me is None:
            return []
        return choices(encounter.rules.check_names(me), current)

    @act.autocomplete("target")
    @check.autocomplete("target")
    async def target_names(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        return await self._names(interaction, current)

    @act.autocomplete("as_")
    @check.autocomplete("as_")
    async def as_names(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        return await self._own_names(interaction, current)
