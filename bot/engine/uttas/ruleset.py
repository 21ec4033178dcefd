"""The UTTAS ruleset: dispatches commands to the rule modules (``uttas-gameplay.txt``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any, ClassVar, Literal, get_args

from pydantic import BaseModel, TypeAdapter

from bot import names
from bot.engine.core import order, places, scenes
from bot.engine.core.audience import View
from bot.engine.core.built import built
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
from bot.engine.core.economy import ActionEconomy, SpeedPool
from bot.engine.core.effects import Lasts
from bot.engine.core.events import Event, Outcome
from bot.engine.core.odds import Odds
from bot.engine.core.order import TurnOrder
from bot.engine.core.standing import ALWAYS, StandingWords
from bot.engine.core.verbs import ActInput, ActionSpec, DetailChoice, completions
from bot.engine.uttas import (
    actions,
    attacks,
    chase,
    decision_words,
    form,
    gm,
    healing,
    items,
    limbs,
    movement,
    reactions,
    record,
    rules,
    setup,
    sheet_text,
    skills_long,
    verbs,
)
from bot.engine.uttas import commands as cmd
from bot.engine.uttas.core import RULES_VERSION, TURN_ORDER, Tx
from bot.engine.uttas.events import EVENT_TYPES
from bot.engine.uttas.odds import uttas_odds
from bot.engine.uttas.record import UttasRecord, record_lines
from bot.engine.uttas.rehearse import POLICIES, UttasPolicy
from bot.engine.uttas.sheet import CHARACTERISTICS, MOVEMENT_MODES, UttasSheet
from bot.engine.uttas.state import (
    BASE_CONDITIONS,
    DEAD,
    HIDDEN,
    PRONE,
    UNCONSCIOUS,
    Combatant,
    UttasState,
)
from bot.engine.uttas.tables import UttasTables, default_tables, load_tables
from bot.errors import DomainError, InvalidInput, RuleViolation

_Handler = Callable[[Tx, Any], None]
_HANDLERS: dict[str, _Handler] = {
    "add_combatant": setup.add_combatant,
    "remove_combatant": setup.remove_combatant,
    "begin": setup.begin,
    "attack": lambda tx, c: attacks.declare(tx, c, on_turn=True),
    "react": reactions.react,
    "resolve_surrender": reactions.resolve_surrender,
    "stance": actions.change_stance,
    "move": movement.move,
    "sprint": movement.sprint,
    "stand": movement.stand,
    "breather": actions.breather,
    "ready": actions.ready,
    "resolve_readied": actions.resolve_readied,
    "use_skill": actions.use_skill,
    "stop_skill": skills_long.stop,
    "first_aid": healing.first_aid,
    "break_free": actions.break_free,
    "activate_power": actions.activate_power,
    "drop_power": actions.drop_power,
    "grapple_contest": actions.grapple_contest,
    "surrender": actions.surrender,
    "talk": actions.talk,
    "start_chase": chase.start_chase,
    "end_chase": chase.end_chase,
    "rest": setup.rest,
    "natural_healing": setup.natural_healing,
    "set_condition": setup.set_condition,
    "adjust_characteristic": setup.adjust_characteristic,
}
_HANDLERS.update(order.HANDLERS)  # the core's turn-order commands
_HANDLERS.update(scenes.HANDLERS)  # the core's effect commands (the GM ends a scene…)
_HANDLERS.update(places.HANDLERS)  # the core's position commands (distances, engagement)
_HANDLERS.update(gm.HANDLERS)  # Game Master tools; wraps rolling commands with GM dice
_HANDLERS.update(items.HANDLERS)  # drawing, using and putting away items (issue 11)


_CHOICES = frozenset(get_args(cmd.ReactionChoice))


class UttasRuleset(Ruleset[UttasState]):
    """UTTAS (``uttas-gameplay.txt``). ``tables`` are the GM-changeable defaults
    (``data/uttas/tables.json``); pass a server's own :class:`UttasTables` to override them."""

    key: ClassVar[str] = "uttas"
    title: ClassVar[str] = "UTTAS"
    boons: ClassVar[str | None] = "dice"
    odds_out: ClassVar[tuple[str, ...]] = (DEAD,)
    """Only the dead: an Unconscious or Surrendered target may still be attacked ("Any further
    Stamina damage puts the creature into negative Stamina"); its odds show no reaction."""
    odds_out_words: ClassVar[str] = "dead"
    nothing_waiting: ClassVar[str] = "no attack is waiting for a reaction"
    sheet_model: ClassVar[type[UttasSheet]] = UttasSheet
    state_model: ClassVar[type[UttasState]] = UttasState
    command_adapter: ClassVar[TypeAdapter[CommandBase]] = command_adapter(
        (*cmd.OWN_COMMANDS, skills_long.StopSkill), TURN_ORDER
    )
    event_types: ClassVar[Mapping[str, type[Event]]] = EVENT_TYPES
    economy: ActionEconomy = SpeedPool()
    turn_order: TurnOrder = TURN_ORDER
    # "Take a Breather" (uttas-gameplay.txt, "Actions"): recovers Stamina and ends the turn.
    deadline_action_keys: ClassVar[tuple[str, ...]] = ("breather",)
    rules_version: ClassVar[int] = RULES_VERSION
    """Version 2 (issue 11): the Speed pool refills at the start of the own turn, and an empty
    one skips that turn (``SpeedPool``); version 1 refilled it at the end of the own turn.

    Version 3: the GM removing the combatant whose turn it is, when its leaving ends the fight
    (the last of its side, or the last one standing), ends the fight at once: no turn passes
    on, so nobody's turn starts in a fight that is over
    (:meth:`bot.engine.core.tx.CoreTx.leave_fight`); a second ``/gm skip`` of a combatant
    already set to skip its next turn is refused (:func:`bot.engine.core.order.skip_turn`).
    Versions 1 and 2 began the next turn first and noted the second skip again, and still do,
    so their logs replay exactly (the core's readings: ``Tx.LATER_READINGS``; version 4's are
    UTTAS's own, ``Tx.READINGS``).

    Version 4: an attack (or a counterattack, or a coordinated attack) with a maintained power
    records the power as maintained, so ``DropPower`` frees its held Stamina (versions 1–3 held
    it for good), and a second use while it is maintained is refused as ``ActivatePower``
    refuses one; the target of an opposed check rolls with its disabled head's Disadvantage
    ("Head": "a Disadvantage on all ... skill checks"); a grapple holds one limb per *working*
    arm ("Arms/Hands": a disabled arm "cannot be used for any actions"), so a grappler with no
    working arm cannot grapple; the Game Master's dice (``/gm advantage``) join every Accuracy
    and skill roll of their combatant — also its side of an opposed check, First Aid, standing
    with Acrobatics, a counterattack and a coordinated attack, which versions 1–3 rolled without
    them (a coordinated ally rolled with the attacker's instead), each as it is rolled — a
    flurry's next-roll dice join its first hit only (versions 1–3: every hit); a Move reaction,
    which steps away, is refused to (and not offered to) a creature that cannot move — Prone, in
    a grapple, Entangled or Barred, with no speed left — which versions 1–3 allowed; a creature
    held in a grapple spends actions only on escaping it or taking control (the grapple contest,
    a Warp away; recovering from Stunned is forced on it), checked where every action is paid —
    versions 1–3 let it pay for a later stance change, breaking out of a binding or its readied
    action; standing up by spending half the Run speed is moving, so a stance change after it is
    no longer the free one of the turn's start (versions 1–3 kept it free).

    Version 5: the Game Master ending a day (or a quest or an arc, ``/gm time end-of``) in an
    encounter moves the encounter's clock to the start of the next day, as ``/campaign end-of``
    moves the campaign clock, so the fight's days (healing limits) and the campaign clock it
    leaves behind are the new day's; versions 1–4 said "A new day begins" and left the clock.

    Version 6: the texts count in plain English — "Willow spends 1 action on Punch", "The chase
    ends after 2 rounds" (``Tx.READINGS["counted_words"]``); versions 1–5 wrote "1 action(s)"
    and "2 round(s)", and their logs keep those words. A creature recovering from Stunned is said
    to spend its turn so ("Willow spends the turn recovering from Stunned.") before it is said no
    longer Stunned, as things happen (``Tx.READINGS["stun_lost_after_the_turn"]``); versions 1–5
    said the recovery first.

    Version 7: a breather at full Stamina (less what maintained powers hold) is refused, saying
    why — it would spend the turn's action and one of the character's breathers to "recover
    some Stamina" of none (``Tx.READINGS["breather_refused_at_full"]``); the GM putting a
    condition on a creature that already has it, for as long, is refused
    (``Tx.READINGS["unchanged_condition_refused"]``). Versions 1–6 took the breather and
    noted the condition's "nothing changed." as a change of its own (an undo step of its own),
    and their logs replay as they were played."""
    known_versions: ClassVar[tuple[int, ...]] = (1, 2, 3, 4, 5, 6, 7)
    handlers: ClassVar[Mapping[str, _Handler]] = _HANDLERS
    """How each command kind is applied (a variant of the rules adds its own)."""

    tables: UttasTables

    def __init__(self, tables: UttasTables | None = None, version: int | None = None) -> None:
        self.tables = tables if tables is not None else default_tables()
        self.version = self.rules_version if version is None else version
        refill = self.tables.speed_refill or (
            "turn_start" if Tx.reads_at(self.version, "speed_refills_at_turn_start") else "turn_end"
        )
        self.economy = SpeedPool(refill)
        self.scale = self.tables.range.scale

    @classmethod
    def configured(cls, changes: dict[str, Any] | None) -> UttasRuleset:
        return cls(load_tables(overrides=changes) if changes else None, cls.rules_version)

    @classmethod
    def from_tables(cls, tables: dict[str, Any], version: int) -> UttasRuleset:
        return cls(load_tables(tables), version)

    add_combatant_command: ClassVar[type[Any]] = cmd.AddCombatant
    record_model: ClassVar[type[UttasRecord]] = UttasRecord

    def one_off_sheet(self, name: str, stats: Mapping[str, int]) -> BaseModel:
        """Health, Stamina, Speed, Agility and Strength as given; ``damage``: the damage dice
        of a Strike weapon."""
        data: dict[str, Any] = {k: v for k, v in stats.items() if k != "damage"}
        data["name"] = name
        if stats.get("damage") is not None:
            data["weapons"] = [{"name": "Strike", "damage_dice": stats["damage"]}]
        return self.parse_sheet(data)

    def sheet_form(self) -> SheetForm:
        return form.SHEET_FORM

    def record_of(self, combatant: Any) -> UttasRecord:
        return record.record_of(combatant)

    def sheet_sections(
        self, sheet: BaseModel, *, full: bool, name: Callable[[str], str]
    ) -> list[SheetSection]:
        if not isinstance(sheet, UttasSheet):
            raise InvalidInput(f"Not a {self.title} sheet.")
        return sheet_text.sections(sheet, self.tables, full=full, name=name)

    def record_lines(self, sheet: BaseModel, record: BaseModel | None) -> list[str]:
        if not isinstance(sheet, UttasSheet) or (
            record is not None and not isinstance(record, UttasRecord)
        ):
            raise InvalidInput(f"Not a {self.title} sheet and record.")
        return record_lines(sheet, record, self.tables)

    def refreshed(self, combatant: Any, sheet: BaseModel) -> Combatant:
        if not isinstance(sheet, UttasSheet):
            raise InvalidInput(
                f"**{names.escaped(combatant.name)}**'s sheet is not a {self.title} sheet."
            )
        fresh: Combatant = combatant.clone().model_copy(
            update={
                "sheet": sheet,
                "health": min(combatant.health, sheet.health),
                "stamina": min(combatant.stamina, sheet.stamina),
            }
        )
        items.refit(fresh)  # the hands hold only what the new sheet carries
        return fresh

    def tables_data(self) -> dict[str, Any]:
        data: dict[str, Any] = self.tables.model_dump(mode="json")
        return data

    def apply(
        self, state: UttasState, command: CommandBase, roller: DiceRoller, now: datetime
    ) -> Outcome:
        """Apply one command (see :mod:`bot.engine.core.commands` and
        :mod:`bot.engine.uttas.commands`). Never mutates ``state``; raises a
        :class:`~bot.errors.DomainError` subclass, changing nothing, when the rules forbid it."""
        tx = Tx(
            state, self.tables, roller, now, self.economy, self.turn_order, version=self.version
        )
        if command.kind not in ("resolve_readied", "move", "talk"):
            tx.state.__dict__["last_mover"] = None  # the command's own copy: no __setattr__
        self.handlers[command.kind](tx, command)
        # What follows a command's changes: a skill in progress interrupted, healed limbs, what
        # disabled hands drop. Each looks only at a running fight's combatants this command
        # changed that carry a skill in progress or a disabled limb (the hot path: nobody).
        if tx.state.phase != "active" or any(
            c.skill_in_progress is not None or c.disabled_limbs for c in tx.changed()
        ):
            skills_long.check_interruptions(tx)
            tx.limbs_follow_health(state)
            items.drop_from_disabled_hands(tx)
        attacks.drop_orphaned_attack(tx)
        attacks.settle_if_undecidable(tx)
        tx.pass_turn_if_unable()
        chase.follow(tx)
        return Outcome(state=tx.state, events=tx.events)

    def reading(self, state: UttasState) -> Tx:
        return Tx(
            state, self.tables, NoDice(), EPOCH, self.economy, self.turn_order, version=self.version
        )

    def conditions(self) -> list[str]:
        return [*BASE_CONDITIONS, *self.tables.extra_conditions]

    def stances(self, combatant: Combatant | None = None) -> list[str]:
        """All stances in the table, or those ``combatant`` knows (universal ones included)."""
        if combatant is None:
            return list(self.tables.stances)
        known = {s.casefold() for s in (*self.tables.universal_stances, *combatant.sheet.stances)}
        return [s for s in self.tables.stances if s.casefold() in known]

    def attack_names(self, combatant: Combatant) -> list[str]:
        """Weapons, powers that target Dodge or Discipline, attack/counter martial arts, then the
        basic maneuvers (UTTAS "Actions and Speed": every character can use Basic Maneuvers).

        Each name once, in the order :func:`rules.attack_profile` looks them up, so the entry
        listed is the one an attack by that name uses: a weapon called ``Strike`` shadows the
        basic maneuver Strike, which is then not listed."""
        sheet = combatant.sheet
        found = [w.name for w in sheet.weapons]
        found += [p.name for p in sheet.powers if p.targets]
        found += [m.name for m in sheet.martial_arts if m.maneuver in ("attack", "counter")]
        found += [b.name for b in self.tables.basic_maneuvers]
        return names.unique(found)

    def usable_attack_names(self, state: UttasState, combatant: Combatant) -> list[str]:
        """:meth:`attack_names` without an attack power ``combatant`` already maintains, from
        rules version 4 (``"maintained_attacks"``, :attr:`Tx.READINGS`: attacking with it again is
        refused until it is dropped, "Activating Powers"); a weapon of the same name, which
        an attack by that name uses, stays."""
        found = self.attack_names(combatant)
        if not Tx.reads_at(self.version, "maintained_attacks"):
            return found
        sheet = combatant.sheet
        held = {mp.power for mp in combatant.maintained}
        weapons = {w.name for w in sheet.weapons}
        blocked = {p.name for p in sheet.powers if p.targets and p.maintained and p.name in held}
        return [name for name in found if name not in blocked - weapons]

    def odds(
        self,
        state: UttasState,
        attacker: Combatant,
        target: Combatant,
        attack: str,
        *,
        range_m: float | None = None,
    ) -> Odds:
        """UTTAS exact odds (issue 18): :func:`bot.engine.uttas.odds.uttas_odds`."""
        return uttas_odds(self.tables, state, attacker, target, attack, range_m, self.scale)

    def odds_target(self, attacker: Any, target: Any) -> None:
        """:meth:`OddsHooks.odds_target`, and a Hidden target as ``/attack`` refuses it (find
        them first: "a Perception check against them")."""
        super().odds_target(attacker, target)
        if target.has(HIDDEN):
            raise RuleViolation(attacks.unseen(target))

    rehearsal_policies: ClassVar[tuple[str, ...]] = POLICIES

    def rehearsal(self, policy: str) -> UttasPolicy:
        """UTTAS rehearsal policies (issue 18): :mod:`bot.engine.uttas.rehearse`."""
        return UttasPolicy(self.tables, self.attack_names, policy)

    def status(
        self, combatant: Combatant, *, revealed: bool, compact: bool, in_fight: bool
    ) -> list[str]:
        """Actions left of Speed, stance, Health and Stamina (UTTAS "Actions and Speed",
        "Damage"); hidden: the stance and the wound level."""
        parts: list[str] = []
        if revealed and in_fight:
            speed = combatant.sheet.speed
            parts.append(f"{combatant.actions_left}/{speed}" + ("" if compact else " actions"))
        if combatant.stance and not compact:
            parts.append(combatant.stance)
        if not revealed:
            parts.append(self.wound_level(combatant))
        else:
            parts.append(f"H {combatant.health}/{combatant.sheet.health}")
            parts.append(f"S {combatant.stamina}/{combatant.sheet.stamina}")
        return parts

    def sheet_of(self, combatant: Combatant) -> UttasSheet:
        return combatant.sheet

    def skill_names(self, combatant: Combatant) -> list[str]:
        return list(combatant.sheet.skills)

    # -- decisions and the GM's tools, as commands ----------------------------------------------
    def lapse(self, state: UttasState, decision: Any = None) -> CommandBase:
        pending = decision if decision is not None else state.pending
        if pending is None:
            raise self.nothing_to_resolve()
        ref = pending.id or None
        if pending.awaiting == "attacker":  # UTTAS "Surrender": the attacker stops
            return built(cmd.ResolveSurrender, actor=pending.attacker, complete=False, decision=ref)
        # the engine's own values: not validated again (bot.engine.core.built)
        return built(cmd.React, actor=pending.target, choice="none", decision=ref)

    def answer(
        self, state: UttasState, decider: Any, option: ReactionOption, decision: Any = None
    ) -> CommandBase:
        ref = (decision.id or None) if decision is not None else None
        if option.choice in ("complete", "stop"):
            return built(
                cmd.ResolveSurrender,
                actor=decider.id,
                complete=option.choice == "complete",
                decision=ref,
            )
        if option.maneuver is None and option.stance is None and option.choice in _CHOICES:
            # A plain choice (a button's Evade, no reaction…): nothing to validate again
            # (bot.engine.core.built). A maneuver or stance may be a member's typed words
            # (``/dodge maneuver:``): validated, as a name.
            return built(
                cmd.React,
                actor=decider.id,
                choice=option.choice,
                maneuver=None,
                stance=None,
                decision=ref,
            )
        return cmd.React(
            actor=decider.id,
            choice=option.choice,
            maneuver=option.maneuver,
            stance=option.stance,
            decision=ref,
        )

    def typed_reaction(self, word: Literal["dodge", "block"]) -> str:
        """``/dodge`` is UTTAS's Evade ("Reactions"), ``/block`` its Block."""
        return "evade" if word == "dodge" else word

    def breather_action(self) -> str | None:
        """UTTAS "Take a Breather"."""
        return "breather"

    def attack_command(
        self,
        state: UttasState,
        combatant: Any,
        target: str,
        attack: str,
        together: tuple[str, ...] = (),
    ) -> CommandBase:
        """UTTAS "Attack" at the distance the GM placed them (as ``/attack`` without
        ``range:``), with the allies ``together`` whose coordinated attacks strike with it (as
        ``/attack together:``)."""
        return cmd.Attack(actor=combatant.id, target=target, attack=attack, with_readied=together)

    def joint_attackers(self, state: UttasState, attacker: str, target: str) -> list[str]:
        """UTTAS "Perform a readied action": the allies whose readied coordinated attack with
        ``attacker`` is aimed at ``target`` ("both ... perform their attacks at the exact same
        time")."""
        return [
            c.id
            for c in state.combatants
            if c.readied is not None
            and c.readied.trigger == "coordinated"
            and c.readied.watch == attacker
            and c.readied.target == target
        ]

    def standing_words(self) -> StandingWords:
        """UTTAS "Perform a Reaction command", Defend: Evade (also typed ``dodge``), Block or
        Move; a step may apply only ``against melee`` or ``against ranged`` attacks (the
        attack's kind: "melee" weapons and maneuvers, or anything else — thrown, mechanical,
        powers)."""
        return StandingWords(
            choices={"evade": "evade", "dodge": "evade", "block": "block", "move": "move"},
            conditions={"melee": "melee", "ranged": "ranged"},
        )

    def standing_holds(self, state: UttasState, decision: Any, condition: str) -> bool:
        if condition == ALWAYS:
            return True
        if getattr(decision, "awaiting", None) != "reaction":
            return False
        attacker = state.get(decision.attacker)
        try:
            kind = rules.attack_profile(attacker, decision.attack, self.tables).kind
        except DomainError:
            return False
        return (kind == "melee") == (condition == "melee")

    def decision_subject(self, state: UttasState, decision: Any) -> str | None:
        """The target of an attack waiting for its reaction; nobody's after a surrender (the
        attacker decides)."""
        return str(decision.target) if decision.awaiting == "reaction" else None

    def decision_options(self, state: UttasState, decision: Any) -> dict[str, list[ReactionOption]]:
        """The target and allies who may take the hit (:meth:`Ruleset.decision_options`),
        the target first; after a surrender, the attacker alone: complete or stop (UTTAS
        "Surrender")."""
        if decision.awaiting == "attacker":
            return {
                decision.attacker: [
                    ReactionOption(choice="complete", label="Complete the attack"),
                    ReactionOption(choice="stop", label="Stop and end the turn"),
                ]
            }
        deciders = super().decision_options(state, decision)
        return dict(sorted(deciders.items(), key=lambda item: item[0] != decision.target))

    def decision_candidates(self, state: UttasState, decision: Any) -> list[Combatant]:
        """UTTAS "Perform a Reaction command" and "Take one for the team": only the target and
        its allies (not the attacker) can answer an attack; nobody can answer one hidden from
        its target (:func:`reactions.may_decide`)."""
        return reactions.may_decide(state, decision)

    def decision_words(
        self,
        state: UttasState,
        decision: Any,
        deciders: Mapping[str, list[ReactionOption]],
        public: View,
    ) -> DecisionWords:
        return decision_words.decision_words(state, decision, deciders, public)

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
        return cmd.SetCondition(
            target=target,
            condition=name,
            present=present,
            limb=detail,
            lasts=lasts if present else "until_removed",
            rounds=rounds if present and lasts == "rounds" else None,
        )

    def boon_command(self, target: str, dice: int, *, until_removed: bool) -> CommandBase:
        return cmd.GrantDice(target=target, dice=dice, until_removed=until_removed)

    def vital_names(self) -> tuple[str, ...]:
        return ("health", "stamina")

    def vitals_command(self, target: str, changes: Mapping[str, tuple[int, bool]]) -> CommandBase:
        fields: dict[str, int] = {}
        for vital, (value, relative) in changes.items():
            if vital not in self.vital_names():
                raise InvalidInput(
                    f"UTTAS has no vital called {names.quoted(vital)}: health or stamina."
                )
            fields[f"{vital}_change" if relative else vital] = value
        return cmd.SetVitals(target=target, **fields)

    def rest_command(self, kind: Literal["short", "long"]) -> CommandBase:
        return cmd.Rest(rest=kind)

    def healing_command(self, weeks: int) -> CommandBase:
        return cmd.NaturalHealing(weeks=weeks)

    def hazard_command(self, target: str, dice: int, damage_type: str, source: str) -> CommandBase:
        """UTTAS "Damage": ``dice`` d6 through Armor and Defense (:func:`gm.hazard`)."""
        return cmd.Hazard(target=target, dice=dice, damage_type=damage_type, source=source)

    def characteristic_names(self) -> tuple[str, ...]:
        """UTTAS's characteristics (``uttas-gameplay.txt``: Agility, Body, …)."""
        return CHARACTERISTICS

    def characteristic_command(self, target: str, characteristic: str, delta: int) -> CommandBase:
        """Aid/Drain by the GM (:func:`setup.adjust_characteristic`; "Take a Breather": Aid and
        Drain change the roll, not the number of breathers)."""
        wanted = characteristic.strip().casefold()
        if wanted not in CHARACTERISTICS:
            raise InvalidInput(
                f"UTTAS has no characteristic {names.quoted(characteristic, 40)}: "
                + ", ".join(c.title() for c in CHARACTERISTICS)
                + "."
            )
        return cmd.AdjustCharacteristic.model_validate(
            {"target": target, "characteristic": wanted, "delta": delta}
        )

    def chase_command(
        self,
        *,
        quarry: str | None = None,
        pursuer: str | None = None,
        gap_m: float | None = None,
        outcome: str | None = None,
    ) -> CommandBase:
        """UTTAS "Chase Scenes" (:mod:`bot.engine.uttas.chase`)."""
        if quarry is not None and pursuer is not None:
            return cmd.StartChase(quarry=quarry, pursuer=pursuer, gap_m=gap_m)
        return cmd.EndChase.model_validate({"outcome": outcome or "called off"})

    def scene_lines(self, state: UttasState, name: dict[str, str]) -> list[str]:
        """The chase scene running, if any (:func:`bot.engine.uttas.chase.lines`)."""
        return chase.lines(state.chase, name, self.scale)

    # -- the command surface (decision D): bot/engine/uttas/verbs.py ---------------------------
    def actions(self, state: UttasState, combatant: Any) -> list[ActionSpec]:
        return list(verbs.ACTIONS)

    def act(self, state: UttasState, combatant: Any, given: ActInput) -> CommandBase:
        """``/act``'s command; an ``amount:`` that is a distance (the move actions) is typed in
        the board's unit and becomes meters here (:attr:`scale`)."""
        spec = verbs.BY_KEY.get(given.key.strip().casefold().replace(" ", "-"))
        if spec is not None and spec.amount == "meters" and given.amount is not None:
            given = given.model_copy(update={"amount": self.scale.to_meters(given.amount)})
        return verbs.act(combatant, given)

    def detail_choices(
        self, state: UttasState, combatant: Any, key: str, typed: str
    ) -> list[DetailChoice]:
        """``detail:`` suggestions (:meth:`Ruleset.detail_choices`) from ``combatant``'s
        sheet and hands: the stances it knows but is not in, the movement modes it has a speed
        in now, how to stand (when Prone), skills, the powers ``/act``
        activates (not attack powers, which ``/attack`` uses, nor movement powers, which
        ``/move`` uses, nor one already maintained), the powers it maintains, its items not used
        up, what it may draw (weapons and items that take a hand and are not in hand), what it
        holds and the bindings it may break out of (UTTAS "Actions"; "Items"; "Activate a
        Power")."""
        c: Combatant = combatant
        sheet = c.sheet
        held = set(c.holding.values())
        maintained = {m.power for m in c.maintained}
        modes: list[str] = [m for m in MOVEMENT_MODES if limbs.speed(c, m, self.tables) > 0]
        options: dict[str, list[str]] = {
            "stance": [s for s in self.stances(c) if s.casefold() != (c.stance or "").casefold()],
            "move": modes,
            "full-move": modes,
            "sprint": modes,
            "stand": ["move", "acrobatics"] if c.has(PRONE) else [],
            "skill": self.skill_names(c),
            "power": [
                p.name
                for p in sheet.powers
                if p.targets is None
                and (p.movement_mode is None or p.effect is not None)
                and not (p.maintained and p.name in maintained)
            ],
            "drop-power": [m.power for m in c.maintained],
            "use-item": [i.name for i in sheet.items if items.uses_left(c, i) != 0],
            "draw": [
                *(w.name for w in sheet.weapons if w.hands and w.name not in held),
                *(i.name for i in sheet.items if i.hands and i.name not in held),
            ],
            "stow": list(dict.fromkeys(c.holding.values())),
            "break-free": [
                name
                for name, extra in self.tables.extra_conditions.items()
                if extra.break_attempts and c.has(name)
            ],
        }
        return completions(typed, options.get(key, ()))

    def check_names(self, combatant: Any) -> list[str]:
        return self.skill_names(combatant)

    def check(
        self,
        state: UttasState,
        combatant: Any,
        skill: str,
        difficulty: int | None,
        *,
        target: str | None = None,
        against: str | None = None,
    ) -> CommandBase:
        """UTTAS "Perform a skill"; with a target, an opposed check
        (:mod:`bot.engine.uttas.perception`)."""
        return cmd.UseSkill(
            actor=combatant.id, skill=skill, difficulty=difficulty, target=target, against=against
        )

    def power_names(self, combatant: Combatant) -> list[str]:
        return [p.name for p in combatant.sheet.powers if not p.targets]

    def turn_guide(self, combatant: Combatant, *, revealed: bool) -> str:
        """UTTAS "Combat", "Actions and Speed": a stance (free now), a free half move, then one
        action, which ends the turn; the Speed pool serves the turn's action and every reaction
        until the pool refills (rules version 2: at the start of the next turn, which is skipped
        if the pool is empty then; version 1: at the end of this turn, so it is lower after
        reacting)."""
        guide = "enter a stance (free now), take a free half move, then one action."
        if not revealed:
            return guide
        left, speed = combatant.actions_left, combatant.sheet.speed
        if getattr(self.economy, "refill", "turn_end") == "turn_start":
            return (
                f"{guide} Speed pool: {left} of {speed} actions for this turn and your reactions "
                "until your next turn (spend them all and you skip that turn)."
            )
        spent = f" ({speed - left} spent on reactions since your last turn)" if left < speed else ""
        return f"{guide} Speed pool: {left} of {speed} actions{spent}; reactions draw on it too."

    def wound_level(self, combatant: Combatant) -> str:
        """Dead, Down (Unconscious), or from the share of Health lost and of Stamina lost to
        damage (the worse of the two): none → Unhurt, half or more → Bloodied, else Hurt. Stamina
        spent on the combatant's own actions does not show (UTTAS "Damage"; documented in
        ``docs/audiences.md``)."""
        if combatant.has(DEAD):
            return "Dead"
        if combatant.has(UNCONSCIOUS):
            return "Down"
        sheet = combatant.sheet
        health = max(0, sheet.health - combatant.health) / sheet.health
        spent = max(0, sheet.stamina - combatant.stamina)
        stamina = min(combatant.stamina_damage, spent) / sheet.stamina
        worst = max(health, stamina)
        if worst <= 0:
            return "Unhurt"
        return "Bloodied" if worst >= 0.5 else "Hurt"

    def combatant_pools(self, combatant: Combatant) -> dict[str, PoolReading]:
        """Health and Stamina (UTTAS "Health" and "Stamina"), against the sheet's maximums."""
        sheet = combatant.sheet
        return {
            "Health": PoolReading(value=combatant.health, maximum=sheet.health),
            "Stamina": PoolReading(value=combatant.stamina, maximum=sheet.stamina),
        }

    def reaction_options(
        self, state: UttasState, combatant_id: str, decision: Any = None
    ) -> list[ReactionOption]:
        steps = Tx.reads_at(self.version, "move_reaction_moves")
        return reactions.reaction_options(
            state, self.tables, combatant_id, decision, steps_checked=steps
        )

    def may_be_asked(self, state: UttasState, combatant_id: str, decision: Any = None) -> bool:
        return reactions.may_be_asked(state, combatant_id, decision)
