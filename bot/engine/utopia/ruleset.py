"""The Utopia ruleset (``utopia-actions.txt``): the contract's hooks and the dispatch table.

Registered in :mod:`bot.engine.registry`; ``/act``'s actions are
:data:`bot.engine.utopia.verbs.ACTIONS`."""

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
    ForeignSheet,
    ReactionOption,
    Ruleset,
    SheetForm,
    SheetSection,
    command_adapter,
)
from bot.engine.core.decisions import DecisionWords
from bot.engine.core.dice import DiceRoller
from bot.engine.core.effects import Lasts, kept_words, refuse_lasts_on_down
from bot.engine.core.events import Event, Outcome
from bot.engine.core.odds import Odds
from bot.engine.core.order import TurnOrder
from bot.engine.core.standing import StandingWords
from bot.engine.core.verbs import ActInput, ActionSpec, DetailChoice, completions
from bot.engine.utopia import (
    actions,
    assist,
    assist_defense,
    checks,
    combat,
    decision_words,
    equipment,
    form,
    foundry,
    grapple,
    interleave,
    multi,
    pay_words,
    rest,
    scale,
    sheet_text,
    spells,
    stealth,
    verbs,
)
from bot.engine.utopia import commands as cmd
from bot.engine.utopia.core import RULES_VERSION, TURN_ORDER, SheetActions, Tx
from bot.engine.utopia.defenses import unable_reason
from bot.engine.utopia.events import EVENT_TYPES
from bot.engine.utopia.odds import utopia_odds
from bot.engine.utopia.rehearse import POLICIES, UtopiaPolicy
from bot.engine.utopia.sheet import UtopiaSheet
from bot.engine.utopia.state import (
    CONDITIONS,
    DOWN,
    AssistDecision,
    UtopiaRecord,
    UtopiaState,
    record_of,
)
from bot.engine.utopia.tables import ActionRules, UtopiaTables, default_tables, load_tables
from bot.engine.utopia.tables import Assist as AssistTable
from bot.engine.utopia.tables import Hold as HoldTable
from bot.engine.utopia.tables import Stealth as StealthTable
from bot.errors import InvalidInput, RuleViolation

_Handler = Callable[[Tx, Any], None]
_HANDLERS: dict[str, _Handler] = {
    "add_combatant": actions.add_combatant,
    "remove_combatant": actions.remove_combatant,
    "begin": actions.begin,
    "change_settings": actions.change_settings,
    "attack": combat.attack,
    "defend": assist_defense.defend,
    "aim": actions.aim,
    "travel": actions.travel,
    "deep_breath": actions.deep_breath,
    "leap": actions.leap,
    "hold_action": actions.hold_action,
    "exchange": actions.exchange,
    "grapple": grapple.grapple,
    "escape": grapple.escape,
    "scale": scale.scale,
    "shake_off": scale.shake_off,
    "sheathe": equipment.sheathe,
    "wear": equipment.wear,
    "set_vitals": actions.set_vitals,
    "set_condition": actions.set_condition,
    "assist_defense": assist_defense.answer,
    "multi_attack": multi.multi_attack,
    "cast": spells.cast,
    "rest": rest.rest,
    "natural_healing": rest.natural_healing,
    "test": checks.test,
    "grant_favor": checks.grant_favor,
    "stealth": stealth.stealth,
    "assist": assist.assist,
}
_HANDLERS.update(order.HANDLERS)
_HANDLERS.update(scenes.HANDLERS)
_HANDLERS.update(places.HANDLERS)
_HANDLERS["delay"] = interleave.delay  # the core's, keeping TA in the interleaved order
_VITALS = ("shp", "dhp", "stamina", "ta", "ia")


def _as_version_2(tables: UtopiaTables) -> UtopiaTables:
    """``tables`` as rules versions 1 and 2 read them: the text's exchange rates (2 IA for 1 TA
    off the turn, 1 TA for 1 IA on it) and 2 TA for each held IA, whatever a server had set
    there (those entries were not read before version 3)."""
    shipped = ActionRules()
    actions = tables.actions.model_copy(
        update={
            "interrupt_per_turn_action": shipped.interrupt_per_turn_action,
            "turn_per_interrupt_action": shipped.turn_per_interrupt_action,
        }
    )
    hold = tables.hold.model_copy(update={"turn_actions": HoldTable().turn_actions})
    return tables.model_copy(update={"actions": actions, "hold": hold})


def _as_version_1(tables: UtopiaTables) -> UtopiaTables:
    """``tables`` as rules version 1 read them: version 2's reading (:func:`_as_version_2`),
    and the shipped Stealth numbers, a grapple pledge of 2 IA and an aided test's +1 at least,
    whatever a server had set there."""
    tables = _as_version_2(tables)
    shipped = AssistTable()
    assist = tables.assist.model_copy(
        update={"grapple_ia": shipped.grapple_ia, "test_minimum": shipped.test_minimum}
    )
    return tables.model_copy(update={"stealth": StealthTable(), "assist": assist})


class UtopiaRuleset(Ruleset[UtopiaState]):
    """Utopia. ``tables``: the GM-changeable numbers (``data/utopia/tables.json``)."""

    key: ClassVar[str] = "utopia"
    title: ClassVar[str] = "Utopia"
    boons: ClassVar[str | None] = "favor"
    odds_out: ClassVar[tuple[str, ...]] = (DOWN,)
    nothing_waiting: ClassVar[str] = "no damage is waiting for a Block, a Dodge or an Assist"
    sheet_model: ClassVar[type[UtopiaSheet]] = UtopiaSheet
    state_model: ClassVar[type[Any]] = UtopiaState
    command_adapter: ClassVar[TypeAdapter[CommandBase]] = command_adapter(
        cmd.OWN_COMMANDS, TURN_ORDER
    )
    event_types: ClassVar[Mapping[str, type[Event]]] = EVENT_TYPES
    turn_order: TurnOrder = TURN_ORDER
    # "Deep Breath" (utopia-actions.txt): 1 turn action to regain 1 stamina.
    deadline_action_keys: ClassVar[tuple[str, ...]] = ("deep-breath",)
    add_combatant_command: ClassVar[type[Any]] = cmd.AddCombatant
    record_model: ClassVar[type[UtopiaRecord]] = UtopiaRecord
    handlers: ClassVar[Mapping[str, _Handler]] = _HANDLERS
    rules_version: ClassVar[int] = RULES_VERSION
    """Version 2: Stealth plays by the encounter's ``stealth`` tables, and Assist by its
    ``assist.grapple_ia`` and ``assist.test_minimum`` (a server's ``/tables`` changes
    included); on a creature's own turn spent TA are not made up with 2 IA each
    ("Interchanging Actions": "when it's not your turn"), so what is priced "1 TA or 1 IA"
    then costs the IA; a Travel or Leap toward oneself is refused; a creature that leaves takes
    its Assists with it (those given to a Block or Dodge still waiting to roll, and those
    pledged). Version 1 (encounters started before) played by the shipped numbers there
    whatever the tables said, and by the older readings, and keeps doing so, so its log
    replays exactly.

    Version 3: the exchange rates ("Interchanging Actions": ``actions.interrupt_per_turn_action``,
    ``actions.turn_per_interrupt_action``) and what each held IA costs ("Hold Action":
    ``hold.turn_actions``) are the encounter's tables'; versions 1 and 2 play by the text's
    2, 1 and 2 whatever the tables say (:func:`_as_version_2`).

    Version 4: damage waiting on its target's defense is called off when its attacker is out
    of the fight first (a GM tool put it Down: a Down creature deals no damage;
    :func:`bot.engine.utopia.assist_defense.settle_for_the_fallen`); versions 1 to 3 dealt it
    once the target chose.

    Version 5: the GM removing the creature whose turn it is, when its leaving ends the fight
    (the last of its side, or the last one standing), ends the fight at once: no turn passes
    on, so nobody's turn starts in a fight that is over
    (:meth:`bot.engine.core.tx.CoreTx.leave_fight`); a weapon held in no hands (a bite, a
    stomp: part of the creature) is neither sheathed nor drawn
    (:func:`bot.engine.utopia.equipment.sheathe`). Versions 1 to 4 began the next turn
    first, and let a creature sheathe its bite. A second ``/gm skip`` of a creature already
    set to skip its next turn is refused (:func:`bot.engine.core.order.skip_turn`); versions 1
    to 4 noted it again. Turning TA into an IA says "spends 1 TA to gain 1 IA" (versions 1 to
    4: "to turn 1 TA into 1 IA", beside the line saying the same).

    Version 6: an attack from hiding (Stealth) is unseen in every source of damage it deals —
    each weapon's blow of a multi-weapon attack ("simultaneously";
    :func:`bot.engine.utopia.multi.multi_attack`), and a damaging spell, which also gives a
    hidden caster away (:func:`bot.engine.utopia.spells.cast`); versions 1 to 5 offered a
    defense against every blow after the first, and against a hidden caster's spell, which
    left the caster hidden. A ranged attack's Dexterity test against a distance between whole
    meters must reach it, rounded up (:func:`bot.engine.utopia.combat.ranged_difficulty`:
    12.5 m needs 13); versions 1 to 5 rounded it down. A grappled creature cannot Leap
    (:func:`bot.engine.utopia.actions.leap`): restrained, it moves only with its grappler;
    versions 1 to 5 let it leap away and stay grappled by a grappler no longer beside it. A
    modifier is score − the tables' ``test.modifier_offset`` everywhere (:meth:`Tx.modifier`:
    a damage modifier and an Assist's modifier too, as tests always read it); versions 1 to 5
    took 4 off for those whatever a server's tables said. A Block or Dodge whose Rating is 0
    is not offered, and refused, unless an ally could Assist it ("It rolls its Block Rating":
    no dice; :func:`bot.engine.utopia.defenses.rolls_nothing`), nor Take Cover when both
    Ratings are 0; versions 1 to 5 offered them, and took the action for nothing.

    Version 7: the GM ending a day (or a quest or an arc, ``/gm time end-of``) in an encounter
    moves the encounter's clock to the start of the next day (00:00; the text has no day of its
    own, and "out of combat time still flows"), as ``/campaign end-of`` moves the campaign
    clock (:func:`bot.engine.core.scenes.end_period`); versions 1 to 6 left the fight's clock
    on the old day, so the campaign clock the fight left behind was the old day's.

    Version 8: what the log says of a combatant calls them "they", as the other systems'
    texts do ("Vesna cannot defend (they attacked with interrupt actions: they cannot defend
    until the next creature's turn)", "Hound is now Down (their DHP fell to 0 or below)";
    :meth:`Tx.of_them`); versions 1 to 7 said "it" and "its", the text's words for "a
    creature" in general, of a named PC too."""
    known_versions: ClassVar[tuple[int, ...]] = (1, 2, 3, 4, 5, 6, 7, 8)

    tables_loader = staticmethod(load_tables)

    tables: UtopiaTables

    def __init__(self, tables: UtopiaTables | None = None, version: int | None = None) -> None:
        self.tables = tables if tables is not None else default_tables()
        self.version = self.rules_version if version is None else version
        # What the engine plays by: versions 1 and 2 ignored some entries (see rules_version).
        if Tx.reads_at(self.version, "exchange_rates_by_tables"):
            self.played = self.tables
        elif Tx.reads_at(self.version, "stealth_and_assist_by_tables"):
            self.played = _as_version_2(self.tables)
        else:
            self.played = _as_version_1(self.tables)
        rates = self.played
        self.economy: SheetActions = SheetActions(
            own_turn_exchange=not Tx.reads_at(self.version, "own_turn_ta_not_made_up"),
            interrupt_per_turn_action=rates.actions.interrupt_per_turn_action,
            turn_per_interrupt_action=rates.actions.turn_per_interrupt_action,
            hold_turn_actions=rates.hold.turn_actions,
        )

    def apply(
        self, state: UtopiaState, command: CommandBase, roller: DiceRoller, now: datetime
    ) -> Outcome:
        """Apply one command; never mutates ``state``; a refusal raises a
        :class:`~bot.errors.DomainError` and changes nothing."""
        tx = Tx(
            state, self.played, roller, now, self.economy, self.turn_order, version=self.version
        )
        handler = self.handlers.get(command.kind)
        if handler is None:
            raise InvalidInput(f"`{command.kind}` is not part of {self.title}.")
        handler(tx, command)
        assist_defense.settle_for_the_fallen(tx)
        interleave.after_command(tx)
        tx.pass_turn_if_unable()
        return Outcome(state=tx.state, events=tx.events)

    # -- sheets, joining and records ---------------------------------------------------------

    def record_of(self, combatant: Any) -> UtopiaRecord:
        return record_of(combatant)

    def record_lines(self, sheet: BaseModel, record: BaseModel | None) -> list[str]:
        if not isinstance(sheet, UtopiaSheet):
            raise InvalidInput(f"Not a {self.title} sheet.")
        r = record if isinstance(record, UtopiaRecord) else UtopiaRecord()
        shp = sheet.shp if r.shp is None else r.shp
        dhp = sheet.dhp if r.dhp is None else r.dhp
        stamina = sheet.stamina if r.stamina is None else r.stamina
        kept = kept_words(r.effects)
        line = f"SHP {shp}/{sheet.shp} · DHP {dhp}/{sheet.dhp} · Stamina {stamina}/{sheet.stamina}"
        return [line, kept] if kept else [line]

    def refreshed(self, combatant: Any, sheet: BaseModel) -> Any:
        if not isinstance(sheet, UtopiaSheet):
            raise InvalidInput(
                f"**{names.escaped(combatant.name)}**'s sheet is not a {self.title} sheet."
            )
        t = self.tables
        pools = {**combatant.pools}
        for pool, most in (
            ("turn", sheet.turn_actions_max(t)),
            ("interrupt", sheet.interrupt_actions_max(t)),
        ):
            if pool in pools:  # the TA and IA left, like the pools below, within the new sheet's
                pools[pool] = min(pools[pool], most)
        return combatant.clone().model_copy(
            update={
                "sheet": sheet,
                "shp": min(combatant.shp, sheet.shp),
                "dhp": min(combatant.dhp, sheet.dhp),
                "stamina": min(combatant.stamina, sheet.stamina),
                "pools": pools,
            }
        )

    def sheet_sections(
        self, sheet: BaseModel, *, full: bool, name: Callable[[str], str]
    ) -> list[SheetSection]:
        if not isinstance(sheet, UtopiaSheet):
            raise InvalidInput(f"Not a {self.title} sheet.")
        return sheet_text.sections(sheet, self.tables, self.scale, full=full, name=name)

    def one_off_sheet(self, name: str, stats: Mapping[str, int]) -> BaseModel:
        """Only ``stamina`` has a Utopia counterpart among the one-off options (the others are
        UTTAS's: Health, Speed, Agility, Strength, damage dice); the rest is the sheet's
        defaults (SHP 10, DHP 10, every subtrait 1). Raises :class:`InvalidInput` naming the
        options Utopia does not read."""
        foreign = sorted(k for k in stats if k != "stamina")
        if foreign:
            raise InvalidInput(
                f"A Utopia one-off NPC takes `name` and `stamina` only, not "
                f"{', '.join(f'`{k}`' for k in foreign)} (UTTAS's); set its SHP and DHP "
                "afterwards with `/gm vital`, or create an NPC template with "
                "`/npc create ruleset:utopia`."
            )
        return self.parse_sheet({"system": "utopia", "name": name, **stats})

    def sheet_form(self) -> SheetForm:
        return form.SHEET_FORM

    def foreign_sheet(self, data: Mapping[str, Any]) -> ForeignSheet | None:
        """A Foundry VTT actor export of the official Utopia system (``foundry.py``, pinned
        commit in ``docs/rules/utopia.md``) as sheet data, with what it could not map."""
        if not foundry.is_foundry_export(data):
            return None
        found = foundry.from_foundry(data)
        return ForeignSheet(
            data=found.data, source="Foundry VTT actor export", unmapped=found.unmapped
        )

    def sheet_of(self, combatant: Any) -> UtopiaSheet:
        sheet: UtopiaSheet = combatant.sheet
        return sheet

    # -- the command surface ------------------------------------------------------------------
    def actions(self, state: UtopiaState, combatant: Any) -> list[ActionSpec]:
        rates = self.economy
        return verbs.priced(
            self.played,
            ia_per_ta=rates.interrupt_per_turn_action,
            ta_per_ia=rates.turn_per_interrupt_action,
            hold_ta=rates.hold_turn_actions,
            board=self._read(state).scale,
        )

    def act(self, state: UtopiaState, combatant: Any, given: ActInput) -> CommandBase:
        return verbs.act(combatant, given)

    def detail_choices(
        self, state: UtopiaState, combatant: Any, key: str, typed: str
    ) -> list[DetailChoice]:
        """``detail:`` suggestions (:meth:`Ruleset.detail_choices`): the weapons (several,
        comma-separated, for a multi-weapon attack), the weapons drawn to sheath and those
        sheathed to draw, the armor not worn to don and worn to doff, the spells, the ways to
        travel, Stealth's circumstances and what an Assist aids (Utopia "Turn Actions",
        "Equipment Actions", "Stealth", "Assist")."""
        sheet = self.sheet_of(combatant)
        weapons = [w.name for w in sheet.weapons]
        put_away = set(combatant.sheathed)
        held = [  # natural weapons (no hands) are never sheathed from version 5
            w.name
            for w in sheet.weapons
            if w.hands > 0 or not Tx.reads_at(self.version, "natural_weapons_stay_drawn")
        ]
        worn = combatant.wears()
        armor = [a.name for a in sheet.armor]
        options: dict[str, list[str]] = {
            "sheath": [w for w in held if w not in put_away],
            "unsheath": [w for w in held if w in put_away],
            "don": [a for a in armor if a not in worn],
            "doff": [a for a in armor if a in worn],
            "cast": [spell.name for spell in sheet.spells],
            "travel": ["land", "water", "air"],
            "assist": ["test", "leap", "grapple"],
        }
        if key in ("attack", "stealth"):
            listed = weapons if key == "attack" else list(stealth.CIRCUMSTANCES)
            return completions(typed, listed, listed=True)
        return completions(typed, options.get(key, ()))

    def check_names(self, combatant: Any) -> list[str]:
        """The six traits and twelve subtraits (:data:`checks.SCORE_NAMES`)."""
        return list(checks.SCORE_NAMES)

    def check(
        self,
        state: UtopiaState,
        combatant: Any,
        skill: str,
        difficulty: int | None,
        *,
        target: str | None = None,
        against: str | None = None,
    ) -> CommandBase:
        """A test of a trait or subtrait (:mod:`bot.engine.utopia.checks`). Raises
        :class:`InvalidInput` for a name that is neither, or a difficulty with a target."""
        if target is not None and difficulty is not None:
            raise InvalidInput(
                "A test is against a `difficulty:` or opposed by a `target:`, not both."
            )
        if against is not None and target is None:
            raise InvalidInput("`against:` names the target's trait: give a `target:` too.")
        return cmd.Test(
            actor=combatant.id,
            score=checks.score_name(skill),
            difficulty=difficulty,
            target=target,
            against=checks.score_name(against) if against is not None else None,
        )

    # -- decisions ------------------------------------------------------------------------------
    def lapse(self, state: UtopiaState, decision: Any = None) -> CommandBase:
        p = decision if decision is not None else state.pending
        if p is None:
            raise self.nothing_to_resolve()
        if isinstance(p, AssistDecision):
            return cmd.AssistDefense(actor=p.hit.target, choice="roll", decision=p.id or None)
        return cmd.Defend(actor=p.target, choice="none", decision=p.id or None)

    def answer(
        self, state: UtopiaState, decider: Any, option: ReactionOption, decision: Any = None
    ) -> CommandBase:
        ref = (decision.id or None) if decision is not None else None
        if isinstance(decision, AssistDecision):
            if option.choice not in assist_defense.ANSWERS:  # a typed /dodge or /block
                decider_name = names.escaped(decider.name)
                raise RuleViolation(assist_defense.chosen_already(decision, decider_name))
            return cmd.AssistDefense.model_validate(
                {"actor": decider.id, "choice": option.choice, "decision": ref}
            )
        return cmd.Defend.model_validate(
            {"actor": decider.id, "choice": option.choice, "decision": ref}
        )

    def breather_action(self) -> str | None:
        """``utopia-actions.txt`` "Deep Breath" (1 TA: 1 Stamina)."""
        return "deep-breath"

    def standing_words(self) -> StandingWords:
        """``utopia-actions.txt`` "Block", "Dodge" and "Take Cover": the defense taken when the
        window would run out (each step only when it can be paid for now)."""
        return StandingWords(
            choices={"block": "block", "dodge": "dodge", "cover": "cover", "take cover": "cover"},
            example="block if I can afford it, else take it",
        )

    def decision_subject(self, state: UtopiaState, decision: Any) -> str | None:
        if isinstance(decision, AssistDecision):
            return str(decision.hit.target)
        return str(decision.target)

    def decision_words(
        self,
        state: UtopiaState,
        decision: Any,
        deciders: Mapping[str, list[ReactionOption]],
        public: View,
    ) -> DecisionWords:
        tx = self._read(state)
        if isinstance(decision, AssistDecision):
            return assist_defense.words(tx, decision, deciders, public)
        unable = ""
        if [o.choice for o in deciders.get(decision.target, [])] == ["none"]:
            unable = unable_reason(tx, tx.view(decision.target), decision.attacker)
        return decision_words.decision_words(state, decision, deciders, public, unable)

    def reading(self, state: UtopiaState) -> Tx:
        return self._read(state)

    def _read(self, state: UtopiaState) -> Tx:
        """A transaction for read-only questions (it never rolls)."""
        return Tx(
            state,
            self.played,
            _NO_DICE,
            datetime.min,
            self.economy,
            self.turn_order,
            version=self.version,
        )

    def reaction_options(
        self, state: UtopiaState, combatant_id: str, decision: Any = None
    ) -> list[ReactionOption]:
        """The target's defenses it can afford now: Block, Dodge, Take Cover (not twice for
        one source) — each 1 TA on its turn or 1 IA off it — and no defense."""
        p = decision if decision is not None else state.pending
        if isinstance(p, AssistDecision):
            return assist_defense.options(self._read(state), p, combatant_id)
        if p is None or p.target != combatant_id:
            return []
        tx = self._read(state)
        return pay_words.defense_buttons(tx, p, tx.view(combatant_id))

    def may_be_asked(self, state: UtopiaState, combatant_id: str, decision: Any = None) -> bool:
        p = decision if decision is not None else state.pending
        if isinstance(p, AssistDecision):
            return assist_defense.may_be_asked(self._read(state), p, combatant_id)
        if p is None or p.target != combatant_id:
            return False
        c = state.get(combatant_id)
        return not c.has(DOWN)

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
        """Down on or off. Down follows DHP and has no duration: a ``lasts:`` was once
        dropped without a word (the creature stayed Down), so it is refused here, when the
        GM gives it — not in the logged command, which older fights replay as they were."""
        if present:
            refuse_lasts_on_down("Utopia", "DHP", "DHP 0 or less is Down", lasts)
        return cmd.SetCondition(target=target, condition=name, present=present)

    def boon_command(self, target: str, dice: int, *, until_removed: bool) -> CommandBase:
        """The GM's ``dice`` points of favor (negative: disfavor) on the target's next test, or
        every test ``until_removed`` (:func:`checks.grant_favor`)."""
        return cmd.GrantFavor(target=target, points=dice, until_removed=until_removed)

    def vital_names(self) -> tuple[str, ...]:
        return _VITALS

    def vital_label(self, vital: str) -> str:
        """SHP, DHP, TA and IA as the text writes them; Stamina."""
        return vital.title() if vital == "stamina" else vital.upper()

    def vitals_command(self, target: str, changes: Mapping[str, tuple[int, bool]]) -> CommandBase:
        for vital in changes:
            if vital not in _VITALS:
                raise InvalidInput(
                    f"Utopia has no vital called {names.quoted(vital)}: shp, dhp, stamina, ta "
                    "or ia."
                )
        return cmd.SetVitals(target=target, **{k: v for k, v in changes.items()})

    def rest_command(self, kind: Literal["short", "long"]) -> CommandBase:
        """A rest (:mod:`bot.engine.utopia.rest`); one the tables do not give is refused."""
        if getattr(self.tables.rest, kind) is None:
            raise InvalidInput(rest.no_rest(kind))
        return cmd.Rest(rest=kind)

    def healing_command(self, weeks: int) -> CommandBase:
        """Natural healing; refused while the tables give 0 DHP a week (the default)."""
        if self.tables.rest.dhp_per_week <= 0:
            raise InvalidInput(rest.NO_HEALING)
        return cmd.NaturalHealing(weeks=weeks)

    # -- presentation -------------------------------------------------------------------------
    def conditions(self) -> list[str]:
        return list(CONDITIONS)

    def stances(self, combatant: Any = None) -> list[str]:
        return []

    def attack_names(self, combatant: Any) -> list[str]:
        return [*(w.name for w in combatant.sheet.weapons), "weaponless"]

    def odds(
        self, state: Any, attacker: Any, target: Any, attack: str, *, range_m: float | None = None
    ) -> Odds:
        """Utopia exact odds (issue 18): :func:`bot.engine.utopia.odds.utopia_odds` (the
        distance: ``range_m``, else the encounter's positions)."""
        if range_m is None:
            range_m = state.positions.distance(attacker.id, target.id)
        weapon = combat.weapon_named(attacker, attack)
        return utopia_odds(
            self.tables, attacker, target, weapon, range_m, self.scale, version=self.version
        )

    rehearsal_policies: ClassVar[tuple[str, ...]] = POLICIES

    def rehearsal(self, policy: str) -> UtopiaPolicy:
        """Utopia rehearsal policies (issue 18): :mod:`bot.engine.utopia.rehearse`."""
        return UtopiaPolicy(self.tables, policy, self.lapse)

    def wound_level(self, combatant: Any) -> str:
        """Down, Bloodied (DHP lost), Hurt (SHP lost) or Unhurt: from damage only."""
        if combatant.has(DOWN):
            return "Down"
        if combatant.dhp < combatant.sheet.dhp:
            return "Bloodied"
        if combatant.shp < combatant.sheet.shp:
            return "Hurt"
        return "Unhurt"

    wound_levels = ("Unhurt", "Hurt", "Bloodied", "Down")

    def combatant_pools(self, combatant: Any) -> dict[str, PoolReading]:
        """SHP, DHP and Stamina as the text writes them (Utopia "Hit Points", "Stamina")."""
        s = combatant.sheet
        return {
            "SHP": PoolReading(value=combatant.shp, maximum=s.shp),
            "DHP": PoolReading(value=combatant.dhp, maximum=s.dhp),
            "Stamina": PoolReading(value=combatant.stamina, maximum=s.stamina),
        }

    def status(self, combatant: Any, *, revealed: bool, compact: bool, in_fight: bool) -> list[str]:
        """TA and IA left, SHP, DHP and Stamina; hidden: the wound level."""
        if not revealed:
            return [self.wound_level(combatant)]
        parts: list[str] = []
        p = combatant.pools
        if in_fight:
            ia = f"{p.get('interrupt', 0) + p.get('held', 0)} IA"
            if p.get("held_new", 0):  # held (Hold, Exchange) on this turn: usable after it
                ia += f" (+{p['held_new']} held for after this turn)"
            parts.append(f"{p.get('turn', 0)} TA · {ia}")
        s = combatant.sheet
        parts += [
            f"SHP {combatant.shp}/{s.shp}",
            f"DHP {combatant.dhp}/{s.dhp}",
            f"St {combatant.stamina}/{s.stamina}",
        ]
        return parts

    def turn_words(self, state: UtopiaState, combatant: Any, *, revealed: bool) -> str | None:
        return interleave.turn_words(state, combatant, revealed=revealed)

    def turn_guide(self, combatant: Any, *, revealed: bool) -> str:
        guide = (
            "spend your turn actions (TA) with `/act`: Attack, Aim, Travel, Leap, Stealth, "
            "Cast a spell, Grapple, Scale, Deep Breath, Hold… (`/act` lists each with its cost)."
        )
        if not revealed:
            return guide
        return f"{guide} {combatant.pools.get('turn', 0)} TA left."


class _NoDice:
    """A roller for read-only questions (which defenses a creature can afford): never rolls."""

    def roll(self, count: int, sides: int) -> list[int]:
        raise AssertionError("a read-only question rolled dice")


_NO_DICE = _NoDice()
