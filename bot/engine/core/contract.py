"""The ruleset contract: what every game system plugs into the engine.

Services call only these methods; a system that is planned but not yet built is listed in
``RULESET_KEYS`` and refused by :func:`bot.engine.get_ruleset` with
:class:`~bot.errors.RulesetNotImplemented`.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from datetime import datetime, timedelta
from functools import cached_property
from typing import Any, ClassVar, Generic, Literal, TypeVar, cast

from pydantic import BaseModel, TypeAdapter, ValidationError

from bot import names
from bot.engine.core.audience import PUBLIC, Audience, View
from bot.engine.core.chart import ChartHooks
from bot.engine.core.command_union import command_adapter as command_adapter
from bot.engine.core.command_union import discriminated_kinds, model_class
from bot.engine.core.commands import CommandBase
from bot.engine.core.compact import compact
from bot.engine.core.contract_models import ForeignSheet as ForeignSheet
from bot.engine.core.contract_models import FormBox as FormBox
from bot.engine.core.contract_models import ReactionOption as ReactionOption
from bot.engine.core.contract_models import SheetForm as SheetForm
from bot.engine.core.contract_models import SheetSection as SheetSection
from bot.engine.core.contract_models import validation_message as validation_message
from bot.engine.core.decisions import DecisionWords
from bot.engine.core.dice import DiceRoller
from bot.engine.core.economy import ActionEconomy
from bot.engine.core.effects import Lasts
from bot.engine.core.encounter_rules import EncounterRulesHooks
from bot.engine.core.events import Event, Outcome, parse_event
from bot.engine.core.odds import OddsHooks
from bot.engine.core.order import TurnOrder
from bot.engine.core.rehearse import RehearseHooks
from bot.engine.core.scale import METERS, Scale
from bot.engine.core.standing import ALWAYS, StandingWords
from bot.engine.core.state import AnyState
from bot.engine.core.verbs import ActInput, ActionSpec, DetailChoice
from bot.errors import InvalidInput, RulesVersionUnknown, RuleViolation

StateT = TypeVar("StateT", bound=AnyState)


def _versions(known: tuple[int, ...]) -> str:
    return ", ".join(str(v) for v in known)


class Ruleset(EncounterRulesHooks, OddsHooks, ChartHooks, RehearseHooks, ABC, Generic[StateT]):
    """A game system. Instances are stateless apart from their (GM-changeable) tables.

    ``apply`` is pure: it never mutates ``state``; it returns an :class:`Outcome` with a new
    state, or raises a :class:`~bot.errors.DomainError` subclass and changes nothing.
    """

    key: ClassVar[str]
    state_model: ClassVar[type[Any]]
    """The ruleset's own state model (``EncounterState[ItsCombatant, ItsPending]``)."""
    command_adapter: ClassVar[TypeAdapter[Any]]
    """Parses the ruleset's commands: the core's and its own, discriminated by ``kind``."""
    event_types: ClassVar[Mapping[str, type[Event]]]
    """Every event the ruleset logs (the core's and its own), by ``kind``."""
    title: ClassVar[str]
    boons: ClassVar[str | None] = None
    """What the GM's ``/gm advantage`` gives or takes (:meth:`boon_command`) in the system's own
    words, as a plural noun: "dice" in UTTAS (Advantage and Disadvantage dice), "favor" in
    Utopia (points of favor and disfavor); None where the system has none (Untitled, Uune:
    :meth:`boon_command` refuses, saying what the system has instead)."""
    nothing_waiting: ClassVar[str] = "no decision is waiting"
    """What the GM's ``/gm resolve`` would settle, in the system's terms, as a clause: "no
    attack is waiting for a reaction" (:meth:`nothing_to_resolve`)."""
    sheet_model: ClassVar[type[BaseModel]]
    npc_sheet_model: ClassVar[type[BaseModel] | None] = None
    """The model of an NPC template when it is not a character sheet (Uune's statblock: NPCs
    never roll); None: NPC templates are character sheets."""
    economy: ActionEconomy
    tables: Any
    """The GM-changeable numbers this instance plays by (the ruleset's tables model)."""
    turn_order: TurnOrder
    """How the system orders a fight (:mod:`bot.engine.core.order`)."""
    rules_version: ClassVar[int] = 1
    """The reading of the rules a new encounter plays by. A ruleset that changes a rule's
    reading adds a version and keeps the old one playable (``known_versions``), so a running
    encounter keeps the reading it started with (decision C, ``docs/architecture.md``)."""
    known_versions: ClassVar[tuple[int, ...]] = (1,)
    decides_between_fights: ClassVar[bool] = False
    """Whether a decision may wait while no fight runs (Uune: the GM's approval of a Downtime
    roll, which is taken outside a conflict). A fight's own decisions end with it either way
    (``CoreTx.end_fight``)."""
    deadline_action_keys: ClassVar[tuple[str, ...]] = ()
    """The ``/act`` actions (:class:`ActionSpec` keys) a GM may make a combatant's default for
    a passed turn deadline (issue 17): ones that need no target or detail and suit a player
    who is not there (UTTAS: Take a Breather). Empty: the system has none
    (:meth:`deadline_actions`)."""
    version: int = 1
    """The reading this instance plays by (one of ``known_versions``)."""
    scale: Scale = METERS
    """How this instance's board types and shows distances (:mod:`bot.engine.core.scale`)."""

    tables_loader: ClassVar[Callable[..., Any]]
    """The ruleset's ``load_tables(data=None, *, overrides=None)`` (over
    :func:`bot.engine.core.tables.load`); its instances take ``(tables, version)``."""

    @classmethod
    def configured(cls, changes: dict[str, Any] | None) -> Ruleset[StateT]:
        """An instance with its GM-changeable tables, and a server's ``changes`` deep-merged
        on top (``None``: the shipped tables), at ``rules_version``. Raises
        :class:`InvalidInput` for changes the tables do not accept."""
        tables = cls.tables_loader(overrides=changes) if changes else None
        made: Ruleset[StateT] = cast(Any, cls)(tables, cls.rules_version)
        return made

    @classmethod
    def from_tables(cls, tables: dict[str, Any], version: int) -> Ruleset[StateT]:
        """An instance playing by exactly ``tables`` (every value, as :meth:`tables_data`
        gave them) at rules ``version`` (one of ``known_versions``). Raises
        :class:`InvalidInput` for tables it cannot read."""
        made: Ruleset[StateT] = cast(Any, cls)(cls.tables_loader(tables), version)
        return made

    def tables_data(self) -> dict[str, Any]:
        """Every GM-changeable number this instance plays by, as plain JSON data."""
        data: dict[str, Any] = self.tables.model_dump(mode="json")
        return data

    def frozen(self) -> str:
        """What an encounter stores when it starts so it plays by the same rules for its whole
        life, whatever later defaults or readings say: JSON ``{"version": n, "tables": {…}}``
        (read back with :meth:`thawed`)."""
        return json.dumps(
            {"version": self.version, "tables": self.tables_data()}, separators=(",", ":")
        )

    @classmethod
    def thawed(cls, frozen: str) -> Ruleset[StateT]:
        """The ruleset an encounter stored with :meth:`frozen`. Raises
        :class:`RulesVersionUnknown` for a version this bot cannot play (stored by a newer
        one) and :class:`InvalidInput` for unreadable data."""
        try:
            data = json.loads(frozen)
            version, tables = int(data["version"]), data["tables"]
        except (ValueError, KeyError, TypeError):
            raise InvalidInput(f"The stored {cls.title} rules cannot be read.") from None
        if version not in cls.known_versions:
            raise RulesVersionUnknown(
                f"This encounter plays by {cls.title} rules version {version}, which this "
                f"version of the bot does not know (it knows {_versions(cls.known_versions)}): "
                "it was started by a newer bot. Run that version to go on with it; "
                "`/encounter end` ends it here unread (no summary)."
            )
        return cls.from_tables(tables, version)

    def new_encounter(self, *, name: str, seed: int) -> StateT:
        """A fresh encounter in the ``setup`` phase, round 0. Raises :class:`InvalidInput` for a
        bad name."""
        try:
            state: StateT = self.state_model(ruleset=self.key, name=name, seed=seed)
            return state
        except ValidationError as exc:
            raise InvalidInput(validation_message(exc, "encounter")) from None

    def load_state(self, raw_json: str) -> StateT:
        """Parse a state saved with ``model_dump_json()``. Names stored before today's name
        rules are normalised, never refused (:data:`bot.names.STORED`). The state comes back
        compact (:func:`bot.engine.core.compact.compact`: what is the same in every encounter
        shared; its empty containers refuse changes in place). Raises :class:`InvalidInput`."""
        try:
            state: StateT = self.state_model.model_validate_json(raw_json, context=names.STORED)
        except ValidationError as exc:
            raise InvalidInput(validation_message(exc, "saved encounter")) from None
        if state.ruleset != self.key:
            raise InvalidInput(
                f"That encounter uses {names.quoted(state.ruleset)}, not {names.quoted(self.key)}."
            )
        return compact(state)

    def parse_command(self, data: Mapping[str, Any]) -> CommandBase:
        """Validate a command from a mapping (``{"kind": "attack", ...}``). Raises InvalidInput."""
        try:
            command: CommandBase = self.command_adapter.validate_python(data)
            return command
        except ValidationError as exc:
            raise InvalidInput(validation_message(exc, "command")) from None

    def parse_event(self, data: Mapping[str, Any]) -> Event:
        """A logged event read back (one this version cannot read: a GM-only note)."""
        return parse_event(data, self.event_types)

    @abstractmethod
    def sheet_sections(
        self, sheet: BaseModel, *, full: bool, name: Callable[[str], str]
    ) -> list[SheetSection]:
        """How ``sheet`` reads: every number and what the rules derive from it (``full``: its
        owner or a GM), or only what a player sees of another player's character. ``name``
        formats each name the text holds."""

    def parse_sheet(self, data: Mapping[str, Any] | str) -> BaseModel:
        """Validate a character sheet (mapping or JSON text). Raises :class:`InvalidInput`."""
        try:
            if isinstance(data, str):
                return self.sheet_model.model_validate_json(data)
            return self.sheet_model.model_validate(data)
        except ValidationError as exc:
            raise InvalidInput(validation_message(exc, "character sheet")) from None

    def sheet_model_for(self, kind: Literal["character", "npc"]) -> type[BaseModel]:
        """The model a stored sheet of ``kind`` validates with: :attr:`npc_sheet_model` for an
        NPC template when the ruleset has one, else :attr:`sheet_model`."""
        if kind == "npc" and self.npc_sheet_model is not None:
            return self.npc_sheet_model
        return self.sheet_model

    def sheet_form(self) -> SheetForm | None:
        """The boxes of this ruleset's sheet create form (None: it has none; members import a
        JSON sheet instead)."""
        return None

    def npc_form(self) -> SheetForm | None:
        """The boxes of this ruleset's NPC template create form (``/npc create``): by default
        the sheet form (an NPC has the same sheet); None where NPCs have a model of their own
        the form does not make (Uune's statblocks)."""
        return self.sheet_form()

    def one_off_sheet(self, name: str, stats: Mapping[str, int]) -> BaseModel:
        """The sheet of a one-off NPC ``/gm add-npc name:`` makes from the ``stats`` given
        (``health``, ``stamina``, ``speed``, ``agility``, ``strength``, ``damage``: the options
        Discord offers), the sheet's defaults for the rest. Raises :class:`InvalidInput` naming
        a stat this system has no counterpart for, or a value its sheet refuses."""
        raise InvalidInput(
            f"{self.title} has no one-off NPCs in the bot: create an NPC template with "
            f"`/npc create ruleset:{self.key}` and add it with `/gm add-npc template:`."
        )

    def foreign_sheet(self, data: Mapping[str, Any]) -> ForeignSheet | None:
        """``data`` (a parsed JSON object a member uploaded) translated to this ruleset's sheet
        data when it is a sheet in another tool's format this ruleset reads (Utopia: a Foundry
        VTT actor export); None when it is not. Raises :class:`InvalidInput` naming the field
        when it is such a sheet but malformed. By default a ruleset reads no other format."""
        return None

    # -- the command surface (decision D) -------------------------------------------------------
    @cached_property
    def command_kinds(self) -> frozenset[str]:
        """Every command kind this ruleset accepts (its parser's)."""
        return frozenset(discriminated_kinds(self.command_adapter.core_schema))

    @cached_property
    def command_types(self) -> frozenset[type]:
        """Every command class this ruleset accepts (its parser's): two systems may each have a
        command of the same kind (UTTAS's and Utopia's ``attack``), so a command built for one
        is told from the other's by its class."""
        return frozenset(
            model_class(schema)
            for schema in discriminated_kinds(self.command_adapter.core_schema).values()
        )

    def accepts(self, command: CommandBase) -> bool:
        """Whether ``command`` is one of this ruleset's (by class, not only by kind)."""
        return type(command) in self.command_types

    @abstractmethod
    def actions(self, state: StateT, combatant: Any) -> list[ActionSpec]:
        """The actions ``combatant`` has for ``/act`` (:class:`ActionSpec`), in the system's
        terms and order."""

    @abstractmethod
    def act(self, state: StateT, combatant: Any, given: ActInput) -> CommandBase:
        """The command ``/act`` means for ``combatant``. Raises :class:`InvalidInput` naming
        the problem: an action this system does not have (listing the ones it has), a missing
        target, detail or amount, or a value out of range."""

    def detail_choices(
        self, state: StateT, combatant: Any, key: str, typed: str
    ) -> list[DetailChoice]:
        """What ``/act``'s ``detail:`` may be for the action ``key`` (an :meth:`actions` key) of
        ``combatant``, matching what is ``typed`` so far, for autocomplete: ``(shown, value)``
        pairs, at most 25 (:func:`bot.engine.core.verbs.completions`). Empty when the detail
        is the member's own words (what a character says, what it attempts) or the action
        takes none; a suggestion is never required (the action's builder decides)."""
        return []

    def breather_action(self) -> str | None:
        """The :meth:`actions` key of this system's breather — a move that recovers and that a
        player often takes when there is nothing better to do — offered as a button on the
        message that says it is a combatant's turn (issue 17, "Act from the ping"); None
        when the system has none."""
        return None

    def attack_action(self, combatant: Any) -> str:
        """The :meth:`act` key of ``combatant``'s attack with one of :meth:`attack_names` (the
        turn ping's Attack button makes it, and its question names `/act action:` with it):
        ``attack`` unless the system's attackers differ (Uune: an NPC's is ``npc-attack``)."""
        return "attack"

    def attack_command(
        self,
        state: StateT,
        combatant: Any,
        target: str,
        attack: str,
        together: tuple[str, ...] = (),
    ) -> CommandBase:
        """The command for ``combatant`` attacking ``target`` (a combatant id) with
        ``attack`` (one of :meth:`attack_names`), as the turn ping's Attack button means it;
        ``together``: the allies (ids, from :meth:`joint_attackers`) whose attacks strike with
        it. By default the :meth:`attack_action` of :meth:`act` (the weapon as its detail); a
        system with no joint attacks refuses ``together``."""
        if together:
            raise RuleViolation(f"{self.title} has no attacks made together with allies.")
        key = self.attack_action(combatant)
        return self.act(state, combatant, ActInput(key=key, target=target, detail=attack))

    def joint_attackers(self, state: StateT, attacker: str, target: str) -> list[str]:
        """The allies (ids) whose readied attack strikes together with ``attacker``'s next
        attack on ``target`` (UTTAS's coordinated attacks, ``/attack together:``), so the turn
        ping's Attack button can offer it as ``/attack`` does; none by default."""
        return []

    def deadline_actions(self, state: StateT, combatant: Any) -> list[ActionSpec]:
        """The actions ``combatant`` may take by default when its turn's deadline passes
        (issue 17, "Turn deadlines"): those of :meth:`actions` named in
        :attr:`deadline_action_keys`, in the system's order; empty when the system has none."""
        keys = self.deadline_action_keys
        return [a for a in self.actions(state, combatant) if a.key in keys]

    @abstractmethod
    def check_names(self, combatant: Any) -> list[str]:
        """What ``/check`` can roll for ``combatant`` (its skills), for autocomplete."""

    @abstractmethod
    def check(
        self,
        state: StateT,
        combatant: Any,
        skill: str,
        difficulty: int | None,
        *,
        target: str | None = None,
        against: str | None = None,
    ) -> CommandBase:
        """The command ``/check skill: [difficulty:] [target:] [against:]`` means: a check
        against a difficulty, or opposed by ``target`` (its id) rolling ``against`` (a skill
        name; None: the system's default). Raises :class:`InvalidInput`."""

    # -- decisions and the GM's tools, as commands -----------------------------------------------
    @abstractmethod
    def lapse(self, state: StateT, decision: Any = None) -> CommandBase:
        """The command that settles ``decision`` (default: the newest open one) as if nobody
        chose (its window ran out, the GM resolves it, an NPC that does not react). Raises
        :meth:`nothing_to_resolve` when nothing waits."""

    def nothing_to_resolve(self) -> RuleViolation:
        """The refusal when nothing waits for a decision (``/gm resolve``, :meth:`lapse`): one
        wording in every system, in its own terms ("Nothing to resolve: no roll is waiting for
        the GM's approval or its roller's spends.")."""
        return RuleViolation(f"Nothing to resolve: {self.nothing_waiting}.")

    @abstractmethod
    def answer(
        self, state: StateT, decider: Any, option: ReactionOption, decision: Any = None
    ) -> CommandBase:
        """The command for ``decider`` taking ``option`` of ``decision`` (default: the newest
        open one; a button names its decision)."""

    @abstractmethod
    def decision_words(
        self,
        state: StateT,
        decision: Any,
        deciders: Mapping[str, list[ReactionOption]],
        public: View,
    ) -> DecisionWords:
        """``decision`` in words (:class:`~bot.engine.core.decisions.DecisionWords`): what it
        is about, who decides what among ``deciders`` (from :meth:`decision_options`), what
        happens when nobody does; names escaped by ``public`` (the channel's view, which also
        says whose numbers are hidden)."""

    def typed_reaction(self, word: Literal["dodge", "block"]) -> str:
        """The choice a typed ``/dodge`` or ``/block`` means in this system (a
        :class:`ReactionOption` ``choice`` its :meth:`answer` reads): by default the word
        itself (Utopia's Dodge and Block)."""
        return word

    def standing_words(self) -> StandingWords:
        """The words of this system's standing reactions (issue 17, "Standing reactions";
        :mod:`bot.engine.core.standing`): which typed word names which :class:`ReactionOption`
        choice, and which condition. By default none: the system has no standing reactions."""
        return StandingWords()

    def standing_holds(self, state: StateT, decision: Any, condition: str) -> bool:
        """Whether the standing-reaction ``condition`` (a value of :meth:`standing_words`'
        ``conditions``, or ``always``) holds for ``decision``. By default only ``always``."""
        return condition == ALWAYS

    def standing_applies(self, state: StateT, decision: Any) -> bool:
        """Whether a standing reaction may answer ``decision`` when its window runs out (issue
        17, "Standing reactions"). By default every decision with options a player may take;
        a system whose only reaction is one kind of decision narrows it (Uune: a Defend's
        roll)."""
        return True

    def standing_choice(self, option: ReactionOption) -> str:
        """The standing-reaction choice ``option`` is (what a :class:`StandingWords` word
        names): by default its ``choice``; a system whose choices carry details (Uune's
        ``vitality_reroll:2``, the die) gives the part a rule names."""
        return option.choice

    def decision_subject(self, state: StateT, decision: Any) -> str | None:
        """The combatant whose own reaction ``decision`` asks for (a typed reaction such as
        UTTAS's ``/dodge`` answers for it; an NPC subject with no player to decide lapses at
        once unless the encounter's ``npcs_react``), or None."""
        return None

    def decision_options(self, state: StateT, decision: Any) -> dict[str, list[ReactionOption]]:
        """Who may answer ``decision``, with what: combatant id → its choices (with their
        costs), in the state's order. A combatant whose numbers are hidden from players is
        listed whenever it :meth:`may_be_asked`, with or without choices it can afford: which
        it can afford is its secret (the GM sees them privately)."""
        public: View | None = None  # only needed for a combatant without choices
        deciders: dict[str, list[ReactionOption]] = {}
        for combatant in self.decision_candidates(state, decision):
            options = self.reaction_options(state, combatant.id, decision)
            if not options:
                public = public or self.view(state, PUBLIC)
                if public.reveals(combatant.id) or not self.may_be_asked(
                    state, combatant.id, decision
                ):
                    continue
            deciders[combatant.id] = options
        return deciders

    def decision_candidates(self, state: StateT, decision: Any) -> list[Any]:
        """The combatants :meth:`decision_options` looks at for ``decision``, in the state's
        order: every combatant by default. A ruleset whose rules leave most of them out
        narrows it (UTTAS: the target and its allies) so a shown decision costs no choices
        worked out for those who can have none; it must keep every combatant that has a
        choice or :meth:`may_be_asked` (the contract tests compare it with every combatant)."""
        return state.combatants

    @abstractmethod
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
        """The GM's: put condition ``name`` on ``target`` (or take it off); ``detail`` what the
        condition needs (UTTAS: the limb of Disabled limb); how long it ``lasts``."""

    @abstractmethod
    def boon_command(self, target: str, dice: int, *, until_removed: bool) -> CommandBase:
        """The GM's ``/gm advantage``: ``dice`` in the target's favour (negative: against it)
        on its next roll, or every roll ``until_removed``, in the system's terms (:attr:`boons`:
        UTTAS Advantage and Disadvantage dice, Utopia favor and disfavor)."""

    @abstractmethod
    def vital_names(self) -> tuple[str, ...]:
        """The vitals ``/gm vital`` sets or changes, lower-case (UTTAS: health, stamina)."""

    def vital_label(self, vital: str) -> str:
        """How the system writes the vital ``vital`` (one of :meth:`vital_names`) in a
        sentence: by default capitalised (UTTAS "Health")."""
        return vital.title()

    @abstractmethod
    def vitals_command(self, target: str, changes: Mapping[str, tuple[int, bool]]) -> CommandBase:
        """The GM's: set or change the target's vitals — ``changes`` maps a vital's name (UTTAS:
        ``health``, ``stamina``) to ``(value, relative)``. Raises :class:`InvalidInput` for a
        vital the system does not have."""

    @abstractmethod
    def rest_command(self, kind: Literal["short", "long"]) -> CommandBase:
        """A short or long rest for every combatant, outside a fight (its system's rules)."""

    @abstractmethod
    def healing_command(self, weeks: int) -> CommandBase:
        """``weeks`` of natural healing for every combatant, outside a fight."""

    def minutes_command(self, minutes: int) -> CommandBase:
        """``minutes`` of game time pass outside a fight (``/gm time minutes``): what a system
        counts in minutes happens (Uune: Bleeding, "every out of game minute"). Raises
        :class:`InvalidInput` where the system counts nothing by the minute."""
        raise InvalidInput(
            f"{self.title} counts nothing by the minute: end a scene, day, quest or arc with "
            "`/gm time end-of`."
        )

    def hazard_command(self, target: str, dice: int, damage_type: str, source: str) -> CommandBase:
        """The GM's hazard (fire, a fall): ``dice`` dice of ``damage_type`` damage to ``target``
        through its defenses (``/gm damage``). Raises :class:`InvalidInput` where the system has
        no such rule."""
        raise InvalidInput(f"{self.title} has no hazard damage in the bot yet.")

    def characteristic_names(self) -> tuple[str, ...]:
        """The characteristics ``/gm adjust`` changes, lower-case (UTTAS: agility … strength);
        empty where the system has none the GM adjusts."""
        return ()

    def characteristic_command(self, target: str, characteristic: str, delta: int) -> CommandBase:
        """The GM's Aid or Drain by hand (``/gm adjust``): ``characteristic`` of ``target`` (an
        id) changes by ``delta``. Raises :class:`InvalidInput` for a characteristic the system
        does not have."""
        raise InvalidInput(f"{self.title} has no characteristics the GM adjusts in the bot.")

    def chase_command(
        self,
        *,
        quarry: str | None = None,
        pursuer: str | None = None,
        gap_m: float | None = None,
        outcome: str | None = None,
    ) -> CommandBase:
        """The GM's chase scene (``/gm chase``): with ``quarry`` and ``pursuer`` (ids) the chase
        starts (``gap_m`` meters apart), else it ends with ``outcome``. Raises
        :class:`InvalidInput` where the system has no chase scenes."""
        raise InvalidInput(f"{self.title} has no chase scenes in the bot.")

    def order_roll_command(self, among: tuple[str, ...]) -> CommandBase:
        """The GM's die roll for the turn order (``/gm roll-order``): ``among`` (combatant ids;
        empty: everyone) roll and take the places they held between them, highest first.
        Raises :class:`InvalidInput` where the system's order has no such roll."""
        raise InvalidInput(f"{self.title} has no die roll for the order in the bot.")

    def scene_lines(self, state: StateT, name: dict[str, str]) -> list[str]:
        """What runs beside the turn order (UTTAS: a chase scene), in words for the tracker;
        ``name`` maps combatant ids to the names to show. Empty when nothing does."""
        return []

    # -- joining, refreshing and campaign records (decision A) ----------------------------------
    record_model: ClassVar[type[BaseModel]]
    """A character's state between fights in this system (its campaign record)."""

    add_combatant_command: ClassVar[type[Any]]
    """The ruleset's command that brings a fighter in (its fields: ``name``, ``sheet``,
    ``controller_id``, ``is_npc``, ``character_id``, ``record``)."""

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
        """The command that brings a fighter into an encounter: a character (its sheet id in
        ``character_id``) as its campaign ``record`` left it, or an NPC fresh from its sheet
        (:attr:`add_combatant_command`). Raises :class:`InvalidInput` for a sheet or record of
        another system."""
        if not isinstance(sheet, self.sheet_model):
            raise InvalidInput(f"**{names.escaped(name)}**'s sheet is not one of {self.title}'s.")
        if record is not None and not isinstance(record, self.record_model):
            raise InvalidInput(
                f"**{names.escaped(name)}**'s campaign record is not one of {self.title}'s."
            )
        command: CommandBase = self.add_combatant_command(
            name=name,
            sheet=sheet,
            controller_id=controller_id,
            is_npc=is_npc,
            character_id=character_id,
            record=record,
        )
        return command

    @abstractmethod
    def record_of(self, combatant: Any) -> BaseModel:
        """What of ``combatant`` outlasts the fight: its campaign record (``record_model``)."""

    def parse_record(self, data: Mapping[str, Any] | str) -> BaseModel:
        """Validate a stored campaign record (mapping or JSON). Raises :class:`InvalidInput`."""
        try:
            if isinstance(data, str):
                return self.record_model.model_validate_json(data)
            return self.record_model.model_validate(data)
        except ValidationError as exc:
            raise InvalidInput(validation_message(exc, "campaign record")) from None

    @abstractmethod
    def record_lines(self, sheet: BaseModel, record: BaseModel | None) -> list[str]:
        """A character's campaign record in words, one line each (``record`` None: fresh, as
        ``sheet`` says), for ``/campaign show``."""

    @abstractmethod
    def refreshed(self, combatant: Any, sheet: BaseModel) -> Any:
        """A copy of ``combatant`` playing by ``sheet`` (its source sheet as it is now): its
        live values kept, lowered to the new maximums where those shrank."""

    def reaction_deadline(self, state: StateT, decision: Any = None) -> datetime | None:
        """When ``decision``'s window closes (default: the newest open one): ``created_at``
        plus its own ``window_s`` or else the encounter's ``reaction_window_s``; None when
        nothing is pending. After it, the service sends :meth:`lapse` on the deciders' behalf.
        """
        p = decision if decision is not None else state.pending
        if p is None or not p.created_at:
            return None
        return datetime.fromisoformat(p.created_at) + timedelta(seconds=decision_window_s(state, p))

    def require_decided(self, state: StateT, command: CommandBase) -> None:
        """Refuse (:class:`~bot.errors.Conflict`) a ``command`` that moves the fight on
        (``CommandBase.waits_for_decisions``: the turn order, a turn's end, time passing) while
        a decision is open, as a turn command is refused: what it waits for and how that is
        settled, in the system's words (``waiting_on``, ``waiting_how`` of its transaction).
        The services check every GM command with it before applying it; it is not part of
        :meth:`apply`, so a fight whose GM moved the order while a decision waited (before
        this was checked) replays as it was played."""
        if state.decisions and command.waits_for_decisions:
            self.reading(state).require_no_pending()

    def reading(self, state: StateT) -> Any:
        """A transaction over ``state`` for read-only questions (it never rolls): the system's
        ``Tx``, whose refusals speak its words."""
        raise NotImplementedError(f"{type(self).__name__} has no read-only transaction")

    @abstractmethod
    def apply(
        self, state: StateT, command: CommandBase, roller: DiceRoller, now: datetime
    ) -> Outcome:
        """Apply one command. Returns the new state and events; raises a DomainError subclass
        (nothing changed) when the command is illegal."""

    @abstractmethod
    def conditions(self) -> list[str]:
        """Every condition name this ruleset can put on a combatant."""

    @abstractmethod
    def stances(self, combatant: Any = None) -> list[str]:
        """Every stance (or those ``combatant`` knows)."""

    @abstractmethod
    def attack_names(self, combatant: Any) -> list[str]:
        """Every attack ``combatant`` may name in an Attack command (its weapons, attack powers,
        martial arts and the ruleset's basic maneuvers)."""

    def usable_attack_names(self, state: Any, combatant: Any) -> list[str]:
        """The :meth:`attack_names` ``combatant`` can use now, in the same order: what
        ``/attack``'s autocomplete and the turn ping's Attack button offer (by default all of
        them; UTTAS leaves out an attack power it already maintains)."""
        return self.attack_names(combatant)

    def usual_attack(self, state: Any, combatant: Any) -> str | None:
        """The attack the turn ping's Attack button makes, named in its question before a
        target is picked: the first of :meth:`usable_attack_names` (None: it has none)."""
        attacks = self.usable_attack_names(state, combatant)
        return attacks[0] if attacks else None

    def unnamed_attack(self, state: Any, combatant: Any) -> str:
        """The attack made when :meth:`attack_action` names none (``/act action:attack``
        without ``detail:``): the :meth:`usual_attack` when it is ``combatant``'s only one. No
        rules text names a default among several (Utopia "Attack": with a weapon, or
        weaponless for 2 turn actions; Untitled: the weapon skill of the weapon used), so with
        several it raises :class:`InvalidInput` listing them, and the member names one."""
        attacks = self.usable_attack_names(state, combatant)
        if len(attacks) == 1:
            return attacks[0]
        listed = [names.escaped(a) for a in attacks]
        which = ", ".join(listed[:-1]) + f" or {listed[-1]}" if len(listed) > 1 else "none"
        raise InvalidInput(
            f"Which attack does {names.escaped(combatant.name)} make? Name it in `detail:`: "
            f"{which}."
        )

    def naming_attack(self, state: Any, combatant: Any, given: ActInput) -> ActInput:
        """``given`` (an ``/act`` input) with its attack named: when it is ``combatant``'s
        :meth:`attack_action` with no ``detail:`` and ``combatant`` has named attacks
        (:meth:`attack_names`; a Uune PC's attack names resources instead), the detail is
        :meth:`unnamed_attack`; otherwise ``given`` unchanged. ``/act`` builds its command from
        this, so an attack with no name is the one the bot says, never a silent default."""
        key = given.key.strip().casefold().replace(" ", "-")
        if given.detail or key != self.attack_action(combatant):
            return given
        if not self.attack_names(combatant):
            return given
        return given.model_copy(update={"detail": self.unnamed_attack(state, combatant)})

    def odds_attack_names(self, combatant: Any) -> list[str]:
        """What ``/odds with:`` may name for ``combatant``: by default its
        :meth:`attack_names` (Uune: a PC's ``Attack`` too, since a PC attacks with resources,
        not a named attack)."""
        return self.attack_names(combatant)

    @abstractmethod
    def wound_level(self, combatant: Any) -> str:
        """How ``combatant`` looks to those who may not see its numbers (one word, e.g.
        ``Unhurt``, ``Hurt``, ``Bloodied``, ``Down``, ``Dead``): from the damage it took, never
        from what it spent on its own actions."""

    @abstractmethod
    def status(self, combatant: Any, *, revealed: bool, compact: bool, in_fight: bool) -> list[str]:
        """The tracker's parts for ``combatant`` after its name, e.g. ``["5/6 actions",
        "Steady", "H 10/16", "S 25/40"]``; when not ``revealed`` (the reader may not see its
        numbers) its stance and wound level only; pools only ``in_fight``. ``compact``: the
        shortest form."""

    @abstractmethod
    def sheet_of(self, combatant: Any) -> BaseModel:
        """The sheet snapshot ``combatant`` fights with."""

    def sheet_name(self, combatant: Any) -> str:
        """The name of the sheet ``combatant`` was made from (an NPC ``Thug 2``: ``Thug``)."""
        return str(getattr(self.sheet_of(combatant), "name", combatant.name))

    def skill_names(self, combatant: Any) -> list[str]:
        """The skills ``combatant`` can roll (``/skill``); none where the ruleset has none."""
        return []

    def power_names(self, combatant: Any) -> list[str]:
        """The powers ``combatant`` can activate that are not attacks (``/power``)."""
        return []

    def turn_words(self, state: StateT, combatant: Any, *, revealed: bool) -> str | None:
        """How the tracker and the turn ping say it is ``combatant``'s turn when the turn
        order plays it differently (Utopia's interleaved order: "acts (4 TA left)", the number
        only when ``revealed``); None: the usual "'s turn"."""
        return None

    @abstractmethod
    def turn_guide(self, combatant: Any, *, revealed: bool) -> str:
        """One sentence for the turn ping: what a turn holds in this ruleset and, when
        ``revealed`` (the reader may see the combatant's numbers), what its pools hold."""

    def view(
        self,
        state: StateT,
        audience: Audience,
        escape: Callable[[str], str] | None = None,
    ) -> View:
        """``audience``'s view of ``state`` for rendering events (see
        :mod:`bot.engine.core.audience`); ``escape`` makes names safe for the medium."""
        if escape is None:
            return View(state, audience, wound_level=self.wound_level)
        return View(state, audience, wound_level=self.wound_level, escape=escape)

    @abstractmethod
    def reaction_options(
        self, state: StateT, combatant_id: str, decision: Any = None
    ) -> list[ReactionOption]:
        """The choices ``combatant_id`` can afford now on ``decision`` (default: the newest
        open one; empty if none or nothing pending)."""

    def may_be_asked(self, state: StateT, combatant_id: str, decision: Any = None) -> bool:
        """Whether ``combatant_id`` might have a choice on ``decision`` (default: the newest),
        judged only by what every player sees (sides, conditions) — never by its hidden pools.
        A combatant whose numbers are hidden gets a "GM: choose" button whenever this holds,
        whether or not it can afford a choice, so which it can afford stays secret. By
        default: whether it has options now (a ruleset whose choices depend on hidden numbers
        overrides it)."""
        return bool(self.reaction_options(state, combatant_id, decision))


def decision_window_s(state: AnyState, decision: Any) -> int:
    """How long ``decision`` waits for an answer, in seconds: its own ``window_s`` or the
    encounter's ``reaction_window_s``."""
    own = getattr(decision, "window_s", None)
    return int(own) if own else int(state.settings.reaction_window_s)
