"""Pending decisions as the services hand them to the presentation: who may answer with what,
in the ruleset's words, by when (issue 10, "Decisions, generalised").

An encounter may wait on several decisions at once (:mod:`bot.engine.core.decisions`). Each is
named by the version it opened at (``pending_version``) and the engine's number for it
(``ref``): a button carries both, so a click on a decision already settled, undone or replaced
is refused without changing anything — after a restart too.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import re
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot import names
from bot.engine import ReactionOption
from bot.engine.core.audience import PUBLIC
from bot.engine.core.decisions import DecisionWords
from bot.engine.core.state import CombatantBase
from bot.errors import Conflict
from bot.services.acting import answering
from bot.services.encounter import Encounter

ALREADY_RESOLVED = (
    "That decision is no longer pending here (it was resolved, asked again on a newer prompt —"
    " after an Assist, say —, ran out of time or was undone by the GM); this button no longer"
    " does anything."
)
"""A button whose decision is not open at the version it names. A Utopia Assist closes the
decision it answers and asks the Block or Dodge anew on a new prompt, so a click sent from
the older one (a lagging client, two people at once) lands here while that defense still
waits: the words must not say it is over."""


UNOPPOSED = frozenset({"No reaction", "No defense"})
"""The engines' labels for letting the attack through with nothing done (UTTAS, Utopia): their
buttons read "Take it (no reaction)". Another system's ``none`` option that still defends keeps
its own words — Untitled's "Combat Defense alone" is rolled against the attack (newuser26: its
button read "Take it (no reaction)" beside a prompt saying Brask may defend "with Combat
Defense alone")."""


def button_label(option: ReactionOption) -> str:
    """The option's label with its costs, within Discord's 80 characters: what its button
    reads ("Evade (1 action)"), and so what an undo of its press names
    (:func:`bot.services.log_commands.shown_command`)."""
    costs = []
    if option.actions:
        costs.append(f"{option.actions} action" + ("s" if option.actions > 1 else ""))
    if option.stamina:
        costs.append(f"{option.stamina} Stamina")
    costs.extend(f"{amount} {pool}" for pool, amount in option.costs.items() if amount)
    unopposed = option.choice == "none" and option.label in UNOPPOSED
    label = "Take it (no reaction)" if unopposed else option.label
    suffix = f" ({', '.join(costs)})" if costs else ""
    return (label[: 80 - len(suffix)] + suffix)[:80]


def public_deciders(encounter: Encounter, decision: Decision) -> set[str]:
    """The deciders whose choices the decision's public prompt shows as buttons; another (an
    NPC whose numbers the channel may not see) has one "GM: choose …" button instead, and its
    choices show only to the GM, privately."""
    if decision.words.open_choices:
        return set(decision.deciders)
    public = encounter.rules.view(encounter.state, PUBLIC)
    return {cid for cid in decision.deciders if public.reveals(cid)}


def shown_label(
    encounter: Encounter, decision: Decision, decider: str, option: ReactionOption
) -> str:
    """What ``decider``'s button for ``option`` reads: :func:`button_label`, after the
    decider's name ("Willow: Take the hit") when several deciders shown on the public prompt
    have that choice (each gets its own button, :mod:`bot.ui.decision_view`)."""
    label = button_label(option)
    shown = public_deciders(encounter, decision)
    if decider not in shown:
        return label
    code = option_code(option)
    holders = sum(1 for cid in shown if any(option_code(o) == code for o in decision.deciders[cid]))
    if holders > 1 and decider in decision.people:
        return f"{decision.people[decider].name}: {label}"[:80]
    return label


def option_code(option: ReactionOption, decider: str | None = None) -> str:
    """A short, stable code for a choice (fits a button ``custom_id``): the choice, plus 8 hex
    digits of the maneuver or stance it names, plus ``@<combatant id>`` when it is one
    particular decider's (``decider``: a choice several deciders have, such as two allies'
    "take the hit", or the GM's private buttons for one NPC)."""
    detail = option.maneuver or option.stance or ""
    code = option.choice
    if not PLAIN_CHOICE.fullmatch(code):  # Uune's "approve:Twin short blades": a digest
        digest = hashlib.blake2s(f"{code}|{detail}".encode(), digest_size=4).hexdigest()
        code = f"c.{digest}"
    elif detail:
        digest = hashlib.blake2s(detail.casefold().encode(), digest_size=4).hexdigest()
        code = f"{option.choice}.{digest}"
    return f"{code}@{decider}" if decider else code


OPTIONS_KEPT = 512
"""How many (state, decision) pairs' choices and words :func:`_options` keeps (the most
recently used)."""


@dataclass(slots=True)
class _Kept:
    """What is worked out once for one decision of one state object: its choices, and its
    words once asked for (``None`` until then)."""

    state: Any
    engine: Any
    options: dict[str, list[ReactionOption]]
    words: DecisionWords | None = None


_OPTIONS: OrderedDict[tuple[int, int], _Kept] = OrderedDict()


def _kept(encounter: Encounter, engine: Any) -> _Kept:
    """The ruleset's ``decision_options`` for ``engine`` in ``encounter``'s state, worked out
    once per state object (states never change; a kept state is the same object from the
    command that showed a decision to the button that answers it: issue 15, "CPU diet"), kept
    with room for the decision's words. The state and decision are held with the choices, so
    their ids name them while kept. Callers must not change what it holds."""
    state = encounter.state
    key = (id(state), id(engine))
    kept = _OPTIONS.get(key)
    if kept is not None and kept.state is state and kept.engine is engine:
        _OPTIONS.move_to_end(key)
        return kept
    kept = _Kept(state, engine, encounter.rules.decision_options(state, engine))
    _OPTIONS[key] = kept
    while len(_OPTIONS) > OPTIONS_KEPT:
        _OPTIONS.popitem(last=False)
    return kept


def _options(encounter: Encounter, engine: Any) -> dict[str, list[ReactionOption]]:
    """Each decider's choices for ``engine`` in ``encounter``'s state (:func:`_kept`)."""
    return _kept(encounter, engine).options


def title_of(encounter: Encounter, engine: Any) -> str:
    """What the open decision ``engine`` is about, in the ruleset's plain words ("Thug 1
    attacks Willow with Cudgel")."""
    return _words(encounter, engine).title


def _words(encounter: Encounter, engine: Any) -> DecisionWords:
    """The ruleset's ``decision_words`` for ``engine`` in ``encounter``'s state (as the table
    sees the fight), worked out once per state object like its choices (:func:`_kept`): the
    command that shows a decision and the button that answers it share them (issue 15). The
    words are Discord text (the prompt, its ping, the tracker's "waiting on"): names in them
    are escaped, so a name shows as typed and formats or pings nothing."""
    kept = _kept(encounter, engine)
    if kept.words is None:
        state, rules = encounter.state, encounter.rules
        public = rules.view(state, PUBLIC, names.escaped)
        kept.words = rules.decision_words(state, engine, kept.options, public)
    return kept.words


PLAIN_CHOICE = re.compile(r"[a-z]{1,12}")
"""A choice a button's ``custom_id`` carries as it is (``reaction_buttons``' template); any
other (with digits, colons or spaces) is carried as ``c.`` and 8 hex digits of it."""


@dataclass(frozen=True)
class Decision:
    """One open decision of an encounter.

    ``pending_version`` (the encounter version it opened at) and ``ref`` (the engine's number
    for it) name it; ``kind``, ``stage`` and ``parent`` are the engine decision's
    (:class:`~bot.engine.core.decisions.DecisionBase`); ``words`` its text from the ruleset;
    ``deciders`` maps a combatant id to the choices it has (the first is the one it is mainly
    about, when it decides); ``deadline`` when it lapses (None: never); ``people`` the
    combatants named (deciders and its subject); ``row_id``, ``prompt_message_id`` and
    ``asked`` come from its row in the decisions store.

    ``deciders``, ``words`` and ``people`` are worked out from ``encounter`` (the encounter it
    was read from; states never change) the first time they are asked for — only when a
    decision is shown or answered (issue 15, "CPU diet": a command whose result shows no
    decision computes no reaction options)."""

    pending_version: int
    ref: int
    kind: str
    stage: str
    parent: int | None
    subject_id: str | None
    deadline: datetime | None
    row_id: int | None = None
    prompt_message_id: int | None = None
    asked: tuple[int, ...] | None = None
    engine: Any = None
    stand_ins: dict[int, int] = dataclasses.field(default_factory=dict)
    encounter: Encounter | None = dataclasses.field(default=None, repr=False, compare=False)

    @functools.cached_property
    def deciders(self) -> dict[str, list[ReactionOption]]:
        """Each decider's choices (the ruleset's ``decision_options``)."""
        if self.encounter is None:
            return {}
        return _options(self.encounter, self.engine)

    @functools.cached_property
    def words(self) -> DecisionWords:
        """Its text from the ruleset (``decision_words``, as the table sees the fight)."""
        assert self.encounter is not None, "a decision is read from an encounter"
        return _words(self.encounter, self.engine)

    @functools.cached_property
    def people(self) -> dict[str, CombatantBase]:
        """The combatants it names: its deciders, then its subject."""
        if self.encounter is None:
            return {}
        state = self.encounter.state
        people = {cid: state.get(cid) for cid in self.deciders}
        if self.subject_id is not None and self.subject_id not in people:
            people[self.subject_id] = state.get(self.subject_id)
        return people

    @property
    def title(self) -> str:
        """What it is about, plain text ("Thug 1 attacks Willow with Cudgel")."""
        return self.words.title

    @property
    def asks(self) -> str:
        """What it asks of the members it waits on, in Markdown, names escaped: the ruleset's
        ``ping`` words ("**Thug 1** attacks **Willow** with **Cudgel**"; an assisted Block
        "**Vesna** will block: **Brannoc** may Assist (+1d4 per IA), **Vesna** rolls when
        ready"). ``/back`` and ``/encounter recap`` say it, not :attr:`title`: a title names
        the decision as its post shows it, from one decider's side ("Assist Vesna's Block
        against Crushing bite" is not what waits on Vesna)."""
        return self.words.ping

    @property
    def subject(self) -> CombatantBase | None:
        """The combatant whose reaction it asks for, if any."""
        return self.people.get(self.subject_id) if self.subject_id else None

    def members(self, gm_id: int) -> list[int]:
        """The members who decide: each decider's controller (the GM for NPCs; for an away
        controller, whoever stands in: ``stand_ins``), the subject's first."""
        return list(dict.fromkeys(member for member, _ in self.askings(gm_id)))

    def askings(self, gm_id: int) -> list[tuple[int, int | None]]:
        """Each member asked, with the away controller they stand in for (``None`` when they
        answer for themselves or as GM), the subject's first; one pair a member. A decider
        whose every choice is the GM's (``ReactionOption.gm``: Uune's approval of a PC's
        resources) asks the GM, not the player, who could press none of them."""
        pairs: dict[int, int | None] = {}
        for cid, options in self.deciders.items():
            controller = self.people[cid].controller_id
            if options and all(o.gm for o in options):  # only the GM may take them (approvals)
                controller = None
            member = self._asked(controller, gm_id)
            stands_in = controller if controller is not None and member != controller else None
            if member not in pairs or pairs[member] is None:
                pairs[member] = stands_in
        return list(pairs.items())

    def _asked(self, controller_id: int | None, gm_id: int) -> int:
        if controller_id is None:
            return gm_id
        return self.stand_ins.get(controller_id, controller_id)


def decisions_of(encounter: Encounter) -> list[Decision]:
    """Every open decision of the encounter, oldest first (those the decisions store has a row
    for: all of them once the change that opened them is committed)."""
    return [d for d in (_decision(encounter, row_ref) for row_ref in _refs(encounter)) if d]


def decision_of(encounter: Encounter, ref: int | None = None) -> Decision | None:
    """The open decision ``ref`` (default: the newest), or None."""
    refs = _refs(encounter)
    if ref is None:
        return _decision(encounter, refs[-1]) if refs else None
    return _decision(encounter, ref) if ref in refs else None


def named(encounter: Encounter, pending_version: int, ref: int | None) -> Decision:
    """The open decision a button names: ``ref`` opened at ``pending_version`` (``ref`` None:
    a button made before decisions had numbers names the one opened at that version). Raises
    :class:`Conflict` when it is no longer open."""
    if encounter.row.status == "live":
        for decision in decisions_of(encounter):
            if decision.pending_version == pending_version and ref in (None, decision.ref):
                return decision
    raise Conflict(ALREADY_RESOLVED)


def _refs(encounter: Encounter) -> list[int]:
    state_refs = {d.id for d in encounter.state.decisions}
    return [row.ref for row in encounter.row.decisions if row.ref in state_refs]


def _decision(encounter: Encounter, ref: int) -> Decision | None:
    state, rules = encounter.state, encounter.rules
    engine = state.decision(ref)
    row = encounter.row.open_decision(ref)
    if engine is None or row is None:
        return None
    return Decision(
        pending_version=row.opened_version,
        ref=ref,
        kind=engine.kind,
        stage=engine.stage,
        parent=engine.parent,
        subject_id=rules.decision_subject(state, engine),
        deadline=row.deadline,
        row_id=row.id,
        prompt_message_id=row.prompt_message_id,
        asked=row.asked,
        engine=engine,
        stand_ins={uid: answering(encounter, uid) for uid in encounter.away},
        encounter=encounter,
    )


@dataclass(frozen=True)
class Settled:
    """A decision that a change settled (answered, lapsed, undone, or ended with its fight):
    the message that showed it (``prompt_id``; its buttons must go), what it was about
    (``title``), how running out of time settles it (``ran_out``) and the title of the post
    when it did (``over``: :attr:`~bot.engine.core.decisions.DecisionWords.over`)."""

    prompt_id: int | None
    title: str
    ran_out: str
    over: str = "Reaction window over"


def settled(before: Encounter, after: Encounter) -> list[Settled]:
    """The decisions open before a change and not after it (by number and opening), oldest
    first."""
    still = {(d.ref, d.opened_version) for d in after.row.decisions}
    gone: list[Settled] = []
    for row in before.row.decisions:
        if (row.ref, row.opened_version) in still:
            continue
        decision = decision_of(before, row.ref)
        gone.append(
            Settled(
                prompt_id=row.prompt_message_id,
                title=decision.title if decision else "",
                ran_out=decision.words.ran_out if decision else "",
                over=decision.words.over if decision else "Reaction window over",
            )
        )
    return gone
