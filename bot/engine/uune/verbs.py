"""The actions ``/act`` offers in Uune (Uune SRD "Actions", "Special Actions", "Conflict",
"Passive Actions", "Luck Checks", "Bonds"), and how a member's options become a command; an
action Uune does not have is refused, listing those it has. The GM's approval and the spends
on an open roll are buttons; proposing more resources for one's own waiting roll (a Defend's
too) and Help on another's are ``/act`` (``propose``, ``help``), free and off-turn.

Options that are words go in ``detail:`` before a colon, the resources proposed after it:
``few keep: Lockpicks`` (Stealth: the crowd, ``keep`` to keep the level), ``sparse same-day:
Grit`` (Downtime: the living conditions, ``same-day`` when no day has passed), ``the door:
Keen eyes`` (Observe: what), ``advantage: the rope holds`` (Luck)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from bot import names
from bot.engine.core.commands import CommandBase
from bot.engine.core.verbs import ActInput, ActionSpec, split_named
from bot.engine.uune import commands as cmd
from bot.errors import InvalidInput
from bot.words import shortened

Known = tuple[str, ...]
"""The acting PC's resource names, so that one with a comma in it is not split apart."""

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
        key="propose",
        label="Propose resources",
        cost="free: more resources for your roll waiting for the GM (a Defend's too)",
        detail="the resources you propose, comma-separated",
        rule="Actions",
    ),
    ActionSpec(
        key="help",
        label="Help a roll",
        cost="free: your own resources, approved by the GM; your hits add to the roll",
        target="optional",
        detail="the resources you help with, comma-separated",
        rule="Help",
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
        key="stealth",
        label="Stealth",
        cost="your turn's action; the hits needed are the highest Perceptiveness + the crowd",
        detail="the crowd (one, few, group, crowd; `keep` to keep your level), then resources "
        "after a colon: `few: Lockpicks`",
        rule="Stealth",
    ),
    ActionSpec(
        key="center",
        label="Center",
        cost="your turn's action (no roll); gain your maximum focus; outside a conflict once a "
        "scene",
        rule="Center",
    ),
    ActionSpec(
        key="downtime",
        label="Downtime",
        cost="outside a conflict; living conditions name the hits needed",
        detail="living conditions (luxurious, comfortable, sparse, dire; `same-day` when no day "
        "has passed), then resources after a colon: `sparse: Grit`",
        rule="Downtime",
    ),
    ActionSpec(
        key="insight",
        label="Insight",
        cost="your turn's action; the hits needed are the NPC's Social",
        target="required",
        detail="the resources you propose, comma-separated",
        rule="Insight",
    ),
    ActionSpec(
        key="observe",
        label="Observe",
        cost="your turn's action; the GM names the difficulty",
        detail="what you look for, then resources after a colon: `the door: Keen eyes`",
        amount="the difficulty, when the GM already named it (0-10)",
        rule="Observe",
    ),
    ActionSpec(
        key="staunch",
        label="Staunch (Bleeding)",
        cost="your turn's action (no roll); your Bleeding ends",
        rule="Effect: Bleeding",
    ),
    ActionSpec(
        key="stabilise",
        label="Stabilise wounds",
        cost="your turn's action; the GM names the difficulty; lethal and heavy wounds mend after",
        target="required",
        detail="the resources you propose, comma-separated",
        amount="the difficulty, when the GM already named it (0-10)",
        rule="Wounds",
    ),
    ActionSpec(
        key="passive",
        label="Passive action",
        cost="free, no roll: a third of your resources count as hits",
        detail="what is passively done or noticed",
        amount="the difficulty (0-10)",
        rule="What are Passive Actions?",
    ),
    ActionSpec(
        key="luck",
        label="Luck check",
        cost="free: a 50/50",
        detail="`advantage:`, `disadvantage:` or `both:` before what is decided by luck",
        rule="Luck Checks",
    ),
    ActionSpec(
        key="bond",
        label="Focus from a bond",
        cost="free, once a scene; the GM grants it",
        detail="the bond you act on (its number, words or kind)",
        rule="Bonds",
    ),
    ActionSpec(
        key="next",
        label="Choose who goes next",
        cost="free: a PC still to act this round",
        target="required",
        rule="Conflict",
    ),
)


def split_resources(text: str | None, known: Iterable[str] = ()) -> tuple[str, ...]:
    """``Rope, Grit`` → ``("Rope", "Grit")`` (blank parts dropped); a resource of ``known``
    whose name has a comma in it (``Rope, 30 ft``) is one part (:func:`split_named`)."""
    if not text:
        return ()
    return tuple(split_named(text, known))


def act(combatant: Any, given: ActInput) -> CommandBase:
    """The command ``/act`` means. Raises :class:`InvalidInput` for an action Uune does not
    have (listing those it has) or a missing or wrong option."""
    key = given.key.strip().casefold().replace(" ", "-")
    me = combatant.id
    known = tuple(combatant.resource_names())
    if key == "action":
        what, _, resources = (given.detail or "").partition(":")
        return cmd.RollAction(
            actor=me,
            action=shortened(what, 100) or "an action",
            resources=split_resources(resources, known),
            difficulty=_rung(given.amount),
        )
    if key in ("attack", "npc-attack", "next", "insight", "stabilise"):
        return _targeted(me, key, given, known)
    if key in ("propose", "help"):
        named = split_resources(given.detail, known)
        if not named:
            raise InvalidInput(
                f"{key.capitalize()} needs `detail:`: the resources, comma-separated."
            )
        if key == "propose":
            return cmd.Propose(actor=me, resources=named)
        return cmd.Help(actor=me, resources=named)
    if key in ("move", "shift"):
        return cmd.Move(
            actor=me, changes_position=key == "move", how=shortened(given.detail or "", 100)
        )
    build = _SPECIALS.get(key)
    if build is not None:
        return build(me, given, known)
    raise InvalidInput(
        f"Uune has no action {names.quoted(given.key, 40)}. It has: "
        + ", ".join(a.label for a in ACTIONS)
        + "."
    )


def _rung(amount: float | None) -> int | None:
    if amount is None:
        return None
    if amount != int(amount) or not 0 <= amount <= 10:
        raise InvalidInput("A difficulty is a whole number of hits from 0 to 10.")
    return int(amount)


def _words(given: ActInput, known: Known) -> tuple[list[str], tuple[str, ...]]:
    """``detail:`` as its option words (before a colon, lower-case) and the resources after."""
    head, _, resources = (given.detail or "").partition(":")
    return head.casefold().split(), split_resources(resources, known)


def _stealth(me: str, given: ActInput, known: Known) -> CommandBase:
    words, resources = _words(given, known)
    crowds = [w for w in words if w in ("one", "few", "group", "crowd")]
    stray = [w for w in words if w not in ("one", "few", "group", "crowd", "keep")]
    if stray or len(crowds) > 1:
        raise InvalidInput(
            "Stealth's `detail:` is the crowd (one, few, group or crowd) and `keep` to keep "
            "your level, then resources after a colon: `few keep: Lockpicks`."
        )
    return cmd.Stealth(
        actor=me,
        crowd=crowds[0] if crowds else "one",
        goal="keep" if "keep" in words else "raise",
        resources=resources,
    )


def _downtime(me: str, given: ActInput, known: Known) -> CommandBase:
    words, resources = _words(given, known)
    living = [w for w in words if w in ("luxurious", "comfortable", "sparse", "dire")]
    if len(living) != 1 or any(w not in (*living, "same-day") for w in words):
        raise InvalidInput(
            "Downtime needs `detail:` with the living conditions (luxurious, comfortable, "
            "sparse or dire; `same-day` when no day has passed), then resources after a "
            "colon: `sparse: Grit`."
        )
    return cmd.Downtime(
        actor=me,
        living=living[0],
        a_day_passed="same-day" not in words,
        resources=resources,
    )


def _observe(me: str, given: ActInput, known: Known) -> CommandBase:
    what, _, resources = (given.detail or "").partition(":")
    return cmd.Observe(
        actor=me,
        what=shortened(what, 60) or "something odd",
        difficulty=_rung(given.amount),
        resources=split_resources(resources, known),
    )


def _passive(me: str, given: ActInput, known: Known = ()) -> CommandBase:
    difficulty = _rung(given.amount)
    if difficulty is None:
        raise InvalidInput("A passive action needs `amount:`: its difficulty (0-10).")
    what = shortened(given.detail or "", 60) or "check"
    return cmd.Passive(actor=me, difficulty=difficulty, what=what)


def _luck(me: str, given: ActInput, known: Known = ()) -> CommandBase:
    head, sep, rest = (given.detail or "").partition(":")
    mode = head.strip().casefold() if sep else ""
    if sep and mode not in ("advantage", "disadvantage", "both", ""):
        raise InvalidInput("Luck's `detail:` starts `advantage:`, `disadvantage:` or `both:`.")
    what = shortened(rest if sep else head, 60) or "attempt"
    return cmd.Luck(
        actor=me,
        what=what,
        advantage=mode in ("advantage", "both"),
        disadvantage=mode in ("disadvantage", "both"),
    )


def _bond(me: str, given: ActInput, known: Known = ()) -> CommandBase:
    if not (given.detail or "").strip():
        raise InvalidInput(
            "Focus from a bond needs `detail:`: the bond (its number, words or kind)."
        )
    return cmd.ClaimBond(actor=me, bond=(given.detail or "").strip()[:200])


_SPECIALS: dict[str, Callable[[str, ActInput, Known], CommandBase]] = {
    "stealth": _stealth,
    "center": lambda me, given, known: cmd.Center(actor=me),
    "downtime": _downtime,
    "observe": _observe,
    "staunch": lambda me, given, known: cmd.Staunch(actor=me),
    "passive": _passive,
    "luck": _luck,
    "bond": _bond,
}


def _targeted(me: str, key: str, given: ActInput, known: Known) -> CommandBase:
    if given.target is None:
        raise InvalidInput(f"{key.replace('-', ' ').capitalize()} needs a `target:`.")
    if key == "attack":
        return cmd.Attack(
            actor=me, target=given.target, resources=split_resources(given.detail, known)
        )
    if key == "insight":
        return cmd.Insight(
            actor=me, target=given.target, resources=split_resources(given.detail, known)
        )
    if key == "stabilise":
        return cmd.Stabilise(
            actor=me,
            target=given.target,
            resources=split_resources(given.detail, known),
            difficulty=_rung(given.amount),
        )
    if key == "next":
        return cmd.ChooseNext(actor=me, next=given.target)
    if not given.detail:
        raise InvalidInput("NPC attack needs `detail:`: one of its statblock's attacks.")
    return cmd.NpcAttack(
        actor=me, target=given.target, attack=given.detail.strip()[: names.NAME_MAX]
    )
