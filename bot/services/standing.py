"""``/me reactions``: standing reactions (issue 17, "Standing reactions").

A player sets what their combatant does when a reaction window would otherwise run out
unanswered; the ruleset says which words it understands (:meth:`Ruleset.standing_words`) and
when a condition holds. The expiry (:meth:`bot.services.combat.CombatService.expire`) reads them
and applies the first step that fits instead of the lapse, in the same change — so a standing
choice is applied exactly once, as the lapse is.

Kept per combatant of one encounter (a new fight starts without any); the member who set it
(the combatant's controller, its stand-in while its player is away, or the GM) is recorded, for
``/me export`` and ``/me delete`` and to say who set it (``/me reactions`` and the result that
applies it). It applies only while that member still acts for the combatant (:func:`applies`):
a stand-in's ends when the stand-in does (the player is ``/back``), a GM's when they hand the
seat on (a GM by the server's GM role: when the role is changed; how the setter was a GM is kept
with it, :func:`gm_way`) — it stays listed, saying so, until it is set anew or cleared.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from pydantic import ValidationError

from bot import names
from bot.engine.core.standing import StandingRule, parse_rule
from bot.engine.core.state import CombatantBase
from bot.errors import InvalidInput, NotAllowed, NotFound
from bot.services.acting import controls, delegate_of, find_combatant, runs, runs_listed
from bot.services.actor import Actor
from bot.services.encounters import Encounter, EncounterService
from bot.store import standing as repo

OFF_WORDS = frozenset({"off", "clear", "none", "remove"})


@dataclass(frozen=True)
class Standing:
    """A combatant's standing reaction as shown: the combatant's ``name`` and the ``rule``
    (``None``: cleared or never set), who set it (``set_by``) and whether it applies now
    (:func:`applies`)."""

    combatant_id: str
    name: str
    rule: StandingRule | None
    set_by: int | None = None
    applies: bool = True
    set_as: str = ""


class SetRule(NamedTuple):
    """A stored standing reaction: the ``rule``, the member who set it and how they were the
    fight's GM then, if by role or permission (:func:`gm_way`)."""

    rule: StandingRule
    set_by: int
    set_as: str = ""


MANAGER = "manage-channels"
"""``set_as`` of a standing reaction set by a GM by Manage Channels (or Manage Server)."""


def gm_way(encounter: Encounter, actor: Actor, combatant: CombatantBase) -> str:
    """How ``actor``, setting ``combatant``'s standing reaction, acts for it when it is as a GM
    the seat does not name: :data:`MANAGER` (Manage Channels or Manage Server), ``role:<id>``
    (the server's GM role); '' when they act for it otherwise (its controller, its player's
    stand-in, the GM seat's holder: :func:`applies` checks those as they are now)."""
    controller = combatant.controller_id
    if actor.user_id in (controller, encounter.row.gm_id) or (
        controller is not None and delegate_of(encounter, controller) == actor.user_id
    ):
        return ""
    if actor.manages_channel:
        return MANAGER
    role = encounter.row.gm_role_id
    if role is not None and role in actor.role_ids:
        return f"role:{role}"
    return ""


def applies(encounter: Encounter, combatant: CombatantBase, set_by: int, set_as: str = "") -> bool:
    """Whether a standing reaction ``set_by`` set for ``combatant`` applies now: while they
    still act for it — its controller; the member standing in for its away controller (a
    stand-in's ends when the stand-in does); the holder of the encounter's GM seat (a GM's ends
    when they hand it on); a GM by the server's GM role while that role is still the
    encounter's (``set_as`` ``role:<id>``: a GM's ends when the role is changed, as the seat's
    when it is handed on); a GM by Manage Channels (``set_as`` :data:`MANAGER`), as their
    permission is the server's to take away. The bot does not see a member's roles or
    permissions between their commands, so one who loses them is not noticed here."""
    controller = combatant.controller_id
    if set_by == controller or set_by == encounter.row.gm_id:
        return True
    if set_as == MANAGER:
        return True
    role = encounter.row.gm_role_id
    if role is not None and set_as == f"role:{role}":
        return True
    return controller is not None and delegate_of(encounter, controller) == set_by


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
    """A standing reaction the expiry applied: whose (``name``), the ``rule`` as typed, the
    option it took (``label``, the button's words) and the member who set it (``set_by``)."""

    combatant_id: str
    name: str
    rule: str
    label: str
    set_by: int


@dataclass
class StandingBook:
    """The standing reactions an expiry may apply (``rules``, by combatant id) and those it
    applied (``used``, in order)."""

    rules: dict[str, SetRule]
    used: list[StandingUse]


def rules_of(rows: list[repo.StandingRow]) -> dict[str, SetRule]:
    """The stored rows as rules by combatant id, with who set each (a row that no longer
    validates is skipped: the window lapses as usual)."""
    found: dict[str, SetRule] = {}
    for row in rows:
        try:
            rule = StandingRule.model_validate({"text": row.rule, "steps": row.steps})
        except ValidationError:
            continue
        found[row.combatant_id] = SetRule(rule, row.member_id, row.set_as)
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

    async def of_encounter(self, encounter_id: int) -> dict[str, SetRule]:
        """Every standing reaction of the encounter, by combatant id, with who set it."""
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
            entries = tuple(_shown(encounter, c, stored.get(c.id)) for c in targets)
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
        way = gm_way(encounter, actor, target)
        async with self._encounters.db.transaction() as conn:
            await repo.put(
                conn, encounter.id, target.id, actor.user_id, parsed.text, steps, now, way
            )
        by = actor.user_id
        entry = Standing(
            target.id, target.name, parsed, by, applies(encounter, target, by, way), way
        )
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
            listed = runs_listed(encounter, actor, mine[:10])
            raise InvalidInput(f"Name the combatant (`combatant:`): {listed}.")
        return mine


def _shown(encounter: Encounter, combatant: CombatantBase, stored: SetRule | None) -> Standing:
    if stored is None:
        return Standing(combatant.id, combatant.name, None)
    return Standing(
        combatant.id,
        combatant.name,
        stored.rule,
        stored.set_by,
        applies(encounter, combatant, stored.set_by, stored.set_as),
        stored.set_as,
    )
