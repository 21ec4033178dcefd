"""Uune's special actions besides Attack and Defend (Uune SRD "Stealth", "Center", "Downtime",
"Insight", "Observe", "Effect: Bleeding" — staunching), the facilitator's tools "What are
Passive Actions?" and "Luck Checks", and a bond's focus ("Bonds").

The ones that roll resources (Stealth, Downtime, Insight, Observe) go through the action
roll's decisions (:mod:`bot.engine.uune.rolls`): the GM approves resources, the roll waits for
spends, and :mod:`bot.engine.uune.outcomes` says what its final roll does. A bond's focus is a
claim the GM grants or refuses with the same approval buttons; nothing rolls.

A special action is "an action": in a conflict it is taken on the actor's turn and spends the
turn's one action ("Conflict"); outside a conflict it needs no turn (:func:`take_action`)."""

from __future__ import annotations

import textwrap
from collections.abc import Iterable

from bot import names
from bot.engine.uune import checks, dice
from bot.engine.uune.commands import (
    Center,
    ClaimBond,
    Downtime,
    Insight,
    Luck,
    Observe,
    Passive,
    Stabilise,
    Staunch,
    Stealth,
)
from bot.engine.uune.core import Tx
from bot.engine.uune.outcomes import STEALTH_LEVELS
from bot.engine.uune.rolls import open_roll, proposing, resources_of
from bot.engine.uune.sheet import UuneSheet, UuneStatblock
from bot.engine.uune.state import BLEEDING, IMPAIRED, ApprovalDecision, UuneCombatant
from bot.errors import InvalidInput, RuleViolation
from bot.words import shortened


def in_conflict(tx: Tx) -> bool:
    return bool(tx.state.phase == "active")


def take_action(tx: Tx, c: UuneCombatant, what: str) -> None:
    """``c`` takes an action: in a conflict on its turn, spending the turn's one action;
    outside one whenever nothing waits (:meth:`Tx.take_action`)."""
    tx.take_action(c, what)


def _done_without_roll(tx: Tx, c: UuneCombatant) -> None:
    """An action with no roll ends the actor's turn in a conflict ("one action on their
    turn")."""
    if in_conflict(tx) and tx.state.turn == c.id:
        tx.finish_turn(c.id)


def stealth(tx: Tx, cmd: Stealth) -> None:
    """ "Stealth": the difficulty is the highest Perceptiveness of the NPCs still in the
    encounter plus the crowd's number; a success raises the stealth level a step (or keeps
    it)."""
    c = tx.view(cmd.actor)
    tx.require_pc(c, "Stealth")
    now = STEALTH_LEVELS.index(c.stealth)
    if cmd.goal == "raise" and now == len(STEALTH_LEVELS) - 1:
        raise RuleViolation(
            f"{names.escaped(c.name)} is already Undetected: Stealth can only keep it."
        )
    if cmd.goal == "keep" and now == 0:
        raise RuleViolation(
            f"{names.escaped(c.name)} is Observed: there is no stealth level to keep yet."
        )
    goal = STEALTH_LEVELS[now + 1] if cmd.goal == "raise" else c.stealth
    seen_by = [
        x.sheet.perceptiveness
        for x in tx.state.combatants
        if isinstance(x.sheet, UuneStatblock) and not tx.is_out(x)
    ]
    difficulty = checks.stealth_difficulty(seen_by, cmd.crowd, tx.tables)
    proposed = resources_of(c, cmd.resources)
    take_action(tx, c, "use Stealth")
    tx.note(
        f"{c.name} tries to {'become' if cmd.goal == 'raise' else 'stay'} {goal.title()} "
        f"(difficulty {difficulty})" + proposing(proposed) + ".",
        c.id,
    )
    open_roll(
        tx,
        ApprovalDecision(
            actor=c.id,
            action=f"Stealth ({goal.title()})",
            purpose="stealth",
            difficulty=difficulty,
            proposed=proposed,
            detail=goal,
        ),
    )


def center(tx: Tx, cmd: Center) -> None:
    """ "Center": spend the action preparing (no roll) and gain the maximum focus; once per
    turn in a conflict (the turn's one action), once per scene outside one."""
    c = tx.view(cmd.actor)
    tx.require_pc(c, "Center")
    if not in_conflict(tx) and c.centered:
        raise RuleViolation(
            f"{names.escaped(c.name)} already centered this scene (outside a conflict: once per "
            "scene)."
        )
    take_action(tx, c, "center")
    top = tx.focus_max(c)
    m = tx.c(c.id)
    m.focus = top
    if not in_conflict(tx):
        m.centered = True
    tx.note(f"{c.name} centers and gains their maximum focus ({top}).", c.id)
    _done_without_roll(tx, c)


def downtime(tx: Tx, cmd: Downtime) -> None:
    """ "Downtime": outside a conflict, roll resources against the living conditions' hits.
    From rules version 5 an Incapacitated PC may take it (:meth:`Tx.rests_while_out`)."""
    c = tx.view(cmd.actor)
    tx.require_pc(c, "Downtime")
    if in_conflict(tx):
        raise RuleViolation("Downtime is taken outside a conflict.")
    needed = tx.tables.downtime.living.get(cmd.living)
    if needed is None:
        raise InvalidInput(f"Living conditions are one of {', '.join(tx.tables.downtime.living)}.")
    proposed = resources_of(c, cmd.resources)
    if tx.rests_while_out("downtime"):  # an Incapacitated PC rests too (rules version 5)
        tx.require_no_pending()
    else:
        take_action(tx, c, "take downtime")
    day = ";day" if cmd.a_day_passed else ""
    tx.note(
        f"{c.name} takes downtime in {cmd.living} conditions ({needed} hits)"
        + proposing(proposed)
        + ".",
        c.id,
    )
    open_roll(
        tx,
        ApprovalDecision(
            actor=c.id,
            action="Downtime",
            purpose="downtime",
            difficulty=int(needed),
            proposed=proposed,
            detail=f"{cmd.living}{day}",
        ),
    )


def insight(tx: Tx, cmd: Insight) -> None:
    """ "Insight": against an NPC's Social score, "while interacting with someone, or while
    observing an interaction", reading the emotion the NPC shows "in response to something".
    From rules version 3 an Incapacitated NPC is refused: it "cannot take actions"
    ("Vitality"), so it takes part in no interaction and shows no response to read."""
    c, npc = tx.view(cmd.actor), tx.view(cmd.target)
    tx.require_pc(c, "Insight")
    if not isinstance(npc.sheet, UuneStatblock):
        raise RuleViolation(
            f"Insight reads an NPC's Social score; {names.escaped(npc.name)} is a PC."
        )
    if tx.reads("insight_refuses_the_out") and tx.is_out(npc):
        raise RuleViolation(
            f'{names.escaped(npc.name)} is Incapacitated ("cannot take actions"): Insight reads '
            "an NPC's emotions while it interacts, and it takes part in no interaction now."
        )
    proposed = resources_of(c, cmd.resources)
    take_action(tx, c, f"read {npc.name}")
    tx.note(f"{c.name} watches {npc.name} for their true emotions" + proposing(proposed) + ".")
    open_roll(
        tx,
        ApprovalDecision(
            actor=c.id,
            action=f"Insight on {npc.name}",
            purpose="insight",
            difficulty=npc.sheet.social,
            target=npc.id,
            proposed=proposed,
        ),
    )


def observe(tx: Tx, cmd: Observe) -> None:
    """ "Observe": the GM names the difficulty (unless given) and approves resources."""
    c = tx.view(cmd.actor)
    tx.require_pc(c, "Observe")
    proposed = resources_of(c, cmd.resources)
    take_action(tx, c, "observe")
    tx.note(f"{c.name} observes: {cmd.what}" + proposing(proposed) + ".", c.id)
    open_roll(
        tx,
        ApprovalDecision(
            actor=c.id,
            action=f"Observe ({cmd.what})"[:100],
            purpose="observe",
            difficulty=cmd.difficulty,
            proposed=proposed,
            detail=cmd.what,
        ),
    )


def staunch(tx: Tx, cmd: Staunch) -> None:
    """ "Effect: Bleeding": "spend an action (no roll) to staunch the wound, stopping the
    bleeding"."""
    c = tx.view(cmd.actor)
    if c.effect(BLEEDING) is None:
        raise RuleViolation(
            f"{names.escaped(c.name)} is not Bleeding: there is nothing to staunch."
        )
    take_action(tx, c, "staunch the bleeding")
    tx.lose(c.id, BLEEDING, "staunched")
    _done_without_roll(tx, c)


def stabilise(tx: Tx, cmd: Stabilise) -> None:
    """ "Wounds": "Lethal and heavy wounds will need to be stabilized by a medic or healer
    before they will mend". The text gives no roll for it: **the bot's reading** is an action
    roll like any uncertain action — the GM names the difficulty and approves the resources
    (a medic's shtick, a satchel); success stabilises every lethal and heavy wound of the
    target. In a conflict it is the turn's action. Refused when the target has none to
    stabilise."""
    c, target = tx.view(cmd.actor), tx.view(cmd.target)
    tx.require_pc(c, "Stabilising wounds")
    h = target.health
    if not (h.unstable_lethal or h.unstable_heavy):
        name = names.escaped(target.name)
        raise RuleViolation(
            f"{name} has no lethal or heavy wound waiting to be stabilised.",
            about=target.id,
            withheld=f"{name} has nothing to stabilise that you can see; nothing was spent.",
        )
    proposed = resources_of(c, cmd.resources)
    take_action(tx, c, f"stabilise {target.name}")
    tx.note(f"{c.name} tends {target.name}'s wounds" + proposing(proposed) + ".", c.id)
    open_roll(
        tx,
        ApprovalDecision(
            actor=c.id,
            action=f"stabilising {target.name}",
            purpose="stabilise",
            difficulty=cmd.difficulty,
            target=target.id,
            proposed=proposed,
        ),
    )


def passive(tx: Tx, cmd: Passive) -> None:
    """ "What are Passive Actions?": a third of the PC's available resources (every resource
    die its sheet gives, proficiency included; rounding per the tables) count as hits, with
    no roll and no action; Impaired adds its hits to the difficulty."""
    c = tx.view(cmd.actor)
    tx.require_pc(c, "a passive action")
    tx.require_can_act(c)
    sheet = c.sheet
    assert isinstance(sheet, UuneSheet)
    available = sum(sheet.resource_dice(r) for r in sheet.resources())
    hits = dice.passive_hits(available, tx.tables)
    impaired = c.effect(IMPAIRED)
    required = cmd.difficulty + (impaired.level * tx.tables.impaired.extra_hits if impaired else 0)
    verdict = "succeeds" if hits >= required else "fails"
    tx.note(
        f"{c.name}'s passive {cmd.what} {verdict}: a third of {available} resources is "
        f"{hits} hits, {required} needed.",
        c.id,
    )


def luck(tx: Tx, cmd: Luck) -> None:
    """ "Luck Checks": a 50/50 with advantage (better of two), disadvantage (worse of two),
    or both (as normal). Any combatant (an NPC's uncertain action not against a PC: "General
    NPC Guideines"); no action. The note names what was checked in brackets, as typed ("Luck
    check for Mira Quell (does the guard sleep)"; rules version 4 — before, "Mira Quell's does
    the guard sleep")."""
    c = tx.view(cmd.actor)
    tx.require_can_act(c)
    check = dice.luck_check(
        tx.roller, tx.tables, advantage=cmd.advantage, disadvantage=cmd.disadvantage
    )
    mode = "" if check.mode == "normal" else f" with {check.mode}"
    verdict = "succeeds" if check.success else "fails"
    rolled = ", ".join(str(x) for x in check.dice)
    if (
        tx.reads("luck_note_as_typed") and cmd.what != "attempt"
    ):  # the member's own words: a question, say
        whose = f"{c.name} ({cmd.what})"
    else:
        whose = f"{c.name}'s {cmd.what}"
    tx.note(f"Luck check for {whose}{mode}: {rolled} (kept {check.kept}) — {verdict}.", c.id)


def claim_bond(tx: Tx, cmd: ClaimBond) -> None:
    """ "Bonds": once per scene, acting on a bond gains a point of focus — the player claims
    it naming the bond; the GM grants or refuses it (an approval decision, nothing rolls)."""
    c = tx.view(cmd.actor)
    tx.require_pc(c, "Focus from a bond")
    tx.require_can_act(c)
    tx.require_no_pending()
    sheet = c.sheet
    assert isinstance(sheet, UuneSheet)
    if c.bond_focus:
        raise RuleViolation(f"{names.escaped(c.name)} already gained focus from a bond this scene.")
    if c.focus >= tx.focus_max(c):
        raise RuleViolation(
            f"{names.escaped(c.name)}'s focus is already at its maximum ({c.focus})."
        )
    bond = _bond(sheet, cmd.bond)
    if bond is None:
        kind, _, words = cmd.bond.strip().partition(":")
        of_kind = _of_kind(sheet, kind)
        listed = "; ".join(
            f"{i + 1}. {b.kind}: {shortened(b.text, 40)}"
            for i, b in enumerate(sheet.bonds)
            if len(of_kind) < 2 or i in of_kind
        )
        if len(of_kind) > 1 and not words.strip():  # a kind naming more than one bond
            raise InvalidInput(
                f"{names.escaped(c.name)} has {len(of_kind)} bonds of the kind "
                f"{sheet.bonds[of_kind[0]].kind}: name one by its number or words ({listed})."
            )
        raise InvalidInput(f"{names.escaped(c.name)} has no such bond (bonds: {listed or 'none'}).")
    number, text = bond
    label = f"Bond {number} — {text.replace(':', ' ')}"  # ":" keys a helper's resource
    # Rules version 2 shortens it at a word, with "..."; version 1 cut it mid-word. It is kept
    # in the decision and the GM's answer names it, so a fight's log replays only with the
    # label it had: versions 2 on keep textwrap's cut (whitespace runs made one, a hyphen a
    # place to cut), which bot.words.shortened does not repeat.
    if tx.reads("label_cut_at_word"):
        label = textwrap.shorten(label, 60, placeholder="...") or label[:57] + "..."
    else:
        label = label[:60]
    tx.note(
        f"{c.name} acts on a bond ({shortened(text, 80)}) and asks the GM for a point of focus.",
        c.id,
    )
    tx.open_decision(
        ApprovalDecision(
            actor=c.id, action="Focus from a bond", purpose="bond", difficulty=0, proposed=(label,)
        )
    )


def _bond(sheet: UuneSheet, given: str) -> tuple[int, str] | None:
    """The bond ``given`` names: its 1-based number, its words, or the start of them — or,
    when no bond's words match, its kind as ``/character show`` lists it ("motivation", the
    only one of that kind; "flaw: cannot walk away…"). The words are tried first, so what
    named a bond before still names the same one (a logged command replays as it was)."""
    given = given.strip()
    if given.isdecimal() and 1 <= int(given) <= len(sheet.bonds):
        return int(given), sheet.bonds[int(given) - 1].text
    found = _bond_by_words(sheet, given, range(len(sheet.bonds)))
    if found is not None:
        return found
    kind, _, words = given.partition(":")
    of_kind = _of_kind(sheet, kind)
    if words.strip():
        return _bond_by_words(sheet, words.strip(), of_kind)
    if len(of_kind) == 1:
        return of_kind[0] + 1, sheet.bonds[of_kind[0]].text
    return None


def _of_kind(sheet: UuneSheet, kind: str) -> list[int]:
    """The bonds (0-based) of the kind ``kind`` names."""
    return [i for i, b in enumerate(sheet.bonds) if names.key(b.kind) == names.key(kind)]


def _bond_by_words(sheet: UuneSheet, given: str, among: Iterable[int]) -> tuple[int, str] | None:
    """The first bond of ``among`` (0-based) whose words are ``given`` or start with it."""
    key = names.key(given)
    for i in among:
        text = sheet.bonds[i].text
        if names.key(text) == key or names.key(text).startswith(key):
            return i + 1, text
    return None
