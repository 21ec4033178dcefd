"""The Uune ruleset (``uune-srd.txt``): the contract's hooks and the dispatch table.

Registered in :mod:`bot.engine.registry`; the shared contract suite runs it
(``tests/contract/harness.py``)."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, Field, TypeAdapter, ValidationError

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
    validation_message,
)
from bot.engine.core.decisions import DecisionWords
from bot.engine.core.dice import DiceRoller
from bot.engine.core.effects import Lasts, kept_words
from bot.engine.core.events import Event, Outcome
from bot.engine.core.odds import Odds
from bot.engine.core.order import TurnOrder
from bot.engine.core.standing import StandingWords
from bot.engine.core.verbs import (
    DETAIL_CHOICE_MAX,
    DETAIL_CHOICES_MAX,
    ActInput,
    ActionSpec,
    DetailChoice,
    after_colon,
    completions,
)
from bot.engine.uune import commands as cmd
from bot.engine.uune import (
    conditions,
    conflict,
    decision_words,
    form,
    leveling,
    rolls,
    sheet_text,
    specials,
    standing,
    verbs,
)
from bot.engine.uune.core import ECONOMY, RULES_VERSION, TURN_ORDER, Tx
from bot.engine.uune.events import EVENT_TYPES
from bot.engine.uune.health import COUNT_MAX, Health
from bot.engine.uune.odds import uune_odds
from bot.engine.uune.options import approval_options, spend_options
from bot.engine.uune.rehearse import POLICIES, UunePolicy
from bot.engine.uune.sheet import UuneSheet, UuneStatblock
from bot.engine.uune.state import (
    CONDITIONS,
    INCAPACITATED,
    ApprovalDecision,
    UuneRecord,
    UuneState,
    record_of,
)
from bot.engine.uune.tables import UuneTables, default_tables, load_tables
from bot.errors import InvalidInput, RuleViolation
from bot.words import counted

_Handler = Callable[[Tx, Any], None]
_HANDLERS: dict[str, _Handler] = {
    "add_combatant": conflict.add_combatant,
    "remove_combatant": conflict.remove_combatant,
    "begin": conflict.begin,
    "change_settings": conflict.change_settings,
    "choose_next": conflict.choose_next,
    "move": conflict.move,
    "set_vitals": conflict.set_vitals,
    "take_harm": conflict.take_harm,
    "set_condition": conditions.set_condition,
    "time_passes": conditions.time_passes,
    "roll_action": rolls.roll_action,
    "attack": rolls.attack,
    "npc_attack": rolls.npc_attack,
    "help": rolls.help_roll,
    "propose": rolls.propose,
    "approve": rolls.approve,
    "spend": rolls.spend,
    "stealth": specials.stealth,
    "center": specials.center,
    "downtime": specials.downtime,
    "insight": specials.insight,
    "observe": specials.observe,
    "staunch": specials.staunch,
    "stabilise": specials.stabilise,
    "passive": specials.passive,
    "luck": specials.luck,
    "claim_bond": specials.claim_bond,
    "level_up": leveling.level_up_command,
    "rest": conflict.no_rest,
    "natural_healing": conflict.no_rest,
}
_HANDLERS.update(order.HANDLERS)
_HANDLERS.update(scenes.HANDLERS)
_HANDLERS.update(places.HANDLERS)
_HANDLERS["move_in_order"] = conflict.move_in_order
_VITALS = ("vitality", "focus")
_HARMS = (
    "lethal wound",
    "heavy wound",
    "light wound",
    "traumatic stress",
    "heavy stress",
    "light stress",
)
"""What ``/gm vital`` deals besides setting vitality and focus: a wound or a stress of a kind
("Wounds", "Stress"; :class:`~bot.engine.uune.commands.TakeHarm`)."""


class UuneRuleset(Ruleset[UuneState]):
    """Uune. ``tables``: the GM-changeable numbers (``data/uune/tables.json``)."""

    key: ClassVar[str] = "uune"
    title: ClassVar[str] = "Uune"
    odds_out: ClassVar[tuple[str, ...]] = (INCAPACITATED,)
    odds_out_words: ClassVar[str] = "out of the conflict"
    odds_range_refusal: ClassVar[str | None] = (
        "Uune has no distances or range bands: nothing in an attack's odds depends on where "
        "anyone stands. Leave `range:` out."
    )
    nothing_waiting: ClassVar[str] = (
        "no roll is waiting for the GM's approval or its roller's spends"
    )
    sheet_model: ClassVar[type[UuneSheet]] = UuneSheet
    npc_sheet_model: ClassVar[type[UuneStatblock]] = UuneStatblock
    state_model: ClassVar[type[Any]] = UuneState
    command_adapter: ClassVar[TypeAdapter[CommandBase]] = command_adapter(
        cmd.OWN_COMMANDS, TURN_ORDER
    )
    event_types: ClassVar[Mapping[str, type[Event]]] = EVENT_TYPES
    turn_order: TurnOrder = TURN_ORDER
    add_combatant_command: ClassVar[type[Any]] = cmd.AddCombatant
    record_model: ClassVar[type[UuneRecord]] = UuneRecord
    handlers: ClassVar[Mapping[str, _Handler]] = _HANDLERS
    rules_version: ClassVar[int] = RULES_VERSION
    """Version 2: a roll whose roller is out of the fight (Incapacitated by the GM's
    ``/gm vital`` while the GM approved it, or while it waited on its spends) no longer waits
    on anyone: before the roll it is called off, rolled it stands as it is, and the turn it
    was taken on ends (:func:`bot.engine.uune.rolls.settle_for_the_fallen`); the GM's
    ``/gm order`` keeps the PCs ahead of the NPCs (:func:`bot.engine.uune.conflict.move_in_order`,
    "Conflict"); a claimed bond's label over 60 characters is shortened at a word, with "..."
    (:func:`bot.engine.uune.specials.claim_bond`). Version 1 (encounters started before) left
    such a roll waiting until its window ran out, let an NPC be moved ahead of the PCs and cut
    a long bond label mid-word, and keeps doing so, so its log replays exactly.

    Version 3: the GM removing a PC who only *helps* a roll drops that help, and the roll
    goes on with the rest ("Help"; :func:`bot.engine.uune.conflict.remove_combatant`); an
    NPC's attack whose Defend still waits is called off when the NPC is Incapacitated first
    (:func:`bot.engine.uune.rolls.settle_for_the_fallen`); Insight on an Incapacitated NPC is
    refused (:func:`bot.engine.uune.specials.insight`); a helper rolls only their approved
    resources' dice ("Help": "Roll your own resources as they apply to the action"), so a
    helper whose resources were all refused adds nothing (:func:`bot.engine.uune.rolls._roll`).
    Versions 1 and 2 called the whole helped roll off, let the attack land once the Defend was
    rolled, read such an NPC, and gave a helper a base die of their own.

    Version 4: the GM removing the character whose turn it is, when its leaving ends the
    conflict (the last of its side, or the last one standing), ends it at once: no turn
    passes on, so nobody's turn starts in a conflict that is over
    (:meth:`bot.engine.core.tx.CoreTx.leave_fight`). Versions 1 to 3 began the next turn
    first. The GM's approval buttons offer "refuse all" only when more than one resource is
    undecided (with one it did what refusing that one does), and a bond's buttons grant or
    refuse the focus, as its prompt asks (:func:`bot.engine.uune.options.approval_options`);
    versions 1 to 3 keep the buttons they were posted with. A luck check's note names what
    was checked in brackets, as typed ("Luck check for Mira Quell (does the guard sleep)";
    :func:`bot.engine.uune.specials.luck`), where versions 1 to 3 wrote "Mira Quell's does
    the guard sleep". A second ``/gm skip`` of a character already set to skip its next turn
    is refused (:func:`bot.engine.core.order.skip_turn`); versions 1 to 3 noted it again.

    Version 5: an Observe that meets its difficulty but is not two over offers the roller's
    spends before it is final, as one more hit notices with one more sense ("Observe": "Meet:
    One sense. 1 over: Two senses. 2 over: Three senses"; :func:`bot.engine.uune.options.
    spend_options`); versions 1 to 4 took any successful Observe as final at once. Bleeding
    takes its toll at round 1's start too ("at the start of each round";
    :func:`bot.engine.uune.conflict.round_one_hooks`), on whoever carries it into the
    conflict; versions 1 to 4 began round 1 without it. Intoxicated rerolls the 6s once per
    level ("Effects": a stacked effect's "mechanics will apply multiple times";
    :meth:`bot.engine.uune.core.Tx.intoxicated_passes`), where versions 1 to 4 rerolled them
    once at any level. An Incapacitated PC may take Downtime
    (:meth:`bot.engine.uune.core.Tx.rests_while_out`): a lethal wound and a traumatic stress
    leave a maximum of 0 and mend only "after a successful downtime action"; versions 1 to 4
    refused it ("cannot act"), so they never mended. An action roll, an Attack, an NPC's
    attack and a Move need no turn outside a conflict
    (:meth:`bot.engine.uune.core.Tx.on_turn_only`), as the special actions never did;
    versions 1 to 4 refused them until the conflict began. What an attack did (an Attack's
    failure or wound, a Defend's dodge or wound) is an
    :class:`~bot.engine.uune.events.AttackOutcome` naming the attacker and the target
    (:func:`bot.engine.uune.rolls.attack_note`), so ``/encounter recap`` lists it among the
    attacks on the target; versions 1 to 4 wrote a plain note that named no target.

    Version 6: the GM ending a day (or a quest or an arc, ``/gm time end-of``) in a conflict
    moves its clock to the following dawn (06:00, a documented reading: "Day: the rest of the
    in-game day, or until the following dawn"; :func:`bot.engine.core.scenes.end_period`), as
    ``/campaign end-of`` moves the campaign clock; versions 1 to 5 left the fight's clock where
    it was, so the campaign clock the fight left behind was the old day's.

    Version 7: a turn lost to Stunned is said before the level of Stunned it takes ("Tobin
    spends the turn stunned.", then "Tobin is no longer Stunned (a turn lost to it)."), in the
    order they happen; versions 1 to 6 said the level's loss first."""
    known_versions: ClassVar[tuple[int, ...]] = (1, 2, 3, 4, 5, 6, 7)
    decides_between_fights: ClassVar[bool] = True
    """Downtime, and Stealth, Insight, Observe or stabilising outside a conflict (from rules
    version 5 an action roll, an Attack and an NPC's attack's Defend too), wait for the GM's
    approval between fights too."""

    tables_loader = staticmethod(load_tables)

    tables: UuneTables

    def __init__(self, tables: UuneTables | None = None, version: int | None = None) -> None:
        self.tables = tables if tables is not None else default_tables()
        self.version = self.rules_version if version is None else version
        self.economy = ECONOMY

    def apply(
        self, state: UuneState, command: CommandBase, roller: DiceRoller, now: datetime
    ) -> Outcome:
        """Apply one command; never mutates ``state``; a refusal raises a
        :class:`~bot.errors.DomainError` and changes nothing."""
        tx = Tx(state, self.tables, roller, now, self.turn_order, version=self.version)
        handler = self.handlers.get(command.kind)
        if handler is None:
            raise InvalidInput(f"`{command.kind}` is not part of {self.title}.")
        handler(tx, command)
        if tx.reads("fallen_roll_settles") and tx.state.decisions:
            rolls.settle_for_the_fallen(tx)
        tx.check_end()
        tx.pass_turn_if_unable()
        return Outcome(state=tx.state, events=tx.events)

    def reading(self, state: UuneState) -> Tx:
        return self._read(state)

    def _read(self, state: UuneState) -> Tx:
        return Tx(state, self.tables, _NO_DICE, datetime.min, self.turn_order, version=self.version)

    # -- sheets, joining and records ---------------------------------------------------------
    def parse_sheet(self, data: Mapping[str, Any] | str) -> BaseModel:
        """A character sheet or (``"kind": "npc"``) an NPC statblock. Raises
        :class:`InvalidInput`."""
        try:
            raw = json.loads(data) if isinstance(data, str) else data
            if not isinstance(raw, Mapping):
                raise InvalidInput("A Uune sheet is a JSON object.")
            return _SHEETS.validate_python({"kind": "character", **raw})
        except json.JSONDecodeError:
            raise InvalidInput("That Uune sheet is not valid JSON.") from None
        except ValidationError as exc:
            raise InvalidInput(validation_message(exc, "Uune sheet")) from None

    def add_command(
        self,
        *,
        name: str,
        sheet: BaseModel,
        controller_id: int | None = None,
        is_npc: bool = False,
        character_id: int | None = None,
        record: BaseModel | None = None,
    ) -> CommandBase:
        """The core's (:meth:`Ruleset.add_command`) for a sheet or a statblock: a statblock
        joins as an NPC, a character sheet as a PC, whatever ``is_npc`` says."""
        if not isinstance(sheet, UuneSheet | UuneStatblock):
            raise InvalidInput(
                f"**{names.escaped(name)}** is not a {self.title} sheet or statblock."
            )
        if record is not None and not isinstance(record, UuneRecord):
            raise InvalidInput(
                f"**{names.escaped(name)}**'s campaign record is not a {self.title} record."
            )
        return cmd.AddCombatant(
            name=name,
            sheet=sheet,
            controller_id=controller_id,
            is_npc=isinstance(sheet, UuneStatblock),
            character_id=character_id,
            record=record,
        )

    def record_of(self, combatant: Any) -> UuneRecord:
        return record_of(combatant, self.tables)

    def record_lines(self, sheet: BaseModel, record: BaseModel | None) -> list[str]:
        """The record as the board shows a combatant (:meth:`status`): vitality of the maximum
        its wounds and stress leave ("Wounds": "reduce your max vitality"), the wounds and
        stress worst first, and a PC's focus; then the effects it keeps (a condition "for the
        campaign")."""
        if not isinstance(sheet, UuneSheet | UuneStatblock):
            raise InvalidInput(f"Not a {self.title} sheet.")
        r = record if isinstance(record, UuneRecord) else UuneRecord()
        if isinstance(sheet, UuneStatblock):  # its Wellbeing, as it joins
            fresh = Health(
                base=sheet.vitality,
                current=sheet.vitality_now,
                wounds=sheet.wounds,
                stress=sheet.stress,
            )
            lines = [" · ".join(self._vitals(r.health or fresh))]
        else:
            health = r.health or Health(base=sheet.vitality)
            focus = sheet.focus if r.focus is None else r.focus
            lines = [" · ".join([*self._vitals(health), f"Focus {focus}"])]
        kept = kept_words(r.effects)
        return [*lines, kept] if kept else lines

    def _vitals(self, h: Health) -> list[str]:
        """ "Vitality 50/50", "Wounds 0/1/0", "Stress 0/0/0" (:func:`sheet_text.vitals`)."""
        return sheet_text.vitals(h, self.tables)

    def refreshed(self, combatant: Any, sheet: BaseModel) -> Any:
        if not isinstance(sheet, type(combatant.sheet)):
            raise InvalidInput(
                f"**{names.escaped(combatant.name)}**'s sheet is not the same kind of sheet."
            )
        health = combatant.health.model_copy(update={"base": sheet.vitality})
        return combatant.clone().model_copy(update={"sheet": sheet, "health": health})

    def sheet_sections(
        self, sheet: BaseModel, *, full: bool, name: Callable[[str], str]
    ) -> list[SheetSection]:
        if isinstance(sheet, UuneStatblock):
            return sheet_text.statblock_sections(sheet, self.tables, full=full, name=name)
        if not isinstance(sheet, UuneSheet):
            raise InvalidInput(f"Not a {self.title} sheet.")
        return sheet_text.character_sections(sheet, self.tables, full=full, name=name)

    def sheet_form(self) -> SheetForm:
        """A level-1 character's name, shticks, bonds, experiences and items
        (:mod:`bot.engine.uune.form`)."""
        return form.SHEET_FORM

    def npc_form(self) -> None:
        """None: a statblock (Scores, attacks, incentives) is imported, not made by the form."""
        return None

    def sheet_of(self, combatant: Any) -> BaseModel:
        sheet: BaseModel = combatant.sheet
        return sheet

    # -- the command surface ------------------------------------------------------------------
    def actions(self, state: UuneState, combatant: Any) -> list[ActionSpec]:
        return list(verbs.ACTIONS)

    def act(self, state: UuneState, combatant: Any, given: ActInput) -> CommandBase:
        """``/act``'s command. Help's ``target:`` (optional: the roll it joins is the one
        waiting) must name that roll's roller, as the refusal of a Propose tells a helper to
        type it."""
        command = verbs.act(combatant, given)
        waiting = state.pending
        if (
            isinstance(command, cmd.Help)
            and given.target is not None
            and isinstance(waiting, ApprovalDecision)
            and waiting.actor != given.target
        ):
            roller = names.escaped(state.get(waiting.actor).name)
            raise InvalidInput(
                f"The roll waiting for the GM is **{roller}**'s: help it with `target:` "
                f"{roller} (or leave `target:` out)."
            )
        return command

    def detail_choices(
        self, state: UuneState, combatant: Any, key: str, typed: str
    ) -> list[DetailChoice]:
        """``detail:`` suggestions (:meth:`Ruleset.detail_choices`): a PC's resources
        (comma-separated, and after the colon of "what you attempt: resources"), an NPC's
        statblock attacks, the crowds of Stealth, the living conditions of Downtime, Luck's
        advantage words and the bonds to claim focus from (Uune "Action Rolls", "Stealth",
        "Downtime", "Luck", "Bonds")."""
        resources = combatant.resource_names()
        if key in ("attack", "propose", "help", "insight", "stabilise"):
            return completions(typed, resources, listed=True)
        if key in ("action", "observe") or (key in ("stealth", "downtime") and ":" in typed):
            return after_colon(typed, resources)
        if key == "stealth":
            crowds = ("one", "few", "group", "crowd")
            return completions(typed, [*crowds, *(f"{crowd} keep" for crowd in crowds)])
        if key == "downtime":
            living = ("luxurious", "comfortable", "sparse", "dire")
            return completions(typed, [*living, *(f"{how} same-day" for how in living)])
        if key == "luck":
            what = typed.strip()
            if not what or ":" in what:
                return []
            return completions(
                "", [f"{mode}: {what}" for mode in ("advantage", "disadvantage", "both")]
            )
        sheet = combatant.sheet
        if key == "npc-attack" and isinstance(sheet, UuneStatblock):
            return completions(typed, [attack.name for attack in sheet.attacks])
        if key == "bond" and isinstance(sheet, UuneSheet):
            wanted = typed.strip().casefold()
            return [
                (
                    shown[: DETAIL_CHOICE_MAX - 1] + "…"
                    if len(shown) > DETAIL_CHOICE_MAX
                    else shown,
                    str(n),
                )
                for n, bond in enumerate(sheet.bonds, start=1)
                if wanted in (shown := f"{n}. {bond.kind}: {bond.text}").casefold()
            ][:DETAIL_CHOICES_MAX]
        return []

    def check_names(self, combatant: Any) -> list[str]:
        """A PC's resources: a check is an action roll proposing one."""
        names: list[str] = combatant.resource_names()
        return names

    def check(
        self,
        state: UuneState,
        combatant: Any,
        skill: str,
        difficulty: int | None,
        *,
        target: str | None = None,
        against: str | None = None,
    ) -> CommandBase:
        """An action roll proposing the resource ``skill`` (Uune has no opposed rolls: NPCs
        never roll)."""
        if target is not None or against is not None:
            raise InvalidInput("Uune has no opposed checks: NPCs never roll.")
        return cmd.RollAction(
            actor=combatant.id,
            action=f"a check with {skill}"[:100],
            resources=(skill[: names.NAME_MAX],),
            difficulty=difficulty,
        )

    # -- decisions ------------------------------------------------------------------------------
    def lapse(self, state: UuneState, decision: Any = None) -> CommandBase:
        p = decision if decision is not None else state.pending
        if p is None:
            raise self.nothing_to_resolve()
        if isinstance(p, ApprovalDecision):
            return cmd.Approve(actor=p.actor, lapsed=True, decision=p.id or None)
        return cmd.Spend(actor=p.actor, choice="keep", decision=p.id or None)

    def answer(
        self, state: UuneState, decider: Any, option: ReactionOption, decision: Any = None
    ) -> CommandBase:
        ref = (decision.id or None) if decision is not None else None
        head, _, rest = option.choice.partition(":")
        if isinstance(decision, ApprovalDecision):
            fields: dict[str, Any] = {"actor": decision.actor, "decision": ref}
            if head == "difficulty":
                fields["difficulty"] = int(rest)
            elif head == "all":
                fields["all"] = "refuse" if rest == "refuse" else "approve"
                fields["standing"] = rest == "standing"
            elif head in ("approve", "refuse"):
                fields[head] = (rest,)
            return cmd.Approve.model_validate(fields)
        dice = tuple(int(x) for x in rest.split(",") if x)
        return cmd.Spend.model_validate(
            {"actor": decider.id, "choice": head, "dice": dice, "decision": ref}
        )

    def typed_reaction(self, word: Literal["dodge", "block"]) -> str:
        """Uune has no Dodge or Block: an NPC's attack is answered by a Defend roll ("Defend"),
        with resources its roller proposes — ``/dodge`` and ``/block`` say how."""
        raise RuleViolation(
            f"Uune has no {word.title()}: an NPC's attack is answered with a Defend roll. "
            "Propose resources for it with `/act action:propose detail:`, or press **Roll now** "
            "on the attack's message; then keep the roll or spend on it with its buttons."
        )

    def standing_words(self) -> StandingWords:
        """A rolled Defend's spends or keeping it (:mod:`bot.engine.uune.standing`)."""
        return standing.WORDS

    def standing_applies(self, state: UuneState, decision: Any) -> bool:
        """Only a rolled Defend ("Defend": off the PC's turn) waits on a standing reaction."""
        return standing.applies(decision)

    def standing_choice(self, option: ReactionOption) -> str:
        return standing.choice_of(option)

    def decision_subject(self, state: UuneState, decision: Any) -> str | None:
        return str(decision.actor)

    def decision_words(
        self,
        state: UuneState,
        decision: Any,
        deciders: Mapping[str, list[ReactionOption]],
        public: View,
    ) -> DecisionWords:
        tx = self._read(state)
        if isinstance(decision, ApprovalDecision):
            return decision_words.approval_words(tx, decision, public)
        return decision_words.spend_words(tx, decision, deciders, public)

    def reaction_options(
        self, state: UuneState, combatant_id: str, decision: Any = None
    ) -> list[ReactionOption]:
        p = decision if decision is not None else state.pending
        if p is None:
            return []
        tx = self._read(state)
        if isinstance(p, ApprovalDecision):
            return approval_options(tx, p, combatant_id)
        return spend_options(tx, p, combatant_id)

    def may_be_asked(self, state: UuneState, combatant_id: str, decision: Any = None) -> bool:
        p = decision if decision is not None else state.pending
        if p is None or state.get(combatant_id).has(INCAPACITATED):
            return False
        if isinstance(p, ApprovalDecision):
            return combatant_id == p.actor
        return combatant_id in (p.actor, p.target, p.attacker)

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
        return cmd.SetCondition(
            target=target,
            condition=name,
            present=present,
            lasts=lasts if present else "until_removed",
            rounds=rounds if present and lasts == "rounds" else None,
        )

    def boon_command(self, target: str, dice: int, *, until_removed: bool) -> CommandBase:
        raise InvalidInput(
            "Uune has no bonus dice: the GM approves resources on a roll instead "
            "(a luck check takes advantage or disadvantage: `/act action:luck`)."
        )

    def vital_names(self) -> tuple[str, ...]:
        """Vitality and focus, set or changed; and the wounds and stress the GM deals
        ("Wounds", "Stress": ``heavy wound``, ``light stress`` …)."""
        return (*_VITALS, *_HARMS)

    def vital_label(self, vital: str) -> str:
        """ "Vitality", "Focus"; a harm by its count ("heavy wounds", "light stresses")."""
        if vital in _HARMS:
            return f"{vital}es" if vital.endswith("stress") else f"{vital}s"
        return vital.title()

    def vitals_command(self, target: str, changes: Mapping[str, tuple[int, bool]]) -> CommandBase:
        for vital in changes:
            if vital not in (*_VITALS, *_HARMS):
                raise InvalidInput(
                    f"Uune has no vital called {names.quoted(vital)}: vitality, focus, or a "
                    f"wound or stress the GM deals ({', '.join(_HARMS)})."
                )
        harms = [v for v in changes if v in _HARMS]
        if harms:
            if len(changes) > 1:
                raise InvalidInput("Deal one kind of wound or stress at a time.")
            severity, harm = harms[0].split()
            amount, relative = changes[harms[0]]
            if abs(amount) > COUNT_MAX:
                raise InvalidInput(
                    f"A creature has at most {COUNT_MAX} {self.vital_label(harms[0])}: "
                    f"`{'+' if relative and amount > 0 else ''}{amount}` is too many."
                )
            return cmd.TakeHarm(
                target=target, harm=harm, severity=severity, amount=amount, relative=relative
            )
        return cmd.SetVitals(target=target, **dict(changes.items()))

    def rest_command(self, kind: Literal["short", "long"]) -> CommandBase:
        raise InvalidInput("Uune has no rests: Downtime heals (`/act action:downtime`).")

    def minutes_command(self, minutes: int) -> CommandBase:
        """ "Effect: Bleeding" outside a conflict: every minute, 10 vitality per level."""
        return cmd.TimePasses(minutes=minutes)

    def healing_command(self, weeks: int) -> CommandBase:
        raise InvalidInput("Uune heals through Downtime (`/act action:downtime`), not by weeks.")

    # -- presentation -------------------------------------------------------------------------
    def conditions(self) -> list[str]:
        return list(CONDITIONS)

    def stances(self, combatant: Any = None) -> list[str]:
        return []

    odds_count_resources = True

    def odds_attack_names(self, combatant: Any) -> list[str]:
        """A PC's ``Attack`` (it attacks with resources: "Attack"); an NPC's statblock
        attacks."""
        if isinstance(combatant.sheet, UuneStatblock):
            return self.attack_names(combatant)
        return ["Attack"]

    def odds(
        self, state: Any, attacker: Any, target: Any, attack: str, *, range_m: float | None = None
    ) -> Odds:
        """Uune exact odds (issue 18) for 0 … 4 resources:
        :func:`bot.engine.uune.odds.uune_odds`."""
        return uune_odds(self.tables, attacker, target, attack, None, self.version)

    def resource_odds(
        self, state: Any, attacker: Any, target: Any, attack: str, resources: str | None
    ) -> Odds:
        """Uune exact odds for the stated ``resources``: :func:`bot.engine.uune.odds.uune_odds`."""
        return uune_odds(self.tables, attacker, target, attack, resources, self.version)

    rehearsal_policies: ClassVar[tuple[str, ...]] = POLICIES

    def rehearsal(self, policy: str) -> UunePolicy:
        """Uune's rehearsal policy (issue 18): :mod:`bot.engine.uune.rehearse`."""
        return UunePolicy(self.tables, policy, self.lapse)

    def attack_names(self, combatant: Any) -> list[str]:
        sheet = combatant.sheet
        return [a.name for a in sheet.attacks] if isinstance(sheet, UuneStatblock) else []

    def attack_action(self, combatant: Any) -> str:
        """Only a statblock's attacks are named (:meth:`attack_names`), and an NPC never rolls
        a PC's Attack: its attack is ``npc-attack``, which its target Defends against."""
        return "npc-attack" if isinstance(combatant.sheet, UuneStatblock) else "attack"

    def wound_level(self, combatant: Any) -> str:
        """Incapacitated, Wounded (any wound), Stressed (any stress), Worn (vitality below its
        maximum — "their health and energy", spent or lost: a Bleeding NPC, one the GM lowered
        with ``/gm vital``) or Unhurt. What players see of an NPC whose numbers are hidden; it
        was "Unhurt" at 40 of 60 vitality before Worn."""
        h = combatant.health
        if combatant.has(INCAPACITATED):
            return "Incapacitated"
        if h.wounds.lethal or h.wounds.heavy or h.wounds.light:
            return "Wounded"
        if h.stress.traumatic or h.stress.heavy or h.stress.light:
            return "Stressed"
        if h.now(self.tables) < h.maximum(self.tables):
            return "Worn"
        return "Unhurt"

    wound_levels = ("Unhurt", "Worn", "Stressed", "Wounded", "Incapacitated")

    def combatant_pools(self, combatant: Any) -> dict[str, PoolReading]:
        """Vitality now against its maximum, which wounds and stress lower (Uune SRD
        "Vitality", "Wounds", "Stress")."""
        h = combatant.health
        return {"Vitality": PoolReading(value=h.now(self.tables), maximum=h.maximum(self.tables))}

    def status(self, combatant: Any, *, revealed: bool, compact: bool, in_fight: bool) -> list[str]:
        """Vitality, wounds, stress, focus and a PC's stealth level when it is not Observed
        ("Stealth": Hidden, Undetected); hidden (an NPC's): the wound level only."""
        if not revealed:
            return [self.wound_level(combatant)]
        parts = self._vitals(combatant.health)
        if not combatant.is_npc:
            parts.append(f"Focus {combatant.focus}")
            if combatant.stealth != "observed":  # "Stealth": Hidden or Undetected
                parts.append(combatant.stealth.title())
        if in_fight and not compact and not combatant.has(INCAPACITATED):  # "cannot take actions"
            parts.append(counted(combatant.pools.get("turn", 0), "action"))
        return parts

    def turn_guide(self, combatant: Any, *, revealed: bool) -> str:
        if combatant.is_npc:
            return (
                "attack a PC with `/act action:npc-attack` (the PC rolls Defend), or end the turn."
            )
        return (
            "take one action with `/act`: an Action roll, Attack, Stealth, Center, Insight, "
            "Observe, Stabilise, Staunch, or Move to a new position (free movement within it costs "
            "nothing); `/act action:next` picks the next PC."
        )


_SHEETS: TypeAdapter[UuneSheet | UuneStatblock] = TypeAdapter(
    Annotated[UuneSheet | UuneStatblock, Field(discriminator="kind")]
)


class _NoDice:
    """A roller for read-only questions: never rolls."""

    def roll(self, count: int, sides: int) -> list[int]:
        raise AssertionError("a read-only question rolled dice")


_NO_DICE = _NoDice()
