"""The Untitled ruleset (``untitled-combat.txt``): the contract's hooks and the dispatch table.

Registered in :mod:`bot.engine.registry`; flourishes, special attacks and parry are refused by
name (:mod:`bot.engine.untitled.verbs`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, TypeAdapter

from bot import names
from bot.engine.core import order, places, scenes
from bot.engine.core.audience import View
from bot.engine.core.chart import PoolReading
from bot.engine.core.commands import CommandBase
from bot.engine.core.contract import (
    ReactionOption,
    Ruleset,
    SheetForm,
    SheetSection,
    command_adapter,
)
from bot.engine.core.decisions import DecisionWords
from bot.engine.core.dice import EPOCH, DiceRoller, NoDice
from bot.engine.core.effects import Lasts, kept_words, refuse_lasts_on_down
from bot.engine.core.encounter_rules import EncounterRule
from bot.engine.core.events import Event, Outcome
from bot.engine.core.odds import Odds
from bot.engine.core.order import TurnOrder
from bot.engine.core.standing import ALWAYS, StandingWords
from bot.engine.core.verbs import ActInput, ActionSpec, DetailChoice, completions
from bot.engine.untitled import actions, combat, encounter, form, sheet_text, verbs
from bot.engine.untitled import commands as cmd
from bot.engine.untitled.core import RULES_VERSION, TURN_ORDER, RoundActions, Tx
from bot.engine.untitled.events import EVENT_TYPES
from bot.engine.untitled.odds import untitled_odds
from bot.engine.untitled.rehearse import POLICIES, UntitledPolicy
from bot.engine.untitled.sheet import UntitledSheet
from bot.engine.untitled.state import (
    CONDITIONS,
    DOWN,
    ShieldDecision,
    UntitledRecord,
    UntitledState,
    record_of,
)
from bot.engine.untitled.tables import UntitledTables, default_tables, load_tables
from bot.errors import InvalidInput, RuleViolation
from bot.words import counted

_Handler = Callable[[Tx, Any], None]
_HANDLERS: dict[str, _Handler] = {
    "add_combatant": actions.add_combatant,
    "remove_combatant": actions.remove_combatant,
    "begin": actions.begin,
    "change_settings": actions.change_settings,
    "attack": combat.attack,
    "defend": combat.defend,
    "check": combat.check,
    "move": actions.move,
    "draw": actions.draw,
    "stow": actions.stow,
    "reload": actions.reload,
    "declare": actions.declare,
    "roll_order": actions.roll_order,
    "allow_combined": actions.allow_combined,
    "set_rule": actions.set_rule,
    "set_vitals": actions.set_vitals,
    "set_condition": actions.set_condition,
}
_HANDLERS.update(order.HANDLERS)
_HANDLERS.update(scenes.HANDLERS)
_HANDLERS.update(places.HANDLERS)
_VITALS = ("health",)


SET_HEALTH = (
    "the GM sets Health instead — in a fight with `/gm vital vital:health` (`+5`, `20`), which "
    "its record keeps when the encounter ends; `/campaign reset` starts a record afresh at full "
    "Health."
)
"""How Health comes back in Untitled: "the GM sets Health instead" named no command, and
between fights there is none that sets it but a reset."""


class UntitledRuleset(Ruleset[UntitledState]):
    """Untitled. ``tables``: the GM-changeable numbers (``data/untitled/tables.json``)."""

    key: ClassVar[str] = "untitled"
    title: ClassVar[str] = "Untitled"
    nothing_waiting: ClassVar[str] = "no attack is waiting for a defense"
    odds_out: ClassVar[tuple[str, ...]] = (DOWN,)
    odds_out_words: ClassVar[str] = DOWN
    sheet_model: ClassVar[type[UntitledSheet]] = UntitledSheet
    state_model: ClassVar[type[Any]] = UntitledState
    command_adapter: ClassVar[TypeAdapter[CommandBase]] = command_adapter(
        cmd.OWN_COMMANDS, TURN_ORDER
    )
    event_types: ClassVar[Mapping[str, type[Event]]] = EVENT_TYPES
    turn_order: TurnOrder = TURN_ORDER
    add_combatant_command: ClassVar[type[Any]] = cmd.AddCombatant
    record_model: ClassVar[type[UntitledRecord]] = UntitledRecord
    handlers: ClassVar[Mapping[str, _Handler]] = _HANDLERS
    rules_version: ClassVar[int] = RULES_VERSION
    """Version 2: an attack still waiting on the defender's shield choice is cancelled when
    the defender or the attacker is Down (a GM tool put them there meanwhile), instead of
    waiting on a choice nobody can make until the window ran out
    (:func:`bot.engine.untitled.combat.drop_orphaned_attacks`). Version 1 (encounters started
    before) kept waiting, and still does, so its log replays exactly.

    Version 3: the GM removing the combatant whose turn it is, when its leaving ends the fight
    (the last of its side, or the last one standing), ends the fight at once: no turn passes
    on, so nobody's turn starts in a fight that is over
    (:meth:`bot.engine.core.tx.CoreTx.leave_fight`); a second ``/gm skip`` of a combatant
    already set to skip its next turn is refused (:func:`bot.engine.core.order.skip_turn`).
    Versions 1 and 2 began the next turn first and noted the second skip again, and still
    do.

    Version 4: an attack on a defender carrying a shield checks the shield's dice when it is
    declared, as it checks every other pool it may roll
    (:func:`bot.engine.untitled.combat.attack`): a shield skill of level 21+ while the
    Legendary dice are unset refuses the attack, naming how to set them, before anything is
    paid. Versions 1 to 3 declared it, and
    the defender's choice to raise the shield — and the window running out, which raises it —
    was then refused, while the Storyteller could not set the dice with the attack waiting.
    The round's counts are read as the tables give them up to their bound of ten
    (:class:`~bot.engine.untitled.core.RoundActions`); versions 1 to 3 read ten standard
    actions as one more move action and none.

    Version 5: the Storyteller ending a day (or a quest or an arc, ``/gm time end-of``) in an
    encounter moves the encounter's clock to the start of the next day (00:00: the text counts
    rounds of six seconds and has no day of its own), as ``/campaign end-of`` moves the campaign
    clock (:func:`bot.engine.core.scenes.end_period`); versions 1 to 4 left the fight's clock on
    the old day, so the campaign clock the fight left behind was the old day's."""
    known_versions: ClassVar[tuple[int, ...]] = (1, 2, 3, 4, 5)

    tables_loader = staticmethod(load_tables)

    tables: UntitledTables

    def __init__(self, tables: UntitledTables | None = None, version: int | None = None) -> None:
        self.tables = tables if tables is not None else default_tables()
        self.version = self.rules_version if version is None else version
        self.economy: RoundActions = RoundActions(
            wide=Tx.reads_at(self.version, "round_counts_as_tabled")
        )
        self._encounter_tables: dict[tuple[tuple[str, str], ...], UntitledTables] = {}

    def apply(
        self, state: UntitledState, command: CommandBase, roller: DiceRoller, now: datetime
    ) -> Outcome:
        """Apply one command; never mutates ``state``; a refusal raises a
        :class:`~bot.errors.DomainError` and changes nothing."""
        tx = Tx(
            state,
            self.tables_for(state),
            roller,
            now,
            self.economy,
            self.turn_order,
            version=self.version,
        )
        handler = self.handlers.get(command.kind)
        if handler is None:
            raise InvalidInput(f"`{command.kind}` is not part of {self.title}.")
        handler(tx, command)
        if tx.reads("orphaned_attacks_dropped") and tx.state.decisions:
            combat.drop_orphaned_attacks(tx)
        tx.pass_turn_if_unable()
        return Outcome(state=tx.state, events=tx.events)

    def reading(self, state: UntitledState) -> Tx:
        return Tx(
            state,
            self.tables_for(state),
            NoDice(),
            EPOCH,
            self.economy,
            self.turn_order,
            version=self.version,
        )

    def tables_for(self, state: UntitledState) -> UntitledTables:
        """The tables ``state``'s encounter plays by: the server's, with the encounter's own
        Storyteller dice (:func:`bot.engine.untitled.encounter.for_encounter`), built once per
        set of values."""
        rules = state.settings.rules
        if not rules:
            return self.tables
        key = tuple(sorted(rules.items()))
        found = self._encounter_tables.get(key)
        if found is None:
            found = encounter.for_encounter(self.tables, rules)
            if len(self._encounter_tables) >= 64:
                self._encounter_tables.clear()
            self._encounter_tables[key] = found
        return found

    # -- the Storyteller's encounter settings --------------------------------------------------
    def encounter_rules(self) -> tuple[EncounterRule, ...]:
        return encounter.RULES

    def rule_command(self, rule: str, value: str, target: str | None) -> CommandBase:
        """:func:`bot.engine.untitled.encounter.rule_command`."""
        return encounter.rule_command(rule, value, target)

    def rule_lines(self, state: Any) -> list[str]:
        return encounter.rule_lines(self.tables_for(state), state)

    # -- sheets, joining and records ---------------------------------------------------------

    def record_of(self, combatant: Any) -> UntitledRecord:
        return record_of(combatant)

    def record_lines(self, sheet: BaseModel, record: BaseModel | None) -> list[str]:
        if not isinstance(sheet, UntitledSheet):
            raise InvalidInput(f"Not an {self.title} sheet.")
        r = record if isinstance(record, UntitledRecord) else UntitledRecord()
        health = sheet.health if r.health is None else r.health
        kept = kept_words(r.effects)
        return (
            [f"Health {health}/{sheet.health}", kept]
            if kept
            else [f"Health {health}/{sheet.health}"]
        )

    def refreshed(self, combatant: Any, sheet: BaseModel) -> Any:
        if not isinstance(sheet, UntitledSheet):
            raise InvalidInput(
                f"**{names.escaped(combatant.name)}**'s sheet is not an {self.title} sheet."
            )
        return combatant.clone().model_copy(
            update={"sheet": sheet, "health": min(combatant.health, sheet.health)}
        )

    def sheet_sections(
        self, sheet: BaseModel, *, full: bool, name: Callable[[str], str]
    ) -> list[SheetSection]:
        if not isinstance(sheet, UntitledSheet):
            raise InvalidInput(f"Not an {self.title} sheet.")
        return sheet_text.sections(sheet, self.tables, self.scale, full=full, name=name)

    def sheet_form(self) -> SheetForm:
        return form.SHEET_FORM

    def sheet_of(self, combatant: Any) -> UntitledSheet:
        sheet: UntitledSheet = combatant.sheet
        return sheet

    # -- the command surface ------------------------------------------------------------------
    def actions(self, state: UntitledState, combatant: Any) -> list[ActionSpec]:
        return list(verbs.ACTIONS)

    def act(self, state: UntitledState, combatant: Any, given: ActInput) -> CommandBase:
        return verbs.act(combatant, given)

    def detail_choices(
        self, state: UntitledState, combatant: Any, key: str, typed: str
    ) -> list[DetailChoice]:
        """``detail:`` suggestions (:meth:`Ruleset.detail_choices`): the weapons in hand and
        loaded to attack with, those in hand to put away, those put away to draw (alone or
        while moving) and those in hand fired and not reloaded (Untitled "Combat": move
        actions, Draw, Reload; a weapon put away is drawn before it attacks or reloads)."""
        weapons = [w.name for w in self.sheet_of(combatant).weapons]
        stowed = set(combatant.stowed)
        unloaded = set(combatant.unloaded)
        in_hand = [w for w in weapons if w not in stowed]
        put_away = [w for w in weapons if w in stowed]
        options: dict[str, list[str]] = {
            "attack": [w for w in in_hand if w not in unloaded],
            "stow": in_hand,
            "draw": put_away,
            "move": put_away,
            "reload": [w for w in in_hand if w in unloaded],
        }
        return completions(typed, options.get(key, ()))

    def check_names(self, combatant: Any) -> list[str]:
        return list(combatant.sheet.skill_levels())

    def check(
        self,
        state: UntitledState,
        combatant: Any,
        skill: str,
        difficulty: int | None,
        *,
        target: str | None = None,
        against: str | None = None,
    ) -> CommandBase:
        """A skill roll (:func:`bot.engine.untitled.combat.check`)."""
        if target is not None and difficulty is not None:
            raise InvalidInput("A check is against a `difficulty:` or opposed by a `target:`.")
        if against is not None and target is None:
            raise InvalidInput("`against:` names the target's skill: give a `target:` too.")
        return cmd.Check(
            actor=combatant.id, skill=skill, difficulty=difficulty, target=target, against=against
        )

    # -- decisions ------------------------------------------------------------------------------
    def lapse(self, state: UntitledState, decision: Any = None) -> CommandBase:
        """Nobody chose: the defender uses its shield (the bot's default — it only helps)."""
        p = decision if decision is not None else state.pending
        if p is None:
            raise self.nothing_to_resolve()
        return cmd.Defend(actor=p.target, choice="shield", decision=p.id or None)

    def answer(
        self, state: UntitledState, decider: Any, option: ReactionOption, decision: Any = None
    ) -> CommandBase:
        ref = (decision.id or None) if decision is not None else None
        return cmd.Defend.model_validate(
            {"actor": decider.id, "choice": option.choice, "decision": ref}
        )

    def typed_reaction(self, word: Literal["dodge", "block"]) -> str:
        """``/block`` raises the shield; ``/dodge`` is Combat Defense alone."""
        return "shield" if word == "block" else "none"

    def standing_words(self) -> StandingWords:
        """``untitled-combat.txt`` (the defense): "If the defender has a shield ... they may
        also roll" its dice — a standing choice to raise the shield (``shield``, also typed
        ``block``) or to defend with Combat Defense alone (``combat defense``, also ``no
        shield``, ``dodge``, as ``/dodge``); a step may apply only ``against melee`` or
        ``against ranged`` attacks (the attacker's weapon's kind on its sheet). ``take it``
        lets the window lapse: the shield is rolled (:meth:`lapse`)."""
        shield = ("shield", "raise the shield", "raise my shield", "use the shield", "block")
        alone = ("combat defense", "combat defense alone", "no shield", "without the shield")
        return StandingWords(
            choices={
                **dict.fromkeys(shield, "shield"),
                **dict.fromkeys(alone, "none"),
                "dodge": "none",
            },
            conditions={"melee": "melee", "ranged": "ranged"},
            example="shield against melee, else combat defense",
        )

    def standing_holds(self, state: UntitledState, decision: Any, condition: str) -> bool:
        if condition == ALWAYS:
            return True
        if not isinstance(decision, ShieldDecision):
            return False
        weapon = state.get(decision.attacker).sheet.weapon(decision.weapon)
        return weapon is not None and weapon.kind == condition

    def decision_subject(self, state: UntitledState, decision: Any) -> str | None:
        return str(decision.target)

    def decision_words(
        self,
        state: UntitledState,
        decision: Any,
        deciders: Mapping[str, list[ReactionOption]],
        public: View,
    ) -> DecisionWords:
        p: ShieldDecision = decision
        attacker, target = public.name(p.attacker), public.name(p.target)
        weapon = public.escape(p.weapon)
        plain = {c.id: str(c.name) for c in state.combatants}
        held = next((c.sheet.shield for c in state.combatants if c.id == p.target), None)
        shield = public.escape(held.name) if held is not None else "shield"
        if p.target in deciders and not public.reveals(p.target):
            who = f"the GM chooses whether **{target}** raises their {shield}"
        elif p.target in deciders:
            who = f"**{target}** may defend with their {shield} or with Combat Defense alone"
        else:
            who = f"**{target}** cannot choose"
        return DecisionWords(
            title=f"{plain.get(p.attacker, 'someone')} attacks {plain.get(p.target, 'someone')}"
            f" with {p.weapon}"[:256],
            ask=f"**{attacker}** attacks **{target}** with **{weapon}**: {who}.",
            ping=f"**{attacker}** attacks **{target}** with **{weapon}**",
            about=f"the attack on **{target}**",
            noun="attack",
            waiting_on=f"**{target}**'s defense",
            lapse=f"it is rolled with the {shield}",
            ran_out=f"The window ran out: the attack is rolled with the {shield}",
            open_choices=True,
        )

    def reaction_options(
        self, state: UntitledState, combatant_id: str, decision: Any = None
    ) -> list[ReactionOption]:
        """The defender's choice: its shield's dice with Combat Defense, or Combat Defense
        alone (no cost: "in addition to the above they may also roll")."""
        p = decision if decision is not None else state.pending
        if p is None or p.target != combatant_id:
            return []
        c = state.get(combatant_id)
        if c.has(DOWN) or c.sheet.shield is None:
            return []
        return [
            ReactionOption(choice="shield", label=f"Raise the {c.sheet.shield.name}"[:80]),
            ReactionOption(choice="none", label="Combat Defense alone"),
        ]

    def may_be_asked(self, state: UntitledState, combatant_id: str, decision: Any = None) -> bool:
        return bool(self.reaction_options(state, combatant_id, decision))

    # -- the GM's tools ---------------------------------------------------------------------------
    def condition_command(
        self,
        target: str,
        name: str,
        *,
        present: bool,
        detail: str | None = None,
        lasts: Lasts = "until_removed",
        rounds: int | None = None,
    ) -> CommandBase:
        """Down on or off. Down follows Health and has no duration: a ``lasts:`` was once
        dropped without a word (the creature stayed Down), so it is refused here, when the
        GM gives it — not in the logged command, which older fights replay as they were."""
        if present:
            refuse_lasts_on_down("Untitled", "Health", "0 Health is Down", lasts)
        return cmd.SetCondition(target=target, condition=name, present=present)

    def boon_command(self, target: str, dice: int, *, until_removed: bool) -> CommandBase:
        raise InvalidInput(
            "Untitled has no advantage dice: its text names flourishes and modifiers, which "
            "the bot does not play yet."
        )

    def vital_names(self) -> tuple[str, ...]:
        return _VITALS

    def vitals_command(self, target: str, changes: Mapping[str, tuple[int, bool]]) -> CommandBase:
        for vital in changes:
            if vital not in _VITALS:
                raise InvalidInput(
                    f"Untitled has no vital called {names.quoted(vital)}: only health."
                )
        if "health" not in changes:
            raise InvalidInput("Give the Health to set or change.")
        return cmd.SetVitals(target=target, health=changes["health"])

    def rest_command(self, kind: Literal["short", "long"]) -> CommandBase:
        raise InvalidInput(f"The Untitled combat text has no rests: {SET_HEALTH}")

    def healing_command(self, weeks: int) -> CommandBase:
        raise InvalidInput(f"The Untitled combat text has no healing: {SET_HEALTH}")

    # -- presentation -------------------------------------------------------------------------
    def order_roll_command(self, among: tuple[str, ...]) -> CommandBase:
        """The Storyteller's order die ("may ask for a die roll to help randomize the order or
        resolve a tie"): :class:`~bot.engine.untitled.commands.RollOrder`."""
        return cmd.RollOrder(among=among)

    def conditions(self) -> list[str]:
        return list(CONDITIONS)

    def stances(self, combatant: Any = None) -> list[str]:
        return []

    def attack_names(self, combatant: Any) -> list[str]:
        """The combatant's weapons, those in hand first (the turn ping's Attack button swings
        the first: a weapon put away would need a Draw first), each group in the sheet's
        order: :func:`~bot.engine.untitled.combat.weapons_in_hand_first`, the order an attack
        naming no weapon takes its weapon from)."""
        return [w.name for w in combat.weapons_in_hand_first(combatant)]

    def odds(
        self, state: Any, attacker: Any, target: Any, attack: str, *, range_m: float | None = None
    ) -> Odds:
        """Untitled exact odds (issue 18): :func:`bot.engine.untitled.odds.untitled_odds`.

        The rules set no bonus or penalty for distance, but the attack refuses a target beyond
        the weapon's reach or range (``range_m``, else the encounter's positions): so do the
        odds, in its words; within it, they say the distance changes nothing (fix23)."""
        shown = (attacker.name, target.name)
        odds = untitled_odds(self.tables_for(state), attacker.sheet, target.sheet, attack, shown)
        meters = (
            range_m if range_m is not None else state.positions.distance(attacker.id, target.id)
        )
        arm = attacker.sheet.weapon(attack)
        if meters is None or arm is None:
            return odds
        if meters > combat.reach_of(arm):
            raise RuleViolation(combat.out_of_reach(self.scale, target.name, arm, meters))
        reach = self.scale.show(combat.reach_of(arm))
        return odds.model_copy(
            update={
                "attack": f"{odds.attack} at {self.scale.show(meters)}",
                "modifiers": (
                    *odds.modifiers,
                    f"{names.escaped(arm.name)} reaches {reach}: distance changes no odds in "
                    "Untitled",
                ),
            }
        )

    rehearsal_policies: ClassVar[tuple[str, ...]] = POLICIES

    def rehearsal(self, policy: str) -> UntitledPolicy:
        """Untitled rehearsal policies (issue 18): :mod:`bot.engine.untitled.rehearse`."""
        return UntitledPolicy(policy, self.lapse)

    def wound_level(self, combatant: Any) -> str:
        """Down, Bloodied (half its Health or less), Hurt or Unhurt."""
        if combatant.has(DOWN):
            return "Down"
        if combatant.health * 2 <= combatant.sheet.health:
            return "Bloodied"
        if combatant.health < combatant.sheet.health:
            return "Hurt"
        return "Unhurt"

    wound_levels = ("Unhurt", "Hurt", "Bloodied", "Down")

    def combatant_pools(self, combatant: Any) -> dict[str, PoolReading]:
        """Health (Untitled "Health"), against the sheet's."""
        return {"Health": PoolReading(value=combatant.health, maximum=combatant.sheet.health)}

    def status(self, combatant: Any, *, revealed: bool, compact: bool, in_fight: bool) -> list[str]:
        """The round's actions left and Health; hidden (an NPC): the wound level."""
        if not revealed:
            return [self.wound_level(combatant)]
        parts: list[str] = []
        p = combatant.pools
        if in_fight:
            parts.append(f"{p.get('move', 0)} move · {p.get('standard', 0)} std")
        parts.append(f"Health {combatant.health}/{combatant.sheet.health}")
        return parts

    def turn_guide(self, combatant: Any, *, revealed: bool) -> str:
        r = self.tables.round
        moves, standards = counted(r.move, "move action"), counted(r.standard, "standard action")
        if (r.move, r.standard) == (2, 1):
            moves, standards = "two move actions", "a standard action"
        guide = (
            f"up to {moves} and {standards} (an attack), or one full-round "
            "action; swift, immediate and free actions; or hold your action (`/act` lists each)."
        )
        if not revealed:
            return guide
        return f"{guide} Health {combatant.health}/{combatant.sheet.health}."
