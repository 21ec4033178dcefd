"""Attacks, damage and the defenses rolled against it (``utopia-actions.txt`` "Attack",
"Ranged Weapons", "Aim", "Block", "Dodge", "Take Cover", "Interchanging Actions"; issue 12's
documented defaults for damage types, defenses and the SHP/DHP/Stamina pools).

An attack pays its TA (a weapon's ``ta_cost``, weaponless ``tables.weaponless.ta``) — off the
attacker's turn through interrupt actions, 2 IA per TA, after which the attacker cannot defend
until the next creature's turn. A ranged attack is a Dexterity test against the meters to the
target: favor within close range, disfavor within far range, impossible beyond, plus the favor
of an Aim. Damage is rolled, the target's defense against its type subtracted, and then — the
damage known — the target decides (a core decision of stage ``after_damage``): Block (its Block
Rating in d4 reduce it), Dodge (its Dodge Rating in d12: at least the damage negates it), Take
Cover (both doubled for the rest of the turn, then Block or Dodge) or nothing. One Block or
Dodge per source of damage."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Literal

import d20

from bot import names
from bot.engine.core.dice import Roll
from bot.engine.core.economy import Cost
from bot.engine.core.events import AttackDeclared
from bot.engine.core.pools import DiceGroup
from bot.engine.utopia.commands import Attack, Defend
from bot.engine.utopia.core import Tx
from bot.engine.utopia.defenses import (
    can_defend,
    defense_cost,
    defense_options,
    rolls_nothing,
    unable_reason,
)
from bot.engine.utopia.events import AttackRolled, DamageResolved
from bot.engine.utopia.grapple import cost_factor
from bot.engine.utopia.sheet import Weapon
from bot.engine.utopia.state import DOWN, VITAL_MIN, DamageDecision, UtopiaCombatant
from bot.engine.utopia.stealth import unaware
from bot.engine.utopia.tables import UtopiaTables
from bot.engine.utopia.terms import DamageType
from bot.errors import InvalidInput, RuleViolation


def dice_terms(expression: str) -> tuple[list[tuple[int, int, int]], int]:
    """A damage expression (already checked by :func:`bot.engine.utopia.terms.check_damage`)
    as ``([(sign, count, sides), …], constant)``, so its dice roll through the injected
    roller."""
    groups: list[tuple[int, int, int]] = []
    constant = 0
    stack: list[tuple[Any, int]] = [(d20.parse(expression), 1)]
    while stack:
        node, sign = stack.pop()
        kind = type(node).__name__
        if kind == "Dice":
            groups.append((sign, int(node.num), int(node.size)))
        elif kind == "Literal":
            constant += sign * int(node.value)
        elif kind == "BinOp":
            stack.append((node.left, sign))
            stack.append((node.right, -sign if node.op == "-" else sign))
        else:
            stack.extend((child, sign) for child in node.children)
    return groups, constant


def roll_damage(tx: Tx, purpose: str, expression: str, modifier: int, *, divisor: int = 1) -> Roll:
    """Roll ``expression`` + ``modifier`` (never below 0 in total); every die kept. A
    ``divisor`` above 1 divides what ``expression`` rolled (rounded down) before the modifier
    is added ("Multi-weapon Attacks": "Rolls made this way are reduced by half, rounded down.
    Modifiers, although, are still calculated as normal")."""
    groups, constant = dice_terms(expression)
    faces: list[int] = []
    rolled = constant
    sides = 0
    for sign, count, size in groups:
        got = tx.roller.roll(count, size) if count else []
        faces += got
        rolled += sign * sum(got)
        sides = sides or size
    total = max(0, rolled) // divisor + modifier if divisor > 1 else rolled + modifier
    shown = f"({expression}) / {divisor}" if divisor > 1 else expression
    return Roll(
        purpose=purpose,
        formula=f"{shown}{_signed(modifier)}",
        sides=sides or 1,
        base_dice=len(faces),
        dice=tuple(faces),
        modifier=total - sum(faces),
        total=max(0, total),
    )


def _signed(n: int) -> str:
    return f" {'+' if n >= 0 else '-'} {abs(n)}" if n else ""


def attack(tx: Tx, cmd: Attack) -> None:
    """ "Attack" (and "Ranged Weapons", "Aim", "Interchanging Actions")."""
    a, t = parties(tx, cmd.actor, cmd.target)
    weapon = _weapon(a, cmd.weapon)
    meters = cmd.range_m if cmd.range_m is not None else tx.state.positions.distance(a.id, t.id)
    reach = _reach(tx, a, t, weapon, meters)
    ta = (weapon.ta_cost if weapon else tx.tables.weaponless.ta) * cost_factor(tx, a, t.id)
    source = weapon.name if weapon else "a weaponless attack"
    begin_attack(tx, a, t, ta, [weapon] if weapon else [], f"attack {t.name} with {source}")
    strike(tx, a.id, t.id, weapon, Strike(meters=meters, favor=reach[0], disfavor=reach[1]))


def parties(tx: Tx, actor: str, target: str) -> tuple[UtopiaCombatant, UtopiaCombatant]:
    """The attacker (who may act now) and its target (another creature, in the fight)."""
    a = tx.view(actor)
    t = tx.view(target)
    tx.require_can_act_now(a)
    if a.id == t.id:
        raise InvalidInput(f"{names.escaped(a.name)} cannot attack themselves.")
    if tx.is_out(t):
        raise RuleViolation(f"{names.escaped(t.name)} is already out of the fight.")
    return a, t


def begin_attack(
    tx: Tx, a: UtopiaCombatant, t: UtopiaCombatant, ta: int, weapons: list[Weapon], reason: str
) -> None:
    """Pay ``ta`` for an attack with ``weapons`` (drawn for free when sheathed, "Sheath or
    Unsheath a Weapon"); an Aim is spent; paid with interrupt actions off turn, the attacker
    cannot defend until the next creature's turn ("Interchanging Actions")."""
    off_turn = tx.timing(a.id) == "off_turn"
    tx.pay(a.id, Cost(kind="turn", amount=ta), reason)
    m = tx.c(a.id)
    for weapon in weapons:
        if weapon.name in m.sheathed:
            # "a creature may unsheathe a weapon without using turn actions if it's directly
            # followed by an attack using the given weapon" ("Sheath or Unsheath a Weapon")
            m.sheathed = tuple(n for n in m.sheathed if n != weapon.name)
            tx.note(f"{a.name} draws {weapon.name} as they attack (free).", a.id)
    m.aim = 0  # spent by a ranged attack, lost by any other action ("Aim")
    if off_turn:
        m.open_guard = True
        tx.note(
            f"{a.name} spent interrupt actions on an attack: they cannot defend until the "
            "next creature's turn.",
            a.id,
        )


@dataclass(frozen=True)
class Strike:
    """One weapon's blow of an attack: ``meters`` to the target (None: unknown), the
    ``favor``/``disfavor`` of its ranged test, its place ``index`` of ``total`` weapons, the
    ``divisor`` of its rolls ("Multi-weapon Attacks": "reduced by half"), and ``unseen``: the
    target had not noticed the attacker when the attack began (an earlier blow of the same
    attack already gave the attacker away, "Multi-weapon Attacks": "simultaneously")."""

    meters: float | None
    favor: int = 0
    disfavor: int = 0
    index: int = 1
    total: int = 1
    divisor: int = 1
    unseen: bool = False


def ranged_difficulty(meters: float | None, version: int) -> int:
    """ "you must make a Dexterity test against the number of meters away the target is": the
    total must reach the meters, so a distance between whole meters is rounded up (12.5 m
    needs 13; rules version 6). Versions 1 to 5 rounded it down — a total of 12 hit at
    12.5 m — and still do."""
    m = meters or 0.0
    return math.ceil(m) if Tx.reads_at(version, "ranged_meters_rounded_up") else int(m)


def strike(tx: Tx, aid: str, tid: str, weapon: Weapon | None, s: Strike) -> None:
    """One source of damage: a ranged weapon's test, the damage roll, the target's defense
    subtracted, then the decision on its Block or Dodge (or the damage at once)."""
    a, t = tx.view(aid), tx.view(tid)
    source = weapon.name if weapon else "a weaponless attack"
    ranged = weapon is not None and weapon.kind == "ranged"
    tx.emit(
        AttackDeclared(
            combatant=a.id,
            target=t.id,
            attack=source,
            hit_index=s.index,
            hits_total=s.total,
            awaiting="nobody",
            text=f"{a.name} attacks {t.name} with {source}.",
        )
    )
    # "an instance it is aware of" ("Block", "Dodge"): the first blow gives the attacker away
    surprised = unaware(tx, a, t) or s.unseen
    test: Roll | None = None
    difficulty = None
    shown = ""
    if ranged:
        difficulty = ranged_difficulty(s.meters, tx.version)
        # what the test is against: the distance itself (version 6: 12.5 m, not 12 m)
        shown = tx.scale.show(
            (s.meters or 0.0) if tx.reads("ranged_meters_rounded_up") else difficulty
        )
        test = tx.test(
            a,
            tx.tables.ranged.test,
            f"{a.name}'s {tx.tables.ranged.test.title()} test",
            favor=s.favor,
            disfavor=s.disfavor,
        )
        if test.total < difficulty:
            tx.emit(
                AttackRolled(
                    combatant=a.id,
                    target=t.id,
                    source=source,
                    test=test,
                    difficulty=difficulty,
                    hit=False,
                    text=f"{a.name} attacks {t.name} with {source}: {test.text} against "
                    f"{shown} — a miss.",
                )
            )
            return
    rules = tx.tables.weaponless
    expression = weapon.damage if weapon else rules.damage
    mod_name = weapon.damage_modifier if weapon else rules.modifier
    modifier = tx.modifier(a, mod_name) if mod_name else 0
    damage_type: DamageType = weapon.damage_type if weapon else rules.damage_type
    # "Longbow damage", "weaponless damage" (not "a weaponless attack damage")
    purpose = f"{weapon.name} damage" if weapon else "weaponless damage"
    damage = roll_damage(tx, purpose, expression, modifier, divisor=s.divisor)
    after = max(0, damage.total - defense(tx, t, damage_type))
    tested = f"{test.text} against {shown} — a hit; " if test else ""
    tx.emit(
        AttackRolled(
            combatant=a.id,
            target=t.id,
            source=source,
            test=test,
            difficulty=difficulty,
            hit=True,
            damage=damage,
            damage_type=damage_type,
            after_defense=after,
            text=f"{a.name} attacks {t.name} with {source}: {tested}{damage.text} "
            f"{damage_type}, {after} after {t.name}'s defenses.",
        )
    )
    decision = DamageDecision(
        attacker=a.id,
        target=t.id,
        source=source,
        damage_type=damage_type,
        rolled=damage.total,
        damage=after,
        ignores_shp=bool(weapon and weapon.ignores_shp),
    )
    open_or_settle(tx, decision, surprised=surprised)


def open_or_settle(tx: Tx, decision: DamageDecision, *, surprised: bool = False) -> None:
    """Damage waits for its target's defense when there is damage and a defense it can take;
    otherwise it is taken at once, and — no empty choice — the log says why it could not
    defend (it attacked with interrupt actions, or what a Block needs and what it has).
    ``surprised``: the target had not noticed the attacker ("Block", "Dodge": damage "from an
    instance it is aware of"; Stealth), so no defense is offered (the Stealth reveal says so)."""
    t = tx.view(decision.target)
    if decision.damage > 0 and not surprised and can_defend(tx, t, decision.attacker):
        tx.open_decision(decision)
    elif decision.damage > 0 and not surprised and not tx.is_out(t):
        why = unable_reason(tx, t, decision.attacker)
        settle(tx, decision, "open_guard" if t.open_guard else "unable", None, why=why)
    else:
        settle(tx, decision, "unable" if surprised else "none", None)


def _reach(
    tx: Tx, a: UtopiaCombatant, t: UtopiaCombatant, weapon: Weapon | None, meters: float | None
) -> tuple[int, int]:
    """``(favor, disfavor)`` of the attack at ``meters`` ("Ranged Weapons": favor within close
    range, disfavor within far range, impossible beyond; "Aim": its favor); a melee attack
    needs the target within reach. Raises :class:`InvalidInput` for a ranged attack with no
    distance, :class:`RuleViolation` out of range."""
    if weapon is None or weapon.kind != "ranged":
        reach = weapon.reach_m if weapon else 1.0
        if meters is not None and meters > reach and not tx.state.positions.are_engaged(a.id, t.id):
            raise RuleViolation(
                f"{names.escaped(t.name)} is {tx.scale.show(meters)} away, out of reach "
                f"({tx.scale.show(reach)})."
            )
        return 0, 0
    close, far = weapon.close_m or 0.0, weapon.far_m or 0.0
    if meters is None:
        raise InvalidInput(
            f"A ranged attack needs the distance to {names.escaped(t.name)}: give `amount:` in "
            f"{tx.scale.word} with `/act action:attack` ({names.escaped(weapon.name)}: close "
            f"{tx.scale.show(close)}, far {tx.scale.show(far)}), or the GM places you with "
            "`/gm place distance`."
        )
    if meters > far:
        raise RuleViolation(
            f"{names.escaped(t.name)} is {tx.scale.show(meters)} away, beyond "
            f"{names.escaped(weapon.name)}'s far range "
            f"({tx.scale.show(far)}): the attack is impossible."
        )
    if meters <= close:
        return tx.tables.ranged.close_favor + a.aim, 0
    return a.aim, tx.tables.ranged.far_disfavor


def _weapon(a: UtopiaCombatant, name: str | None) -> Weapon | None:
    return weapon_named(a, name)


def weapon_named(a: UtopiaCombatant, name: str | None) -> Weapon | None:
    """``a``'s weapon called ``name`` (None, ``weaponless``, ``unarmed``, ``fist(s)``: a
    weaponless attack). Raises :class:`InvalidInput` naming the weapons it has."""
    if name is None or name.casefold() in ("weaponless", "unarmed", "fist", "fists"):
        return None
    found = a.sheet.weapon(name)
    if found is None:
        known = ", ".join(names.escaped(w.name) for w in a.sheet.weapons) or "none"
        raise InvalidInput(
            f"{names.escaped(a.name)} has no weapon called {names.quoted(name)} (weapons: "
            f"{known}; or attack weaponless)."
        )
    return found


def defense(tx: Tx, t: UtopiaCombatant, damage_type: DamageType) -> int:
    """The target's defense against ``damage_type`` (innate + the sheet's + the armor it wears
    now, "Equipment Actions");
    Kinetic damage "ignores armor" (the bot's reading: worn armor adds nothing)."""
    return defense_against(tx.tables, t, damage_type)


def defense_against(tables: UtopiaTables, t: UtopiaCombatant, damage_type: DamageType) -> int:
    """:func:`defense` from the tables alone (``/odds`` reads it without a transaction)."""
    if damage_type == "kinetic":
        return tables.innate_defense.get("kinetic", 0) + t.sheet.defenses.get("kinetic", 0)
    return t.sheet.defense(damage_type, tables, t.wears())


def defend(tx: Tx, cmd: Defend) -> None:
    """The target's answer to the damage it faces ("Block", "Dodge", "Take Cover")."""
    p: DamageDecision = tx.open_decision_named(cmd.decision)
    if cmd.choice == "none":
        _require_target(tx, p, cmd.actor)
        settle(tx, p, "none", None)
        return
    pay_defense(tx, p, cmd)
    if cmd.choice == "cover":
        tx.c(p.target).cover = True
        tx.note(
            f"{tx.view(p.target).name} takes cover behind an obstacle: Block and Dodge Ratings "
            "doubled for the rest of the turn.",
            p.target,
        )
        t = tx.view(p.target)
        if not defense_options(tx, t, covered=True, against=p.attacker):
            # Cover paid with its last action: no Block or Dodge left to offer.
            settle(tx, p, "unable", None, why=unable_reason(tx, t, p.attacker))
            return
        tx.settle_decision(p.id)
        tx.open_decision(p.model_copy(update={"id": 0, "covered": True}))
        return
    roll_defense(tx, p, cmd.choice, None)


def _require_target(tx: Tx, p: DamageDecision, actor: str) -> UtopiaCombatant:
    t = tx.view(actor)
    if t.id != p.target:
        raise RuleViolation(
            f"Only {names.escaped(tx.view(p.target).name)} defends against "
            f"{names.escaped(p.source)}."
        )
    return t


def pay_defense(tx: Tx, p: DamageDecision, cmd: Defend) -> None:
    """``cmd.actor`` — ``p``'s target — pays for the Block, Dodge or Take Cover it chose
    (any paid action ends an Aim). Raises :class:`RuleViolation` for anyone else, or a defense
    it cannot take or afford now."""
    t = _require_target(tx, p, cmd.actor)
    if cmd.choice not in defense_options(tx, t, covered=p.covered, against=p.attacker):
        if rolls_nothing(tx, t, cmd.choice, p.attacker):
            noun = "Block" if cmd.choice == "block" else "Dodge"
            raise RuleViolation(
                f"{names.escaped(t.name)}'s {noun} Rating is 0 and no ally within "
                f"{tx.scale.show(tx.tables.assist.within_m)} can Assist: a {noun} would roll "
                "no dice."
            )
        raise RuleViolation(f"{names.escaped(t.name)} cannot {_VERB[cmd.choice]} now.")
    tx.pay(t.id, defense_cost(tx, t, cmd.choice, p.attacker), _VERB[cmd.choice])
    tx.c(t.id).aim = 0


def roll_defense(
    tx: Tx, p: DamageDecision, choice: str, assist: tuple[str, int, int] | None
) -> None:
    """Roll ``p``'s target's Block or Dodge (doubled in cover), then the dice allies added
    (``assist``: who, how many, their sides — "Assist"), and settle the damage with the
    total."""
    t = tx.view(p.target)
    rating = t.sheet.block_dice if choice == "block" else t.sheet.dodge_dice
    count, sides = rating(tx.tables, cover=t.cover)
    name = "Block" if choice == "block" else "Dodge"
    roll = tx.roll(f"{t.name}'s {name}", count, sides=sides)
    dice = [DiceGroup(count=count, sides=sides, label=name)]
    if assist is not None:
        who, extra, die = assist
        dice.append(DiceGroup(count=extra, sides=die, label="Assist"))
        added = tx.roll(f"Assist from {who}", extra, sides=die)
        roll = roll.model_copy(
            update={
                "purpose": f"{roll.purpose} (+ {added.text})",
                "modifier": roll.modifier + added.total,
                "total": roll.total + added.total,
            }
        )
    settle(tx, p, "block" if choice == "block" else "dodge", roll, dice=tuple(dice))


Choice = Literal["block", "dodge", "none", "open_guard", "unable"]
_VERB = {"block": "block", "dodge": "dodge", "cover": "take cover"}


def lapse(tx: Tx, decision: int | None) -> None:
    p = tx.open_decision_named(decision)
    settle(tx, p, "none", None)


def settle(
    tx: Tx,
    p: DamageDecision,
    choice: Choice,
    roll: Roll | None,
    *,
    why: str = "",
    dice: tuple[DiceGroup, ...] = (),
) -> None:
    """Apply ``p``'s damage after the defense ``roll``: a Block reduces it by the roll, a
    Dodge of at least the damage negates it; then into the pool its type damages. ``why``:
    why it could not defend (``open_guard``, ``unable``), said in the log. ``dice``: what the
    defense rolled (its Rating's dice, then Assists'), for the odds on the result."""
    if p.id:
        tx.settle_decision(p.id)
    t = tx.view(p.target)
    damage = p.damage
    if choice == "block" and roll is not None:
        damage = max(0, damage - roll.total)
    elif choice == "dodge" and roll is not None and roll.total >= damage:
        damage = 0
    pool = take_damage(tx, t.id, damage, p.damage_type, ignores_shp=p.ignores_shp)
    m = tx.view(t.id)
    did = {
        "block": f"{t.name} blocks ({roll.text if roll else ''})",
        "dodge": f"{t.name} dodges ({roll.text if roll else ''})",
        "none": f"{t.name} does not defend",
        "open_guard": f"{t.name} cannot defend ({why or 'attacked with interrupt actions'})",
        "unable": f"{t.name} cannot defend" + (f" ({why})" if why else ""),
    }[choice]
    tx.emit(
        DamageResolved(
            combatant=t.id,
            source=p.source,
            attacker=p.attacker,
            defense_dice=dice,
            choice=choice,
            roll=roll,
            damage=p.damage,
            taken=damage,
            pool=pool,
            shp=m.shp,
            dhp=m.dhp,
            stamina=m.stamina,
            text=f"{did}: {_taken(tx, damage, p, pool)}; "
            f"SHP {m.shp}, DHP {m.dhp}, Stamina {m.stamina}.",
        )
    )
    tx.check_end()


def _taken(tx: Tx, damage: int, p: DamageDecision, pool: str) -> str:
    """What the target took of ``p``'s damage, in words: "takes 3 of 5 from Crossbow (SHP)";
    nothing got past their defenses at all — no "takes 0 of 0" — "takes no damage from
    Crossbow (their defenses stop it)" ("its" before rules version 8)."""
    if p.damage == 0:
        return f"takes no damage from {p.source} ({tx.of_them('its', 'their')} defenses stop it)"
    return f"takes {damage} of {p.damage} from {p.source} ({pool.upper()})"


def take_damage(
    tx: Tx, cid: str, amount: int, damage_type: DamageType, *, ignores_shp: bool = False
) -> str:
    """``amount`` of ``damage_type`` into ``cid``'s pools: SHP first, the rest spilling into
    DHP (which may go negative, to :data:`~bot.engine.utopia.state.VITAL_MIN`); Kinetic
    damage — and a weapon that ignores SHP — straight to DHP; Stamina damage to Stamina (never
    below 0). DHP at 0 or below: Down (the bot's default). Returns the pool hit first."""
    pool = tx.tables.damage_pool[damage_type]
    if pool == "shp" and ignores_shp:
        pool = "dhp"
    if amount <= 0:
        return pool
    m = tx.c(cid)
    if pool == "stamina":
        m.stamina = max(0, m.stamina - amount)
        return pool
    if pool == "shp":
        spill = max(0, amount - m.shp)
        m.shp = max(0, m.shp - amount)
        m.dhp = max(VITAL_MIN, m.dhp - spill)
    else:
        m.dhp = max(VITAL_MIN, m.dhp - amount)
    if m.dhp <= 0 and not m.has(DOWN):
        tx.gain(cid, DOWN, tx.of_them("its", "their") + " DHP fell to 0 or below", f"DHP {m.dhp}")
    return pool
