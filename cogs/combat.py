"""Turn commands (``/attack``, ``/stance``, ``/move``, ``/sprint``, ``/breather``, ``/ready``,
``/surrender``, ``/endturn``, ``/stand``, ``/skill``, ``/power``, ``/escape``): UTTAS's shortcuts,
refused by name in another system's fight, and ``/endturn``, which every system shares.
(``/dodge`` and ``/block`` are :mod:`cogs.reactions`, ``/roll`` :mod:`cogs.dice`.)

Thin adapter: options → an engine command built for the acting combatant → the combat service
→ :mod:`bot.ui.combat_flow` to show it. Each command acts for the member's own combatant; ``as``
picks one when they control several (the GM may act for anyone).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands

from bot import names
from bot.engine.core.commands import CommandBase, EndTurn
from bot.engine.core.state import CombatantBase
from bot.engine.uttas.attacks import coordinating
from bot.engine.uttas.commands import (
    ActivatePower,
    Attack,
    Breather,
    ChangeStance,
    GrappleContest,
    Move,
    Ready,
    Sprint,
    Stand,
    Surrender,
    UseSkill,
)
from bot.engine.uttas.limbs import LIMBS, valid_limbs
from bot.engine.uttas.state import Combatant
from bot.engine.uttas.verbs import readied_or_not
from bot.errors import DomainError, InvalidInput
from bot.services.combat import find_combatant
from bot.services.encounters import Encounter
from bot.ui.combat import named
from bot.ui.text import shown_name
from bot.ui.turn_commands import AS_HELP, Choices, TurnCommands, choices

MODES = [
    app_commands.Choice(name=m.title(), value=m) for m in ("run", "leap", "swim", "fly", "warp")
]


def _going(verb: str, typed: float) -> Callable[[Encounter], str]:
    """A move's title, "moves 6 m" or "moves 15 ft": the distance as typed, in the unit of the
    encounter's board."""
    return lambda encounter: f"{verb} {typed:g} {encounter.rules.scale.unit}"


READIED_HELP = "Resolve your readied action with this (costs an action)"
STOP_HELP = "With readied, for a readied action on someone's movement: it stops them"


class CombatCog(TurnCommands):
    """Top-level combat commands."""

    # -- commands --------------------------------------------------------------------------

    @app_commands.command(name="attack", description="Attack a combatant on your turn")
    @app_commands.guild_only()
    @app_commands.rename(with_="with", as_="as")
    @app_commands.describe(
        target="Who you attack (exact name)",
        with_="A weapon, power, martial art or basic maneuver",
        range="Distance in meters, or feet on a feet board (default: as the GM placed you, "
        "else 2 m)",
        hits="Hits of a multi-hit attack, one action each (default 1)",
        readied=READIED_HELP,
        stop=STOP_HELP,
        aim="A called shot at one limb: disables it if the hit deals Health damage",
        limbs="For a Grapple: the limbs it grabs, comma-separated (one per arm you have)",
        together="Allies whose readied coordinated attack strikes with this one, comma-separated",
        as_=AS_HELP,
    )
    async def attack(
        self,
        interaction: discord.Interaction[Any],
        target: app_commands.Range[str, 1, 80],
        with_: app_commands.Range[str, 1, 80],
        range: app_commands.Range[float, 0.0, 10_000.0] | None = None,
        hits: app_commands.Range[int, 1, 10] = 1,
        readied: bool = False,
        stop: bool = False,
        aim: app_commands.Range[str, 1, 40] | None = None,
        limbs: app_commands.Range[str, 1, 200] | None = None,
        together: app_commands.Range[str, 1, 400] | None = None,
        as_: app_commands.Range[str, 1, 80] | None = None,
    ) -> None:
        grabbed = tuple(part.strip() for part in (limbs or "").split(",") if part.strip())
        allies = tuple(part.strip() for part in (together or "").split(",") if part.strip())

        def make(current: Encounter, me: CombatantBase) -> CommandBase:
            victim = find_combatant(current.state, target)
            strike = Attack(
                actor=me.id,
                target=victim.id,
                attack=with_,
                range_m=None if range is None else current.rules.scale.to_meters(range),
                hits=hits,
                aimed_limb=aim,
                limbs=grabbed,
                with_readied=tuple(find_combatant(current.state, a).id for a in allies),
            )
            return readied_or_not(me.id, strike, readied, stop)

        options: dict[str, Any] = {"target": target, "with": with_, "hits": hits}
        if range is not None:
            options["range"] = range
        if aim is not None:
            options["aim"] = aim
        if grabbed:
            options["limbs"] = ", ".join(grabbed)
        if allies:
            options["together"] = ", ".join(allies)
        await self._do(
            interaction,
            as_,
            "attack",
            options,
            make,
            lambda encounter: f"attacks {named(encounter, target)} with {shown_name(with_)}",
        )

    @attack.autocomplete("target")
    async def attack_target(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        return await self._names(interaction, current)

    @attack.autocomplete("aim")
    async def attack_aim(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        return choices(list(await self._target_limbs(interaction)), current)

    @attack.autocomplete("limbs")
    async def attack_limbs(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        """Limb names, completing the last of a comma-separated list ("left arm, ri…")."""
        done, _, last = current.rpartition(",")
        prefix = f"{done.strip()}, " if done.strip() else ""
        found = choices(list(await self._target_limbs(interaction)), last.strip())
        return [
            app_commands.Choice(name=(prefix + c.name)[:100], value=(prefix + c.value)[:100])
            for c in found
        ]

    async def _target_limbs(self, interaction: discord.Interaction[Any]) -> tuple[str, ...]:
        """The limbs of the combatant typed in ``target:`` (the standard ones if none yet)."""
        typed = getattr(interaction.namespace, "target", None)
        encounter = await self._live(interaction)
        if encounter is not None and typed:
            try:
                found = find_combatant(encounter.state, str(typed))
            except DomainError:
                return LIMBS
            if isinstance(found, Combatant):
                return valid_limbs(found)
        return LIMBS

    @attack.autocomplete("together")
    async def attack_together(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        """The allies whose readied coordinated attack strikes with the acting combatant (UTTAS
        "Perform a readied action"), completing the last of a comma-separated list."""
        encounter = await self._live(interaction)
        me = self._acting_for(encounter, interaction) if encounter else None
        if encounter is None or me is None:
            return []
        done, _, last = current.rpartition(",")
        prefix = f"{done.strip()}, " if done.strip() else ""
        found = choices(coordinating(encounter.state, me.id), last.strip())
        return [
            app_commands.Choice(name=(prefix + c.name)[:100], value=(prefix + c.value)[:100])
            for c in found
        ]

    @attack.autocomplete("with_")
    async def attack_with(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        return await self._attack_names(interaction, current)

    async def _attack_names(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        """The attacks the acting combatant can use now (``/attack with:``, ``/ready attack:``)."""
        encounter = await self._live(interaction)
        me = self._acting_for(encounter, interaction) if encounter else None
        if encounter is None or me is None:
            return []
        return choices(encounter.rules.usable_attack_names(encounter.state, me), current)

    @app_commands.command(
        name="stance", description="Enter a stance (free at the start of your turn)"
    )
    @app_commands.guild_only()
    @app_commands.rename(as_="as")
    @app_commands.describe(name="A stance your combatant knows", as_=AS_HELP)
    async def stance(
        self,
        interaction: discord.Interaction[Any],
        name: app_commands.Range[str, 1, 80],
        as_: app_commands.Range[str, 1, 80] | None = None,
    ) -> None:
        await self._do(
            interaction,
            as_,
            "stance",
            {"name": name},
            lambda current, me: ChangeStance(actor=me.id, stance=name),
            f"takes the {shown_name(name)} stance",
        )

    @stance.autocomplete("name")
    async def stance_name(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        encounter = await self._live(interaction)
        me = self._acting_for(encounter, interaction) if encounter else None
        if encounter is None or me is None:
            return []
        return choices(encounter.rules.stances(me), current)

    @app_commands.command(name="move", description="Move: a free half move, or a full Move action")
    @app_commands.guild_only()
    @app_commands.rename(as_="as")
    @app_commands.describe(
        meters="How far, in meters (in feet on a board in feet)",
        mode="Run, Leap, Swim, Fly or Warp (default Run)",
        full="Spend your action on a full Move (default: the free half move)",
        toward="Move toward this combatant (closer, or into melee); else you leave any melee",
        readied=READIED_HELP,
        stop=STOP_HELP,
        as_=AS_HELP,
    )
    @app_commands.choices(mode=MODES)
    async def move(
        self,
        interaction: discord.Interaction[Any],
        meters: app_commands.Range[float, 0.5, 10_000.0],
        mode: app_commands.Choice[str] | None = None,
        full: bool = False,
        toward: app_commands.Range[str, 1, 80] | None = None,
        readied: bool = False,
        stop: bool = False,
        as_: app_commands.Range[str, 1, 80] | None = None,
    ) -> None:
        how = mode.value if mode else "run"

        def make(current: Encounter, me: CombatantBase) -> CommandBase:
            to = find_combatant(current.state, toward).id if toward else None
            far = current.rules.scale.to_meters(meters)
            step = Move(actor=me.id, meters=far, mode=how, full=full, toward=to)
            return readied_or_not(me.id, step, readied, stop)

        options: dict[str, Any] = {"meters": meters, "mode": how, "full": full}
        if toward:
            options["toward"] = toward
        await self._do(interaction, as_, "move", options, make, _going("moves", meters))

    @app_commands.command(
        name="sprint", description="Sprint: double your full move, Dexterity halved"
    )
    @app_commands.guild_only()
    @app_commands.rename(as_="as")
    @app_commands.describe(
        meters="How far, in meters (in feet on a board in feet)",
        mode="Movement type (default Run)",
        as_=AS_HELP,
    )
    @app_commands.choices(mode=MODES)
    async def sprint(
        self,
        interaction: discord.Interaction[Any],
        meters: app_commands.Range[float, 0.5, 10_000.0],
        mode: app_commands.Choice[str] | None = None,
        as_: app_commands.Range[str, 1, 80] | None = None,
    ) -> None:
        how = mode.value if mode else "run"
        await self._do(
            interaction,
            as_,
            "sprint",
            {"meters": meters, "mode": how},
            lambda current, me: Sprint(
                actor=me.id, meters=current.rules.scale.to_meters(meters), mode=how
            ),
            _going("sprints", meters),
        )

    @app_commands.command(
        name="breather", description="Take a breather: roll Body dice, recover Stamina"
    )
    @app_commands.guild_only()
    @app_commands.rename(as_="as")
    @app_commands.describe(as_=AS_HELP)
    async def breather(
        self,
        interaction: discord.Interaction[Any],
        as_: app_commands.Range[str, 1, 80] | None = None,
    ) -> None:
        await self._do(
            interaction,
            as_,
            "breather",
            {},
            lambda current, me: Breather(actor=me.id),
            "takes a breather",
        )

    @app_commands.command(name="ready", description="Ready an action for a trigger")
    @app_commands.guild_only()
    @app_commands.rename(as_="as")
    @app_commands.describe(
        trigger="After an enemy's action, interrupting its movement, or a coordinated attack",
        watch="The enemy you watch (or, coordinated, the ally you strike with)",
        action="What you will do, in a few words",
        attack="Coordinated: the weapon, power or maneuver you strike with",
        target="Coordinated: whom you strike (when your ally attacks them)",
        as_=AS_HELP,
    )
    @app_commands.choices(
        trigger=[
            app_commands.Choice(name="After their action", value="action"),
            app_commands.Choice(name="Interrupt their movement", value="movement"),
            app_commands.Choice(name="Coordinated attack with an ally", value="coordinated"),
        ]
    )
    async def ready(
        self,
        interaction: discord.Interaction[Any],
        trigger: app_commands.Choice[str],
        watch: app_commands.Range[str, 1, 80],
        action: app_commands.Range[str, 1, 300],
        attack: app_commands.Range[str, 1, 80] | None = None,
        target: app_commands.Range[str, 1, 80] | None = None,
        as_: app_commands.Range[str, 1, 80] | None = None,
    ) -> None:
        if names.blank(action):  # spaces, or a pasted zero-width character
            raise InvalidInput("Say what the readied action is, in a few words.")

        def make(current: Encounter, me: CombatantBase) -> CommandBase:
            watched = find_combatant(current.state, watch)
            aimed = find_combatant(current.state, target).id if target else None
            return Ready(
                actor=me.id,
                trigger=trigger.value,
                watch=watched.id,
                plan=action,
                attack=attack,
                target=aimed,
            )

        options: dict[str, Any] = {"trigger": trigger.value, "watch": watch, "action": action}
        options |= {k: v for k, v in (("attack", attack), ("target", target)) if v is not None}
        await self._do(interaction, as_, "ready", options, make, "readies an action")

    @ready.autocomplete("watch")
    @ready.autocomplete("target")
    async def ready_watch(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        return await self._names(interaction, current)

    @ready.autocomplete("attack")
    async def ready_attack(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        return await self._attack_names(interaction, current)

    @app_commands.command(name="surrender", description="Surrender: render yourself helpless")
    @app_commands.guild_only()
    @app_commands.rename(as_="as")
    @app_commands.describe(as_=AS_HELP)
    async def surrender(
        self,
        interaction: discord.Interaction[Any],
        as_: app_commands.Range[str, 1, 80] | None = None,
    ) -> None:
        await self._do(
            interaction,
            as_,
            "surrender",
            {},
            lambda current, me: Surrender(actor=me.id),
            "surrenders",
        )

    @app_commands.command(name="endturn", description="End your turn")
    @app_commands.guild_only()
    @app_commands.rename(as_="as")
    @app_commands.describe(as_=AS_HELP)
    async def endturn(
        self,
        interaction: discord.Interaction[Any],
        as_: app_commands.Range[str, 1, 80] | None = None,
    ) -> None:
        await self._do(
            interaction,
            as_,
            "endturn",
            {},
            lambda current, me: EndTurn(actor=me.id),
            "ends the turn",
        )

    @app_commands.command(name="stand", description="Stand up from Prone")
    @app_commands.guild_only()
    @app_commands.rename(as_="as")
    @app_commands.describe(
        acrobatics="Try a DC 22 Acrobatics check instead of spending half your Run speed",
        as_=AS_HELP,
    )
    async def stand(
        self,
        interaction: discord.Interaction[Any],
        acrobatics: bool = False,
        as_: app_commands.Range[str, 1, 80] | None = None,
    ) -> None:
        how = "acrobatics" if acrobatics else "move"
        await self._do(
            interaction,
            as_,
            "stand",
            {"acrobatics": acrobatics},
            lambda current, me: Stand(actor=me.id, method=how),
            "stands up",
        )

    @app_commands.command(name="skill", description="Use a skill: roll its dice")
    @app_commands.guild_only()
    @app_commands.rename(as_="as")
    @app_commands.describe(
        name="A skill on your sheet",
        difficulty="The number to reach, if the GM set one",
        target="Against whom: an opposed check (Perception against someone hidden…)",
        readied=READIED_HELP,
        stop=STOP_HELP,
        as_=AS_HELP,
    )
    async def skill(
        self,
        interaction: discord.Interaction[Any],
        name: app_commands.Range[str, 1, 80],
        difficulty: app_commands.Range[int, 0, 1000] | None = None,
        target: app_commands.Range[str, 1, 80] | None = None,
        readied: bool = False,
        stop: bool = False,
        as_: app_commands.Range[str, 1, 80] | None = None,
    ) -> None:
        def make(current: Encounter, me: Combatant) -> CommandBase:
            aimed = find_combatant(current.state, target).id if target else None
            check = UseSkill(actor=me.id, skill=name, difficulty=difficulty, target=aimed)
            return readied_or_not(me.id, check, readied, stop)

        options = {"name": name, "difficulty": difficulty, "target": target}
        await self._do(
            interaction,
            as_,
            "skill",
            {k: v for k, v in options.items() if v is not None},
            make,
            f"uses {shown_name(name)}",
            between_fights=True,  # a check outside a fight needs no turn
        )

    @skill.autocomplete("name")
    async def skill_name(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        encounter = await self._live(interaction)
        me = self._acting_for(encounter, interaction) if encounter else None
        if encounter is None or me is None:
            return []
        return choices(encounter.rules.skill_names(me), current)

    @app_commands.command(name="power", description="Activate a power that is not an attack")
    @app_commands.guild_only()
    @app_commands.rename(as_="as")
    @app_commands.describe(
        name="A power on your sheet (attacks use /attack)",
        target="Who it affects, if anyone (exact name)",
        readied=READIED_HELP,
        stop=STOP_HELP,
        as_=AS_HELP,
    )
    async def power(
        self,
        interaction: discord.Interaction[Any],
        name: app_commands.Range[str, 1, 80],
        target: app_commands.Range[str, 1, 80] | None = None,
        readied: bool = False,
        stop: bool = False,
        as_: app_commands.Range[str, 1, 80] | None = None,
    ) -> None:
        def make(current: Encounter, me: CombatantBase) -> CommandBase:
            aimed = find_combatant(current.state, target).id if target else None
            use = ActivatePower(actor=me.id, power=name, target=aimed)
            return readied_or_not(me.id, use, readied, stop)

        options = {"name": name, "target": target}
        await self._do(
            interaction,
            as_,
            "power",
            options,
            make,
            f"activates {shown_name(name)}",
            between_fights=True,  # a Heal power heals after the fight too
        )

    @power.autocomplete("name")
    async def power_name(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        encounter = await self._live(interaction)
        me = self._acting_for(encounter, interaction) if encounter else None
        if encounter is None or me is None:
            return []
        return choices(encounter.rules.power_names(me), current)

    @power.autocomplete("target")
    @skill.autocomplete("target")
    async def power_target(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        return await self._names(interaction, current)

    @app_commands.command(name="escape", description="Try to escape or take control of a grapple")
    @app_commands.guild_only()
    @app_commands.rename(as_="as")
    @app_commands.describe(control="Take control of the grapple instead of escaping", as_=AS_HELP)
    async def escape(
        self,
        interaction: discord.Interaction[Any],
        control: bool = False,
        as_: app_commands.Range[str, 1, 80] | None = None,
    ) -> None:
        goal = "control" if control else "escape"
        await self._do(
            interaction,
            as_,
            "escape",
            {"control": control},
            lambda current, me: GrappleContest(actor=me.id, goal=goal),
            "struggles in the grapple",
        )

    @move.autocomplete("toward")
    async def move_toward(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        return await self._names(interaction, current)

    @stand.autocomplete("as_")
    @skill.autocomplete("as_")
    @power.autocomplete("as_")
    @escape.autocomplete("as_")
    @breather.autocomplete("as_")
    @surrender.autocomplete("as_")
    @endturn.autocomplete("as_")
    @attack.autocomplete("as_")
    @stance.autocomplete("as_")
    @move.autocomplete("as_")
    @sprint.autocomplete("as_")
    @ready.autocomplete("as_")
    async def as_names(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        return await self._own_names(interaction, current)
