"""Effects in a command's working transaction (:mod:`bot.engine.core.effects`): gaining and
losing them, the turn cycle's ticks, the end of a period and the ruleset's effect hook. A part of
:class:`bot.engine.core.tx.CoreTx` (its base), kept apart so each module stays small."""

from __future__ import annotations

from operator import attrgetter
from typing import TYPE_CHECKING, Any, ClassVar

from bot.engine.core import effects
from bot.engine.core.effects import LEVEL_MAX, Effect, Ends, Lasts, Moment, Period, Scope
from bot.engine.core.events import ConditionChanged, Event

_EFFECTS = attrgetter("effects")


class EffectsTx:
    """The effect methods of :class:`~bot.engine.core.tx.CoreTx` (which supplies ``state``,
    ``view``, ``c``, ``emit`` and ``outs_changed``)."""

    __slots__ = ("outs_changed",)
    OUT_CONDITIONS: ClassVar[tuple[str, ...]] = ()
    """Conditions that take a combatant out of the fight (it cannot act, and a side with only
    such combatants has lost)."""

    outs_changed: bool
    """Someone dropped out of the fight (or came back) in this command."""

    if TYPE_CHECKING:  # supplied by CoreTx
        state: Any

        def view(self, cid: str) -> Any: ...

        def c(self, cid: str) -> Any: ...

        def emit(self, event: Event) -> None: ...

    # -- effects (conditions among them) ---------------------------------------------------------
    def gain(
        self,
        cid: str,
        condition: str,
        reason: str,
        detail: str = "",
        *,
        scope: Scope = "until_removed",
        ends: Ends | None = None,
        level: int = 1,
        stack: bool = False,
        hook: Moment | None = None,
        source: str | None = None,
        renew: bool = False,
    ) -> None:
        """Put the effect ``condition`` on ``cid`` (:mod:`bot.engine.core.effects`). ``reason``
        may be read by anyone; ``detail`` holds the combatant's numbers behind it (e.g. "Stamina
        reduced to -3") for those who may see them. Already there: ``stack`` adds ``level`` to
        it (Uune's Stunned for consecutive turns); ``renew`` (the GM giving it again) gives it
        the new duration; otherwise nothing changes. A ``turn`` scope without ``ends`` ends with
        the current turn, a ``round`` scope at the next round."""
        c = self.view(cid)
        held = c.effect(condition)
        if ends is None and scope == "round":
            ends = Ends(moment="round_start")
        if held is not None and not stack:
            if not renew or (held.scope, held.ends) == (scope, ends):
                return
            level = held.level
            effect = held.model_copy(update={"scope": scope, "ends": ends})
        elif held is not None:
            level = min(LEVEL_MAX, held.level + level)
            effect = held.model_copy(update={"level": level})
        else:
            effect = Effect(
                name=condition, level=level, scope=scope, ends=ends, hook=hook, source=source
            )
        c = self.c(cid)
        c.effects = [e for e in c.effects if e.name != condition] + [effect]
        if condition in self.OUT_CONDITIONS:
            self.outs_changed = True
            positions = self.state.positions
            if positions.group_of(cid):  # out of the fight: no longer in anyone's melee
                self.state.positions = positions.disengage(cid)
        shown = f"{condition} {level}" if level > 1 else condition
        lasts = effects.how_long(effect, self._name)
        lasts = f", {lasts}" if lasts else ""
        self.emit(
            ConditionChanged(
                combatant=cid,
                condition=condition,
                gained=True,
                level=level,
                reason=reason + lasts,
                detail=detail + lasts if detail else "",
                text=f"{c.name} is now {shown} ({detail or reason}{lasts}).",
            )
        )

    def lose(self, cid: str, condition: str, reason: str, *, levels: int | None = None) -> None:
        """Take the effect ``condition`` off ``cid`` — or only ``levels`` of its level (it ends
        when none is left)."""
        c = self.view(cid)
        held = c.effect(condition)
        if held is None:
            return
        c = self.c(cid)
        left = 0 if levels is None else held.level - levels
        if left > 0:
            c.effects = [
                e.model_copy(update={"level": left}) if e is held else e for e in c.effects
            ]
            text = f"{c.name} is now {condition} {left} ({reason})." if left > 1 else ""
            text = text or f"{c.name} is now {condition} ({reason})."
        else:
            c.effects = [e for e in c.effects if e is not held]
            text = f"{c.name} is no longer {condition} ({reason})."
        self.emit(
            ConditionChanged(
                combatant=cid,
                condition=condition,
                gained=False,
                level=max(0, left),
                reason=reason,
                text=text,
            )
        )

    def lasting(
        self, lasts: Lasts, owner: str, rounds: int | None = None
    ) -> tuple[Scope, Ends | None]:
        """The scope and end of an effect on ``owner`` that ``lasts`` so long (the Game
        Master's words, :data:`bot.engine.core.effects.Lasts`). "The end of its next turn" is
        the end of the turn after the current one when ``owner`` holds the turn now."""
        if lasts == "start_of_next_turn":
            return "until_removed", Ends(moment="turn_start", of=owner)
        if lasts == "end_of_next_turn":
            now = self.state.phase == "active" and self.state.turn == owner
            return "until_removed", Ends(moment="turn_end", of=owner, left=2 if now else 1)
        if lasts == "rounds":
            return "round", Ends(moment="round_start", left=rounds or 1)
        if lasts == "until_removed":
            return "until_removed", None
        return lasts, None

    def _name(self, cid: str) -> str:
        return str(self.view(cid).name)

    def tick_effects(self, moment: Moment, holder: str | None) -> None:
        """``moment`` came (of ``holder``'s turn): end the effects whose time ran out and call
        :meth:`effect_hook` for those that act now, for every combatant."""
        combatants = self.state.combatants
        if not any(map(_EFFECTS, combatants)):  # the common case, in C: nobody has any
            return
        for c in combatants:
            held = c.effects
            if not held or not any(e.timed for e in held):  # the common case: nothing to count
                continue
            kept, ended, hooked = effects.tick(held, moment, holder, c.id)
            if ended or any(k is not e for k, e in zip(kept, held, strict=False)):
                self.c(c.id).effects = kept
                for e in ended:
                    why = "its time ran out" if e.ends is not None else f"the {e.scope} ended"
                    self._ended(c.id, e, why)
            for e in hooked:
                self.effect_hook(c.id, e, moment)

    def end_period(self, period: Period) -> list[str]:
        """The Game Master ends a scene, day, quest or arc: every effect of that scope or a
        shorter one ends (:func:`bot.engine.core.effects.ended_by`). Returns what ended, as
        "Name: Effect" lines."""
        scopes = effects.ended_by(period)
        gone: list[str] = []
        for c in self.state.combatants:
            if not any(e.scope in scopes for e in c.effects):
                continue
            m = self.c(c.id)
            ended = [e for e in m.effects if e.scope in scopes]
            m.effects = [e for e in m.effects if e.scope not in scopes]
            for e in ended:
                self._ended(c.id, e, f"the {period} ended")
                gone.append(f"{m.name}: {e.name}")
        return gone

    def _ended(self, cid: str, e: Effect, reason: str) -> None:
        if e.name in self.OUT_CONDITIONS:
            self.outs_changed = True
        self.emit(
            ConditionChanged(
                combatant=cid,
                condition=e.name,
                gained=False,
                level=0,
                reason=reason,
                text=f"{self.view(cid).name} is no longer {e.name} ({reason}).",
            )
        )

    def effect_hook(self, cid: str, effect: Effect, moment: Moment) -> None:
        """An effect with a ``hook`` acts at ``moment`` on ``cid`` (Uune's Bleeding: vitality
        lost each round). A ruleset overrides this; the core does nothing."""
