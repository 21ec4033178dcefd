"""The UTTAS working transaction: copy-on-write state, shared helpers and the turn cycle.

A :class:`Tx` starts from a shallow copy of the state; a combatant is cloned the first time it is
changed (its frozen sheet is shared), so ``apply`` never mutates its input and an error part-way
leaves the caller's state untouched.
"""

from __future__ import annotations

from datetime import datetime

from bot.engine.core.commands import TurnBound
from bot.engine.core.dice import DiceRoller, Roll, roll_pool
from bot.engine.core.economy import Cost, SpeedPool, Timing
from bot.engine.core.events import (
    ActionsSpent,
    CombatEnded,
    ConditionChanged,
    Event,
    Note,
    RoundStarted,
    TurnEnded,
    TurnSkipped,
    TurnStarted,
)
from bot.engine.core.state import fight_over
from bot.engine.uttas import rules
from bot.engine.uttas.events import Recovered, StaminaSpent
from bot.engine.uttas.state import Combatant, UttasState
from bot.engine.uttas.tables import UttasTables
from bot.errors import Conflict, RuleViolation

DEAD, UNCONSCIOUS, STUNNED, STAGGERED = "Dead", "Unconscious", "Stunned", "Staggered"
PRONE, GRAPPLED, GRAPPLING, DISABLED = "Prone", "Grappled", "Grappling", "Disabled limb"
SURRENDERED, SPRINTING = "Surrendered", "Sprinting"
BASE_CONDITIONS = (
    DEAD,
    UNCONSCIOUS,
    STUNNED,
    STAGGERED,
    PRONE,
    GRAPPLED,
    GRAPPLING,
    DISABLED,
    SURRENDERED,
    SPRINTING,
)
OUT = (DEAD, UNCONSCIOUS, SURRENDERED)
LIMBS = ("head", "body", "left arm", "right arm", "left leg", "right leg")
ECONOMY = SpeedPool()
ROUND_SECONDS = 6


_COSTS = {n: Cost(amount=n) for n in range(21)}


def _cost(amount: int) -> Cost:
    return _COSTS.get(amount) or Cost(amount=amount)


class Tx:
    """One command's working copy of the state plus the events it produced."""

    __slots__ = (
        "_cloned",
        "_index",
        "_profiles",
        "events",
        "now",
        "outs_changed",
        "roller",
        "state",
        "tables",
    )

    def __init__(
        self, state: UttasState, tables: UttasTables, roller: DiceRoller, now: datetime
    ) -> None:
        self.state = state.model_copy()
        self.state.__dict__.update(combatants=list(state.combatants), order=list(state.order))
        self._index = {c.id: i for i, c in enumerate(self.state.combatants)}
        self._cloned: set[str] = set()
        self.events: list[Event] = []
        self.outs_changed = False
        self._profiles: dict[tuple[str, str], rules.AttackProfile] = {}
        self.tables = tables
        self.roller = roller
        self.now = now

    # -- access -------------------------------------------------------------------------------
    def view(self, cid: str) -> Combatant:
        """Read-only access (may be the caller's object: never change it)."""
        i = self._index.get(cid)
        if i is None:
            return self.state.find(cid)
        return self.state.combatants[i]

    def c(self, cid: str) -> Combatant:
        """A changeable combatant (cloned on first use in this transaction)."""
        cid = self.view(cid).id
        i = self._index[cid]
        if cid not in self._cloned:
            self.state.combatants[i] = self.state.combatants[i].clone()
            self._cloned.add(cid)
        return self.state.combatants[i]

    def add(self, combatant: Combatant) -> None:
        self.state.combatants.append(combatant)
        self._index[combatant.id] = len(self.state.combatants) - 1
        self._cloned.add(combatant.id)

    def remove(self, cid: str) -> None:
        self.state.combatants = [c for c in self.state.combatants if c.id != cid]
        self._index = {c.id: i for i, c in enumerate(self.state.combatants)}
        self.state.order = [x for x in self.state.order if x != cid]

    def profile(self, cid: str, name: str) -> rules.AttackProfile:
        """The attack ``name`` of combatant ``cid`` (cached for this command)."""
        key = (cid, name)
        found = self._profiles.get(key)
        if found is None:
            found = self._profiles[key] = rules.attack_profile(self.view(cid), name, self.tables)
        return found

    def emit(self, event: Event) -> None:
        self.events.append(event)

    def note(
        self, text: str, cid: str | None = None, *, secret: bool = False, public: str = ""
    ) -> None:
        """Free text about ``cid``. ``secret``: it carries ``cid``'s numbers, and audiences that
        may not see them read ``public`` instead (nothing when empty)."""
        self.emit(Note(text=text, combatant=cid, secret=secret, public_text=public))

    def roll(
        self,
        purpose: str,
        dice: int,
        *,
        advantage: int = 0,
        disadvantage: int = 0,
        modifier: int = 0,
    ) -> Roll:
        return roll_pool(
            self.roller,
            purpose,
            dice,
            advantage=advantage,
            disadvantage=disadvantage,
            modifier=modifier,
        )

    # -- checks -------------------------------------------------------------------------------
    def require_active(self) -> None:
        """Only during a fight; the refusal says whether it has not begun or is over."""
        if self.state.phase == "finished":
            raise RuleViolation(fight_over(self.state))
        if self.state.phase != "active":
            raise RuleViolation(
                "The fight has not begun yet: the GM starts it with `/encounter begin`."
            )

    def require_same_turn(self, cmd: TurnBound) -> None:
        """Refuse a command issued for a turn that has already ended (a second `/endturn` or
        `/gm next` for one turn, or one issued before the current turn began)."""
        st = self.state
        stale = cmd.for_turn is not None and cmd.for_turn != st.turn_seq
        stale = stale or (cmd.issued is not None and cmd.issued <= st.turn_marker)
        if stale:
            now = f"it is now {self.view(st.turn).name}'s" if st.turn else "no turn is running"
            raise Conflict(f"That turn already ended: {now}.")

    def require_no_pending(self) -> None:
        p = self.state.pending
        if p is not None:
            who = self.view(p.target if p.awaiting == "reaction" else p.attacker).name
            raise Conflict(
                f"Waiting for {who} to decide on {self.view(p.attacker).name}'s {p.attack} first."
            )

    def require_turn(self, c: Combatant) -> None:
        """UTTAS "Combat": only the combatant whose turn it is acts (reactions aside)."""
        self.require_active()
        self.require_no_pending()
        if self.state.turn != c.id:
            cur = self.view(self.state.turn).name if self.state.turn else "nobody"
            raise RuleViolation(f"It is {cur}'s turn, not {c.name}'s.")
        self.require_can_act(c)

    def require_can_act(self, c: Combatant) -> None:
        for cond in OUT:
            if c.has(cond):
                raise RuleViolation(f"{c.name} is {cond.lower()} and cannot act.")
        for name, extra in self.tables.extra_conditions.items():
            if extra.no_actions and c.has(name):
                raise RuleViolation(f"{c.name} is {name.lower()} and cannot act.")

    def require_not_held(self, c: Combatant, what: str) -> None:
        """UTTAS "Grappled": the held creature may only escape or take control."""
        if c.has(GRAPPLED):
            raise RuleViolation(
                f"{c.name} is grappled and may only try to escape or take "
                f"control of the grapple, not {what}."
            )

    # -- resources ----------------------------------------------------------------------------
    def spend_actions(self, cid: str, amount: int, reason: str, timing: Timing) -> None:
        """UTTAS "Actions and Speed": pay from the Speed pool; empty → Staggered."""
        c = self.c(cid)
        left = c.actions_left
        if left < amount:
            if left == 0:
                raise RuleViolation(f"{c.name} has no actions left this round.")
            raise RuleViolation(
                f"{c.name} needs {amount} actions for {reason} but has {left} left this round."
            )
        c.pools = ECONOMY.pay(c.pools, _cost(amount), timing, c.sheet.speed)
        self.emit(
            ActionsSpent(
                combatant=cid,
                amount=amount,
                left=c.actions_left,
                reason=reason,
                text=f"{c.name} spends {amount} action(s) on {reason} ({c.actions_left} left).",
            )
        )
        if ECONOMY.exhausted(c.pools):
            self.gain(cid, STAGGERED, "no actions left this round")

    def spend_stamina(self, cid: str, amount: int, reason: str, *, held: bool = False) -> None:
        """UTTAS "Stamina Costs". Refused when it exceeds current Stamina (unless the table
        allows overexertion); reaching 0 Stamina makes the character Unconscious."""
        if amount <= 0:
            return
        c = self.c(cid)
        if amount > c.stamina and not self.tables.stamina.allow_overexertion:
            raise RuleViolation(f"{c.name} has {c.stamina} Stamina; {reason} costs {amount}.")
        c.stamina -= amount
        if held:
            c.stamina_held += amount
        tail = ", held while maintained" if held else ""
        self.emit(
            StaminaSpent(
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
    def gain(self, cid: str, condition: str, reason: str, detail: str = "") -> None:
        """Put ``condition`` on ``cid``. ``reason`` may be read by anyone; ``detail`` holds the
        combatant's numbers behind it (e.g. "Stamina reduced to -3") for those who may see
        them."""
        c = self.view(cid)
        if c.has(condition):
            return
        c = self.c(cid)
        c.conditions.append(condition)
        if condition in OUT:
            self.outs_changed = True
        self.emit(
            ConditionChanged(
                combatant=cid,
                condition=condition,
                gained=True,
                reason=reason,
                detail=detail,
                text=f"{c.name} is now {condition} ({detail or reason}).",
            )
        )

    def lose(self, cid: str, condition: str, reason: str) -> None:
        c = self.view(cid)
        if not c.has(condition):
            return
        c = self.c(cid)
        c.conditions.remove(condition)
        self.emit(
            ConditionChanged(
                combatant=cid,
                condition=condition,
                gained=False,
                reason=reason,
                text=f"{c.name} is no longer {condition} ({reason}).",
            )
        )

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

    def is_out(self, c: Combatant) -> bool:
        conds = c.conditions
        return bool(conds) and (DEAD in conds or UNCONSCIOUS in conds or SURRENDERED in conds)

    # -- turn cycle ---------------------------------------------------------------------------
    def finish_turn(self, cid: str) -> None:
        """The acting combatant's turn ends (UTTAS "Combat": the turn ends with its action)."""
        self.end_turn(cid)
        self.next_turn(cid)
        self.check_end()

    def end_turn(self, cid: str) -> None:
        """UTTAS "Actions and Speed": all Speed recovered at the end of the character's turn."""
        c = self.c(cid)
        c.pools = ECONOMY.on_turn_end(c.pools, own=True, capacity=c.sheet.speed)
        if not ECONOMY.exhausted(c.pools):
            self.lose(cid, STAGGERED, "actions recovered")
        c.free_stance_available = False
        self.emit(
            TurnEnded(
                combatant=cid,
                actions_left=c.actions_left,
                text=f"{c.name}'s turn ends; Speed pool back to {c.actions_left}.",
            )
        )

    def next_turn(self, after: str | None) -> None:
        """Hand the turn to the next combatant in order that can act, skipping (and reporting)
        the dead, unconscious, surrendered and those who spent every action (UTTAS "Actions and
        Speed"), and resolving a Stunned recovery (UTTAS "Stunned")."""
        order = self.state.order
        if not order:
            self.state.turn = None
            return
        i = order.index(after) if after in order else -1
        for _ in range(2 * len(order) + 2):
            i += 1
            if i >= len(order):
                i = 0
                self.state.round += 1
                self.state.game_time_s += ROUND_SECONDS
                self.emit(
                    RoundStarted(round=self.state.round, text=f"Round {self.state.round} begins.")
                )
            if self.start_turn(order[i]):
                return
        self.state.turn = None
        self.end_fight(None, "nobody is able to act")

    def start_turn(self, cid: str) -> bool:
        """Start ``cid``'s turn. Returns True if it now holds the turn."""
        c = self.c(cid)
        # Plain fields on an engine-owned clone: set without pydantic's per-assignment cost.
        c.__dict__.update(
            free_stance_available=True,
            half_move_used={},
            moved_this_turn=False,
            movement_ended=False,
            acrobatics_tried=False,
        )
        if c.sprinting:
            c.sprinting = False
            self.lose(cid, SPRINTING, "a new turn")
        if c.readied is not None:
            c.readied = None
            self.note(f"{c.name}'s readied action lapses: its trigger never came.", cid)
        if c.breathing:
            self.complete_breather(cid)
        reason = next((cond.lower() for cond in OUT if c.has(cond)), None)
        if c.skip_next_turn:  # the Game Master's /gm skip
            c.skip_next_turn, reason = False, "skipped by the Game Master"
        if reason is None:
            reason = next(
                (
                    n.lower()
                    for n, e in self.tables.extra_conditions.items()
                    if e.no_actions and c.has(n)
                ),
                None,
            )
        if reason is not None:
            self.emit(
                TurnSkipped(
                    combatant=cid, reason=reason, text=f"{c.name}'s turn is skipped: {reason}."
                )
            )
            return False
        if ECONOMY.skips_turn(c.pools):
            self.emit(
                TurnSkipped(
                    combatant=cid,
                    reason="spent all actions",
                    text=f"{c.name} spent every action last round and does not act this turn.",
                )
            )
            self.end_turn(cid)
            return False
        if c.has(STUNNED):
            self.state.turn = cid
            self.spend_actions(cid, 1, "recovering from Stunned", "turn")
            self.lose(cid, STUNNED, "spent an action to recover")
            self.emit(
                TurnSkipped(
                    combatant=cid,
                    reason="recovering from Stunned",
                    text=f"{c.name} spends the turn recovering from Stunned.",
                )
            )
            self.end_turn(cid)
            return False
        self.state.turn = cid
        self.state.turn_seq += 1
        self.state.turn_started_at = self.now.isoformat()
        self.emit(
            TurnStarted(
                combatant=cid,
                round=self.state.round,
                actions_left=c.actions_left,
                text=f"Round {self.state.round}: {c.name}'s turn "
                f"({c.actions_left} action(s) left).",
            )
        )
        return True

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

    def check_end(self, *, force: bool = False, sides_before: int = 0) -> None:
        """UTTAS "Combat": the battle ends when one side is knocked out or surrenders — or,
        ``sides_before`` telling how many sides fought before someone left, when the last of a
        side left. Only re-counted when someone dropped out in this command (or ``force``)."""
        st = self.state
        if st.phase != "active" or not st.settings.auto_end:
            return
        if not (force or self.outs_changed):
            return
        sides: set[str] = set()
        standing: set[str] = set()
        for c in st.combatants:
            sides.add(c.side)
            if not self.is_out(c):
                standing.add(c.side)
        if max(len(sides), sides_before) >= 2 and len(standing) <= 1:
            winner = next(iter(standing), None)
            self.end_fight(winner, "only one side is left standing" if winner else "no side stands")

    def pass_turn_if_unable(self) -> None:
        """No turn is held by someone who cannot act: when the turn holder is out of the fight
        (a GM tool killed or knocked them out, a condition took their actions) and nothing
        waits on a decision, their turn ends and passes on, as it does after an attack that
        drops them (UTTAS "Conditions": such creatures cannot take actions)."""
        st = self.state
        if st.phase != "active" or st.turn is None or st.pending is not None:
            return
        c = self.view(st.turn)
        try:
            self.require_can_act(c)
        except RuleViolation as why:
            self.note(f"{why.message[:-1]}: the turn passes on.", c.id)
            self.finish_turn(c.id)

    def end_fight(self, winner: str | None, reason: str) -> None:
        st = self.state
        st.phase = "finished"
        st.turn = None
        st.pending = None
        st.winner = winner
        for c in st.combatants:
            if c.breathing or c.readied is not None:
                m = self.c(c.id)
                m.readied = None
                if m.breathing:  # never completed: the use is not spent
                    m.breathing = False
                    m.breather_uses += 1
        self.emit(
            CombatEnded(
                winner=winner,
                text=f"The fight is over: {reason}"
                + (f". Winner: the {winner} side." if winner else "."),
            )
        )
