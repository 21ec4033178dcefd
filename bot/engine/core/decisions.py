"""Pending decisions, for every ruleset (issue 10, "Decisions, generalised").

A decision is something the fight waits on before it can go on: a target's reaction to an
attack (UTTAS), a Game Master's approval of resources before a roll (Uune), a spend after a
roll but before it is final (Uune's focus and vitality), a Block or Dodge rolled once the
damage is known (Utopia), an Assist added to another creature's Block (Utopia: nested, with a
``parent``). Several can be open at once; the state keeps them in the order they opened
(:attr:`~bot.engine.core.state.EncounterState.decisions`), and a turn command waits until none
is open.

Each ruleset's decision model subclasses :class:`DecisionBase` with what it needs to know
(UTTAS's ``PendingAttack``: attacker, target, attack, hit…). The core gives it an ``id``
(unique in the encounter, never reused: buttons and commands name a decision by it), and the
services give it its ``marker`` (the issue mark when it opened) and a deadline (``created_at``
plus ``window_s``, or the encounter's reaction window). Who may answer, with which choices and
their costs, comes from the ruleset (``Ruleset.decision_options``), as do its words
(``Ruleset.decision_words``), the command an answer makes (``Ruleset.answer``) and what
happens when nobody answers in time (``Ruleset.lapse``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Stage = Literal["reaction", "before_roll", "after_roll", "after_damage"]
"""Where a decision sits in a rule: ``reaction`` — an attack (or other act) waits for its
target's answer before anything is rolled for it (UTTAS); ``before_roll`` — a roll waits for
approvals (Uune's resources); ``after_roll`` — a roll waits to become final (Uune's spends);
``after_damage`` — damage is known and waits for a defense rolled against it (Utopia's Block and
Dodge)."""


class DecisionBase(BaseModel):
    """What every pending decision has. ``id``: its number in the encounter (0 until the core
    opens it); ``kind``: the ruleset's name for what waits (``attack``, ``approval``,
    ``spend``…); ``stage``: see :data:`Stage`; ``parent``: the decision it adds to (a nested
    one, e.g. an Assist on a Block), settled before it; ``window_s``: its own answer window in
    seconds (None: the encounter's ``reaction_window_s``); ``created_at``: ISO 8601 time it
    opened (the injected clock); ``marker``: the latest issue mark the bot had seen when it
    opened (a command issued no later was meant for something before it)."""

    model_config = ConfigDict(extra="forbid")

    id: int = 0
    kind: str = "reaction"
    stage: Stage = "reaction"
    parent: int | None = None
    window_s: int | None = Field(default=None, ge=1, le=30 * 86400)
    created_at: str = ""
    marker: int = 0


@dataclass(frozen=True)
class DecisionWords:
    """A decision in words, from the ruleset (names already escaped for the medium).

    ``title``: what it is about, plain ("Thug 1 attacks Willow with Cudgel"); ``ask``: the
    prompt's sentence after the mentions, saying who decides what; ``ping``: the short form for
    a member newly asked ("**Thug 1** attacks **Willow** with **Cudgel**"); ``about``: a noun
    phrase for it ("the attack on **Willow**"); ``noun``: what kind of thing it is ("attack":
    "this attack was not decided"); ``waiting_on``: the tracker's "Waiting on …"
    part; ``lapse``: what happens when its window runs out, as a clause ("it resolves with no
    reaction"); ``ran_out``: the same once it happened, as a sentence start ("The reaction
    window ran out: resolved with no reaction"); ``open_choices``: its choices reveal no hidden
    number, so every decider's buttons are shown to all (otherwise a hidden NPC gets one "GM:
    choose" button); ``gm_chooses``: what that button chooses for the NPC, in the system's
    words ("GM: choose Thug 1's reaction"; Utopia a defense, Uune a forced reroll);
    ``window``: what kind of window it is, titling the post when it runs out ("Reaction
    window over" — a defender's choice in every system; Uune "Approval window over", "Roll
    window over"; Utopia "Assist window over"; UTTAS "Surrender window over")."""

    title: str
    ask: str
    ping: str
    about: str
    noun: str
    waiting_on: str
    lapse: str
    ran_out: str
    open_choices: bool = False
    gm_chooses: str = "reaction"
    window: str = "reaction"

    @property
    def over(self) -> str:
        """The title of the post when its window ran out ("Reaction window over")."""
        return f"{self.window[:1].upper()}{self.window[1:]} window over"
