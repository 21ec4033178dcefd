"""The action roll as decisions (Uune SRD "Actions", "Help", "Focus", "Vitality", "Attack",
"Defend", "General NPC Guideines").

1. An action is declared (:func:`roll_action`, :func:`attack`, :func:`npc_attack` — the last
   asks its target's Defend roll). Declaring it on one's turn takes the turn's action (Defend
   takes none: "This does not use your turn action while in conflict").
2. An :class:`ApprovalDecision` (stage ``before_roll``) waits for the GM: the difficulty (a
   plain action's; an Attack's is the NPC's Defensiveness, a Defend's the attack's) and each
   proposed resource approved or refused (:func:`approve`). Resources the GM approved as
   standing for the scene are approved at once; when nothing is left to decide, the roll is
   made at once (a choice with one sensible answer resolves itself).
3. The roll (1d6 + 1d6 per approved resource die; a helper's hits added) opens a
   :class:`SpendDecision` (stage ``after_roll``) offering the actor's focus and vitality spends
   and the involved NPC's forced reroll (:func:`spend`); it closes when the actor keeps the roll
   or its window runs out. With nothing sensible to spend it closes at once.
4. The outcome (:func:`resolve`): success or failure; an Attack's wound on the NPC, a Defend's
   on the PC (:mod:`bot.engine.uune.health`); a special action's (Stealth, Downtime, Insight,
   Observe) by :mod:`bot.engine.uune.outcomes`. An action taken on the actor's turn ends it
   ("Each PC can take one action on their turn").

A bond's focus claim ("Bonds") uses the approval (1–2) only: the GM's answer grants or refuses
it and nothing rolls (:func:`bot.engine.uune.outcomes.grant_bond`).
"""

from __future__ import annotations

from bot import names
from bot.engine.core.built import built
from bot.engine.core.odds import percent
from bot.engine.uune import checks, dice, health, outcomes
from bot.engine.uune.commands import (
    Approve,
    Attack,
    Help,
    NpcAttack,
    Propose,
    RollAction,
    Spend,
)
from bot.engine.uune.core import Tx
from bot.engine.uune.events import AttackOutcome, RollOdds, approved_words
from bot.engine.uune.options import SEP as _SEP
from bot.engine.uune.options import shown, spend_options
from bot.engine.uune.sheet import UuneSheet, UuneStatblock
from bot.engine.uune.state import (
    GRAPPLED,
    ApprovalDecision,
    Helper,
    SpendDecision,
    UuneCombatant,
)
from bot.errors import InvalidInput, RuleViolation


def resources_of(c: UuneCombatant, proposed: tuple[str, ...]) -> tuple[str, ...]:
    """``proposed`` as the sheet spells them; refuses names not on it and repeats."""
    sheet = c.sheet
    if not isinstance(sheet, UuneSheet):
        raise RuleViolation(f"{names.escaped(c.name)} is an NPC: NPCs never roll.")
    known = {names.key(r): r for r in sheet.resources()}
    if c.stealth != "observed":  # "Stealth": Hidden +1, Undetected +2 resources
        known[names.key(c.stealth)] = c.stealth.title()
    out: list[str] = []
    for r in proposed:
        found = known.get(names.key(r))
        if found is None:
            listed = ", ".join(names.escaped(res) for res in sheet.resources()) or "none"
            raise InvalidInput(
                f"{names.escaped(c.name)} has no resource called {names.quoted(r)} (resources: "
                f"{listed})."
            )
        if found in out:
            raise InvalidInput(f"{names.escaped(found)} is proposed twice.")
        out.append(found)
    return tuple(out)


def open_roll(tx: Tx, d: ApprovalDecision, *, hold: bool = False) -> None:
    """Approve standing resources, then roll at once when nothing is left to decide, else
    open the approval. ``hold``: open it even so (a Defend: its roller proposes resources
    first, :func:`propose`)."""
    c = tx.view(d.actor)
    if d.purpose == "bond":
        if d.undecided():
            tx.open_decision(d)
        else:
            outcomes.grant_bond(tx, d)
        return
    standing = [r for r in d.undecided() if r in c.standing]
    if standing:
        d = d.model_copy(update={"approved": (*d.approved, *standing)})
        tx.note(f"Approved for the scene: {', '.join(standing)}.", c.id)
    if d.difficulty is not None and not d.undecided() and not hold:
        _roll(tx, d)
    else:
        tx.open_decision(d)


def roll_action(tx: Tx, cmd: RollAction) -> None:
    """ "Actions": the actor (a PC, on its turn in a conflict; outside one from rules version
    5, :meth:`Tx.on_turn_only`) attempts an action proposing resources."""
    c = tx.view(cmd.actor)
    tx.require_pc(c, "an action roll")
    on_turn = tx.on_turn_only()
    if on_turn:
        tx.require_turn(c)
    proposed = resources_of(c, cmd.resources)
    _pay(tx, c, cmd.action, on_turn)
    tx.note(f"{c.name} attempts {cmd.action}" + proposing(proposed) + ".", c.id)
    open_roll(
        tx,
        ApprovalDecision(
            actor=c.id, action=cmd.action, difficulty=cmd.difficulty, proposed=proposed
        ),
    )


def attack(tx: Tx, cmd: Attack) -> None:
    """ "Attack": a PC attacks an NPC; the hits needed are its Defensiveness. On the PC's turn
    in a conflict; outside one from rules version 5 (:meth:`Tx.on_turn_only`)."""
    c, target = tx.view(cmd.actor), tx.view(cmd.target)
    tx.require_pc(c, "Attack")
    on_turn = tx.on_turn_only()
    if on_turn:
        tx.require_turn(c)
    if not isinstance(target.sheet, UuneStatblock):
        raise RuleViolation(f"Attack is against an NPC; {names.escaped(target.name)} is a PC.")
    if tx.is_out(target):
        raise RuleViolation(f"{names.escaped(target.name)} is already out of the conflict.")
    proposed = resources_of(c, cmd.resources)
    _pay(tx, c, f"attack {target.name}", on_turn)
    tx.note(f"{c.name} attacks {target.name}" + proposing(proposed) + ".", c.id)
    open_roll(
        tx,
        ApprovalDecision(
            actor=c.id,
            action=f"an attack on {target.name}",
            purpose="attack",
            difficulty=target.sheet.defensiveness,
            target=target.id,
            proposed=proposed,
        ),
    )


def npc_attack(tx: Tx, cmd: NpcAttack) -> None:
    """ "NPCs and Statblocks": an NPC attacks a PC, on the NPC's turn; the target's Defend roll
    ("Defend", off-turn and free) at the attack's difficulty answers it. Outside a conflict
    the NPC needs no turn, from rules version 5 (:meth:`Tx.on_turn_only`)."""
    npc, target = tx.view(cmd.actor), tx.view(cmd.target)
    if not isinstance(npc.sheet, UuneStatblock):
        raise RuleViolation(f"{names.escaped(npc.name)} is a PC: a PC attacks with Attack.")
    on_turn = tx.on_turn_only()
    if on_turn:
        tx.require_turn(npc)
    found = npc.sheet.attack(cmd.attack)
    if found is None:
        listed = ", ".join(names.escaped(a.name) for a in npc.sheet.attacks) or "none"
        raise InvalidInput(
            f"{names.escaped(npc.name)} has no attack called {names.quoted(cmd.attack)} (attacks: "
            f"{listed})."
        )
    if not isinstance(target.sheet, UuneSheet):
        raise RuleViolation(
            f"An NPC's attack is against a PC; {names.escaped(target.name)} is an NPC."
        )
    if tx.is_out(target):
        raise RuleViolation(f"{names.escaped(target.name)} is already out of the conflict.")
    _pay(tx, npc, f"attack {target.name}", on_turn)
    tx.note(f"{npc.name} attacks {target.name} with {found.name}: {target.name} defends.", npc.id)
    open_roll(
        tx,
        ApprovalDecision(
            actor=target.id,
            action=f"a Defend against {npc.name}'s {found.name}"[:100],
            purpose="defend",
            difficulty=found.difficulty,
            attacker=npc.id,
            attack=found.name,
        ),
        hold=True,
    )


def _pay(tx: Tx, c: UuneCombatant, what: str, on_turn: bool) -> None:
    """The action declared: on the turn (checked already) its one action is spent; outside a
    conflict (rules version 5) nothing may wait and ``c`` must be able to act."""
    if on_turn:
        tx.pay_action(c.id, what)
    else:
        tx.take_action(c, what)


def proposing(proposed: tuple[str, ...]) -> str:
    return f", proposing {', '.join(proposed)}" if proposed else ""


def help_roll(tx: Tx, cmd: Help) -> None:
    """ "Help": another PC rolls its own resources "as they apply to the action" and adds its
    hits. It joins a roll waiting for approval; its resources are approved like the roller's.
    The bot's reading: helping does not use the helper's turn action (the text is silent)."""
    d = tx.open_decision_named(cmd.decision)
    if not isinstance(d, ApprovalDecision) or d.purpose == "bond":
        raise RuleViolation("Help joins a roll before it is rolled (while the GM approves it).")
    c = tx.view(cmd.actor)
    tx.require_pc(c, "Help")
    tx.require_can_act(c)
    if c.id == d.actor:
        raise RuleViolation(f"{names.escaped(c.name)} cannot help their own roll.")
    if any(h.helper == c.id for h in d.helpers):
        raise RuleViolation(f"{names.escaped(c.name)} is already helping this roll.")
    proposed = resources_of(c, cmd.resources)
    keyed = tuple(f"{c.id}{_SEP}{r}" for r in proposed)
    tx.settle_decision(d.id)
    tx.note(f"{c.name} helps {tx.view(d.actor).name}" + proposing(proposed) + ".", c.id)
    open_roll(
        tx,
        d.model_copy(
            update={
                "id": 0,
                "helpers": (*d.helpers, Helper(helper=c.id, resources=proposed)),
                "proposed": (*d.proposed, *keyed),
            }
        ),
    )


def propose(tx: Tx, cmd: Propose) -> None:
    """The roller proposes more resources for its roll while it waits for approval (a
    Defend's roller proposes here: the attack asked for its roll)."""
    d = tx.open_decision_named(cmd.decision)
    if not isinstance(d, ApprovalDecision) or d.purpose == "bond":
        raise RuleViolation("Resources are proposed before the roll (while the GM approves it).")
    c = tx.view(cmd.actor)
    if c.id != d.actor:
        roller = names.escaped(tx.view(d.actor).name)
        raise RuleViolation(
            f"This is {roller}'s roll, not {names.escaped(c.name)}'s: {names.escaped(c.name)}'s "
            f"resources join it with `/act action:help target:{roller} detail:` (the resources)."
        )
    named = resources_of(c, cmd.resources)
    more = [r for r in named if r not in d.proposed]
    if not more:
        already = ", ".join(names.escaped(r) for r in named)
        raise InvalidInput(
            f"{already} {'is' if len(named) == 1 else 'are'} already proposed for this roll: "
            "name a resource not proposed yet."
        )
    tx.settle_decision(d.id)
    tx.note(f"{c.name} proposes {', '.join(more)}.", c.id)
    open_roll(tx, d.model_copy(update={"id": 0, "proposed": (*d.proposed, *more)}))


def approve(tx: Tx, cmd: Approve) -> None:
    """The GM's answer before the roll: the difficulty named (a plain action's only), the
    resources approved or refused (``all``: every undecided one), ``standing``: approved for
    the scene. Rolls once nothing is left to decide."""
    d = tx.open_decision_named(cmd.decision)
    if not isinstance(d, ApprovalDecision):
        raise RuleViolation("That roll is already rolled: it waits for spends, not approval.")
    if cmd.actor != d.actor:
        raise RuleViolation(f"This approval is for {names.escaped(tx.view(d.actor).name)}'s roll.")
    if cmd.lapsed:
        lapse_approval(tx, d)
        return
    update, yes, no = _answers(d, cmd)
    tx.settle_decision(d.id)
    if cmd.difficulty is not None and "difficulty" in update:
        rung = tx.tables.rung(cmd.difficulty)
        tx.note(f"The GM names the difficulty: {rung.hits} ({rung.name}).", d.actor)
    if yes:
        tx.note(f"The GM approves {', '.join(shown(tx, r) for r in yes)}.", d.actor)
        if cmd.standing and d.purpose != "bond":
            own = [r for r in yes if _SEP not in r]
            c = tx.c(d.actor)
            c.standing = tuple(dict.fromkeys((*c.standing, *own)))[:50]
    if no:
        tx.note(f"The GM refuses {', '.join(shown(tx, r) for r in no)}.", d.actor)
    update |= {"id": 0, "approved": (*d.approved, *yes), "refused": (*d.refused, *no)}
    open_roll(tx, d.model_copy(update=update))


def _answers(d: ApprovalDecision, cmd: Approve) -> tuple[dict[str, object], list[str], list[str]]:
    """What ``cmd`` decides on ``d``: the difficulty named, the resources approved and
    refused. Raises when it names what is not waiting, or nothing."""
    update: dict[str, object] = {}
    if cmd.difficulty is not None:
        if d.purpose not in ("action", "observe", "stabilise"):
            raise RuleViolation(
                "The GM names the difficulty of an action roll, Observe or stabilising "
                "only: the other rolls' difficulty comes from the rules (an Attack's is the NPC's "
                "Defensiveness, a Defend's the attack's)."
            )
        update["difficulty"] = cmd.difficulty
    undecided = d.undecided()
    yes = [r for r in undecided if cmd.all == "approve" or r in cmd.approve]
    no = [r for r in undecided if cmd.all == "refuse" or r in cmd.refuse]
    stray = [r for r in (*cmd.approve, *cmd.refuse) if r not in undecided]
    if stray:
        raise InvalidInput(f"Not waiting for approval: {', '.join(stray)}.")
    if set(yes) & set(no):
        raise InvalidInput("A resource is either approved or refused, not both.")
    if not (update or yes or no or (cmd.all == "approve" and d.difficulty is not None)):
        raise InvalidInput("Name the difficulty, or resources to approve or refuse.")
    return update, yes, no


def lapse_approval(tx: Tx, d: ApprovalDecision) -> None:
    """The approval's window ran out: undecided resources are refused; with a difficulty it
    rolls, without one the action is called off."""
    tx.settle_decision(d.id)
    if d.difficulty is None:
        tx.note(f"No difficulty was named: {tx.view(d.actor).name}'s {d.action} is called off.")
        _after(tx, d.actor, d.purpose, d.attacker)
        return
    open_roll(tx, d.model_copy(update={"id": 0, "refused": (*d.refused, *d.undecided())}))


def _roll(tx: Tx, d: ApprovalDecision) -> None:
    c = tx.view(d.actor)
    assert d.difficulty is not None
    own = [r for r in d.approved if _SEP not in r]
    roll = _dice(tx, c, own, d.difficulty, d.action)
    for h in d.helpers:
        helper = tx.view(h.helper)
        theirs = [r.split(_SEP, 1)[1] for r in d.approved if r.startswith(h.helper + _SEP)]
        # "Roll your own resources as they apply to the action" (rules version 3): a helper
        # rolls their approved resources' dice, no base die; none approved, nothing to add.
        # Before, a helper rolled the base die too, even with every resource refused.
        resources_only = tx.reads("helper_rolls_resources_only")
        if resources_only and not theirs:
            tx.note(
                f"{helper.name}'s help adds nothing to {c.name}'s roll: none of their resources "
                "was approved.",
                helper.id,
            )
            continue
        helped = _dice(
            tx, helper, theirs, d.difficulty, f"help to {c.name}", base=not resources_only
        )
        roll = dice.with_help(roll, helped)
        # The helper's own dice, shown as the roller's are (their hits, even none, count).
        tx.note(f"{helper.name} helps {c.name}: {helped.roll.shown()}.", helper.id)
    tx.note(f"{c.name} rolls for {d.action}: {roll.shown()}.", c.id)
    if d.purpose in ("attack", "defend"):
        _odds(tx, d, c, roll, len(own))
    after = SpendDecision(
        actor=d.actor,
        action=d.action,
        purpose=d.purpose,
        roll=roll,
        target=d.target,
        attacker=d.attacker,
        attack=d.attack,
        detail=d.detail,
    )
    _offer(tx, after)


def _odds(
    tx: Tx, d: ApprovalDecision, c: UuneCombatant, roll: dice.ActionRoll, resources: int
) -> None:
    """The odds the Attack or Defend ``roll`` had (issue 18): a :class:`RollOdds` after the
    roll, for the audiences allowed to read them."""
    attacking = d.purpose == "attack"
    passes = tx.intoxicated_passes(c)
    odds = RollOdds(
        combatant=c.id,
        purpose="attack" if attacking else "defend",
        attacker=c.id if attacking else str(d.attacker),
        target=str(d.target) if attacking else c.id,
        pool=roll.roll.pool,
        resources=resources,
        required=roll.required,
        reroll_from=tx.tables.intoxicated.reroll_face if passes else None,
        reroll_times=max(1, passes),
        text="",
    )
    what = "to hit" if attacking else "for the attack to land"
    text = f"Odds: {percent(odds.chance())} {what} ({c.name}'s roll, {approved_words(resources)})"
    tx.emit(odds.model_copy(update={"text": text}))


def _dice(
    tx: Tx,
    c: UuneCombatant,
    approved: list[str],
    difficulty: int,
    what: str,
    *,
    base: bool = True,
) -> dice.ActionRoll:
    sheet = c.sheet
    assert isinstance(sheet, UuneSheet)
    resources = [dice.Resource(name=r, dice=_resource_dice(tx, c, sheet, r)) for r in approved]
    impaired = c.effect("Impaired")
    return dice.roll_action(
        tx.roller,
        resources,
        difficulty,
        tx.tables,
        impaired=impaired.level if impaired else 0,
        intoxicated=tx.intoxicated_passes(c),
        base=base,
    )


def _resource_dice(tx: Tx, c: UuneCombatant, sheet: UuneSheet, resource: str) -> int:
    """The dice ``resource`` adds: the sheet's (1 + proficiency), or the stealth level's
    ("Stealth": Hidden +1, Undetected +2)."""
    if c.stealth != "observed" and resource == c.stealth.title():
        return max(1, checks.stealth_resources(c.stealth, tx.tables))
    return sheet.resource_dice(resource)


def _offer(tx: Tx, d: SpendDecision) -> None:
    """Open the spend decision, or resolve at once when nobody has a sensible spend — or when
    the roller is out of the fight (a spend of their last vitality: "cannot take actions"),
    so the roll does not wait on a player who has no button left."""
    if tx.is_out(tx.view(d.actor)) and not tx.rests_while_out(d.purpose):
        resolve(tx, d)
    elif any(spend_options(tx, d, c.id) for c in tx.state.combatants if c.id != d.actor) or (
        len(spend_options(tx, d, d.actor)) > 1
    ):
        tx.open_decision(d)
    else:
        resolve(tx, d)


def spend(tx: Tx, cmd: Spend) -> None:
    """An answer to a rolled action: keep it, or one spend (paid in full or refused before a
    die is rolled), after which the changed roll waits again."""
    d = tx.open_decision_named(cmd.decision)
    if not isinstance(d, SpendDecision):
        raise RuleViolation("That roll is not rolled yet: it waits for the GM's approval.")
    c = tx.view(cmd.actor)
    if cmd.choice == "keep":
        if c.id != d.actor:
            raise RuleViolation(f"Only {names.escaped(tx.view(d.actor).name)} keeps their roll.")
        tx.settle_decision(d.id)
        resolve(tx, d)
        return
    index = [i - 1 for i in cmd.dice]
    if not index:
        raise InvalidInput("Name the die (its position in the roll) to spend on.")
    if cmd.choice != "npc_reroll" and c.id != d.actor:
        raise RuleViolation(f"Only {names.escaped(tx.view(d.actor).name)} spends on their roll.")
    _afford(tx, c, cmd.choice)
    if cmd.choice == "npc_reroll":
        paid = _npc_spend(tx, d, c, index)
    else:
        paid = _own_spend(tx, d, cmd.choice, index)
    tx.settle_decision(d.id)
    if paid.focus:
        tx.c(c.id).focus = c.focus - paid.focus
    cost = f"{paid.focus} focus" if paid.focus else f"{paid.vitality} vitality"
    words = _SPEND_WORDS.get(cmd.choice) or f"forces {tx.view(d.actor).name} to reroll a hit die"

    def spent() -> None:
        tx.note(
            f"{c.name} {words} ({cost}): {paid.action.shown()}.",
            c.id,
            secret=c.is_npc,
            public=f"{c.name} {words}: {paid.action.shown()}.",
        )

    if paid.vitality:
        after = health.spend(c.health, paid.vitality, tx.tables)
        tx.set_health(c.id, after, "spent their last vitality", spent)
    else:
        spent()
    _offer(tx, d.model_copy(update={"id": 0, "roll": paid.action}))


_SPEND_WORDS = {
    "focus_force": "forces a resource die to hit",
    "focus_reroll": "rerolls resource dice",
    "vitality_reroll": "rerolls a die",
    "vitality_bump": "bumps a die by 1",
}


def _afford(tx: Tx, c: UuneCombatant, choice: str) -> None:
    """Refuse a spend ``c`` cannot pay in full, before any die is rolled."""
    t = tx.tables
    focus = {"focus_force": t.focus.force_cost, "focus_reroll": t.focus.reroll_cost}.get(choice)
    if focus is not None:
        if c.focus < focus:
            raise InvalidInput(f"That costs {focus} focus; {names.escaped(c.name)} has {c.focus}.")
        return
    vitality = {
        "vitality_reroll": t.vitality.reroll_cost,
        "vitality_bump": t.vitality.bump_cost,
    }.get(choice, t.npc_forced_reroll.vitality)
    have = c.health.now(t)
    if have < vitality:
        raise InvalidInput(f"That costs {vitality} vitality; {names.escaped(c.name)} has {have}.")


def _npc_spend(tx: Tx, d: SpendDecision, c: UuneCombatant, index: list[int]) -> dice.Spend:
    """ "General NPC Guideines": the NPC the roll is against (any NPC for a plain action)
    forces a reroll of one hit die."""
    if not c.is_npc:
        raise RuleViolation("Only an NPC forces a PC to reroll.")
    tx.require_can_act(c)
    if c.id not in (d.target, d.attacker) and d.purpose != "action":
        raise RuleViolation(f"{names.escaped(c.name)} is not part of this roll.")
    if len(index) != 1:
        raise InvalidInput("An NPC forces a reroll of one hit die.")
    return dice.npc_force_reroll(d.roll, index[0], tx.roller, tx.tables)


def _own_spend(tx: Tx, d: SpendDecision, choice: str, index: list[int]) -> dice.Spend:
    t = tx.tables
    if choice == "focus_force":
        if len(index) != 1:
            raise InvalidInput("Focus forces one resource die to hit.")
        return dice.focus_force(d.roll, index[0], t)
    if choice == "focus_reroll":
        return dice.focus_reroll(d.roll, index, tx.roller, t)
    for i in index:
        if not 0 <= i < len(d.roll.roll.dice):
            raise InvalidInput(f"There is no die {i + 1}: the roll has {len(d.roll.roll.dice)}.")
    if len(index) != 1:
        raise InvalidInput("Vitality rerolls or bumps one die at a time.")
    if choice == "vitality_reroll":
        return dice.vitality_reroll(d.roll, index[0], tx.roller, t)
    return dice.vitality_bump(d.roll, index[0], t)


def attack_note(
    tx: Tx,
    text: str,
    about: str,
    attacker: str | None,
    target: str,
    *,
    secret: bool = False,
    public: str = "",
) -> None:
    """A note about ``about`` saying what ``attacker``'s attack did to ``target``: from rules
    version 5 an :class:`~bot.engine.uune.events.AttackOutcome` (it names both, so
    ``/encounter recap`` lists it among the attacks on ``target``), before it — and for a
    Defend that answers no attacker — a plain note (as those fights were played)."""
    if not tx.reads("attack_outcome_events") or attacker is None:
        tx.note(text, about, secret=secret, public=public)
        return
    tx.emit(
        built(
            AttackOutcome,
            text=text,
            combatant=about,
            secret=secret,
            public_text=public,
            attacker=attacker,
            target=target,
        )
    )


def resolve(tx: Tx, d: SpendDecision) -> None:
    """The roll is final: success or failure; an Attack wounds the NPC ("Attack"), a Defend
    may wound the PC ("Defend"); the action's turn ends."""
    c, roll, t = tx.view(d.actor), d.roll, tx.tables
    if d.purpose == "attack" and d.target is not None:
        npc = tx.view(d.target)
        outcome = health.attack_outcome(roll.hits, roll.required)
        if outcome == "fail":
            attack_note(tx, f"{c.name}'s attack on {npc.name} fails.", c.id, c.id, npc.id)
        else:
            if outcome != "light" and c.effect(GRAPPLED) is not None:  # "attack to escape"
                tx.lose(c.id, GRAPPLED, "escaped with a successful attack")
            tx.set_health(
                npc.id,
                health.wound(npc.health, outcome, t),
                "a wound took the last",
                lambda: attack_note(
                    tx,
                    f"{c.name}'s attack gives {npc.name} a {outcome} wound "
                    f"({tx.vitality_line(tx.view(npc.id))}).",
                    npc.id,
                    c.id,
                    npc.id,
                    secret=True,
                    public=f"{c.name}'s attack gives {npc.name} a {outcome} wound.",
                ),
            )
    elif d.purpose == "defend":
        outcome_d = health.defend_outcome(roll.hits, roll.required)
        src = f"{tx.view(d.attacker).name}'s {d.attack}" if d.attacker else "the attack"
        if outcome_d == "none":
            attack_note(tx, f"{c.name} dodges or parries {src}.", c.id, d.attacker, c.id)
        else:
            tx.set_health(
                c.id,
                health.wound(c.health, outcome_d, t),
                "a wound took the last",
                lambda: attack_note(
                    tx,
                    f"{src} gives {c.name} a {outcome_d} wound "
                    f"({tx.vitality_line(tx.view(c.id))}).",
                    c.id,
                    d.attacker,
                    c.id,
                ),
            )
    elif not outcomes.special(tx, d):
        verdict = "succeeds" if roll.success else "fails"
        tx.note(f"{c.name}'s {d.action} {verdict} ({roll.hits} of {roll.required} hits).", c.id)
    _after(tx, d.actor, d.purpose, d.attacker)


def settle_for_the_fallen(tx: Tx) -> None:
    """After every command (rules version 2): a roll whose roller is out of the fight — a GM
    tool or a wound Incapacitated them while it waited ("Vitality": "cannot take actions") —
    waits on nobody any more. Before the roll it is called off (the action stays spent, as
    when no difficulty was named in time); rolled, it stands as it is (as when the roller
    spends their last vitality, :func:`_offer`). Either way the turn it was taken on ends
    (a Defend's: the attacking NPC's). A helper out of the fight no longer helps a roll still
    waiting for approval (:func:`_drop_fallen_helpers`). From rules version 3, a Defend whose
    attacking NPC is out of the fight before the Defend is kept is called off with its attack
    (:func:`_call_off_fallen_attack`)."""
    for d in list(tx.state.decisions):
        roller = tx.view(d.actor)
        if tx.state.decision(d.id) is None:
            continue
        out = tx.is_out(roller) and not tx.rests_while_out(d.purpose)  # Downtime: version 5
        if not out and _call_off_fallen_attack(tx, d):
            continue
        if not out:
            if isinstance(d, ApprovalDecision) and d.helpers:
                _drop_fallen_helpers(tx, d)
            continue
        tx.settle_decision(d.id)
        if isinstance(d, SpendDecision):
            resolve(tx, d)
            continue
        tx.note(
            f"{roller.name}'s roll for {d.action} is called off: {roller.name} is "
            "Incapacitated and cannot act.",
            roller.id,
        )
        _after(tx, d.actor, d.purpose, d.attacker)


def _call_off_fallen_attack(tx: Tx, d: ApprovalDecision | SpendDecision) -> bool:
    """Rules version 3: an NPC's attack whose Defend still waits (for approval, or rolled and
    waiting on its spends) is called off when the NPC is out of the fight first — a GM tool
    Incapacitated it ("Vitality": "cannot take actions"): the attack lands only once the
    Defend is done ("Defend"), and an attacker out of the fight makes none. The NPC's turn,
    whose action the attack was, ends. Whether it was called off."""
    if not tx.reads("fallen_attacker_called_off") or d.purpose != "defend" or d.attacker is None:
        return False
    npc = tx.view(d.attacker)
    if not tx.is_out(npc):
        return False
    tx.settle_decision(d.id)
    tx.note(
        f"{npc.name}'s attack on {tx.view(d.actor).name} with {d.attack} is called off: "
        f"{npc.name} is Incapacitated and cannot act.",
        npc.id,
    )
    _after(tx, d.actor, d.purpose, d.attacker)
    return True


def _drop_fallen_helpers(tx: Tx, d: ApprovalDecision) -> None:
    """A helper out of the fight ("cannot take actions") no longer helps ``d``: their
    resources leave it (and it rolls at once if nothing is left to decide)."""
    gone = [h.helper for h in d.helpers if tx.is_out(tx.view(h.helper))]
    if gone:
        drop_helpers(tx, d, gone, "is Incapacitated")


def drop_helpers(tx: Tx, d: ApprovalDecision, gone: list[str], why: str | None) -> None:
    """The helpers ``gone`` no longer help ``d`` ("Help": a PC adds its own roll; one out of
    the fight, or no longer in it, has none to add): their resources leave it, ``why`` is said
    of each ("is Incapacitated"; None when the channel says it anyway, as a removal's "leaves
    the encounter" line), and the roller's roll goes on with what is left — rolling at once if
    nothing is left to decide."""
    theirs = tuple(f"{cid}{_SEP}" for cid in gone)
    kept = {
        field: tuple(r for r in getattr(d, field) if not r.startswith(theirs))
        for field in ("proposed", "approved", "refused")
    }
    tx.settle_decision(d.id)
    for cid in gone:
        because = f" {why} and" if why else ""
        tx.note(
            f"{tx.view(cid).name}{because} no longer helps {tx.view(d.actor).name}'s roll.", cid
        )
    helpers = tuple(h for h in d.helpers if h.helper not in gone)
    open_roll(tx, d.model_copy(update={"id": 0, "helpers": helpers, **kept}))


def _after(tx: Tx, actor: str, purpose: str, attacker: str | None) -> None:
    """The action done: the turn of whoever took it ends (a Defend: the attacking NPC's)."""
    tx.check_end()
    st = tx.state
    owner = attacker if purpose == "defend" else actor
    if owner is not None and st.phase == "active" and st.turn == owner and not st.decisions:
        tx.finish_turn(owner)
