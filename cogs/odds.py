"""``/odds target: with: [range] [as] [resources]`` (issue 18): the exact chance to hit before
committing, ephemeral (``resources``: Uune's approved resources). Thin adapter: the channel's
encounter → the acting combatant (``as``) → the ruleset's
:meth:`~bot.engine.core.contract.Ruleset.odds` (or ``resource_odds`` where the system counts
resources) → the lines of :meth:`~bot.engine.core.odds.Odds.text`.

Hidden numbers stay hidden: against an NPC whose numbers players may not see
(``hide_npc_numbers``), a player gets no exact odds unless the GM turned ``show_odds`` on
(``/gm settings show_odds:True``); the GM always may."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot import names
from bot.engine.core.state import fight_over
from bot.errors import InvalidInput, NotAllowed, NotFound, RuleViolation
from bot.services.combat import find_combatant, pick_actor
from bot.services.encounters import Encounter
from bot.ui.interaction import actor_of, channel_ids
from bot.ui.replies import send_ephemeral
from bot.ui.turn_commands import AS_HELP, Choices, TurnCommands, choices

ODDS_FOR = "whose odds to show"
"""What ``/odds`` picks a combatant for, in its refusal when the member names none of several
(:func:`~bot.services.acting.pick_actor`)."""


def odds_lines(
    encounter: Encounter,
    actor: Any,
    target: str,
    attack: str,
    range_: float | None,
    as_: str | None,
    resources: str | None = None,
) -> list[str]:
    """The ``/odds`` reply's lines. Raises :class:`RuleViolation` (the fight is over; a target
    the system's attack refuses as out of the fight, in its words: :meth:`~bot.engine.core.
    odds.OddsHooks.odds_target`), :class:`NotFound` (unknown target or attack),
    :class:`NotAllowed` (a hidden NPC's odds to a player without ``show_odds``),
    :class:`~bot.errors.InvalidInput` (the asker's own combatant as target; ``resources``
    where the system counts none; ``range`` where it sets no distances) and
    :class:`~bot.errors.RulesetNotImplemented` (a system whose odds are planned) and
    :class:`~bot.errors.RulesVersionUnknown` (rules a newer bot froze)."""
    state = encounter.state
    # The rules the fight plays by: a newer bot's (a version this one does not know) are
    # refused, not stood in for by this version's (Encounter.rules), whose odds may differ.
    rules = encounter.playing_rules()
    if state.phase == "finished":  # nobody attacks any more (fix23)
        raise RuleViolation(fight_over(state))
    me = pick_actor(encounter, actor, as_, picked_for=ODDS_FOR)
    victim = find_combatant(state, target)
    rules.odds_target(me, victim)
    if range_ is not None and rules.odds_range_refusal:
        raise InvalidInput(rules.odds_range_refusal)
    settings = state.settings
    hidden = victim.is_npc and settings.hide_npc_numbers and not settings.show_odds
    if hidden and not encounter.is_gm(actor):
        raise NotAllowed(
            f"{names.escaped(victim.name)}'s numbers are hidden, so the GM keeps the exact odds "
            "against them (the GM may allow them with `/gm settings show_odds:True`)."
        )
    if resources is not None and not rules.odds_count_resources:
        raise InvalidInput(f"{rules.title} odds do not count resources: leave `resources:` out.")
    offered = rules.odds_attack_names(me)
    known = {name.casefold(): name for name in offered}
    if attack.casefold() not in known:
        takes = ", ".join(names.escaped(n) for n in offered[:10]) or "nothing: no attacks"
        takes += ", …" if len(offered) > 10 else ""
        raise NotFound(
            f"{names.escaped(me.name)} has no attack called {names.quoted(attack)} on their "
            f"sheet; `with:` takes: {takes}."
        )
    range_m = None if range_ is None else rules.scale.to_meters(range_)
    named = known[attack.casefold()]
    if rules.odds_count_resources:
        odds = rules.resource_odds(encounter.state, me, victim, named, resources)
    else:
        odds = rules.odds(encounter.state, me, victim, named, range_m=range_m)
    return odds.text()


class OddsCog(TurnCommands):
    """``/odds``."""

    @app_commands.command(name="odds", description="Your exact chance to hit, before you attack")
    @app_commands.guild_only()
    @app_commands.rename(with_="with", as_="as")
    @app_commands.describe(
        target="Who you would attack (exact name)",
        with_="A weapon, power, martial art or basic maneuver on your sheet",
        range="Distance in meters, or feet on a feet board (default: as placed; Uune has none)",
        as_=AS_HELP,
        resources="Uune: the approved resources — a number (2) or names from the roller's sheet",
    )
    async def odds(
        self,
        interaction: discord.Interaction[Any],
        target: app_commands.Range[str, 1, 80],
        with_: app_commands.Range[str, 1, 80],
        range: app_commands.Range[float, 0.0, 10_000.0] | None = None,
        as_: app_commands.Range[str, 1, 80] | None = None,
        resources: app_commands.Range[str, 1, 200] | None = None,
    ) -> None:
        _, channel_id = channel_ids(interaction)
        encounter = await self.encounters.live(channel_id)
        lines = odds_lines(encounter, actor_of(interaction), target, with_, range, as_, resources)
        await send_ephemeral(interaction, "\n".join(lines))

    @odds.autocomplete("target")
    async def odds_target(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        return await self._names(interaction, current)

    @odds.autocomplete("with_")
    async def odds_with(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        encounter = await self._live(interaction)
        me = self._acting_for(encounter, interaction) if encounter else None
        if encounter is None or me is None:
            return []
        return choices(encounter.rules.odds_attack_names(me), current)
