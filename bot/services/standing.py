"""``/me reactions``: standing reactions (issue 17, "Standing reactions").

A player sets what their combatant does when a reaction window would otherwise run out
unanswered; the ruleset says which words it understands (:meth:`Ruleset.standing_words`) and
when a condition holds. The expiry (:meth:`bot.services.combat.CombatService.expire`) reads them
and applies the first step that fits instead of the lapse, in the same change — so a standing
choice is applied exactly once, as the lapse is.

Kept per combatant of one encounter (a new fight starts without any); the member who set it
(the combatant's controller, or the GM) is recorded for ``/me export`` and ``/me delete``.
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import ValidationError

from bot import names
from bot.engine.core.standing import StandingRule, parse_rule
from bot.engine.core.state import CombatantBase
from bot.errors import InvalidInput, NotAllowed, NotFound
from bot.services.acting import controls, find_combatant, runs
from bot.services.actor import Actor
from bot.services.encounters import Encounter, EncounterService
from bot.store import standing as repo

OFF_WORDS = frozenset({"off", "clear", "none", "remove"})


@dataclass(frozen=True)
class Standing:
    """A combatant's standing reaction as shown: the combatant's ``name`` and the ``rule``
    (``None``: cleared or never set)."""

    combatant_id: str
    name: str
    rule: StandingRule | None


@dataclass(frozen=True)
class StandingChange:
    """What ``/me reactions`` did: ``set``, ``cleared`` or ``listed``, with the standing
    reactions it concerns and the ruleset's words (for the help line)."""

    action: str
    encounter: Encounter
    entries: tuple[Standing, ...]
    choices: tuple[str, ...]
    conditions: tuple[str, ...]
    example: str
    """A rule in the ruleset's words (:attr:`StandingWords.shown_example`), for the help."""


@dataclass(frozen=True)
class StandingUse:
    """A standing reaction the expiry applied: whose (``name``), the ``rule`` as typed and the
    option it took (``label``, the button's words)."""

    combatant_id: str
    name: str
    rule: str
    label: str


@dataclass
class StandingBook:
    """The standing reactions an expiry may apply (``rules``, by combatant id) and those it
    applied (``used``, in order)."""

    rules: dict[str, StandingRule]
    used: list[StandingUse]


def rules_of(rows: list[repo.StandingRow]) -> dict[str, StandingRule]:
    """The stored rows as rules by combatant id (a row that no longer validates is skipped:
    the window lapses as usual)."""
    found: dict[str, StandingRule] = {}
    for row in rows:
        try:
            found[row.combatant_id] = StandingRule.model_validate(
                {"text": row.rule, "steps": row.steps}
            )
        except ValidationError:
            continue
    return found


class StandingReactions:
    """Sets, lists and clears standing reactions in a channel's live encounter."""

    def __init__(self, encounters: EncounterService) -> None:
        self._encounters = encounters

    async def own_names(self, channel_id: int, actor: Actor) -> list[str]:
        """The names of the combatants ``actor`` may set a standing reaction for in the
        channel's live fight: their own and those they stand in for while their player is
        away (:func:`~bot.services.acting.runs`); all of them for its GM; none when there is no
        fight."""
        try:
            encounter = await self._encounters.live(channel_id)
        except NotFound:
            return []
        gm = encounter.is_gm(actor)
        return [c.name for c in encounter.state.combatants if gm or runs(encounter, actor, c)]

    async def of_encounter(self, encounter_id: int) -> dict[str, StandingRule]:
        """Every standing reaction of the encounter, by combatant id."""
        async with self._encounters.db.read() as conn:
            return rules_of(await repo.of_encounter(conn, encounter_id))

    async def change(
        self, channel_id: int, actor: Actor, combatant: str | None, rule: str | None
    ) -> StandingChange:
        """``/me reactions [combatant] [rule]``: with ``rule``, set it for ``combatant`` (or
        clear it, for ``off``); without, list the member's combatants' standing reactions
        (or ``combatant``'s). ``combatant`` may be left out when the member controls exactly
        one. Raises :class:`NotFound` (no encounter, no such combatant), :class:`NotAllowed`
        (not the member's combatant) and :class:`InvalidInput` (a rule the ruleset does not
        understand: nothing is stored)."""
        encounter = await self._encounters.live(channel_id)
        words = encounter.rules.standing_words()
        targets = self._targets(encounter, actor, combatant, listing=rule is None)
        stored = await self.of_encounter(encounter.id)
        choices = tuple(dict.fromkeys([*words.choices, "take it"])) if words.choices else ()
        conditions = tuple(words.conditions)
        example = words.shown_example
        if rule is None:
            entries = tuple(Standing(c.id, c.name, stored.get(c.id)) for c in targets)
            return StandingChange("listed", encounter, entries, choices, conditions, example)
        [target] = targets
        now = self._encounters.now()
        if rule.strip().casefold() in OFF_WORDS:
            async with self._encounters.db.transaction() as conn:
                await repo.remove(conn, encounter.id, [target.id])
            entry = Standing(target.id, target.name, None)
            return StandingChange("cleared", encounter, (entry,), choices, conditions, example)
        parsed = parse_rule(rule, words, encounter.rules.title)
        steps = [step.model_dump() for step in parsed.steps]
        async with self._encounters.db.transaction() as conn:
            await repo.put(conn, encounter.id, target.id, actor.user_id, parsed.text, steps, now)
        entry = Standing(target.id, target.name, parsed)
        return StandingChange("set", encounter, (entry,), choices, conditions, example)

    @staticmethod
    def _targets(
        encounter: Encounter, actor: Actor, combatant: str | None, *, listing: bool
    ) -> list[CombatantBase]:
        state = encounter.state
        if combatant:
            chosen = find_combatant(state, combatant)
            if not controls(encounter, actor, chosen):
                raise NotAllowed(f"You do not control **{names.escaped(chosen.name)}**.")
            return [chosen]
        mine = [c for c in state.combatants if runs(encounter, actor, c)]
        if not mine and encounter.is_gm(actor) and listing:
            mine = list(state.combatants)
        if not mine:
            raise NotFound("You control no combatant in this fight.")
        if len(mine) > 1 and not listing:
            listed = ", ".join(f"**{names.escaped(c.name)}**" for c in mine[:10])
            raise InvalidInput(f"Name the combatant (`combatant:`): you control {listed}.")
        return mine
