"""The command surface a ruleset declares as data (issue 10, decision D): the actions a
combatant can take with ``/act``, each with its cost in the system's own words, and the skills
``/check`` rolls. Discord's slash commands are one fixed set for every system (``/attack``,
``/move``, ``/act``, ``/check``, ``/endturn``, the reaction buttons); what differs per system is
data here, validated against the encounter's ruleset when a member uses it."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

TargetUse = Literal["none", "optional", "required"]


class ActionSpec(BaseModel):
    """One action of a ruleset, as ``/act`` offers it. ``key``: what ``action:`` takes (stable,
    lower-case, hyphenated); ``label``: its name in the rules text; ``cost``: what it costs, in
    the system's words ("1 action + Stamina; ends the turn"); ``target``: whether it takes a
    ``target:`` combatant; ``detail``/``amount``: what the ``detail:`` text and the ``amount:``
    number mean for it (None: not used); ``rule``: the rules-text section."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    key: str
    label: str
    cost: str
    target: TargetUse = "none"
    detail: str | None = None
    amount: str | None = None
    rule: str = ""

    def choice_name(self) -> str:
        """The autocomplete entry (≤ 100 characters): "Take a Breather — 1 action; …"."""
        text = f"{self.label} — {self.cost}"
        return text if len(text) <= 100 else text[:99] + "…"


class ActInput(BaseModel):
    """What a member gave ``/act``: the action's key and its options (combatant ids resolved)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    key: str
    target: str | None = None
    detail: str | None = None
    amount: float | None = None
