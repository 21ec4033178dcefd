"""The actions ``/act`` offers in Uune (Uune SRD "Actions", "Special Actions", "Conflict"), and
how a member's options become a command. The special actions not built yet are refused by
name (:data:`PLANNED`); an action Uune does not have is refused, listing those it has. (The
GM's approval, spends and Help on an open roll are buttons and answers, not ``/act``.)"""

from __future__ import annotations

from typing import Any

from bot.engine.core.commands import CommandBase
from bot.engine.core.verbs import ActInput, ActionSpec
from bot.engine.uune import commands as cmd
from bot.errors import InvalidInput

ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec(
        key="action",
        label="Action roll",
        cost="your turn's action; the GM names the difficulty and approves resources",
        detail="what you attempt, then resources after a colon: `climb the wall: Rope, Grit`",
        amount="the difficulty, when the GM already named it (0-10)",
        rule="Actions",
    ),
    ActionSpec(
        key="attack",
        label="Attack",
        cost="your turn's action; the hits needed are the NPC's Defensiveness",
        target="required",
        detail="the resources you propose, comma-separated",
        rule="Attack",
    ),
    ActionSpec(
        key="npc-attack",
        label="NPC attack",
        cost="the NPC's turn action; its target rolls Defend (free)",
        target="required",
        detail="the statblock's attack",
        rule="NPCs and Statblocks",
    ),
    ActionSpec(
        key="move",
        label="Move (change position)",
        cost="your turn's action (no roll)",
        detail="how (into melee, behind cover, out of the room…)",
        rule="Move",
    ),
    ActionSpec(
        key="shift",
        label="Move (same position)",
        cost="free",
        detail="how",
        rule="Move",
    ),
    ActionSpec(
        key="next",
        label="Choose who goes next",
        cost="free: a PC still to act this round",
        target="required",
        rule="Conflict",
    ),
)

PLANNED: dict[str, str] = {
    "stealth": "Stealth",
    "center": "Center",
    "downtime": "Downtime",
    "insight": "Insight",
    "observe": "Observe",
    "staunch": "Staunch (Bleeding)",
    "passive": "Passive actions",
    "luck": "Luck checks",
}
"""Special actions of the text this slice does not play yet (issue 14's later slices)."""


def split_resources(text: str | None) -> tuple[str, ...]:
    """``Rope, Grit`` → ``("Rope", "Grit")`` (blank parts dropped)."""
    if not text:
        return ()
    return tuple(p.strip() for p in text.split(",") if p.strip())


def act(combatant: Any, given: ActInput) -> CommandBase:
    """The command ``/act`` means. Raises :class:`InvalidInput` for an action Uune does not
    have (listing those it has), one not built yet (by name), or a missing option."""
    key = given.key.strip().casefold().replace(" ", "-")
    me = combatant.id
    if key == "action":
        what, _, resources = (given.detail or "").partition(":")
        difficulty = None
        if given.amount is not None:
            if given.amount != int(given.amount) or not 0 <= given.amount <= 10:
                raise InvalidInput("A difficulty is a whole number of hits from 0 to 10.")
            difficulty = int(given.amount)
        return cmd.RollAction(
            actor=me,
            action=what.strip()[:100] or "an action",
            resources=split_resources(resources),
            difficulty=difficulty,
        )
    if key in ("attack", "npc-attack", "next"):
        return _targeted(me, key, given)
    if key in ("move", "shift"):
        return cmd.Move(
            actor=me, changes_position=key == "move", how=(given.detail or "").strip()[:100]
        )
    if key in PLANNED:
        raise InvalidInput(
            f"{PLANNED[key]} does not play yet in Uune (issue 14, a later slice); "
            "the GM can run it as an action roll meanwhile."
        )
    raise InvalidInput(
        f"Uune has no action {given.key[:40]!r}. It has: "
        + ", ".join(a.label for a in ACTIONS)
        + "."
    )


def _targeted(me: str, key: str, given: ActInput) -> CommandBase:
    if given.target is None:
        raise InvalidInput(f"{key.replace('-', ' ').capitalize()} needs a `target:`.")
    if key == "attack":
        return cmd.Attack(actor=me, target=given.target, resources=split_resources(given.detail))
    if key == "next":
        return cmd.ChooseNext(actor=me, next=given.target)
    if not given.detail:
        raise InvalidInput("NPC attack needs `detail:`: one of its statblock's attacks.")
    return cmd.NpcAttack(actor=me, target=given.target, attack=given.detail.strip()[:60])
