"""Attack and defense (``untitled-combat.txt`` "Combat"): an attack is the standard action; the
weapon (or weapon family) skill's tier dice + level against the defender's Combat Defense tier
dice + level, plus its shield's tier dice when it carries one and uses it ("A tie will go to the
defender"); on a hit the Combat Form's dice + level (a critical — at least double the defense —
a tier higher, issue 13), the armor skill's dice mitigate, the rest comes off Health; at 0
Health the creature is Down (the bot's reading). The dice are :mod:`bot.engine.untitled.dice`.

The defender decides only when it has a choice: carrying a shield, it may roll it or not (a
:class:`~bot.engine.untitled.state.ShieldDecision`, opened before any die is rolled; its lapse
uses the shield). With no choice the attack resolves at once — no window to wait out.

A skill check (``/check``) rolls a skill against a difficulty or opposed by another's skill."""

from __future__ import annotations

from bot import names
from bot.engine.core.economy import Cost
from bot.engine.core.events import AttackDeclared
from bot.engine.core.pools import opposed
from bot.engine.core.scale import Scale
from bot.engine.untitled import dice
from bot.engine.untitled.commands import Attack, Check, Defend
from bot.engine.untitled.core import Tx
from bot.engine.untitled.events import AttackResolved, Checked
from bot.engine.untitled.sheet import UntitledSheet, Weapon
from bot.engine.untitled.state import DOWN, ShieldDecision, UntitledCombatant
from bot.errors import InvalidInput, NotAllowed, RuleViolation


def weapons_in_hand_first(c: UntitledCombatant) -> list[Weapon]:
    """``c``'s weapons, those in hand first, each group in the sheet's order: the first is the
    one an attack that names none swings (:func:`weapon_of`), and the turn ping's Attack…
    button offers (``UntitledRuleset.attack_names``) — one order, so the two never differ.
    A sheet whose first weapon is in hand keeps it first (what attacks naming none swung
    before this order was used, so old fights replay the same)."""
    away = {names.key(name) for name in c.stowed}
    return sorted(c.sheet.weapons, key=lambda w: names.key(w.name) in away)


def weapon_of(c: UntitledCombatant, name: str | None) -> Weapon:
    """``c``'s weapon called ``name`` (None: the first in hand, else its first:
    :func:`weapons_in_hand_first`). Raises :class:`InvalidInput` naming the weapons it
    has."""
    sheet = c.sheet
    arm = weapons_in_hand_first(c)[0] if name is None and sheet.weapons else None
    if name is not None:
        arm = sheet.weapon(name)
    if arm is None and name is None:
        raise InvalidInput(f"{names.escaped(c.name)} has no weapon on their sheet.")
    if arm is None:
        known = ", ".join(names.escaped(w.name) for w in sheet.weapons) or "none"
        raise InvalidInput(
            f"{names.escaped(c.name)} has no weapon called {names.quoted(str(name))} (weapons: "
            f"{known})."
        )
    return arm


def _check_reach(
    tx: Tx, c: UntitledCombatant, target: UntitledCombatant, arm: Weapon, range_m: float | None
) -> None:
    """A melee weapon reaches ``reach_m`` (1 m when engaged); a ranged one shoots to
    ``range_m``. An unknown distance is taken as within reach (there is no map)."""
    meters = range_m if range_m is not None else tx.state.positions.distance(c.id, target.id)
    if meters is None:
        return
    if meters > reach_of(arm):
        raise RuleViolation(out_of_reach(tx.scale, target.name, arm, meters))


def reach_of(arm: Weapon) -> float:
    """How far ``arm`` reaches, in meters: a ranged weapon its range, a melee one its reach
    (at least 1 m: engaged)."""
    return arm.range_m if arm.kind == "ranged" and arm.range_m else max(arm.reach_m, 1)


def out_of_reach(scale: Scale, target: str, arm: Weapon, meters: float) -> str:
    """The refusal of an attack with ``arm`` on ``target`` ``meters`` away, beyond
    :func:`reach_of` (``/attack`` and ``/odds``)."""
    return (
        f"{names.escaped(target)} is {scale.show(meters)} away: "
        f"{names.escaped(arm.name)} reaches {scale.show(reach_of(arm))}."
    )


def _check_dice(tx: Tx, attacker: UntitledSheet, arm: Weapon, defender: UntitledSheet) -> None:
    """Every pool the attack may roll is built before anything is paid or rolled, so a
    refusal (Legendary dice or armor above 18 not set) changes nothing — the defender's
    shield's too (rules version 4): a Legendary shield skill with no dice set would otherwise
    refuse the defender's choice to raise it, and its lapse, while the Storyteller cannot set
    the dice until the attack is rolled (:func:`bot.engine.untitled.actions.set_rule`).
    Versions 1 to 3 declared such an attack, and still do."""
    t = tx.tables
    dice.skill_pool(t, attacker.attack_level(arm))
    dice.skill_pool(t, defender.defense_level())
    if defender.shield is not None and tx.reads("shield_dice_checked"):
        dice.skill_pool(t, defender.shield_level(), bonus=False)
    dice.damage_pool(t, attacker.damage_level(arm), critical=True)
    level = defender.armor_level()
    if defender.armor is not None and level is not None:
        t.armor_dice(level, defender.armor.weight)


def attack(tx: Tx, cmd: Attack) -> None:
    """ "A standard action – an action such as attacking": ``cmd.actor`` attacks with a drawn
    (and, if it needs it, loaded) weapon; a swift action declared at its opening is paid
    first. A defender with a shield decides whether to use it; otherwise it resolves now."""
    c = tx.view(cmd.actor)
    tx.require_on_turn(c)
    target = tx.view(cmd.target)
    if target.id == c.id:
        raise InvalidInput(f"{names.escaped(c.name)} cannot attack themselves.")
    if tx.is_out(target):
        raise RuleViolation(f"{names.escaped(target.name)} is already {DOWN}.")
    arm = weapon_of(c, cmd.weapon)
    if names.key(arm.name) in {names.key(x) for x in c.stowed}:
        raise RuleViolation(
            f"{names.escaped(c.name)}'s {names.escaped(arm.name)} is put away: draw it first (a "
            "move action)."
        )
    if arm.name in c.unloaded:
        raise RuleViolation(
            f"{names.escaped(c.name)}'s {names.escaped(arm.name)} is not loaded: reload it first."
        )
    _check_reach(tx, c, target, arm, cmd.range_m)
    _check_dice(tx, c.sheet, arm, target.sheet)
    if cmd.swift:
        tx.pay(c.id, Cost(kind="swift"), cmd.swift)
        tx.note(f"{c.name} (swift action): {cmd.swift}", c.id)
    tx.pay(c.id, Cost(kind="standard"), f"attack {target.name} with {arm.name}")
    if arm.reload != "none":
        tx.c(c.id).unloaded = (*c.unloaded, arm.name)
    if target.sheet.shield is not None:
        tx.open_decision(ShieldDecision(attacker=c.id, target=target.id, weapon=arm.name))
        tx.emit(
            AttackDeclared(
                combatant=c.id,
                target=target.id,
                attack=arm.name,
                hit_index=1,
                hits_total=1,
                awaiting="reaction",
                text=f"{c.name} attacks {target.name} with {arm.name}: "
                f"{target.name} may raise their {target.sheet.shield.name}.",
            )
        )
        return
    resolve(tx, c.id, target.id, arm.name, use_shield=False)


def defend(tx: Tx, cmd: Defend) -> None:
    """The defender's choice (or its lapse): roll the shield's dice too or not; the attack
    then resolves. Raises :class:`NotAllowed` for anyone but the defender."""
    tx.require_active()
    p = tx.open_decision_named(cmd.decision)
    if not isinstance(p, ShieldDecision):  # pragma: no cover - one kind of decision
        raise RuleViolation("Nothing is waiting for a defense.")
    target = tx.view(p.target)
    if cmd.actor != target.id:
        raise NotAllowed(
            f"Only {names.escaped(target.name)} chooses their defense against "
            f"{names.escaped(p.weapon)}."
        )
    if cmd.issued is not None and cmd.issued <= p.marker:
        raise RuleViolation("That choice was made before this attack was declared.")
    tx.settle_decision(p.id)
    use = cmd.choice == "shield" and not tx.is_out(target)
    resolve(tx, p.attacker, p.target, p.weapon, use_shield=use)


def drop_orphaned_attacks(tx: Tx) -> None:
    """After every command (rules version 2): an attack still waiting on the shield choice of
    a defender who is Down (a GM tool put them there meanwhile), or made by an attacker who
    is, is cancelled — nobody can answer it, and an attack declared on a Down creature is
    refused (:func:`attack`). The standard action it cost stays spent."""
    for p in list(tx.state.decisions):
        attacker, target = tx.view(p.attacker), tx.view(p.target)
        down = next((c for c in (target, attacker) if tx.is_out(c)), None)
        if down is None:
            continue
        tx.settle_decision(p.id)
        tx.note(
            f"{attacker.name}'s attack with {p.weapon} is cancelled: {down.name} is {DOWN}.",
            attacker.id,
        )


def resolve(tx: Tx, attacker: str, target: str, weapon: str, *, use_shield: bool) -> None:
    """Roll the exchange (:func:`bot.engine.untitled.dice.exchange`: attack, Combat Defense,
    shield; on a hit damage then armor), take the Health off and put Down whoever reaches 0."""
    a, d = tx.view(attacker), tx.view(target)
    ex = dice.exchange(tx.roller, tx.tables, a.sheet, weapon, d.sheet, use_shield=use_shield)
    left = max(0, d.health - ex.health)
    if ex.attack.hit:
        tx.c(d.id).health = left
    att = ex.attack
    text = f"{a.name} attacks {d.name} with {weapon}: {att.attack.text} against {att.defense.text}"
    if att.shield is not None:
        text += f" + {att.shield.text}"
    if not att.hit:
        text += (
            " — a miss (a tie goes to the defender)."
            if (att.attack.total == att.defense_total)
            else " — a miss."
        )
    else:
        text += " — a critical hit" if att.critical else " — a hit"
        assert ex.damage is not None
        text += f"; {ex.damage.text}"
        if ex.armor is not None:
            text += f"; {ex.armor.text} mitigated"
        text += f"; {ex.health} Health lost, {left} left."
    tx.emit(
        AttackResolved(
            combatant=a.id,
            target=d.id,
            weapon=weapon,
            attack=att.attack,
            defense=att.defense,
            shield=att.shield,
            hit=att.hit,
            critical=att.critical,
            damage=ex.damage,
            armor=ex.armor,
            health_lost=ex.health if att.hit else 0,
            health=left,
            tie_to_defender=tx.tables.defense.tie == "defender",
            text=text,
        )
    )
    if att.hit and left == 0 and not tx.is_out(d):
        tx.gain(d.id, DOWN, "their Health is 0", "Health 0")
    tx.check_end()


def _skill_level(sheet: UntitledSheet, skill: str) -> tuple[str, int | None]:
    """The shown name and level of ``skill`` on ``sheet`` (None: untrained)."""
    folded = names.key(skill)
    for name, level in sheet.skill_levels().items():
        if names.key(name) == folded:
            return name, level
    return skill, None


def check(tx: Tx, cmd: Check) -> None:
    """A skill roll: the tier's dice + level (untrained 1d6) against ``difficulty`` (the
    roll must reach it), or opposed by the target's roll (a tie to the target, as a defense)."""
    tx.require_active()
    tx.require_no_pending()
    c = tx.view(cmd.actor)
    tx.require_can_act(c)
    if cmd.target is not None and cmd.difficulty is not None:
        raise InvalidInput("A check is against a `difficulty:` or opposed by a `target:`.")
    name, level = _skill_level(c.sheet, cmd.skill)
    other = tx.view(cmd.target) if cmd.target is not None else None
    if other is not None:
        oname, olevel = _skill_level(other.sheet, cmd.against or cmd.skill)
        dice.skill_pool(tx.tables, olevel)
    dice.skill_pool(tx.tables, level)
    roll = dice.roll_skill(tx.roller, tx.tables, level, f"{c.name}'s {name}")
    if other is None:
        success = None if cmd.difficulty is None else roll.total >= cmd.difficulty
        verdict = "" if success is None else (": a success" if success else ": a failure")
        against = "" if cmd.difficulty is None else f" against difficulty {cmd.difficulty}"
        tx.emit(
            Checked(
                combatant=c.id,
                roll=roll,
                difficulty=cmd.difficulty,
                success=success,
                text=f"{roll.text}{against}{verdict}.",
            )
        )
        return
    theirs = dice.roll_skill(tx.roller, tx.tables, olevel, f"{other.name}'s {oname}")
    won = opposed(roll.total, theirs.total, "second") == "first"
    tx.emit(
        Checked(
            combatant=c.id,
            roll=roll,
            opponent=other.id,
            opposing=theirs,
            success=won,
            text=f"{roll.text} against {theirs.text}: {'a success' if won else 'a failure'}.",
        )
    )
