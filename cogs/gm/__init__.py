"""``/gm``: the GM's tools for the channel's encounter — NPCs, Health and Stamina, conditions,
dice, the turn order, undo and redo, the log, pause, settings; rests and the end of a period
under ``/gm time``, the GM seat and role under ``/gm seat`` (:mod:`cogs.gm.groups`).

Thin adapter: options → one service call → :func:`bot.ui.combat_flow.respond` (or a short
reply). Every command is GM only and checked in the service, inside the write path, so a refusal
is an ephemeral message and changes nothing.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable, Sequence
from typing import Any, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot import names
from bot.engine.core.commands import (
    CommandBase,
    EndCombat,
    MoveInOrder,
    NextTurn,
    RemoveCombatant,
    SkipTurn,
)
from bot.engine.core.effects import LASTS_WORDS, Lasts
from bot.engine.core.state import AnyState
from bot.errors import InvalidInput, RuleViolation
from bot.services.combat import CombatService, find_combatant
from bot.services.encounters import Encounter, EncounterService
from bot.services.moderation import ModerationService
from bot.services.roster import NPC_BATCH_MAX
from bot.services.sheets import SheetService
from bot.ui import embeds
from bot.ui.combat import named, order_moves, turn_deadline_line
from bot.ui.combat_flow import refresh_channel, respond
from bot.ui.interaction import Choices, actor_of, channel_ids
from bot.ui.late_answers import send_or_post
from bot.ui.log_files import log_files
from bot.ui.replies import autocomplete_guard
from bot.ui.text import name_choices, shown_name
from cogs.gm.adjust import adjust_command, advantage_command
from cogs.gm.chase import ChaseGroup
from cogs.gm.groups import (
    NameChoices,
    PlaceGroup,
    SeatGroup,
    TimeGroup,
    Title,
    damage_command,
    gm_first,
    hp_command,
    vital_command,
)
from cogs.gm.order_roll import roll_order_command
from cogs.gm.settings import settings_command

log = logging.getLogger(__name__)

NONE = discord.AllowedMentions.none()
Name = app_commands.Range[str, 1, 80]


def _condition_named(current: Encounter, typed: str) -> str:
    """The condition ``typed`` names, as the encounter's rules write it ("Down" where the GM
    typed "down"); as typed when the rules have none such (the command refuses it then)."""
    key = names.key(typed)
    return next((c for c in current.rules.conditions() if names.key(c) == key), typed)


@app_commands.guild_only()
class GmCog(commands.GroupCog, group_name="gm", group_description="GM tools for this encounter"):
    """The ``/gm`` command group."""

    def __init__(
        self,
        encounters: EncounterService,
        sheets: SheetService,
        combat: CombatService,
        moderation: ModerationService,
    ) -> None:
        self.encounters = encounters
        self.sheets = sheets
        self.combat = combat
        self.moderation = moderation
        super().__init__()
        # Subcommand groups (decision D): /gm time …, /gm seat …
        group = self.app_command
        assert group is not None  # a GroupCog always has its group
        # Who may use a command is asked before its options are read (gm_first); a command
        # of the cog or added here runs its group's check, one of a subgroup that subgroup's.
        gm_only = gm_first(encounters)
        group.interaction_check = gm_only  # type: ignore[method-assign]
        seat = SeatGroup(moderation)  # no check: see gm_first
        time = TimeGroup(self._gm)
        place = PlaceGroup(self._gm, self._combatant_choices)
        chase = ChaseGroup(self._gm, self._combatant_choices)
        for subgroup in (time, seat, place, chase):
            if subgroup is not seat:
                subgroup.interaction_check = gm_only  # type: ignore[method-assign]
            group.add_command(subgroup)
        group.add_command(hp_command(moderation, self._combatant_choices))
        group.add_command(damage_command(self._gm, self._combatant_choices))
        vitals = self._ruleset_choices(lambda rules: rules.vital_names())
        traits = self._ruleset_choices(lambda rules: rules.characteristic_names())
        group.add_command(vital_command(moderation, self._combatant_choices, vitals))
        group.add_command(adjust_command(self._gm, self._combatant_choices, traits))
        group.add_command(advantage_command(self._gm, self._combatant_choices))
        group.add_command(roll_order_command(self._gm, self._combatant_choices))
        rules = self._ruleset_choices(lambda rules: [r.name for r in rules.encounter_rules()])
        group.add_command(
            settings_command(
                self._gm,
                encounters,
                self._combatant_choices,
                rules,
                combat,
                self._default_action_choices,
            )
        )

    async def _gm(
        self,
        interaction: discord.Interaction[Any],
        label: str,
        options: dict[str, Any],
        make: Callable[[Encounter], CommandBase],
        *,
        action: str,
        title: Title,
        watch_order: bool = False,
    ) -> None:
        """One engine command given by the GM, shown like any combat result under ``title``
        (made from the encounter the command was worked out on, when it names combatants);
        ``watch_order``: it changes the turn order, and the reply says whose turn this round
        that moved."""
        _, channel_id = channel_ids(interaction)
        seen: list[tuple[AnyState, str]] = []  # the last: what the change was computed from

        def made(current: Encounter) -> CommandBase:
            command = make(current)
            seen.append((current.state, title if isinstance(title, str) else title(current)))
            return command

        result = await self.combat.gm_command(
            channel_id, actor_of(interaction), label, options, made, action=action
        )
        before, label_now = seen[-1] if seen else (None, title if isinstance(title, str) else "")
        notes = order_moves(before, result) if watch_order else ()
        await respond(interaction, dataclasses.replace(result, label=label_now, notes=notes))

    # -- decisions and turns -----------------------------------------------------------------

    @app_commands.command(
        name="resolve", description="Resolve every waiting decision as if nobody chose (GM only)"
    )
    async def resolve(self, interaction: discord.Interaction[Any]) -> None:
        _, channel_id = channel_ids(interaction)
        result = await self.combat.resolve_waiting(channel_id, actor_of(interaction))
        # A decision may be an attack's reaction, a Uune roll's approval, a bond's focus…
        title = "The GM resolves the waiting " + (
            "decisions" if len(result.resolved) > 1 else "decision"
        )
        await respond(interaction, dataclasses.replace(result, label=title))

    @app_commands.command(name="next", description="End the current turn; the next one starts")
    async def next_turn(self, interaction: discord.Interaction[Any]) -> None:
        await self._gm(
            interaction,
            "next",
            {},
            lambda current: NextTurn(),
            action="move the fight on",
            title="The GM moves on to the next turn",
        )

    @app_commands.command(
        name="end-fight", description="End the fight now (no winner); the encounter stays open"
    )
    async def end_fight(self, interaction: discord.Interaction[Any]) -> None:
        await self._gm(
            interaction,
            "end-fight",
            {},
            lambda current: EndCombat(),
            action="end the fight",
            title="The GM ends the fight",
        )

    @app_commands.command(name="skip", description="Skip a combatant's turn (now or their next)")
    @app_commands.describe(combatant="The combatant's exact name")
    async def skip(self, interaction: discord.Interaction[Any], combatant: Name) -> None:
        await self._gm(
            interaction,
            "skip",
            {"combatant": combatant},
            lambda current: SkipTurn(target=find_combatant(current.state, combatant).id),
            action="skip turns",
            title=lambda current: f"The GM skips {named(current, combatant)}'s turn",
        )

    @app_commands.command(name="order", description="Move a combatant in the initiative order")
    @app_commands.describe(combatant="The combatant's exact name", position="1 = first")
    async def order(
        self,
        interaction: discord.Interaction[Any],
        combatant: Name,
        position: app_commands.Range[int, 1, 100],
    ) -> None:
        await self._gm(
            interaction,
            "order",
            {"combatant": combatant, "position": position},
            lambda current: MoveInOrder(
                target=find_combatant(current.state, combatant).id, position=position
            ),
            action="change the initiative order",
            title=lambda current: f"The GM moves {named(current, combatant)} to place {position}",
            watch_order=True,
        )

    # -- combatants ----------------------------------------------------------------------------

    @app_commands.command(
        name="add-npc", description="Add NPCs from a template, or one NPC with its stats (GM only)"
    )
    @app_commands.describe(
        template="The NPC template's exact name",
        count="How many (1-25); they are numbered: Thug 1, Thug 2, …",
        name="Without a template: the one-off NPC's exact name",
        health="One-off NPC: Health",
        stamina="One-off NPC: Stamina",
        speed="One-off NPC: Speed (actions per round)",
        agility="One-off NPC: Agility",
        strength="One-off NPC: Strength",
        damage="One-off NPC: damage dice of its Strike weapon",
    )
    async def add_npc(
        self,
        interaction: discord.Interaction[Any],
        template: Name | None = None,
        count: app_commands.Range[int, 1, NPC_BATCH_MAX] = 1,
        name: Name | None = None,
        health: app_commands.Range[int, 1, 10_000] | None = None,
        stamina: app_commands.Range[int, 1, 10_000] | None = None,
        speed: app_commands.Range[int, 1, 20] | None = None,
        agility: app_commands.Range[int, 0, 100] | None = None,
        strength: app_commands.Range[int, 0, 100] | None = None,
        damage: app_commands.Range[int, 1, 30] | None = None,
    ) -> None:
        guild_id, channel_id = channel_ids(interaction)
        actor = actor_of(interaction)
        one_off = [health, stamina, speed, agility, strength, damage]
        if template is not None and (name is not None or any(v is not None for v in one_off)):
            raise InvalidInput(
                "Give either a `template` (and `count`), or a one-off NPC's `name` and stats — "
                "not both."
            )
        if template is None:
            if name is None:
                raise RuleViolation("Name a `template`, or give a one-off NPC's `name` and stats.")
            stats = {
                "health": health,
                "stamina": stamina,
                "speed": speed,
                "agility": agility,
                "strength": strength,
                "damage": damage,
            }
            result = await self.moderation.add_one_off(channel_id, actor, name, stats)
            added = find_combatant(result.encounter.state, name).name  # as stored (normalised)
            await _added(interaction, channel_id, result.encounter, [added])
            return
        await self.encounters.require_gm(channel_id, actor, "add NPCs")
        sheet = await self.sheets.template(guild_id, template)
        encounter, names = await self.encounters.add_npcs(
            channel_id, actor, template=sheet.name, sheet=sheet.model, count=count
        )
        await _added(interaction, channel_id, encounter, names)

    @add_npc.autocomplete("template")
    async def template_names(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        """NPC templates, for the encounter's GM (its starter or a member who manages it)."""
        if interaction.guild_id is None or interaction.channel_id is None:
            return []
        with autocomplete_guard(interaction, "NPC template names"):
            actor = actor_of(interaction)
            encounter = await self.encounters.live(interaction.channel_id)
            if not encounter.is_gm(actor):
                return []
            names = await self.sheets.template_names(
                interaction.guild_id, current, encounter.row.ruleset
            )
            return name_choices(names, current)
        return []

    @app_commands.command(name="remove", description="Remove a combatant from the encounter")
    @app_commands.describe(combatant="The combatant's exact name")
    async def remove(self, interaction: discord.Interaction[Any], combatant: Name) -> None:
        await self._gm(
            interaction,
            "remove",
            {"combatant": combatant},
            lambda current: RemoveCombatant(combatant=find_combatant(current.state, combatant).id),
            action="remove combatants",
            title=lambda current: f"The GM removes {named(current, combatant)}",
        )

    @app_commands.command(name="refresh", description="Update a combatant from its sheet (GM only)")
    @app_commands.describe(combatant="The combatant's name in this encounter")
    async def refresh(self, interaction: discord.Interaction[Any], combatant: Name) -> None:
        guild_id, channel_id = channel_ids(interaction)
        actor = actor_of(interaction)
        encounter = await self.encounters.require_gm(
            channel_id, actor, "refresh a combatant from its sheet"
        )
        fighter = find_combatant(encounter.state, combatant)
        source = await self.sheets.source_of(
            guild_id,
            is_npc=fighter.is_npc,
            controller_id=fighter.controller_id,
            sheet_name=encounter.rules.sheet_name(fighter),
        )
        await self.encounters.refresh(
            channel_id, actor, combatant_id=fighter.id, sheet=source.model
        )
        # Public, as every GM change to the fight is: the table sees its numbers may have moved.
        await interaction.response.send_message(
            f"**{shown_name(fighter.name)}** now uses the current **{shown_name(source.name)}** "
            "sheet."
        )
        await refresh_channel(interaction.client, channel_id)

    @app_commands.command(name="condition", description="Put a condition on or take it off")
    @app_commands.describe(
        combatant="The combatant's exact name",
        action="Add or remove",
        name="A condition of this ruleset",
        limb="For Disabled limb: which limb",
        lasts=(
            "How long an added condition lasts (default: until removed; in Uune, until the "
            "scene ends)"
        ),
        rounds="With lasts: rounds — how many rounds",
    )
    @app_commands.choices(
        action=[
            app_commands.Choice(name="add", value="add"),
            app_commands.Choice(name="remove", value="remove"),
        ],
        lasts=[app_commands.Choice(name=w, value=v) for v, w in LASTS_WORDS.items()],
    )
    async def condition(
        self,
        interaction: discord.Interaction[Any],
        combatant: Name,
        action: app_commands.Choice[str],
        name: Name,
        limb: app_commands.Range[str, 1, 40] | None = None,
        lasts: app_commands.Choice[str] | None = None,
        rounds: app_commands.Range[int, 1, 100] | None = None,
    ) -> None:
        present = action.value == "add"
        how_long = lasts.value if lasts is not None else ("rounds" if rounds else "until_removed")
        if present and (how_long == "rounds") != (rounds is not None):
            raise InvalidInput(
                "Give `rounds:` together with `lasts: for some rounds`, and only then."
            )
        options: dict[str, Any] = {
            "combatant": combatant,
            "action": action.value,
            "name": name,
            "limb": limb,
        }
        if present and how_long != "until_removed":
            options |= {"lasts": how_long, "rounds": rounds}
        await self._gm(
            interaction,
            "condition",
            options,
            lambda current: current.rules.condition_command(
                find_combatant(current.state, combatant).id,
                name,
                present=present,
                detail=limb,
                lasts=cast(Lasts, how_long),
                rounds=rounds,
            ),
            action="change conditions",
            title=lambda current: (
                f"The GM {'gives' if present else 'removes'} "
                f"{shown_name(_condition_named(current, name))} "
                f"{'to' if present else 'from'} {named(current, combatant)}"
            ),
        )

    @condition.autocomplete("name")
    async def condition_names(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        encounter = await self._gm_encounter(interaction)
        if encounter is None:
            return []
        return name_choices(encounter.rules.conditions(), current)

    @skip.autocomplete("combatant")
    @order.autocomplete("combatant")
    @remove.autocomplete("combatant")
    @refresh.autocomplete("combatant")
    @condition.autocomplete("combatant")
    async def combatant_names(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        return await self._combatant_choices(interaction, current)

    async def _combatant_choices(
        self, interaction: discord.Interaction[Any], current: str
    ) -> Choices:
        encounter = await self._gm_encounter(interaction)
        if encounter is None:
            return []
        return name_choices([c.name for c in encounter.state.combatants], current)

    async def _default_action_choices(
        self, interaction: discord.Interaction[Any], current: str
    ) -> Choices:
        """The default actions the named ``combatant`` (else any combatant) may take at a
        passed turn deadline, and ``none``; for the encounter's GM."""
        encounter = await self._gm_encounter(interaction)
        if encounter is None:
            return []
        named = getattr(interaction.namespace, "combatant", None)
        people = [
            c
            for c in encounter.state.combatants
            if not named or c.name.casefold() == str(named).casefold()
        ] or list(encounter.state.combatants)
        state = encounter.state
        labels = dict.fromkeys(
            spec.label for c in people for spec in encounter.rules.deadline_actions(state, c)
        )
        return name_choices([*labels, "none"], current)

    def _ruleset_choices(self, pick: Callable[[Any], Sequence[str]]) -> NameChoices:
        """An autocomplete of names the encounter's ruleset gives (``pick(rules)``), for its GM."""

        async def choose(interaction: discord.Interaction[Any], current: str) -> Choices:
            encounter = await self._gm_encounter(interaction)
            return name_choices(list(pick(encounter.rules)) if encounter else [], current)

        return choose

    async def _gm_encounter(self, interaction: discord.Interaction[Any]) -> Encounter | None:
        """The live encounter if the member is its GM (autocomplete shows GMs only)."""
        if interaction.channel_id is None:
            return None
        with autocomplete_guard(interaction, "the channel's encounter"):
            encounter = await self.encounters.live(interaction.channel_id)
            return encounter if encounter.is_gm(actor_of(interaction)) else None
        return None

    # -- undo, log, pause ----------------------------------------------------------------------

    @app_commands.command(name="undo", description="Take back the last command (GM only)")
    async def undo(self, interaction: discord.Interaction[Any]) -> None:
        _, channel_id = channel_ids(interaction)
        result, _ = await self.moderation.undo(channel_id, actor_of(interaction))
        await respond(interaction, result)

    @app_commands.command(name="redo", description="Re-apply the last undone command (GM only)")
    async def redo(self, interaction: discord.Interaction[Any]) -> None:
        _, channel_id = channel_ids(interaction)
        result, _ = await self.moderation.redo(channel_id, actor_of(interaction))
        await respond(interaction, result)

    @app_commands.command(
        name="log", description="The encounter's full log as files (GM only; or the last ended)"
    )
    async def log(self, interaction: discord.Interaction[Any]) -> None:
        _, channel_id = channel_ids(interaction)
        encounter, entries = await self.moderation.log(channel_id, actor_of(interaction))
        ended = encounter.row.ended_at
        when = f" (ended <t:{int(ended.timestamp())}:R>)" if ended is not None else ""
        await interaction.response.send_message(
            f"The log of **{shown_name(encounter.row.name)}**{when}: {len(entries)} entries, "
            "Markdown and JSON.",
            files=log_files(encounter, entries),
            ephemeral=True,
        )

    @app_commands.command(name="pause", description="Pause: players' commands wait (GM only)")
    async def pause(self, interaction: discord.Interaction[Any]) -> None:
        await self._set_paused(interaction, True)

    @app_commands.command(name="resume", description="Resume a paused encounter (GM only)")
    async def resume(self, interaction: discord.Interaction[Any]) -> None:
        await self._set_paused(interaction, False)

    async def _deadline_resumed(self, encounter: Encounter) -> str:
        """What a resume says of the running turn's deadline: when it passes now (the time it
        had left at the pause), or that it waits for the decision still open."""
        current = encounter.state.current
        if current is None:
            return ""
        deadline = await self.combat.deadlines.running(encounter.id)
        line = turn_deadline_line(current.name, deadline, waits=bool(encounter.state.decisions))
        return f" {line}" if line else ""

    async def _set_paused(self, interaction: discord.Interaction[Any], paused: bool) -> None:
        _, channel_id = channel_ids(interaction)
        encounter = await self.moderation.set_paused(channel_id, actor_of(interaction), paused)
        timed = encounter.state.settings.turn_deadline_s > 0
        text = (
            f"⏸️ The GM has paused **{shown_name(encounter.row.name)}**. Players' commands wait for "
            "`/gm resume`; "
            + ("reaction windows and the turn deadline stop" if timed else "reaction windows stop")
            + " running."
            if paused
            else f"▶️ The GM resumes **{shown_name(encounter.row.name)}**."
            + (
                " Each waiting decision has its whole window again."
                if len(encounter.state.decisions) > 1
                else " A waiting reaction has its whole window again."
                if encounter.state.decisions
                else ""
            )
            + (await self._deadline_resumed(encounter) if timed else "")
        )
        await interaction.response.send_message(text, allowed_mentions=NONE)
        await refresh_channel(interaction.client, channel_id)


async def _added(
    interaction: discord.Interaction[Any], channel_id: int, encounter: Encounter, names: list[str]
) -> None:
    """The one answer of ``/gm add-npc``, from a template or one-off: "Added **Thug 1**,
    **Thug 2**." with each one's place in a running fight's order, over the encounter's card
    (as ``/encounter join`` answers)."""
    listed = ", ".join(f"**{shown_name(n)}**" for n in names)
    await send_or_post(
        interaction,
        channel_id,
        content=f"Added {listed}.{embeds.order_places(encounter, names)}"[:2000],
        embed=embeds.tracker(encounter),
        allowed_mentions=NONE,
    )
    await refresh_channel(interaction.client, channel_id)
