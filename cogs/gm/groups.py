"""``/gm``'s subcommand groups (issue 10, decision D: ``/gm`` is split into groups before it
reaches Discord's 25-subcommand limit): ``/gm time`` (a rest, minutes passing, the end of a
scene, day, quest or arc), ``/gm seat`` (who runs the encounter, the server's GM role) and
``/gm place`` (distances and engagement, decision E). Thin adapters, like the rest of ``/gm``;
every check is the services'."""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, cast

import discord
from discord import app_commands

from bot.engine.core.commands import CommandBase, Disengage, EndPeriod, Engage, SetDistance
from bot.engine.core.effects import Period
from bot.errors import DomainError, NotAllowed, RuleViolation
from bot.services import rolls
from bot.services.combat import find_combatant
from bot.services.encounters import Encounter, EncounterService
from bot.services.moderation import ModerationService
from bot.ui.campaign_views import REST_KIND
from bot.ui.combat import named
from bot.ui.combat_flow import refresh_channel, respond
from bot.ui.interaction import actor_of, actor_of_member, channel_ids
from bot.ui.text import shown_name

NONE = discord.AllowedMentions.none()
Name = app_commands.Range[str, 1, 80]
InteractionCheck = Callable[[discord.Interaction[Any]], Coroutine[Any, Any, bool]]
"""An ``interaction_check`` of an ``app_commands.Group``."""


def gm_first(encounters: EncounterService) -> InteractionCheck:
    """The ``interaction_check`` of ``/gm`` and its groups but ``/gm seat``: a member who is not
    the GM of the channel's live encounter is refused as the command would refuse them ("Only
    the GM can use `/gm hp`: …"), before any option is read — a player's ``/gm hp`` with no
    amount was told "Give an amount …", a ``/gm add-npc`` with no template what it takes.
    With no live encounter (or one this bot cannot read) the command answers itself (there is
    none; ``/gm log`` sends the last ended one's log to its GM). ``/gm seat role`` is a server
    setting (Manage Server) and ``/gm seat transfer`` checks the seat itself, so ``/gm seat``
    has no such check. Raises :class:`app_commands.CheckFailure` with the refusal (shown
    ephemerally by :class:`bot.ui.replies.CombatTree`)."""

    async def check(interaction: discord.Interaction[Any]) -> bool:
        command = interaction.command
        name = command.qualified_name if command is not None else "gm"
        _, channel_id = channel_ids(interaction)
        try:
            await encounters.require_gm(channel_id, actor_of(interaction), f"use `/{name}`")
        except NotAllowed as refusal:
            raise app_commands.CheckFailure(str(refusal)) from None
        except DomainError:  # none live here, or unreadable: the command itself says so
            return True
        return True

    return check


Title = str | Callable[[Encounter], str]
"""A GM command's title: fixed, or made from the encounter the command was worked out on
(to name combatants and conditions as the fight does, :func:`bot.ui.combat.named`)."""

GmCommand = Callable[..., Awaitable[None]]
"""``GmCog._gm``: run one engine command given by the GM and show it."""
NameChoices = Callable[[discord.Interaction[Any], str], Awaitable[list[app_commands.Choice[str]]]]
"""``GmCog.combatant_names``: the encounter's combatants, for its GM's autocomplete."""
VitalChoices = NameChoices
"""The encounter's ruleset's vitals, for its GM's autocomplete."""


class TimeGroup(app_commands.Group):
    """``/gm time rest|end-of|minutes``."""

    def __init__(self, gm: GmCommand) -> None:
        super().__init__(
            name="time",
            description="Time passes: a rest, minutes, the end of a scene, day, quest or arc",
        )
        self._gm = gm

    @app_commands.command(name="rest", description="The party rests (outside a fight)")
    @app_commands.describe(kind=REST_KIND)
    @app_commands.choices(
        kind=[
            app_commands.Choice(name="short", value="short"),
            app_commands.Choice(name="long", value="long"),
        ]
    )
    async def rest(
        self, interaction: discord.Interaction[Any], kind: app_commands.Choice[str]
    ) -> None:
        def make(current: Encounter) -> CommandBase:
            return current.rules.rest_command("short" if kind.value == "short" else "long")

        await self._gm(
            interaction,
            "rest",
            {"kind": kind.value},
            make,
            action="call a rest",
            title=f"The party takes a {kind.value} rest",
        )

    @app_commands.command(
        name="end-of", description="A scene, day, quest or arc ends, with its effects (GM only)"
    )
    @app_commands.describe(period="What ends: effects that last that long (or less) end too")
    @app_commands.choices(
        period=[app_commands.Choice(name=p, value=p) for p in ("scene", "day", "quest", "arc")]
    )
    async def end_of(
        self, interaction: discord.Interaction[Any], period: app_commands.Choice[str]
    ) -> None:
        def make(current: Encounter) -> CommandBase:
            return EndPeriod(period=cast(Period, period.value))

        await self._gm(
            interaction,
            "end-of",
            {"period": period.value},
            make,
            action="end a scene, day, quest or arc",
            title=f"The GM ends the {period.value}",
        )

    @app_commands.command(
        name="minutes", description="Minutes pass outside a fight (Uune: Bleeding) (GM only)"
    )
    @app_commands.describe(count="How many minutes pass at the table (1-600)")
    async def minutes(
        self, interaction: discord.Interaction[Any], count: app_commands.Range[int, 1, 600]
    ) -> None:
        def make(current: Encounter) -> CommandBase:
            return current.rules.minutes_command(count)

        await self._gm(
            interaction,
            "minutes",
            {"count": count},
            make,
            action="let minutes pass",
            title=f"{count} minute{'s' if count > 1 else ''} pass{'es' if count == 1 else ''}",
        )


class SeatGroup(app_commands.Group):
    """``/gm seat transfer|role``."""

    def __init__(self, moderation: ModerationService) -> None:
        super().__init__(name="seat", description="Who runs this encounter; the server's GM role")
        self.moderation = moderation

    @app_commands.command(name="transfer", description="Hand this encounter to another member")
    @app_commands.describe(member="The new GM")
    async def transfer(self, interaction: discord.Interaction[Any], member: discord.Member) -> None:
        _, channel_id = channel_ids(interaction)
        encounter = await self.moderation.transfer(
            channel_id,
            actor_of(interaction),
            actor_of_member(member, interaction),
            recipient_is_bot=member.bot,
        )
        await interaction.response.send_message(
            f"<@{interaction.user.id}> hands **{shown_name(encounter.row.name)}** to "
            f"<@{member.id}>, who is now its GM.",
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(member.id)]),
        )
        await refresh_channel(interaction.client, channel_id)

    @app_commands.command(name="role", description="Set the server's GM role (Manage Server)")
    @app_commands.describe(
        role="Members with this role are GMs of every encounter; leave out to clear"
    )
    async def role(
        self, interaction: discord.Interaction[Any], role: discord.Role | None = None
    ) -> None:
        if interaction.guild_id is None:
            raise RuleViolation("The GM role is a server setting.")
        await self.moderation.set_gm_role(
            interaction.guild_id, actor_of(interaction), role.id if role else None
        )
        text = (
            f"Members with <@&{role.id}> are now GMs of every encounter in this server."
            if role
            else "This server no longer has a GM role."
        )
        await interaction.response.send_message(text, allowed_mentions=NONE)


class PlaceGroup(app_commands.Group):
    """``/gm place distance|engage|apart``: where combatants stand (decision E)."""

    def __init__(self, gm: GmCommand, names: NameChoices) -> None:
        super().__init__(
            name="place", description="Where combatants stand: distances and who is in melee"
        )
        self._gm = gm
        self._names = names

    @app_commands.command(name="distance", description="Two combatants are this far apart")
    @app_commands.describe(
        a="A combatant's exact name",
        b="Another's",
        meters="How far apart, in meters or feet on a feet board (within 1 m: engaged)",
    )
    async def distance(
        self,
        interaction: discord.Interaction[Any],
        a: Name,
        b: Name,
        meters: app_commands.Range[float, 0.0, 10_000.0],
    ) -> None:
        def make(current: Encounter) -> CommandBase:
            first, second = find_combatant(current.state, a), find_combatant(current.state, b)
            far = current.rules.scale.to_meters(meters)
            return SetDistance(a=first.id, b=second.id, meters=far)

        await self._gm(
            interaction,
            "place",
            {"a": a, "b": b, "meters": meters},
            make,
            action="place combatants",
            title=lambda current: f"The GM places {named(current, a)} and {named(current, b)}",
        )

    @app_commands.command(name="engage", description="Two combatants are in melee")
    @app_commands.describe(a="A combatant's exact name", b="Another's")
    async def engage(self, interaction: discord.Interaction[Any], a: Name, b: Name) -> None:
        def make(current: Encounter) -> CommandBase:
            first, second = find_combatant(current.state, a), find_combatant(current.state, b)
            return Engage(a=first.id, b=second.id)

        await self._gm(
            interaction,
            "engage",
            {"a": a, "b": b},
            make,
            action="place combatants",
            title=lambda current: f"The GM engages {named(current, a)} and {named(current, b)}",
        )

    @app_commands.command(name="apart", description="A combatant is out of melee")
    @app_commands.describe(combatant="The combatant's exact name")
    async def apart(self, interaction: discord.Interaction[Any], combatant: Name) -> None:
        def make(current: Encounter) -> CommandBase:
            return Disengage(combatant=find_combatant(current.state, combatant).id)

        await self._gm(
            interaction,
            "disengage",
            {"combatant": combatant},
            make,
            action="place combatants",
            title=lambda current: f"The GM takes {named(current, combatant)} out of melee",
        )

    @distance.autocomplete("a")
    @distance.autocomplete("b")
    @engage.autocomplete("a")
    @engage.autocomplete("b")
    @apart.autocomplete("combatant")
    async def combatant_names(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return await self._names(interaction, current)


def vital_command(
    moderation: ModerationService, names: NameChoices, vitals: VitalChoices
) -> app_commands.Command[Any, ..., None]:
    """``/gm vital combatant: vital: amount:``: any game system's vitals (the ruleset names
    them: UTTAS Health and Stamina; ``/gm hp`` is UTTAS's shortcut for both at once)."""

    @app_commands.command(name="vital", description="Set or change one of a combatant's vitals")
    @app_commands.describe(
        combatant="The combatant's exact name",
        vital="Which vital (this game system's: Health, Stamina…)",
        amount="15 sets, -3 or +5 changes; dice too: 2d6, -1d8",
    )
    async def vital(
        interaction: discord.Interaction[Any],
        combatant: Name,
        vital: Name,
        amount: app_commands.Range[str, 1, rolls.EXPRESSION_MAX],
    ) -> None:
        _, channel_id = channel_ids(interaction)
        result = await moderation.set_vitals(
            channel_id,
            actor_of(interaction),
            combatant,
            {vital.strip().casefold(): amount},
            label="vital",
        )
        label = result.encounter.rules.vital_label(vital.strip().casefold())
        title = f"The GM adjusts {named(result.encounter, combatant)}'s {label}"
        await respond(interaction, dataclasses.replace(result, label=title))

    @vital.autocomplete("combatant")
    async def combatant_names(
        interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return await names(interaction, current)

    @vital.autocomplete("vital")
    async def vital_names(
        interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return await vitals(interaction, current)

    return vital


def hp_command(
    moderation: ModerationService, names: NameChoices
) -> app_commands.Command[Any, ..., None]:
    """``/gm hp combatant: [health] [stamina]``: UTTAS's shortcut for both its vitals at once."""

    @app_commands.command(name="hp", description="Set or change Health and Stamina")
    @app_commands.describe(
        combatant="The combatant's exact name",
        health="15 sets, -3 or +5 changes; dice too: 2d6, -1d8",
        stamina="15 sets, -3 or +5 changes; dice too: 2d6, -1d8",
    )
    async def hp(
        interaction: discord.Interaction[Any],
        combatant: Name,
        health: app_commands.Range[str, 1, rolls.EXPRESSION_MAX] | None = None,
        stamina: app_commands.Range[str, 1, rolls.EXPRESSION_MAX] | None = None,
    ) -> None:
        _, channel_id = channel_ids(interaction)
        result = await moderation.set_vitals(
            channel_id, actor_of(interaction), combatant, {"health": health, "stamina": stamina}
        )
        title = f"The GM adjusts {named(result.encounter, combatant)}"
        await respond(interaction, dataclasses.replace(result, label=title))

    @hp.autocomplete("combatant")
    async def combatant_names(
        interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return await names(interaction, current)

    return hp


def damage_command(gm: GmCommand, names: NameChoices) -> app_commands.Command[Any, ..., None]:
    """``/gm damage target: dice: [type] [source]``: a hazard's damage (fire, a fall) through
    the target's defenses, in the encounter's game system (``Ruleset.hazard_command``; UTTAS
    "Damage": d6s through Armor and Defense)."""

    @app_commands.command(
        name="damage", description="A hazard's damage through the target's Armor and Defense"
    )
    @app_commands.describe(
        target="The combatant's exact name",
        dice="Dice of damage (UTTAS: d6s)",
        type="The damage type (physical, energy, heat…), for Armor and Defense",
        source="What deals it, in words (fire, a fall…)",
    )
    async def damage(
        interaction: discord.Interaction[Any],
        target: Name,
        dice: app_commands.Range[int, 1, 100],
        type: app_commands.Range[str, 1, 30] = "physical",
        source: app_commands.Range[str, 1, 80] = "a hazard",
    ) -> None:
        def make(current: Encounter) -> CommandBase:
            victim = find_combatant(current.state, target)
            return current.rules.hazard_command(victim.id, dice, type, source)

        await gm(
            interaction,
            "damage",
            {"target": target, "dice": dice, "type": type, "source": source},
            make,
            action="deal a hazard's damage",
            # the source is a phrase ("a hazard", "fire"): the title begins with a capital
            title=lambda current: (
                f"{shown_name(source[:1].upper() + source[1:])} hurts {named(current, target)}"
            ),
        )

    @damage.autocomplete("target")
    async def target_names(
        interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return await names(interaction, current)

    return damage
