"""UTTAS turn actions other than attacks: "Enter a Stance", "Moving", "Full Move" and Sprint,
"Activate a Power", "Perform a skill", "Ready an Action", "Take a Breather", "Prone" (standing
up), "Grappled" (escaping), "Surrender" and "Talk"."""

from __future__ import annotations

from bot import names
from bot.engine.core.events import Note
from bot.engine.uttas import (
    attacks,
    healing,
    limbs,
    movement,
    perception,
    power_effects,
    reactions,
    rules,
    skills_long,
)
from bot.engine.uttas.commands import (
    ActivatePower,
    Attack,
    BreakFree,
    Breather,
    ChangeStance,
    DropPower,
    GrappleContest,
    Move,
    Ready,
    ResolveReadied,
    Surrender,
    Talk,
    UseSkill,
)
from bot.engine.uttas.core import Tx
from bot.engine.uttas.events import Checked, StanceChanged
from bot.engine.uttas.sheet import Power
from bot.engine.uttas.state import (
    DEAD,
    GRAPPLED,
    GRAPPLING,
    SURRENDERED,
    UNCONSCIOUS,
    Combatant,
    Readied,
)
from bot.errors import InvalidInput, NotFound, RuleViolation


def change_stance(tx: Tx, cmd: ChangeStance) -> None:
    """UTTAS "Enter a Stance": free at the start of the turn; every later change costs an
    action (it does not end the turn). Off-turn changes are reactions to an attack only, and never
    in response to another's reaction (see ``React``)."""
    c = tx.view(cmd.actor)
    tx.require_active()
    tx.require_no_pending()
    if tx.state.turn != c.id:
        raise RuleViolation(
            f"Off {names.escaped(c.name)}'s turn a stance change is a reaction to an attack "
            f"(choose it among the reactions)."
        )
    tx.require_turn(c)
    name = reactions.check_stance(tx, c, cmd.stance)
    if name == c.stance:
        raise RuleViolation(f"{names.escaped(c.name)} is already in the {name} stance.")
    cost = 0 if c.free_stance_available else 1
    if cost:
        tx.spend_actions(c.id, 1, f"changing to the {name} stance", "turn")
    m = tx.c(c.id)
    before, m.stance, m.free_stance_available = m.stance, name, False
    how = "free, at the start of the turn" if not cost else "1 action"
    tx.emit(
        StanceChanged(
            combatant=c.id,
            before=before,
            after=name,
            actions=cost,
            text=f"{c.name} takes the {name} stance ({how}).",
        )
    )


def breather(tx: Tx, cmd: Breather) -> None:
    """UTTAS "Take a Breather": an action, only if the character has not moved this turn and
    has a use left (natural Body dice per short rest); no reactions until its next turn, when it
    rolls the Body dice; damage before then interrupts it and refunds the use. At full Stamina
    it would "recover some Stamina" of none: refused from rules version 7
    (``Tx.READINGS["breather_refused_at_full"]``; versions 1–6 spent the action and the use)."""
    c = tx.view(cmd.actor)
    tx.require_turn(c)
    tx.require_not_held(c, "take a breather")
    if c.moved_this_turn:
        raise RuleViolation(f"{names.escaped(c.name)} moved this turn and cannot take a breather.")
    if limbs.body_disabled(c):
        raise RuleViolation(f"{names.escaped(c.name)}'s body is disabled: no breather.")
    if c.breather_uses <= 0:
        raise RuleViolation(f"{names.escaped(c.name)} has no breathers left until a short rest.")
    top = tx.stamina_cap(c)
    if c.stamina >= top and tx.reads("breather_refused_at_full"):
        held = f", less the {c.stamina_held} maintained powers hold" if c.stamina_held else ""
        raise RuleViolation(
            f"{names.escaped(c.name)}'s Stamina is full ({c.stamina}/{top}{held}): a breather "
            "would spend the turn's action and one of their breathers to recover nothing."
        )
    tx.spend_actions(c.id, 1, "a breather", "turn")
    m = tx.c(c.id)
    m.breather_uses -= 1
    m.breathing = True
    after = "no reactions until the next turn, when the Body dice are rolled."
    tx.note(
        f"{c.name} takes a breather ({m.breather_uses} left): {after}",
        c.id,
        secret=True,
        public=f"{c.name} takes a breather: {after}",
    )
    tx.action_done(c.id, True)


def ready(tx: Tx, cmd: Ready) -> None:
    """UTTAS "Ready an Action": uses the turn's action; no reactions while waiting."""
    c = tx.view(cmd.actor)
    tx.require_turn(c)
    tx.require_not_held(c, "ready an action")
    w = tx.view(cmd.watch)
    if w.id == c.id:
        raise InvalidInput("Watch someone else.")
    if cmd.trigger == "coordinated":
        if w.side != c.side:
            raise RuleViolation("A coordinated attack is made with an ally.")
        if not cmd.attack or not cmd.target:
            raise InvalidInput("Name the attack and the target of the coordinated attack.")
        t = tx.view(cmd.target)
        rules.attack_profile(c, cmd.attack, tx.tables)
        target_id: str | None = t.id
    else:
        target_id = tx.view(cmd.target).id if cmd.target else None
    tx.spend_actions(c.id, 1, "readying an action", "turn")
    tx.c(c.id).readied = Readied(
        trigger=cmd.trigger,
        watch=w.id,
        plan=cmd.plan,
        attack=cmd.attack,
        target=target_id,
        round=tx.state.round,
    )
    what = {
        "action": f"after {w.name} acts",
        "movement": f"when {w.name} moves",
        "coordinated": f"together with {w.name}",
    }[cmd.trigger]
    # The plan is the GM's private note for an NPC whose numbers are hidden (it may name them).
    tx.note(
        f"{c.name} readies an action {what}" + (f": {cmd.plan}" if cmd.plan else "."),
        c.id,
        secret=True,
        public=f"{c.name} readies an action {what}.",
    )
    tx.action_done(c.id, True)


def resolve_readied(tx: Tx, cmd: ResolveReadied) -> None:
    """UTTAS "Perform a readied action": costs an action to resolve; after an enemy's completed
    action, or interrupting its movement (which ends if stopped). Coordinated attacks resolve
    with the ally's ``Attack`` (``with_readied``)."""
    tx.require_active()
    tx.require_no_pending()
    c = tx.view(cmd.actor)
    tx.require_can_act(c)
    r = c.readied
    if r is None:
        raise RuleViolation(f"{names.escaped(c.name)} has no readied action.")
    if cmd.action.actor != c.id:
        raise InvalidInput("The readied action must be the readying combatant's own.")
    w = tx.view(r.watch)
    _require_trigger(tx, c, w, r, cmd.stops_movement)
    tx.c(c.id).readied = None
    tx.note(f"{c.name}'s readied action triggers!", c.id)
    if r.trigger == "movement" and cmd.stops_movement:
        tx.c(w.id).movement_ended = True
        tx.note(f"{w.name}'s movement is stopped and ends.", w.id)
    act = cmd.action
    if isinstance(act, Attack):
        attacks.declare(tx, act, on_turn=False)
    elif isinstance(act, Move):
        movement.move(tx, act.model_copy(update={"full": True}), on_turn=False)
    elif isinstance(act, UseSkill):
        use_skill(tx, act, on_turn=False)
    else:
        activate_power(tx, act, on_turn=False)


def _require_trigger(tx: Tx, c: Combatant, w: Combatant, r: Readied, stop: bool) -> None:
    """The readied action's moment came: the watched enemy completed an action or moved (a
    coordinated attack fires with the ally's own attack); ``stop`` only for movement."""
    if r.trigger == "coordinated":
        raise RuleViolation(
            f"{names.escaped(c.name)}'s coordinated attack fires with {names.escaped(w.name)}'s "
            "attack."
        )
    if stop and r.trigger != "movement":
        raise InvalidInput(
            f"`stop:` ends a mover's movement: {names.escaped(c.name)}'s readied action waits for "
            f"{names.escaped(w.name)}'s action, not their movement."
        )
    if r.trigger == "action" and tx.state.last_action_by != w.id:
        raise RuleViolation(
            f"{names.escaped(c.name)} waits for {names.escaped(w.name)} to complete an action."
        )
    if r.trigger == "movement" and tx.state.last_mover != w.id:
        raise RuleViolation(f"{names.escaped(c.name)} waits for {names.escaped(w.name)} to move.")


def use_skill(tx: Tx, cmd: UseSkill, *, on_turn: bool = True) -> None:
    """UTTAS "Perform a skill": an action; roll the skill's dice (Advantage/Disadvantage apply;
    a disabled head adds a Disadvantage) and meet the difficulty. Outside a fight (before it
    begins or after it ended) a check needs no turn and costs no action (issue 11, "Checks
    outside a fight"). With a ``target`` it is opposed (:mod:`bot.engine.uttas.perception`:
    Perception against a hidden target's Stealth, with range penalties); a hiding skill
    (Stealth) hides the roller."""
    c = tx.view(cmd.actor)
    between_fights = on_turn and tx.state.phase != "active"
    if between_fights:
        tx.require_can_act(c)
    elif on_turn:
        tx.require_turn(c)
        tx.require_not_held(c, "use a skill")
    dice = c.sheet.skill_dice(cmd.skill)
    if dice is None:
        raise NotFound(f"{names.escaped(c.name)} has no skill called {names.quoted(cmd.skill)}.")
    aimed = perception.aim(tx, c, cmd.skill, cmd.target, cmd.range_m) if cmd.target else None
    if not between_fights and skills_long.turns_of(c, cmd.skill) > 1:
        if aimed is not None:
            raise InvalidInput(
                f"{names.escaped(cmd.skill)} takes several turns: it is not a check against "
                "someone."
            )
        return skills_long.begin(tx, cmd, on_turn=on_turn)  # several turns ("Perform a skill")
    if not between_fights:
        tx.spend_actions(c.id, 1, cmd.skill, "turn" if on_turn else "off_turn")
    roll = tx.check_roll(
        c,
        f"{c.name}'s {cmd.skill}",
        dice,
        advantage=cmd.advantage,
        disadvantage=cmd.disadvantage + (aimed.disadvantage if aimed else 0),
    )
    if aimed is not None:
        perception.contest(tx, c, cmd.skill, cmd.against, roll, aimed)
    else:
        ok = None if cmd.difficulty is None else roll.total >= cmd.difficulty
        verdict = "" if ok is None else (" — success" if ok else " — failure")
        dc = "" if cmd.difficulty is None else f" vs {cmd.difficulty}"
        tx.emit(
            Checked(
                combatant=c.id,
                roll=roll,
                difficulty=cmd.difficulty,
                success=ok,
                verdict="" if ok is None else ("success" if ok else "failure"),
                text=f"{roll.text}{dc}{verdict}.",
            )
        )
        if perception.is_hiding_skill(tx, cmd.skill):
            perception.hide(tx, tx.view(c.id), roll, ok)
    if not between_fights:
        tx.action_done(c.id, on_turn)


def activate_power(tx: Tx, cmd: ActivatePower, *, on_turn: bool = True) -> None:
    """UTTAS "Activate a Power": an action; 1 Stamina per 5 Active Points, maintained powers
    double and hold that Stamina until dropped. Attack powers go through ``Attack``. A Heal
    power restores its target's Health ("Healing", :mod:`bot.engine.uttas.healing`); outside a
    fight it needs no turn and costs no action."""
    c = tx.view(cmd.actor)
    pw = c.sheet.power(cmd.power)
    if pw is None:
        raise NotFound(f"{names.escaped(c.name)} has no power called {names.quoted(cmd.power)}.")
    between_fights = pw.heals and tx.state.phase != "active"
    if between_fights:
        tx.require_can_act(c)
    elif on_turn:
        tx.require_turn(c)
        tx.require_not_held(c, "activate a power")
    _check_power_use(tx, c, pw, cmd.target)
    cost = rules.power_stamina(pw, tx.tables)
    if not between_fights:
        tx.spend_actions(c.id, 1, pw.name, "turn" if on_turn else "off_turn")
    if pw.maintained:
        tx.maintain(c.id, pw.name, cost, pw.name)
    else:
        tx.spend_stamina(c.id, cost, pw.name)
    on = f" on {tx.view(cmd.target).name}" if cmd.target else ""
    tx.note(f"{c.name} activates {pw.name}{on}.", c.id)
    if pw.heals and cmd.target:
        healing.heal_with_power(tx, tx.view(c.id), pw, cmd.target)
    else:
        power_effects.activate(tx, tx.view(c.id), pw, cmd.target)
    if not between_fights:
        tx.action_done(c.id, on_turn)


def _check_power_use(tx: Tx, c: Combatant, pw: Power, target: str | None) -> None:
    """Refuse a power used wrongly: an attack power (``Attack`` does those), a Heal power with
    no target, a limitation held by a grapple, a maintained power already maintained."""
    if pw.targets is not None:  # "Accuracy Checks": it adversely affects someone
        raise RuleViolation(
            f"{names.escaped(pw.name)} is an attack (it needs an Accuracy roll): use Attack "
            f"({names.code(f'/attack with:{pw.name}')})."
        )
    power_effects.check_use(tx, c, pw, target)
    if pw.heals and not target:
        raise InvalidInput(f"Name who {names.escaped(pw.name)} heals (`target:`).")
    blocked = limbs.blocked_limitation(c, pw.limitations)
    if blocked:
        raise RuleViolation(f"{names.escaped(pw.name)} needs {blocked}, held by a grapple.")
    if pw.maintained:
        tx.require_not_maintaining(c, pw.name)


def break_free(tx: Tx, cmd: BreakFree) -> None:
    """Breaking out of a binding (the chase: "attempts to break out of the Entangle and breaks
    down half of it"): on the turn, an action that breaks one part of it; it ends when none is
    left (the tables' ``break_attempts`` per condition; a default, the text gives no
    mechanism)."""
    c = tx.view(cmd.actor)
    tx.require_turn(c)
    bindings = {
        name: extra
        for name, extra in tx.tables.extra_conditions.items()
        if extra.break_attempts and c.has(name)
    }
    if cmd.condition is not None:
        wanted = cmd.condition.casefold()
        bindings = {k: v for k, v in bindings.items() if k.casefold() == wanted}
    if not bindings:
        raise RuleViolation(
            f"{names.escaped(c.name)} is bound by nothing that can be broken out of."
        )
    if len(bindings) > 1:
        raise InvalidInput(f"Name the binding to break: {', '.join(sorted(bindings))}.")
    name = next(iter(bindings))
    tx.spend_actions(c.id, 1, f"breaking out of {name}", "turn")
    held = c.effect(name)
    left = (held.level if held else 1) - 1
    parts = bindings[name].break_attempts
    how = f"broke part of it, {left} of {parts} parts left" if left else "broke the last part"
    tx.lose(c.id, name, how, levels=1)
    tx.action_done(c.id, True)


def drop_power(tx: Tx, cmd: DropPower) -> None:
    """Stop maintaining a power (free): its held Stamina can be recovered again."""
    c = tx.view(cmd.actor)
    held = next((mp for mp in c.maintained if mp.power.casefold() == cmd.power.casefold()), None)
    if held is None:
        raise NotFound(
            f"{names.escaped(c.name)} is not maintaining {names.escaped(repr(cmd.power))}."
        )
    m = tx.c(c.id)
    m.maintained = [mp for mp in m.maintained if mp is not held]
    m.stamina_held = max(0, m.stamina_held - held.stamina_held)
    tx.note(f"{c.name} stops maintaining {held.power}.", c.id)
    power_effects.dropped(tx, tx.view(c.id), c.sheet.power(held.power))


def grapple_contest(tx: Tx, cmd: GrappleContest) -> None:
    """UTTAS "Grappled": the held creature may only escape or take control (an action). The text
    gives no mechanism; default: Strength dice against the holder's, higher wins, ties hold."""
    c = tx.view(cmd.actor)
    tx.require_turn(c)
    if c.grappled_by is None:
        raise RuleViolation(f"{names.escaped(c.name)} is not held in a grapple.")
    h = tx.view(c.grappled_by)
    ch = tx.tables.grapple_contest_characteristic
    tx.spend_actions(c.id, 1, f"trying to {cmd.goal}", "turn", escaping=True)
    mine = tx.roll(f"{c.name}'s {ch}", rules.dice_of(c, ch, tx.tables))
    theirs = tx.roll(f"{h.name}'s {ch}", rules.dice_of(h, ch, tx.tables))
    ok = mine.total > theirs.total
    tx.emit(
        Checked(
            combatant=c.id,
            roll=mine,
            opposing=theirs,
            opponent=h.id,
            difficulty=None,
            success=ok,
            verdict="breaks free" if ok else "the hold stays",
            text=f"{mine.text} vs {theirs.text}: {'breaks free' if ok else 'the hold stays'}.",
        )
    )
    if ok:
        held = [d.limb for d in c.disabled_limbs if d.source == "grapple"]
        tx.release_grapple(c.id, f"{c.name} broke free")
        if cmd.goal == "control":
            from bot.engine.uttas.state import DisabledLimb

            m, n = tx.c(c.id), tx.c(h.id)
            m.grappling, n.grappled_by = h.id, c.id
            n.disabled_limbs += [DisabledLimb(limb=x, source="grapple") for x in held]
            tx.gain(h.id, GRAPPLED, f"{c.name} took control")
            tx.gain(c.id, GRAPPLING, "took control of the grapple")
    tx.action_done(c.id, True)


def surrender(tx: Tx, cmd: Surrender) -> None:
    """UTTAS "Surrender": render yourself helpless (free). On the surrendering character's own
    turn, the turn ends."""
    tx.require_active()
    tx.require_no_pending()
    c = tx.view(cmd.actor)
    if c.has(DEAD) or c.has(UNCONSCIOUS) or c.has(SURRENDERED):
        raise RuleViolation(f"{names.escaped(c.name)} cannot surrender now.")
    tx.gain(c.id, SURRENDERED, "surrendered")
    tx.check_end()
    if tx.state.phase == "active" and tx.state.turn == c.id:
        tx.finish_turn(c.id)


WORDS_PER_ROUND = 25
"""UTTAS "Talk": "up to 25 words in a 6 second period" — a round (6 seconds)."""


def talk(tx: Tx, cmd: Talk) -> None:
    """UTTAS "Talk": up to 25 words per 6 seconds, free. The words a combatant says are
    counted across the round, over every message (outside a fight, per message)."""
    c = tx.view(cmd.actor)
    if c.has(DEAD) or c.has(UNCONSCIOUS):
        raise RuleViolation(f"{names.escaped(c.name)} cannot speak now.")
    words = len(cmd.text.split())
    round_ = tx.state.round
    said = c.words_said if c.words_round == round_ and round_ > 0 else 0
    left = WORDS_PER_ROUND - said
    if words > left:
        if said == 0:
            raise RuleViolation("A character can say at most 25 words in a round.")
        if left <= 0:
            raise RuleViolation(
                f"{names.escaped(c.name)} has said 25 words this round: no more words until the "
                "next round."
            )
        raise RuleViolation(
            f"{names.escaped(c.name)} can say only {left} more words this round (25 words per 6 "
            "seconds)."
        )
    if round_ > 0:
        m = tx.c(c.id)
        m.words_said, m.words_round = said + words, round_
    tx.emit(Note(combatant=c.id, text=f"{c.name}: “{cmd.text}”"))
