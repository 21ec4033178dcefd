"""``/gm settings``: show or change the encounter's settings — those every system shares
(``ChangeSettings``) and the system's own encounter rules (``rule: value: [combatant:]``,
:mod:`bot.engine.core.encounter_rules`; Untitled: the Legendary dice, the armor dice above 18,
a fighter's combined move actions). A thin adapter; the rules and checks are the services' and
the ruleset's."""

from __future__ import annotations

import dataclasses
from typing import Any

import discord
from discord import app_commands

from bot.engine.core.commands import CommandBase
from bot.engine.core.encounter_rules import RULE_NAME_MAX, RULE_VALUE_MAX
from bot.engine.core.pacing import parse_duration, parse_reaction_window, parse_reminders
from bot.errors import InvalidInput
from bot.services.combat import CombatService, find_combatant
from bot.services.encounters import Encounter, EncounterService
from bot.ui.combat import turn_deadline_line
from bot.ui.combat_flow import respond
from bot.ui.embeds import encounter_settings_text
from bot.ui.interaction import actor_of, channel_ids
from bot.ui.late_answers import followup_or_post
from bot.ui.text import fit_text, shown_name
from cogs.gm.groups import GmCommand, Name, NameChoices

NONE = discord.AllowedMentions.none()


def rule_change(rule: str | None, value: str | None, combatant: str | None) -> bool:
    """Whether the options change one of the system's rules; refuses half of one
    (:class:`InvalidInput`)."""
    if rule is None and value is None:
        if combatant is not None:
            raise InvalidInput("`combatant:` goes with a `rule:` set for one combatant.")
        return False
    if rule is None or value is None:
        raise InvalidInput("Give a `rule:` and its `value:` together.")
    return True


def settings_command(
    gm: GmCommand,
    encounters: EncounterService,
    names: NameChoices,
    rules: NameChoices,
    combat: CombatService,
    defaults: NameChoices,
) -> app_commands.Command[Any, ..., None]:
    """The ``/gm settings`` command, bound to the GM cog's runner and autocompletes (``rules``:
    the encounter's system's rule names; ``defaults``: the default actions a combatant may
    take at a passed turn deadline)."""

    @app_commands.command(name="settings", description="Show or change the encounter's settings")
    @app_commands.describe(
        initiative="How initiative is decided when the fight begins",
        reaction_window="How long a player has to react: 5m, 12h, 1d or seconds (5s to 1 day)",
        npcs_react="NPC targets wait for the GM's reaction choice",
        hide_npc_numbers="Players see NPCs as Unhurt/Hurt/Bloodied, not exact numbers",
        interleaved="Utopia: one action at a time, each creature after each action (in setup)",
        turn_deadline="How long a turn may last: 12h, 1d6h, 90m… or off (the default)",
        deadline_action="What happens when a turn's deadline passes",
        reminders="When a turn or reaction is reminded: 50%,90% of the window, 6h,1h left, or off",
        show_odds="Players see /odds against NPCs whose numbers are hidden",
        rule="This game system's own rule (Untitled: Legendary dice, armor above 18…)",
        value="The rule's value: dice such as 3d12, `table`, `allowed` or `refused`",
        combatant="For a rule set per combatant, or a default action: whose",
        default_action="With combatant: what it does when its turn deadline passes (or none)",
    )
    @app_commands.choices(
        initiative=[
            app_commands.Choice(name="By Agility", value="agility"),
            app_commands.Choice(name="Roll Agility dice", value="roll"),
        ],
        deadline_action=[
            app_commands.Choice(name="End the turn", value="end_turn"),
            app_commands.Choice(name="Only tell the GM", value="notify_gm"),
            app_commands.Choice(name="The combatant's default action", value="default_action"),
        ],
    )
    async def settings(
        interaction: discord.Interaction[Any],
        initiative: app_commands.Choice[str] | None = None,
        reaction_window: app_commands.Range[str, 1, 40] | None = None,
        npcs_react: bool | None = None,
        hide_npc_numbers: bool | None = None,
        interleaved: bool | None = None,
        turn_deadline: app_commands.Range[str, 1, 40] | None = None,
        deadline_action: app_commands.Choice[str] | None = None,
        reminders: app_commands.Range[str, 1, 60] | None = None,
        show_odds: bool | None = None,
        rule: app_commands.Range[str, 1, RULE_NAME_MAX] | None = None,
        value: app_commands.Range[str, 1, RULE_VALUE_MAX] | None = None,
        combatant: Name | None = None,
        default_action: app_commands.Range[str, 1, 60] | None = None,
    ) -> None:
        changes: dict[str, Any] = {
            "initiative_mode": initiative.value if initiative else None,
            "reaction_window_s": parse_reaction_window(reaction_window)
            if reaction_window
            else None,
            "npcs_react": npcs_react,
            "hide_npc_numbers": hide_npc_numbers,
            "interleaved": interleaved,
            "turn_deadline_s": parse_duration(turn_deadline) if turn_deadline else None,
            "turn_deadline_action": deadline_action.value if deadline_action else None,
            "reminders": parse_reminders(reminders) if reminders else None,
            "show_odds": show_odds,
        }
        changes = {k: v for k, v in changes.items() if v is not None}
        if default_action is not None:
            alone = not changes and rule is None and value is None
            await _set_default(combat, interaction, combatant, default_action, alone=alone)
            return
        if rule_change(rule, value, combatant):
            if changes:
                raise InvalidInput("Set a `rule:` on its own, without the other settings.")
            await _set_rule(gm, interaction, str(rule), str(value), combatant)
            return
        if not changes:
            _, channel_id = channel_ids(interaction)
            encounter = await encounters.require_gm(
                channel_id, actor_of(interaction), "see the settings"
            )
            text = encounter_settings_text(encounter) + defaults_text(
                encounter, await combat.default_actions(encounter)
            )
            await interaction.response.send_message(
                fit_text(text), ephemeral=True, allowed_mentions=NONE
            )
            return
        _, channel_id = channel_ids(interaction)
        result = await combat.change_settings(channel_id, actor_of(interaction), changes)
        await respond(interaction, dataclasses.replace(result, label="The GM changes the settings"))
        if changes.get("turn_deadline_s"):
            await _new_deadline(combat, encounters, interaction)

    @settings.autocomplete("combatant")
    async def combatant_names(
        interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return await names(interaction, current)

    @settings.autocomplete("default_action")
    async def default_names(
        interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return await defaults(interaction, current)

    @settings.autocomplete("rule")
    async def rule_names(
        interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return await rules(interaction, current)

    return settings


async def _new_deadline(
    combat: CombatService, encounters: EncounterService, interaction: discord.Interaction[Any]
) -> None:
    """After ``turn_deadline:`` changed, tell the table when the running turn's new deadline
    passes (the setting gives the turn a whole deadline from now), or that it waits for the
    decision still open."""
    _, channel_id = channel_ids(interaction)
    live = await encounters.live(channel_id)
    current = live.state.current
    if live.state.phase != "active" or current is None:
        return
    deadline = await combat.deadlines.running(live.id)
    waits = bool(live.state.decisions) and not live.row.paused
    text = turn_deadline_line(current.name, deadline, waits=waits)
    if text:  # the settings' answer may have gone to the channel (its token dead)
        answered = interaction.response.is_done()
        await followup_or_post(
            interaction, answered, channel_id, content=text, allowed_mentions=NONE
        )


def defaults_text(encounter: Encounter, labels: dict[str, str]) -> str:
    """The combatants' default actions for a passed turn deadline, as ``/gm settings`` lists
    them ("" when none is set)."""
    people = {c.id: c.name for c in encounter.state.combatants}
    shown = [f"{shown_name(people[cid])}: {shown_name(label)}" for cid, label in labels.items()]
    return f"\n- default actions at a passed deadline: {', '.join(shown)}" if shown else ""


async def _set_default(
    combat: CombatService,
    interaction: discord.Interaction[Any],
    combatant: str | None,
    action: str,
    *,
    alone: bool,
) -> None:
    """One combatant's default action for a passed turn deadline (the GM's, ephemeral).
    ``alone``: no other setting was given with it (else :class:`InvalidInput`)."""
    if not alone:
        raise InvalidInput("Set a `default_action:` on its own, with its `combatant:`.")
    if combatant is None:
        raise InvalidInput("Say whose default action it is with `combatant:`.")
    _, channel_id = channel_ids(interaction)
    encounter, chosen, spec = await combat.set_default_action(
        channel_id, actor_of(interaction), combatant, action
    )
    name = shown_name(chosen.name)
    if spec is None:
        text = f"**{name}** has no default action now: at a passed deadline its turn just ends."
    else:
        # In Utopia's interleaved order the action is one go: the turn (the round) goes on.
        after = (
            "its go passes on (interleaved order: its other TA wait for its next go)"
            if encounter.state.settings.interleaved
            else "the turn ends"
        )
        text = (
            f"When **{name}**'s turn deadline passes, {name} takes **{shown_name(spec.label)}**"
            f" ({shown_name(spec.cost)}), then {after}."
        )
    if encounter.state.settings.turn_deadline_action != "default_action":
        text += (
            " This applies while `deadline_action:` is the combatant's default action"
            " (`/gm settings deadline_action:`)."
        )
    await interaction.response.send_message(text, ephemeral=True, allowed_mentions=NONE)


async def _set_rule(
    gm: GmCommand,
    interaction: discord.Interaction[Any],
    rule: str,
    value: str,
    combatant: str | None,
) -> None:
    """One of the system's encounter rules, through the ruleset (``rule_command``)."""

    def make(current: Encounter) -> CommandBase:
        target = find_combatant(current.state, combatant).id if combatant else None
        return current.rules.rule_command(rule, value, target)

    whose = f" for {shown_name(combatant)}" if combatant else ""
    await gm(
        interaction,
        "settings",
        {"rule": rule, "value": value, "combatant": combatant},
        make,
        action="change the settings",
        title=f"The GM sets {shown_name(rule)}{whose}",
    )
