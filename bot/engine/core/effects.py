"""Effects: what lasts on a combatant — a condition, a penalty, a bonus — with a scope, a level
and an end, shared by every ruleset (issue 10 §3; ``docs/architecture.md`` "Effects").

An :class:`Effect` is plain, frozen data on the combatant (``CombatantBase.effects``); the rules
that read it stay in the ruleset (UTTAS: Prone grants Advantage to adjacent attackers). The core
ends effects for everyone at the moments of the turn cycle — a turn's start or end, a round's
start — and when the Game Master ends a period (a scene, a day, a quest, an arc), and calls the
ruleset's hook for an effect that acts at a moment (Uune's Bleeding each round).

Scopes, shortest first (and one outside the periods):

- ``action``: lasts one action; the rule that takes the action removes it, and the turn's end
  removes it at the latest.
- ``turn``: until the end of the current turn.
- ``round``: until the next round starts.
- ``scene``: until the Game Master ends the scene (``/gm time end-of``) or the encounter ends.
- ``day``, ``quest``, ``arc``: until the Game Master ends that period (``/gm time end-of``);
  ending a period ends every shorter one too.
- ``campaign``: never ended by a period.
- ``until_removed`` (the default): until a rule or the Game Master removes it — most conditions
  (UTTAS's Dead, Unconscious, Prone: a rule says when they end).

A character's campaign record (``docs/architecture.md`` decision A) carries the effects the
ruleset says outlast a fight (UTTAS: those of a day, quest, arc or the campaign, and Dead,
Unconscious, Disabled limb) into its next encounter; ``/campaign end-of`` ends periods there.

``ends`` narrows any scope to a moment: "until the start of Willow's next turn", "until the end
of Thug 1's next turn", "for 2 rounds".
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from bot import names
from bot.errors import InvalidInput

Scope = Literal[
    "action", "turn", "round", "scene", "day", "quest", "arc", "campaign", "until_removed"
]
Moment = Literal["turn_start", "turn_end", "round_start"]
Period = Literal["scene", "day", "quest", "arc"]
SCOPES: tuple[Scope, ...] = ("action", "turn", "round", "scene", "day", "quest", "arc", "campaign")
PERIODS: tuple[Period, ...] = ("scene", "day", "quest", "arc")
Lasts = Literal[
    "until_removed",
    "start_of_next_turn",
    "end_of_next_turn",
    "rounds",
    "scene",
    "day",
    "quest",
    "arc",
    "campaign",
]
"""How long the Game Master says an effect lasts (``/gm condition lasts:``): until removed, until
the start or the end of its owner's next turn, a number of rounds, a period, or the campaign
(no period ends it: Uune's "Campaign — The entire rest of the story")."""
LASTS_WORDS: dict[Lasts, str] = {
    "until_removed": "until removed",
    "start_of_next_turn": "until the start of its next turn",
    "end_of_next_turn": "until the end of its next turn",
    "rounds": "for some rounds (give rounds:)",
    "scene": "until the scene ends",
    "day": "until the day ends",
    "quest": "until the quest ends",
    "arc": "until the arc ends",
    "campaign": "for the campaign",
}
LEVEL_MAX = 99
COUNT_MAX = 1000


class Ends(BaseModel):
    """When an effect ends: at the ``left``-th ``moment`` from now — of combatant ``of``'s turn
    for ``turn_start``/``turn_end`` (any turn when None), of a round for ``round_start``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    moment: Moment
    of: str | None = None
    left: Annotated[int, Field(ge=1, le=COUNT_MAX)] = 1

    def matches(self, moment: Moment, holder: str | None) -> bool:
        """Whether ``moment`` (of ``holder``'s turn) is one this end counts."""
        if moment != self.moment:
            return False
        return moment == "round_start" or self.of is None or self.of == holder

    def describe(self, name: Callable[[str], str]) -> str:
        """In words, e.g. "until the start of Willow's next turn" (``name`` maps an id to the
        name to show)."""
        n = self.left
        if self.moment == "round_start":
            return "until the next round" if n == 1 else f"for {n} more rounds"
        whose = f"{name(self.of)}'s" if self.of is not None else "a"
        if self.moment == "turn_start":
            if n == 1:
                return f"until the start of {whose} next turn"
            return f"until {whose} turn has started {n} more times"
        if n == 1:
            return f"until the end of {whose} turn"
        if n == 2:
            return f"until the end of {whose} next turn"
        return f"until {whose} turn has ended {n} more times"


class Effect(BaseModel):
    """One effect on a combatant. ``name``: a condition or effect name of the ruleset (shown as
    is). ``level``: its stacking level (1 unless the rule stacks it, e.g. Uune's Stunned for
    consecutive turns). ``scope``: how long it can last (module docstring). ``ends``: the
    moment it ends, if sooner. ``hook``: a moment at which the ruleset acts on it (the owner's
    turn start/end, or each round's start). ``source``: the combatant that caused it, if any."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: names.Name
    level: Annotated[int, Field(ge=1, le=LEVEL_MAX)] = 1
    scope: Scope = "until_removed"
    ends: Ends | None = None
    hook: Moment | None = None
    source: str | None = None

    @property
    def timed(self) -> bool:
        """Whether the turn cycle counts it (it ends at a moment, acts at one, or lasts an
        action or a turn) — most conditions do not, and cost the cycle nothing."""
        return self.ends is not None or self.hook is not None or self.scope in _TURN_SCOPES


SCOPE_WORDS: dict[Scope, str] = {
    "action": "for one action",
    "turn": "until the end of this turn",
    "scene": "until the scene ends",
    "day": "until the day ends",
    "quest": "until the quest ends",
    "arc": "until the arc ends",
    "campaign": "for the campaign",
}


def how_long(effect: Effect, name: Callable[[str], str]) -> str:
    """How long ``effect`` lasts, in words ("until the start of Willow's next turn", "until
    the scene ends"); empty for one that lasts until removed."""
    if effect.ends is not None:
        return effect.ends.describe(name)
    return SCOPE_WORDS.get(effect.scope, "")


def refuse_lasts_on_down(system: str, vital: str, down_when: str, lasts: Lasts) -> None:
    """Refuse a ``lasts:`` other than "until removed" on a system's only condition, Down, which
    follows a vital and has no duration of its own (Untitled: Health; Utopia: DHP) — it was
    once dropped without a word and the creature stayed Down. ``down_when``: when the vital
    makes it Down, in the rules' words. Raises :class:`~bot.errors.InvalidInput`."""
    if lasts != "until_removed":
        raise InvalidInput(
            f"{system}'s only condition, Down, follows {vital} ({down_when}) and lasts "
            f"until {vital} rises above 0 or the GM removes it: it takes no `lasts:` (leave it "
            "out)."
        )


def kept_words(effects: tuple[Effect, ...] | list[Effect]) -> str:
    """The effects a campaign record keeps, in words ("Effects: Impaired (for the campaign),
    Intoxicated 2 (until the day ends)"); empty when it keeps none. A condition given for
    the campaign outlasts the fight: ``/campaign show`` and a join with the record say so."""
    words = []
    for e in effects:
        named = e.name if e.level == 1 else f"{e.name} {e.level}"
        lasts = how_long(e, lambda cid: cid)
        words.append(f"{named} ({lasts})" if lasts else named)
    return "Effects: " + ", ".join(words) if words else ""


_TURN_SCOPES = frozenset({"action", "turn"})


def ended_by(period: Period) -> frozenset[Scope]:
    """The scopes the end of ``period`` ends: its own and every shorter one (ending a day ends
    the scene; ending an arc ends its quest and day)."""
    return frozenset(SCOPES[: SCOPES.index(period) + 1])


def tick(
    effects: Iterable[Effect], moment: Moment, holder: str | None, owner: str
) -> tuple[list[Effect], list[Effect], list[Effect]]:
    """The ``owner``'s effects after ``moment`` (of ``holder``'s turn): returns ``(kept, ended,
    hooked)`` — what remains (ends counted down), what ended now, and what acts now (its
    ``hook`` is this moment: for turn moments, only on the owner's own turn). An ``action`` or
    ``turn`` effect without ``ends`` ends with the holder's turn."""
    kept: list[Effect] = []
    ended: list[Effect] = []
    hooked: list[Effect] = []
    for e in effects:
        if e.hook == moment and (moment == "round_start" or holder == owner):
            hooked.append(e)
        end = e.ends
        if end is None:
            if moment == "turn_end" and e.scope in ("action", "turn"):
                ended.append(e)
            else:
                kept.append(e)
        elif end.matches(moment, holder):
            if end.left <= 1:
                ended.append(e)
            else:
                kept.append(
                    e.model_copy(update={"ends": end.model_copy(update={"left": end.left - 1})})
                )
        else:
            kept.append(e)
    return kept, ended, hooked
