"""The UTTAS working transaction: the core's (:mod:`bot.engine.core.tx` — copy-on-write
state, the turn cycle with the economy's hooks for every combatant) plus UTTAS's resources,
conditions and turn rules (``uttas-gameplay.txt``)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import ClassVar

from bot import names
from bot.engine.core.built import built
from bot.engine.core.dice import DiceRoller, Roll
from bot.engine.core.economy import ActionEconomy, Cost, SpeedPool, Timing
from bot.engine.core.effects import Period
from bot.engine.core.events import ActionsSpent
from bot.engine.core.order import ByScore, TurnOrder
from bot.engine.core.scale import Scale
from bot.engine.core.tx import CoreTx
from bot.engine.uttas import limbs, rules
from bot.engine.uttas.events import Recovered, StaminaSpent
from bot.engine.uttas.state import (
    DEAD,
    DISABLED,
    GRAPPLED,
    GRAPPLING,
    OUT,
    PRONE,
    STAGGERED,
    STUNNED,
    UNCONSCIOUS,
    Combatant,
    HealedToday,
    MaintainedPower,
    Readied,
    UttasState,
)
from bot.engine.uttas.tables import UttasTables
from bot.errors import RuleViolation
from bot.words import counted

LIMBS = ("head", "body", "left arm", "right arm", "left leg", "right leg")
ECONOMY = SpeedPool()
TURN_ORDER = ByScore()
"""UTTAS "Combat": by Agility (ties rolled), or Agility dice for everyone."""
RULES_VERSION = 7
"""The newest UTTAS rules version (:attr:`~bot.engine.uttas.ruleset.UttasRuleset.rules_version`
says what each changed)."""


_COSTS = {n: Cost(amount=n) for n in range(21)}


def _cost(amount: int) -> Cost:
    return _COSTS.get(amount) or Cost(amount=amount)


class Tx(CoreTx[UttasState, Combatant]):
    """One UTTAS command's working copy of the state: the core's transaction and turn cycle,
    with UTTAS's resources (Speed, Stamina), conditions and turn rules."""

    __slots__ = ("_profiles", "_recovering", "tables", "version")

    OUT_CONDITIONS = OUT
    MAX_COMBATANTS = 60
    LATER_READINGS: ClassVar[Mapping[str, int]] = {
        "end_first": 3,
        "one_skip": 3,
        "new_day_moves_clock": 5,
    }
    READINGS: ClassVar[Mapping[str, int]] = {
        "speed_refills_at_turn_start": 2,
        "maintained_attacks": 4,
        "opposing_head": 4,
        "grapple_working_arms": 4,
        "gm_dice_on_every_roll": 4,
        "move_reaction_moves": 4,
        "held_acts_only_to_escape": 4,
        "standing_moves": 4,
        "counted_words": 6,
        "stun_lost_after_the_turn": 6,
        "breather_refused_at_full": 7,
        "unchanged_condition_refused": 7,
    }
    """UTTAS's own later readings, from the rules version given (:meth:`reads`; the core's are
    :attr:`LATER_READINGS`): ``"speed_refills_at_turn_start"`` (version 2), the Speed pool
    refills at the start of the creature's next turn, where version 1 refilled it at the end of
    its own turn, unless the tables say when (:class:`~bot.engine.uttas.ruleset.UttasRuleset`);
    from version 4: ``"maintained_attacks"``, an attack with a maintained power records
    what it maintains, so it can be dropped (:meth:`maintain`); ``"opposing_head"``, the target
    of an opposed check rolls with its disabled head's Disadvantage (:meth:`check_roll`);
    ``"grapple_working_arms"``, a grapple holds one limb per working arm
    (:func:`bot.engine.uttas.attacks._grapple_limbs`); ``"gm_dice_on_every_roll"``, the Game
    Master's dice (``/gm advantage``) join every Accuracy and skill roll of their combatant, each
    as it is rolled (:meth:`gm_dice`); ``"move_reaction_moves"``, a Move reaction is refused to
    a creature that cannot move (:func:`bot.engine.uttas.movement.why_cannot_step`);
    ``"held_acts_only_to_escape"``, a creature held in a grapple spends actions only on escaping
    or taking control (:meth:`spend_actions`); ``"standing_moves"``, standing up by spending
    half the Run speed is moving, so the free stance of the turn's start is gone after it
    (:func:`bot.engine.uttas.movement.stand`); from version 6: ``"counted_words"``, an
    action's spend and a chase's end count in plain English ("spends 1 action", "after 2
    rounds"; :meth:`spend_actions`, :func:`bot.engine.uttas.chase.end_chase`), where versions
    1–5 wrote "action(s)" and "round(s)"; ``"stun_lost_after_the_turn"``, a creature recovering
    from Stunned is said to spend its turn so before it is said no longer Stunned
    (:meth:`after_turn_taken_up`), where versions 1–5 said it the other way round; from
    version 7: ``"breather_refused_at_full"``, a breather at full Stamina is refused
    (:func:`bot.engine.uttas.actions.breather`), where versions 1–6 spent the turn's action
    and a breather on it; ``"unchanged_condition_refused"``, the GM putting a condition on a
    creature that already has it, for as long, is refused
    (:func:`bot.engine.uttas.setup.set_condition`), where versions 1–6 noted "nothing changed"
    as a change of its own (an undo step)."""

    def __init__(
        self,
        state: UttasState,
        tables: UttasTables,
        roller: DiceRoller,
        now: datetime,
        economy: ActionEconomy | None = None,
        order: TurnOrder | None = None,
        *,
        version: int = RULES_VERSION,
    ) -> None:
        super().__init__(state, economy or ECONOMY, roller, now, order or TURN_ORDER)
        self._profiles: dict[tuple[str, str], rules.AttackProfile] = {}
        self._recovering: str | None = None  # whose turn went on recovering from Stunned
        self.tables = tables
        self.version = version
        """The rules version the encounter plays by (:data:`RULES_VERSION` and before, see
        :attr:`~bot.engine.uttas.ruleset.UttasRuleset.rules_version`): what changed between
        versions reads it, so an older fight's log replays as it was played."""

    @property
    def scale(self) -> Scale:
        """UTTAS "Range Modifiers": meters, or feet on a board the tables say is in feet."""
        return self.tables.range.scale

    def profile(self, cid: str, name: str) -> rules.AttackProfile:
        """The attack ``name`` of combatant ``cid`` (cached for this command)."""
        key = (cid, name)
        found = self._profiles.get(key)
        if found is None:
            found = self._profiles[key] = rules.attack_profile(self.view(cid), name, self.tables)
        return found

    # -- the core's hooks ------------------------------------------------------------------------
    def capacity(self, c: Combatant) -> int:
        return c.sheet.speed

    def initiative_score(self, c: Combatant) -> int:
        """UTTAS "Combat": initiative goes by Agility."""
        return rules.effective(c, "agility")

    def initiative_roll(self, c: Combatant, tie_on: int | None) -> Roll:
        """UTTAS "Combat": the Agility dice — everyone's (``roll`` mode), or those tied on
        Agility ``tie_on``."""
        purpose = (
            f"{c.name}'s initiative (Agility dice)"
            if tie_on is None
            else f"{c.name}'s Agility dice (tie on Agility {tie_on})"
        )
        return self.roll(purpose, rules.dice_of(c, "agility", self.tables))

    def actions_left(self, c: Combatant) -> int:
        return c.actions_left

    def cannot_act(self, c: Combatant) -> str | None:
        """Out of the fight (Dead, Unconscious, Surrendered) or a table condition that takes
        every action (UTTAS "Conditions")."""
        if not c.effects:
            return None
        why = super().cannot_act(c)
        if why is not None:
            return why
        for name, extra in self.tables.extra_conditions.items():
            if extra.no_actions and c.has(name):
                return name.lower()
        return None

    def waiting_on(self) -> str:
        p = self.state.pending
        assert p is not None
        who = names.escaped(self.view(p.target if p.awaiting == "reaction" else p.attacker).name)
        attacker = names.escaped(self.view(p.attacker).name)
        return f"{who} to decide on {attacker}'s {names.escaped(p.attack)}"

    def waiting_how(self) -> str:
        return (
            " The buttons on the attack's message decide it (the GM chooses for an NPC);"
            " `/gm resolve` settles it with no reaction."
        )

    def before_turn(self, c: Combatant) -> None:
        """UTTAS "Combat": a new turn: a free stance, a fresh half move; a readied action lapses,
        a breather completes (UTTAS "Take a Breather"). (A sprint's Sprinting effect ended just
        before, at this turn's start.)"""
        # Plain fields on an engine-owned clone: set without pydantic's per-assignment cost.
        c.__dict__.update(
            free_stance_available=True,
            half_move_used={},
            moved_this_turn=False,
            movement_ended=False,
            acrobatics_tried=False,
        )
        r = c.readied
        if r is not None:
            if self._trigger_just_came(r):  # the watched one acted just before this turn
                watched = self.view(r.watch).name
                self.note(
                    f"{c.name}'s readied action can still resolve, now: {watched} just "
                    f"{'acted' if r.trigger == 'action' else 'moved'} (it lapses when this "
                    "turn ends).",
                    c.id,
                )
            else:
                c.readied = None
                self.note(f"{c.name}'s readied action lapses: its trigger never came.", c.id)
        if c.breathing:
            self.complete_breather(c.id)

    def turn_taken_up(self, c: Combatant) -> str | None:
        """UTTAS "Stunned": the turn goes on an action to recover; "Perform a skill": a skill
        that takes several turns takes this one (:mod:`bot.engine.uttas.skills_long`)."""
        if c.skill_in_progress is not None:
            from bot.engine.uttas import skills_long  # it builds on this module

            return skills_long.continue_turn(self, c)
        if not c.has(STUNNED):
            return None
        self.spend_actions(c.id, 1, "recovering from Stunned", "turn", escaping=True)
        if self.reads("stun_lost_after_the_turn"):
            self._recovering = c.id  # said after the turn it took (after_turn_taken_up)
        else:
            self.lose(c.id, STUNNED, "spent an action to recover")
        return "recovering from Stunned"

    def after_turn_taken_up(self, c: Combatant) -> None:
        """From rules version 6 (``"stun_lost_after_the_turn"``): Stunned ends once the turn
        spent recovering from it is said — "Willow spends the turn recovering from Stunned.",
        then "Willow is no longer Stunned (spent an action to recover)." — as Uune 7 says its
        turns lost to Stunned; versions 1–5 said the recovery first."""
        if self._recovering == c.id:
            self._recovering = None
            self.lose(c.id, STUNNED, "spent an action to recover")

    def _trigger_just_came(self, r: Readied) -> bool:
        """Whether a readied action's trigger was the last thing that happened (UTTAS "Perform a
        readied action": after the watched enemy's action, or its movement)."""
        st = self.state
        return (r.trigger == "action" and st.last_action_by == r.watch) or (
            r.trigger == "movement" and st.last_mover == r.watch
        )

    def after_own_turn(self, c: Combatant) -> None:
        """UTTAS "Actions and Speed": the pool refilled; no longer Staggered; the free stance
        change is gone. A readied action kept for this turn (its trigger came just before it)
        lapses unused."""
        if c.readied is not None and c.readied.round < self.state.round:  # kept, not new
            c.readied = None
            self.note(f"{c.name}'s readied action lapses: its moment passed.", c.id)
        if not self.economy.exhausted(c.pools):
            self.lose(c.id, STAGGERED, "actions recovered")
        c.__dict__["free_stance_available"] = False  # ``c`` is a clone: no __setattr__ needed

    def action_done(self, cid: str, on_turn: bool) -> None:
        """The turn's action was taken: the turn ends (UTTAS "Perform an action")."""
        self.state.last_action_by = cid
        if on_turn:
            self.check_end()
            if self.state.phase == "active" and self.state.turn == cid:
                self.finish_turn(cid)

    def turn_end_text(self, c: Combatant) -> str:
        if getattr(self.economy, "refill", "turn_end") == "turn_end":
            return f"{c.name}'s turn ends; Speed pool back to {c.actions_left}."
        left = c.actions_left
        if left <= 0:
            return f"{c.name}'s turn ends with no actions left: the next turn is skipped."
        return f"{c.name}'s turn ends; {counted(left, 'action')} left until their next turn."

    def on_period_end(self, period: Period) -> None:
        """UTTAS "Natural Healing": short rests are counted per day and a long rest once per
        24 hours; when the GM ends the day (or a quest or an arc), the next day begins and its
        rests count afresh, and so do the day's healing limits ("Healing") — a documented
        reading: the text has no day boundary of its own.

        From rules version 5 (the core's ``"new_day_moves_clock"``,
        :func:`bot.engine.core.scenes.end_period`) the fight's clock has moved to the start of
        that next day (00:00) by now, as the campaign clock does out of a fight, so the days
        counted by (``game_time_s`` ÷ 86 400) and the campaign clock the fight leaves behind are
        the new day's; versions 1–4 left the fight's clock where it was."""
        if period == "scene":
            return
        rested = [
            c for c in self.state.combatants if c.short_rests_at or c.long_rest_at is not None
        ]
        for c in rested:
            m = self.c(c.id)
            m.short_rests_at, m.long_rest_at = [], None
        healed = [c for c in self.state.combatants if c.healed.power or c.healed.first_aid]
        for c in healed:
            self.c(c.id).healed = HealedToday(day=self.state.game_time_s // 86_400)
        afresh = [w for w, some in (("rests", rested), ("healing limits", healed)) if some]
        if afresh:
            self.note(f"A new day begins: {' and '.join(afresh)} count afresh.")

    def on_fight_end(self) -> None:
        """Readied actions lapse; a breather that never completed does not spend its use."""
        for c in self.state.combatants:
            if c.breathing or c.readied is not None:
                m = self.c(c.id)
                m.readied = None
                if m.breathing:
                    m.breathing = False
                    m.breather_uses += 1

    # -- checks -------------------------------------------------------------------------------
    def require_within(self, c: Combatant, target: Combatant, meters: float, what: str) -> None:
        """``what`` ("an item is used", "First Aid is given") reaches ``target`` from ``c``
        within ``meters`` when the encounter knows how far apart they are (positions, decision
        E; unknown: the table's word is trusted). Raises :class:`RuleViolation`."""
        if target.id == c.id:
            return
        apart = self.state.positions.distance(c.id, target.id)
        if apart is not None and apart > meters:
            raise RuleViolation(
                f"{names.escaped(target.name)} is {self.scale.show(apart)} away; {what} on "
                f"someone within {self.scale.show(meters)}. Move closer first."
            )

    def require_not_held(self, c: Combatant, what: str) -> None:
        """UTTAS "Grappled": the held creature may only escape or take control."""
        if c.has(GRAPPLED):
            raise RuleViolation(
                f"{names.escaped(c.name)} is grappled and may only try to escape or take "
                f"control of the grapple, not {what}."
            )

    def spend_actions(
        self,
        cid: str,
        amount: int,
        reason: str,
        timing: Timing,
        *,
        on_skill: bool = False,
        escaping: bool = False,
    ) -> None:
        """UTTAS "Actions and Speed": pay from the Speed pool; empty → Staggered. An action
        spent on anything but the skill in progress (``on_skill``) interrupts that skill
        ("Perform a skill", :mod:`bot.engine.uttas.skills_long`). UTTAS "Grappled": "the only
        actions the grappled creature may take are those allowing him to either escape the
        grapple or take control of the grapple" — from rules version 4 every action is refused
        to a held creature here, at the payment, unless it is one of those (``escaping``: the
        grapple contest, a Warp away) or the rules force it (recovering from Stunned)."""
        c = self.c(cid)  # a refusal below discards this command's working copy with the rest
        if (
            amount > 0
            and not escaping
            and c.has(GRAPPLED)
            and self.reads("held_acts_only_to_escape")
        ):
            self.require_not_held(c, f"spend an action on {names.escaped(reason)}")
        if c.skill_in_progress is not None and not on_skill:
            from bot.engine.uttas import skills_long  # it builds on this module

            skills_long.interrupt(self, cid, f"{c.name} acted otherwise: {reason}")
        left = c.actions_left
        if left < amount:
            if left == 0:
                raise RuleViolation(f"{names.escaped(c.name)} has no actions left this round.")
            raise RuleViolation(
                f"{names.escaped(c.name)} needs {amount} actions for {names.escaped(reason)} but "
                f"has {left} left this round."
            )
        # this command's own clone: a plain write skips pydantic's per-assignment cost
        c.__dict__["pools"] = self.economy.pay(c.pools, _cost(amount), timing, c.sheet.speed)
        if timing == "turn":
            self.spent_on_turn(cid)
        self.emit(
            built(  # the engine's own values: not validated again (bot.engine.core.built)
                ActionsSpent,
                combatant=cid,
                amount=amount,
                left=c.actions_left,
                reason=reason,
                text=(
                    f"{c.name} spends {self._actions(amount)} on {reason} ({c.actions_left} left)."
                ),
            )
        )
        if self.economy.exhausted(c.pools):
            self.gain(cid, STAGGERED, "no actions left this round")

    def _actions(self, amount: int) -> str:
        """``amount`` actions in words: "1 action", "2 actions" (rules version 6,
        ``"counted_words"``); versions 1–5 wrote "1 action(s)" and still do."""
        if self.reads("counted_words"):
            return counted(amount, "action")
        return f"{amount} action(s)"

    def spend_stamina(self, cid: str, amount: int, reason: str, *, held: bool = False) -> None:
        """UTTAS "Stamina Costs". Refused when it exceeds current Stamina (unless the table
        allows overexertion); reaching 0 Stamina makes the character Unconscious."""
        if amount <= 0:
            return
        c = self.c(cid)
        if amount > c.stamina and not self.tables.stamina.allow_overexertion:
            raise RuleViolation(
                f"{names.escaped(c.name)} has {c.stamina} Stamina; {names.escaped(reason)} costs "
                f"{amount}."
            )
        c.__dict__["stamina"] = c.stamina - amount  # this command's own clone (as above)
        if held:
            c.stamina_held += amount
        tail = ", held while maintained" if held else ""
        self.emit(
            built(
                StaminaSpent,
                combatant=cid,
                amount=amount,
                left=c.stamina,
                held=amount if held else 0,
                reason=reason,
                text=f"{c.name} spends {amount} Stamina on {reason} ({c.stamina} left{tail}).",
            )
        )
        if c.stamina <= 0:
            self.knock_out(cid, "ran out of Stamina")

    def maintain(self, cid: str, power: str, amount: int, reason: str) -> None:
        """UTTAS "Activating Powers": a maintained power's (double) Stamina is spent and held
        "for as long as they Maintain the Power", and the power is recorded as maintained so
        that dropping it (``DropPower``) frees what it holds."""
        self.spend_stamina(cid, amount, reason, held=True)
        self.c(cid).maintained.append(MaintainedPower(power=power, stamina_held=amount))

    def require_not_maintaining(self, c: Combatant, power: str) -> None:
        """A maintained power is activated once: again only after it is dropped."""
        if any(mp.power == power for mp in c.maintained):
            raise RuleViolation(
                f"{names.escaped(c.name)} already maintains {names.escaped(power)}: stop "
                "maintaining it first "
                f"({names.code(f'/act action:drop-power detail:{power}')}, free), then activate "
                "it again."
            )

    def check_roll(
        self,
        c: Combatant,
        purpose: str,
        dice: int,
        *,
        advantage: int = 0,
        disadvantage: int = 0,
        head: bool = True,
        gm: bool = False,
    ) -> Roll:
        """A skill check's roll of ``c``: its dice with the Advantages and Disadvantages given,
        plus UTTAS "Head": a disabled head has "a Disadvantage on all ... skill checks" (every
        skill check rolls here; ``head`` is False only where an older rules version rolled
        without it), plus — ``gm`` — the Game Master's dice on ``c`` (:meth:`gm_dice`; a
        command whose dice were added as it came in, ``/check``, passes False)."""
        held_back = 1 if head and limbs.head_disabled(c) else 0
        more, fewer = self.gm_dice(c.id) if gm else (0, 0)
        return self.roll(
            purpose, dice, advantage=advantage + more, disadvantage=disadvantage + held_back + fewer
        )

    def gm_dice(self, cid: str) -> tuple[int, int]:
        """UTTAS "Advantage and Disadvantage", awarded by the Game Master (``/gm advantage``):
        ``(Advantage dice, Disadvantage dice)`` for one Accuracy or skill roll of ``cid`` that
        no command brought them to — the target's side of an opposed check, First Aid, standing
        with Acrobatics, a counterattack, a coordinated ally's attack (rules version 4; before,
        only the roller's own ``/attack`` and ``/check`` had them, by
        :func:`bot.engine.uttas.gm.with_gm_dice`). The next-roll dice are used up."""
        c = self.view(cid)
        net = c.gm_next_roll + c.gm_every_roll
        if not (net or c.gm_next_roll) or not self.reads("gm_dice_on_every_roll"):
            return 0, 0
        if c.gm_next_roll:
            self.c(cid).gm_next_roll = 0
        return max(net, 0), max(-net, 0)

    def stamina_cap(self, c: Combatant) -> int:
        return c.sheet.stamina - c.stamina_held

    def recover_stamina(self, cid: str, amount: int, source: str, roll: Roll | None = None) -> int:
        """Regain up to ``amount`` Stamina, never above the maximum (less what maintained powers
        hold); it heals Stamina damage first (how the combatant looks). Returns what was got."""
        c = self.c(cid)
        before = c.stamina
        cap = self.stamina_cap(c)
        c.stamina = max(c.stamina, min(cap, c.stamina + max(0, amount)))
        got = c.stamina - before
        c.stamina_damage = max(0, c.stamina_damage - got)
        if got < amount:  # the maximum cut it short: say so, with what was rolled or due
            how = f"{got} of {amount} Stamina ({source}; capped at the maximum {cap})"
        else:
            how = f"{got} Stamina ({source})"
        self.emit(
            Recovered(
                combatant=cid,
                source=source,
                roll=roll,
                stamina=got,
                text=f"{c.name} recovers {how}; now {c.stamina}."
                + (f" {roll.text}" if roll else ""),
            )
        )
        if c.stamina > 0 and c.has(UNCONSCIOUS):
            self.lose(cid, UNCONSCIOUS, "Stamina back above zero")
        return got

    # -- conditions ---------------------------------------------------------------------------
    def release_grapple(self, cid: str, reason: str) -> None:
        """End any grapple ``cid`` is part of; limbs disabled by it work again."""
        c = self.view(cid)
        pairs = []
        if c.grappled_by:
            pairs.append((c.grappled_by, cid))
        if c.grappling:
            pairs.append((cid, c.grappling))
        for holder, held in pairs:
            h, v = self.c(holder), self.c(held)
            h.grappling = None
            v.grappled_by = None
            v.disabled_limbs = [d for d in v.disabled_limbs if d.source != "grapple"]
            self.lose(holder, GRAPPLING, reason)
            self.lose(held, GRAPPLED, reason)
            if not v.disabled_limbs:
                self.lose(held, DISABLED, reason)

    def restore_healed_limbs(self, m: Combatant) -> None:
        """UTTAS "Disabled Limb": a limb disabled by an injury works again "when the Health
        damage suffered from the attack ... is healed" — by any means (natural healing, a Heal,
        the GM). ``m`` is changeable."""
        keep = []
        for d in m.disabled_limbs:
            healed = d.restore_at_health is not None and m.health >= d.restore_at_health
            if d.source == "injury" and healed:
                self.note(f"{m.name}'s {d.limb} works again.", m.id)
                continue
            keep.append(d)
        if len(keep) == len(m.disabled_limbs):
            return
        m.disabled_limbs = keep
        if not keep:
            self.lose(m.id, DISABLED, "healed")

    def limbs_follow_health(self, before: UttasState) -> None:
        """After every command: each combatant whose Health rose in it (from ``before``, the
        command's input state) gets its healed limbs back (see :meth:`restore_healed_limbs`),
        whatever raised its Health."""
        for m in self.changed():
            if not m.disabled_limbs:
                continue
            old = next((c for c in before.combatants if c.id == m.id), None)
            if old is not None and m.health > old.health:
                self.restore_healed_limbs(m)

    def knock_out(self, cid: str, reason: str, detail: str = "") -> None:
        """UTTAS "Unconscious": falls Prone, cannot act; a breather is interrupted."""
        self.gain(cid, UNCONSCIOUS, reason, detail)
        self.gain(cid, PRONE, "fell unconscious")
        self.lose(cid, STUNNED, "unconscious")
        self.release_grapple(cid, f"{self.view(cid).name} fell unconscious")

    def kill(self, cid: str, reason: str, detail: str = "") -> None:
        """UTTAS "Dead": no actions, no recovery."""
        self.gain(cid, DEAD, reason, detail)
        self.gain(cid, PRONE, "fell dead")
        c = self.c(cid)
        c.breathing = False
        c.readied = None
        self.release_grapple(cid, f"{c.name} died")

    # -- breathers ----------------------------------------------------------------------------
    def complete_breather(self, cid: str) -> None:
        """UTTAS "Take a Breather": at the start of the next turn, roll the (current) Body dice
        and recover that much Stamina."""
        c = self.c(cid)
        c.breathing = False
        dice = rules.dice_of(c, "body", self.tables)
        roll = self.roll(f"{c.name}'s breather (Body dice)", dice)
        self.recover_stamina(cid, roll.total, "breather", roll)

    def interrupt_breather(self, cid: str) -> None:
        """UTTAS "Take a Breather": damage interrupts it; the use is not spent."""
        c = self.c(cid)
        if c.breathing:
            c.breathing = False
            c.breather_uses += 1
            self.note(f"{c.name}'s breather is interrupted by damage; the use is refunded.", cid)
