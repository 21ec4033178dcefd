"""The Uune working transaction: the core's (:mod:`bot.engine.core.tx` — copy-on-write state,
the turn cycle with the economy's hooks) plus Uune's economy, turn order and health.

* **Economy** — the core's :class:`~bot.engine.core.economy.UuneActions`: one action on the
  creature's own turn; Defend is free off it ("Conflict": "Each PC can take one action on their
  turn"; "Defend" is taken "off-turn").
* **Turn order** — :class:`~bot.engine.core.order.PcsThenNpcs`: every PC, then the NPCs
  ("Conflict": "every player character takes a turn, in any order … then the NPCs take
  theirs"); the players choose which PC goes next (:func:`bot.engine.uune.conflict.choose_next`).
* **Health** — vitality, wounds and stress through :mod:`bot.engine.uune.health`; at 0 vitality
  a creature is Incapacitated ("Vitality") and out of the fight until its vitality rises.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any, ClassVar

from bot import names
from bot.engine.core.dice import DiceRoller
from bot.engine.core.economy import Cost, UuneActions
from bot.engine.core.effects import Effect, Moment, Period
from bot.engine.core.order import PcsThenNpcs, TurnOrder
from bot.engine.core.tx import DAWN_S, CoreTx
from bot.engine.uune import health
from bot.engine.uune.health import Health
from bot.engine.uune.sheet import UuneSheet
from bot.engine.uune.state import (
    BLEEDING,
    INCAPACITATED,
    INTOXICATED,
    OUT,
    STIMULATED,
    STUNNED,
    UuneCombatant,
    UuneState,
)
from bot.engine.uune.tables import UuneTables
from bot.errors import RuleViolation

TURN_ORDER = PcsThenNpcs(
    "Uune rolls no initiative (the PCs act first, in the order they choose, then the NPCs)"
)
"""Uune "Conflict": every PC, then every NPC."""
ECONOMY = UuneActions()


RULES_VERSION = 7
"""Uune's newest rules version (:attr:`bot.engine.uune.ruleset.UuneRuleset.rules_version`)."""


class Tx(CoreTx[UuneState, UuneCombatant]):
    """One Uune command's working copy of the state."""

    __slots__ = ("tables", "version")

    OUT_CONDITIONS = OUT
    FIGHT = "conflict"
    LATER_READINGS: ClassVar[Mapping[str, int]] = {
        "end_first": 4,
        "one_skip": 4,
        "new_day_moves_clock": 6,
    }
    READINGS: ClassVar[Mapping[str, int]] = {
        "fallen_roll_settles": 2,
        "pcs_before_npcs": 2,
        "label_cut_at_word": 2,
        "helper_leaving_drops_help": 3,
        "fallen_attacker_called_off": 3,
        "insight_refuses_the_out": 3,
        "helper_rolls_resources_only": 3,
        "approval_buttons_as_asked": 4,
        "luck_note_as_typed": 4,
        "observe_spends": 5,
        "bleeding_at_round_one": 5,
        "intoxicated_per_level": 5,
        "downtime_while_out": 5,
        "turn_only_in_conflict": 5,
        "attack_outcome_events": 5,
        "stun_lost_after_the_turn": 7,
    }
    """Uune's own later readings, from the rules version given (:meth:`reads`; the ruleset's
    ``rules_version`` docstring says each in the text's words). Version 2:
    ``"fallen_roll_settles"``, a roll whose roller is out of the fight waits on no one
    (:func:`bot.engine.uune.rolls.settle_for_the_fallen`); ``"pcs_before_npcs"``, ``/gm order``
    keeps the PCs ahead of the NPCs (:func:`bot.engine.uune.conflict.move_in_order`);
    ``"label_cut_at_word"``, a claimed bond's long label is shortened at a word
    (:func:`bot.engine.uune.specials.claim_bond`). Version 3:
    ``"helper_leaving_drops_help"``, a removed helper's help is dropped and the roll goes on;
    ``"fallen_attacker_called_off"``, an NPC's attack whose Defend waits is called off when the
    NPC is out first; ``"insight_refuses_the_out"``, Insight on an Incapacitated NPC is
    refused; ``"helper_rolls_resources_only"``, a helper rolls only their approved resources.
    Version 4: ``"approval_buttons_as_asked"``, one undecided resource has one refuse button
    and a bond's buttons grant or refuse the focus (:func:`bot.engine.uune.options.
    approval_options`); ``"luck_note_as_typed"``, a luck check's note names what was checked in
    brackets. Version 5: ``"observe_spends"``, an Observe short of two over offers its spends;
    ``"bleeding_at_round_one"``, Bleeding takes its toll at round 1's start;
    ``"intoxicated_per_level"``, Intoxicated rerolls the 6s once per level;
    ``"downtime_while_out"``, an Incapacitated PC may take Downtime; ``"turn_only_in_conflict"``,
    an action roll, an Attack, an NPC's attack and a Move need a turn only in a conflict;
    ``"attack_outcome_events"``, what an attack did is an
    :class:`~bot.engine.uune.events.AttackOutcome` naming attacker and target. Version 7:
    ``"stun_lost_after_the_turn"``, the level of Stunned a lost turn takes is said after the
    turn it was lost to (:meth:`after_turn_taken_up`)."""
    NEW_DAY_AT_S = DAWN_S
    """ "Mechanics" (scopes): a "Day" lasts "the rest of the in-game day, or until the following
    dawn, whichever is clearer"; the GM ending it begins the next at that dawn (from rules
    version 6, ``"new_day_moves_clock"``)."""

    def __init__(
        self,
        state: UuneState,
        tables: UuneTables,
        roller: DiceRoller,
        now: datetime,
        order: TurnOrder | None = None,
        *,
        version: int = RULES_VERSION,
    ) -> None:
        super().__init__(state, ECONOMY, roller, now, order or TURN_ORDER)
        self.tables = tables
        self.version = version
        """The rules version the encounter plays by (:data:`RULES_VERSION` and before, see
        :attr:`~bot.engine.uune.ruleset.UuneRuleset.rules_version`): what changed between
        versions reads it, so an older fight's log replays as it was played."""

    # -- the core's hooks ------------------------------------------------------------------------
    def require_turn(self, c: Any) -> None:
        """As the core's, but a PC still to act this round is told when it goes: right after
        this turn (chosen with ``/act action:next``), or later — and how to make it next."""
        st = self.state
        if st.phase == "active" and st.pending is None and st.turn not in (None, c.id):
            cur, order = names.escaped(self.view(st.turn).name), st.order
            later = order[order.index(str(st.turn)) + 1 :]
            if not c.is_npc and c.id in later:
                when = (
                    f"{names.escaped(c.name)} goes next, when {cur}'s turn ends (`/endturn` once "
                    f"{cur} acted)."
                    if later[0] == c.id
                    else f"{names.escaped(c.name)} acts later this round; "
                    f"{names.code(f'/act action:next target:{c.name}')} makes them next."
                )
                raise RuleViolation(f"It is {cur}'s turn, not {names.escaped(c.name)}'s: {when}")
        super().require_turn(c)

    def capacity(self, c: UuneCombatant) -> int:
        return 1

    def left_words(self, left: int) -> str:
        return "1 action" if left == 1 else f"{left} actions"

    def waiting_on(self) -> str:
        p = self.state.pending
        if p is None:
            return "a decision"
        who = names.escaped(self.view(p.actor).name)
        if p.kind == "approval":
            # as the decision's words say (decision_words.approval_words): a Defend waits on
            # its roller until a resource is proposed, a bond on the GM's answer
            if p.purpose == "defend" and not p.undecided():
                return f"{who}'s Defend"
            if p.purpose == "bond":
                return f"the GM's answer to {who}'s bond"
            return f"the GM's approval of {who}'s roll"
        return f"{who} to keep their roll"

    def waiting_how(self) -> str:
        """Who answers the pending decision with which buttons, and what `/gm resolve` does
        instead — what its window's end would do (:mod:`bot.engine.uune.decision_words`'
        ``lapse``)."""
        p = self.state.pending
        if p is None:
            return super().waiting_how()
        if p.kind != "approval":
            return (
                " The buttons on the roll's message decide it (keep it, or spend on it);"
                " `/gm resolve` settles it: the roll stands as it is."
            )
        if p.purpose == "bond":
            return (
                " The GM answers it with the buttons on its message;"
                " `/gm resolve` settles it: the focus is not granted."
            )
        if p.purpose == "defend" and not p.undecided():
            return (
                " Its roller proposes resources with `/act action:propose` or rolls with the"
                " buttons on its message; `/gm resolve` settles it: the Defend is rolled with"
                " what is approved."
            )
        lapse = (
            "the resources not answered are refused and the roll is made"
            if p.difficulty is not None
            else "the action is called off"
        )
        return (
            " The GM answers it with the buttons on the roll's message;"
            f" `/gm resolve` settles it: {lapse}."
        )

    def on_period_end(self, period: Period) -> None:
        """When the scene (or a longer period) ends: resources approved for the scene stop
        standing, and Center outside a conflict and a bond's focus are available again
        ("Center", "Bonds": once per scene)."""
        for c in self.state.combatants:
            if c.standing or c.centered or c.bond_focus:
                m = self.c(c.id)
                m.standing, m.centered, m.bond_focus = (), False, False
            self.clamp_focus(c.id)

    def tick_effects(self, moment: Moment, holder: str | None) -> None:
        """The core's (effects whose time ran out end, hooks act), then focus above a maximum
        that fell falls to it: a Stimulated given for some rounds or until a turn's end ends
        here ("Effect: Stimulated"; "Focus": a maximum)."""
        super().tick_effects(moment, holder)
        for c in self.state.combatants:
            if c.focus:
                self.clamp_focus(c.id)

    def lose(self, cid: str, condition: str, reason: str, *, levels: int | None = None) -> None:
        """The core's, then focus falls to the maximum when Stimulated lost a level or ended."""
        super().lose(cid, condition, reason, levels=levels)
        if condition == STIMULATED:
            self.clamp_focus(cid)

    def clamp_focus(self, cid: str) -> None:
        """Focus above the maximum (Stimulated ended) falls to it ("Focus": "a maximum")."""
        c = self.view(cid)
        top = self.focus_max(c)
        if c.focus > top:
            self.c(cid).focus = top

    def turn_taken_up(self, c: UuneCombatant) -> str | None:
        """ "Effect: Stunned": the creature loses its turn, one level of Stunned a turn
        ("You lose consecutive actions if you have multiple levels")."""
        stunned = c.effect(STUNNED)
        if stunned is None or self.is_out(c):
            return None
        if not self.reads("stun_lost_after_the_turn"):
            self.lose(c.id, STUNNED, "a turn lost to it", levels=1)
        return "stunned"

    def after_turn_taken_up(self, c: UuneCombatant) -> None:
        """From rules version 7 (``"stun_lost_after_the_turn"``) the level of Stunned goes once
        the turn it was lost to is said: "Tobin spends the turn stunned.", then "Tobin is no
        longer Stunned (a turn lost to it)."; versions 1 to 6 said the level's loss first."""
        if self.reads("stun_lost_after_the_turn") and self.view(c.id).effect(STUNNED) is not None:
            self.lose(c.id, STUNNED, "a turn lost to it", levels=1)

    def effect_hook(self, cid: str, effect: Effect, moment: Moment) -> None:
        """ "Effect: Bleeding": 10 vitality lost at the start of each round, per level."""
        if effect.name != BLEEDING or moment != "round_start":
            return
        c = self.view(cid)
        if self.is_out(c):
            return
        after = health.bleed(c.health, self.tables, effect.level)
        lost = self.tables.bleeding.vitality * effect.level
        self.set_health(
            cid,
            after,
            "bled out",
            lambda: self.note(
                f"{c.name} bleeds: {lost} vitality lost ({self.vitality_line(self.view(cid))}).",
                cid,
                secret=c.is_npc,
                public=f"{c.name} bleeds.",
            ),
        )

    # -- health ----------------------------------------------------------------------------------
    def set_health(
        self, cid: str, health: Health, why: str, said: Callable[[], None] | None = None
    ) -> None:
        """``cid``'s health becomes ``health``; at 0 vitality it becomes Incapacitated, above 0
        it no longer is ("Vitality"). ``said``: what says the change (a note reading the new
        health), emitted before the Incapacitated it may bring — the cause, then its
        consequence."""
        m = self.c(cid)
        m.health = health
        if said is not None:
            said()
        t = self.tables
        now, top = health.now(t), health.maximum(t)
        if health.incapacitated(t):
            self.gain(cid, INCAPACITATED, why, f"vitality {now}/{top}")
        elif m.has(INCAPACITATED):
            self.lose(cid, INCAPACITATED, f"vitality back to {now}")

    def vitality_line(self, c: UuneCombatant) -> str:
        """ "vitality 80/90, wounds: 1 light" — the creature's own numbers."""
        t, h = self.tables, c.health
        parts = [f"vitality {h.now(t)}/{h.maximum(t)}"]
        w = [f"{n} {k}" for k, n in h.wounds.model_dump().items() if n]
        s = [f"{n} {k}" for k, n in h.stress.model_dump().items() if n]
        if w:
            parts.append("wounds: " + ", ".join(w))
        if s:
            parts.append("stress: " + ", ".join(s))
        return ", ".join(parts)

    def focus_max(self, c: UuneCombatant) -> int:
        """A PC's focus maximum ("Focus", "Effect: Stimulated"); 0 for an NPC."""
        if not isinstance(c.sheet, UuneSheet):
            return 0
        stimulated = c.effect("Stimulated")
        return c.sheet.focus_max(self.tables, stimulated.level if stimulated else 0)

    def rests_while_out(self, purpose: str) -> bool:
        """Whether a roll for ``purpose`` is taken, and waits on its roller, even when the
        roller is Incapacitated: Downtime from rules version 5. "Vitality": at zero "they
        become incapacitated and cannot take actions"; but "Wounds" and "Stress" heal a lethal
        wound and a traumatic stress — each leaves a maximum of 0 — only "after a successful
        downtime action", so the bot reads Downtime (rest, outside a conflict) as open to
        them. Versions 1 to 4 refused it, and such a wound never mended."""
        return self.reads("downtime_while_out") and purpose == "downtime"

    def intoxicated_passes(self, c: UuneCombatant) -> int:
        """How many times ``c``'s rolls reroll their 6s ("Effect: Intoxicated": "must reroll
        all 6s"): once per level from rules version 5 ("Effects": a stacked effect's
        "mechanics will apply multiple times"); once at any level before; 0 when sober."""
        drunk = c.effect(INTOXICATED)
        if drunk is None:
            return 0
        return drunk.level if self.reads("intoxicated_per_level") else 1

    # -- acting ----------------------------------------------------------------------------------
    def pay_action(self, cid: str, reason: str) -> None:
        """``cid`` spends its turn's one action. Raises :class:`RuleViolation` naming why not."""
        c = self.view(cid)
        try:
            after = self.economy.pay(c.pools, Cost(kind="action"), self.timing(cid), 1)
        except RuleViolation as short:
            raise RuleViolation(
                f"{names.escaped(c.name)} cannot {names.escaped(reason)}: {short.message}."
            ) from None
        self.c(cid).pools = after
        self.spent_on_turn(cid)

    def on_turn_only(self) -> bool:
        """Whether an action roll, an Attack, an NPC's attack and a Move are taken on the
        actor's turn only: in a conflict, and at any time before rules version 5. From version
        5, outside a conflict they need no turn, as the special actions never did ("Actions":
        a notable action is rolled for, "Conflict" only slows the game down "when there's a
        lot going on"; "Defend": "This does not use your turn action while in conflict")."""
        return not self.reads("turn_only_in_conflict") or self.state.phase == "active"

    def take_action(self, c: UuneCombatant, what: str) -> None:
        """``c`` takes an action: in a conflict on its turn, spending the turn's one action;
        outside one whenever nothing waits and ``c`` can act. Raises :class:`RuleViolation`
        naming why not."""
        if self.state.phase == "active":
            self.require_turn(c)
            self.pay_action(c.id, what)
        else:
            self.require_no_pending()
            self.require_can_act(c)

    def timing(self, cid: str) -> Any:
        return "turn" if self.state.turn == cid else "off_turn"

    def require_pc(self, c: UuneCombatant, what: str) -> None:
        if c.is_npc or not isinstance(c.sheet, UuneSheet):
            raise RuleViolation(
                f"{names.escaped(c.name)} is an NPC: NPCs never roll ({what} is a PC's; an NPC "
                "attacks with its statblock's attacks, which its target Defends against)."
            )
