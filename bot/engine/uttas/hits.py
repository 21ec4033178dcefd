"""UTTAS: resolving one hit, rule by rule — "Accuracy Checks" with the Advantages and
Disadvantages that "Advantage and Disadvantage", "Range Modifiers", the stances and the
"Conditions" put on them, then "Damage" and the conditions damage causes ("Dead",
"Unconscious", "Stunned", "Grappled", "Disabled Limb"). :mod:`bot.engine.uttas.attacks` decides
when a hit is resolved; this module says how.

A hit is rolled first (:func:`roll_hit`, which changes nothing, so hits that land at the same
instant all see the same state) and applied afterwards (:func:`apply_hit`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from bot.engine.core.built import built
from bot.engine.core.dice import Roll
from bot.engine.core.scale import Scale
from bot.engine.uttas import limbs, power_effects, rules
from bot.engine.uttas.core import Tx
from bot.engine.uttas.events import AttackResolved
from bot.engine.uttas.rules import AttackProfile
from bot.engine.uttas.sheet import Target
from bot.engine.uttas.state import (
    DISABLED,
    GRAPPLED,
    GRAPPLING,
    PRONE,
    STAGGERED,
    STUNNED,
    SURRENDERED,
    Combatant,
    DisabledLimb,
    PendingAttack,
)
from bot.engine.uttas.tables import Stance, UttasTables
from bot.words import counted, sentence


@dataclass(frozen=True, slots=True)
class Defence:
    """Bonuses a Defend reaction adds against one attack."""

    label: str
    dodge: int = 0
    discipline: int = 0
    armor: int = 0
    defense: int = 0


NO_DEFENCE = Defence("none")


@dataclass(slots=True)
class Hit:
    """One hit rolled by :func:`roll_hit`, waiting for :func:`apply_hit`."""

    attacker: str
    target: str
    profile: AttackProfile
    event: AttackResolved
    damage_roll: Roll | None


# -- Accuracy: Advantage and Disadvantage ---------------------------------------------------------


class _Odds:
    """The Advantages and Disadvantages of one Accuracy roll: how many dice each adds or takes
    off, and the reasons, in the order the rules below find them (the event shows them)."""

    __slots__ = ("advantages", "disadvantages", "n_adv", "n_dis")

    def __init__(self, p: PendingAttack) -> None:
        """UTTAS "Advantage and Disadvantage": they start with the Game Master's award, case by
        case (the attack's ``advantage``/``disadvantage``); each adds or takes off 1d6."""
        self.advantages = [f"Game Master x{p.advantage}"] * (p.advantage > 0)
        self.disadvantages = [f"Game Master x{p.disadvantage}"] * (p.disadvantage > 0)
        self.n_adv = p.advantage
        self.n_dis = p.disadvantage


def _stance_odds(
    odds: _Odds, a: Combatant, a_st: Stance | None, t: Combatant, t_st: Stance | None
) -> None:
    """Stances (UTTAS "Combat", "Enter a Stance"; the text gives them no effects, so their
    numbers come from ``data/uttas/tables.json``): the attacker's stance on its own Accuracy
    roll, then the target's on rolls made against it (``t_st`` is ``None`` when the target gets
    no defence, as in "Take one for the team")."""
    if a_st and a_st.accuracy_advantage:
        odds.advantages.append(f"{a.name}'s {a.stance} stance")
        odds.n_adv += a_st.accuracy_advantage
    if a_st and a_st.accuracy_disadvantage:
        odds.disadvantages.append(f"{a.name}'s {a.stance} stance")
        odds.n_dis += a_st.accuracy_disadvantage
    if t_st and t_st.grants_advantage:
        odds.advantages.append(f"{t.name}'s {t.stance} stance")
        odds.n_adv += t_st.grants_advantage
    if t_st and t_st.grants_disadvantage:
        odds.disadvantages.append(f"{t.name}'s {t.stance} stance")
        odds.n_dis += t_st.grants_disadvantage


def _condition_odds(odds: _Odds, t: Combatant, p: PendingAttack, tables: UttasTables) -> None:
    """UTTAS "Conditions": a Staggered or Stunned target, and both creatures in a grapple
    ("Grappled"), grant an Advantage against them; the table's extra conditions (e.g. Entangled)
    what the table says; a Prone target an Advantage to an adjacent attacker and a Disadvantage
    to one more than 8 m away (``tables.prone``)."""
    if not t.effects:  # the common case, on the hot path: no condition at all
        return
    for cond in (STAGGERED, STUNNED, GRAPPLED, GRAPPLING):
        if t.has(cond):
            odds.advantages.append(f"{t.name} is {cond}")
            odds.n_adv += 1
    for name, extra in tables.extra_conditions.items():
        if extra.grants_advantage and t.has(name):
            odds.advantages.append(f"{t.name} is {name}")
            odds.n_adv += extra.grants_advantage
    if t.has(PRONE) and p.range_m <= tables.prone.adjacent_m:
        odds.advantages.append(f"{t.name} is Prone and adjacent")
        odds.n_adv += 1
    elif t.has(PRONE) and p.range_m > tables.prone.far_m:
        far = tables.range.scale.show(tables.prone.far_m)
        odds.disadvantages.append(f"{t.name} is Prone, more than {far} away")
        odds.n_dis += 1


def _limb_odds(odds: _Odds, a: Combatant, p: PendingAttack, tables: UttasTables) -> None:
    """UTTAS "Conditions", Disabled Limb: an attacker whose head is disabled has a Disadvantage
    on all Accuracy rolls; an attack aimed at a limb ("a sufficiently strong attack to one of
    the character's limbs") takes the table's Disadvantage (``called_shot``)."""
    if a.disabled_limbs and limbs.head_disabled(a):
        odds.disadvantages.append(f"{a.name}'s head is disabled")
        odds.n_dis += 1
    if p.aimed_limb:
        odds.disadvantages.append(f"aimed at the {p.aimed_limb}")
        odds.n_dis += tables.called_shot.disadvantage


def _range_odds(odds: _Odds, profile: AttackProfile, p: PendingAttack, tables: UttasTables) -> int:
    """UTTAS "Range Modifiers": a ranged attack one increment beyond its normal range takes a
    Disadvantage, two take 2d6 off; returns how many increments beyond it is (0 for melee; at
    ``tables.range.auto_fail_at`` the attack fails, see :func:`_accuracy_check`)."""
    if profile.kind == "melee":
        return 0
    beyond = rules.increments_beyond(p.range_m, profile.range_m, tables)
    if 0 < beyond < tables.range.auto_fail_at:
        normal = tables.range.scale.show(profile.range_m)
        odds.disadvantages.append(f"{counted(beyond, 'range increment')} beyond {normal}")
        odds.n_dis += beyond * tables.range.disadvantage_per_increment
    return beyond


# -- Accuracy: the roll against Dodge or Discipline -----------------------------------------------


def _target_number(
    t: Combatant, stat: Target, t_st: Stance | None, defence: Defence, tables: UttasTables
) -> int:
    """UTTAS "Accuracy Checks": the opponent's Dodge or Discipline, whichever the attack
    targets, with the target's stance bonus and a Defend reaction's ("Perform a Reaction
    command")."""
    st_bonus = 0
    if t_st:
        st_bonus = t_st.dodge_bonus if stat == "dodge" else t_st.discipline_bonus
    return (
        rules.derived_defence(t, stat, tables)
        + st_bonus
        + (defence.dodge if stat == "dodge" else defence.discipline)
    )


def _accuracy_check(
    tx: Tx,
    a: Combatant,
    t: Combatant,
    profile: AttackProfile,
    odds: _Odds,
    tn: int,
    beyond: int,
    *,
    auto_hit: bool,
) -> tuple[Literal["hit", "miss"] | None, bool, Roll | None]:
    """UTTAS "Accuracy Checks": ``[key characteristic + Dexterity] / 2 + 3d6`` (± Advantage
    dice) must beat ``tn`` strictly. Automatic: a hit on a target that surrendered ("Surrender")
    or took the hit for an ally (``auto_hit``, "Take one for the team"); a miss three range
    increments out ("Range Modifiers"). Returns ``(auto, hit, accuracy roll or None)``."""
    if t.has(SURRENDERED) or auto_hit:
        return "hit", True, None
    if beyond >= tx.tables.range.auto_fail_at:
        return "miss", False, None
    accuracy = tx.roll(
        f"{a.name}'s Accuracy ({profile.name})",
        3,
        advantage=odds.n_adv,
        disadvantage=odds.n_dis,
        modifier=rules.accuracy_bonus(a, profile.key),
    )
    return None, rules.hits(accuracy.total, tn), accuracy


# -- Damage ---------------------------------------------------------------------------------------


_Damage = tuple[Roll | None, int, int, int, int]
"""A hit's damage: ``(roll, Armor, Defense, Health damage, Stamina damage)``."""

_MISSED: _Damage = (None, 0, 0, 0, 0)


def armor_and_defense(
    t: Combatant, profile: AttackProfile, defence: Defence, t_st: Stance | None
) -> tuple[int, int]:
    """UTTAS "Damage": the target's ``(Armor, Defense)`` against the attack's damage type, plus
    its stance's and a Defend reaction's bonuses, never below 0."""
    armor = t.sheet.armor.get(profile.damage_type, 0) + defence.armor
    defense = t.sheet.defense.get(profile.damage_type, 0) + defence.defense
    if t_st:
        armor += t_st.armor_bonus
        defense += t_st.defense_bonus
    return max(0, armor), max(0, defense)


def _damage(
    tx: Tx, t: Combatant, profile: AttackProfile, defence: Defence, t_st: Stance | None
) -> _Damage:
    """UTTAS "Damage": roll the damage dice; Health takes one point per die less Armor, Stamina
    the rolled total less Defense (:func:`armor_and_defense`)."""
    dmg = tx.roll(f"{profile.name} damage ({profile.damage_type})", profile.dice)
    armor, defense = armor_and_defense(t, profile, defence, t_st)
    return (
        dmg,
        armor,
        defense,
        rules.health_damage(profile.dice, armor),
        rules.stamina_damage(dmg.total, defense),
    )


def _narrate(
    a: Combatant,
    t: Combatant,
    profile: AttackProfile,
    p: PendingAttack,
    auto: str | None,
    hit: bool,
    accuracy: Roll | None,
    stat_name: str,
    tn: int,
    damage: _Damage,
    scale: Scale,
) -> str:
    """The hit in one sentence: out of reach (its distance as ``scale`` shows it), a miss, or a
    hit with its damage."""
    if auto == "miss":
        far = scale.show(p.range_m)
        return f"{a.name}'s {profile.name} cannot reach {t.name} ({far}): it fails."
    total = accuracy.total if accuracy else 0
    if not hit:
        return (
            f"{a.name}'s {profile.name} misses {t.name}: Accuracy {total} does not beat "
            f"{stat_name} {tn}."
        )
    how = (
        f"hits {t.name} automatically"
        if auto
        else f"hits {t.name}: Accuracy {total} beats {stat_name} {tn}"
    )
    _, armor, defense, health, stamina = damage
    return (
        f"{a.name}'s {profile.name} {how} for {health} Health and {stamina} Stamina damage"
        f" (Armor {armor}, Defense {defense})."
    )


def accuracy_odds(
    a: Combatant,
    t: Combatant,
    profile: AttackProfile,
    p: PendingAttack,
    defence: Defence,
    tables: UttasTables,
    *,
    no_defence: bool = False,
) -> tuple[_Odds, int, int]:
    """Everything an Accuracy roll of ``a`` against ``t`` is made with, before it is rolled
    (UTTAS "Accuracy Checks", rule by rule as :func:`roll_hit` applies them): the Advantages
    and Disadvantages (``.n_adv``, ``.n_dis`` and their reasons), how many range increments
    beyond its range the attack is, and the Dodge or Discipline it must beat. Changes nothing;
    :mod:`bot.engine.uttas.plausibility` reads the same numbers to compute exact odds."""
    a_st = tables.stances.get(a.stance or "")
    t_st = tables.stances.get(t.stance or "") if not no_defence else None
    odds = _Odds(p)
    _stance_odds(odds, a, a_st, t, t_st)
    _condition_odds(odds, t, p, tables)
    _limb_odds(odds, a, p, tables)
    beyond = _range_odds(odds, profile, p, tables)
    return odds, beyond, _target_number(t, profile.targets, t_st, defence, tables)


def roll_hit(
    tx: Tx,
    attacker_id: str,
    target_id: str,
    profile: AttackProfile,
    p: PendingAttack,
    defence: Defence,
    *,
    auto_hit: bool,
    no_defence: bool,
) -> Hit:
    """Roll one hit without changing anything (so simultaneous hits see the same state) but
    the roller's next-roll GM dice, which it uses up: the Accuracy roll with every Advantage
    and Disadvantage, rule by rule, against the target's Dodge or Discipline, then, on a hit,
    the damage (UTTAS "Accuracy Checks", "Damage"). ``defence`` is the target's Defend
    reaction (:data:`NO_DEFENCE` for none); ``no_defence`` drops the target's stance too and
    ``auto_hit`` makes it hit ("Take one for the team").

    Rules version 4: the Game Master's dice (``/gm advantage``) on the roller join this very
    roll (:meth:`~bot.engine.uttas.core.Tx.gm_dice`) — so a flurry's next-roll dice go to its
    first hit alone, and a counterattack or a coordinated ally rolls with its own; before, they
    joined the ``/attack`` command (:func:`bot.engine.uttas.gm.with_gm_dice`), every hit of it."""
    tables = tx.tables
    a, t = tx.view(attacker_id), tx.view(target_id)
    if not (auto_hit or t.has(SURRENDERED)):  # an Accuracy roll is made: the GM's dice join it
        more, fewer = tx.gm_dice(attacker_id)
        if more or fewer:
            p = p.model_copy(
                update={"advantage": p.advantage + more, "disadvantage": p.disadvantage + fewer}
            )
    t_st = tables.stances.get(t.stance or "") if not no_defence else None
    odds, beyond, tn = accuracy_odds(a, t, profile, p, defence, tables, no_defence=no_defence)
    stat = profile.targets
    auto, hit, accuracy = _accuracy_check(tx, a, t, profile, odds, tn, beyond, auto_hit=auto_hit)
    damage = _damage(tx, t, profile, defence, t_st) if hit else _MISSED
    roll, armor, defense, h_dmg, s_dmg = damage
    stat_name = "Dodge" if stat == "dodge" else "Discipline"
    event = built(  # the engine's own values: not validated again (bot.engine.core.built)
        AttackResolved,
        combatant=a.id,
        attacker=a.id,
        target=t.id,
        attack=profile.name,
        hit_index=p.hit_index,
        target_stat=stat_name,
        target_number=tn,
        accuracy=accuracy,
        advantages=tuple(odds.advantages),
        disadvantages=tuple(odds.disadvantages),
        auto=auto,
        hit=hit,
        damage=roll,
        damage_type=profile.damage_type,
        reaction="" if defence is NO_DEFENCE else defence.label,
        armor=armor,
        defense=defense,
        health_damage=h_dmg,
        stamina_damage=s_dmg,
        text=_narrate(a, t, profile, p, auto, hit, accuracy, stat_name, tn, damage, tx.scale),
    )
    return Hit(a.id, t.id, profile, event, roll)


# -- What damage does -----------------------------------------------------------------------------


def apply_hit(tx: Tx, hit: Hit, p: PendingAttack) -> None:
    """UTTAS "Damage" and the conditions it causes: Health and Stamina go down by the hit's
    damage; then "Dead", else "Unconscious" or "Stunned", a grapple taking hold, the conditions
    the attack inflicts and a called shot's "Disabled Limb"."""
    e = hit.event
    if not e.hit:
        tx.emit(e)
        return
    t = tx.c(hit.target)
    before = t.health
    # ``t`` is this command's clone and ``e`` the event roll_hit built for this hit alone, not
    # yet emitted: both are written in place, without pydantic's per-assignment cost or a copy
    # of the event (issue 15, "CPU diet").
    health, stamina = t.health - e.health_damage, t.stamina - e.stamina_damage
    t.__dict__.update(
        health=health, stamina=stamina, stamina_damage=t.stamina_damage + e.stamina_damage
    )
    e.__dict__.update(health_left=health, stamina_left=stamina)
    e.__pydantic_fields_set__.update(("health_left", "stamina_left"))
    tx.emit(e)
    if e.health_damage or e.stamina_damage:
        tx.interrupt_breather(t.id)
    if t.health <= 0:
        tx.kill(t.id, "Health ran out", f"Health reduced to {t.health}")
        return
    _out_of_stamina_or_stunned(tx, t, e)
    prof = hit.profile
    if prof.grapple and not tx.is_out(t) and hit.attacker == p.attacker:
        _grapple_takes_hold(tx, tx.c(hit.attacker), t, p)
    if prof.inflicts:
        _inflicted(tx, t, prof)
    if prof.drains is not None and not tx.is_out(t):
        power_effects.drained(tx, tx.view(hit.attacker), t, prof)
    if (
        p.aimed_limb
        and hit.attacker == p.attacker
        and (e.health_damage >= tx.tables.called_shot.min_health_damage)
    ):
        _called_shot_disables(tx, t, p.aimed_limb, prof, before)


def _out_of_stamina_or_stunned(tx: Tx, t: Combatant, e: AttackResolved) -> None:
    """UTTAS "Conditions": at 0 Stamina a creature falls "Unconscious"; Stamina damage greater
    than its Body leaves it "Stunned"."""
    if t.stamina <= 0:
        tx.knock_out(t.id, "Stamina ran out", f"Stamina reduced to {t.stamina}")
    elif e.stamina_damage > rules.effective(t, "body"):
        tx.gain(
            t.id,
            STUNNED,
            "a blow heavier than their Body",
            f"{e.stamina_damage} Stamina damage exceeds Body {rules.effective(t, 'body')}",
        )


def _grapple_takes_hold(tx: Tx, holder: Combatant, t: Combatant, p: PendingAttack) -> None:
    """UTTAS "Conditions", Grappled: the limbs the grapple names are held (effectively
    disabled); the target is Grappled, the holder Grappling."""
    holder.grappling, t.grappled_by = t.id, holder.id
    t.disabled_limbs += [DisabledLimb(limb=x, source="grapple") for x in p.limbs]
    tx.gain(t.id, GRAPPLED, f"held by {holder.name} ({', '.join(p.limbs)})")
    tx.gain(holder.id, GRAPPLING, f"holding {t.name}")
    tx.gain(t.id, DISABLED, "limbs held in a grapple")


def _inflicted(tx: Tx, t: Combatant, prof: AttackProfile) -> None:
    """The conditions an attack inflicts on a hit (a Trip's "Prone", a power's Entangled): only
    Prone and those the table defines (``extra_conditions``); any other is noted, not given."""
    for cond in prof.inflicts:
        extra = tx.tables.extra_conditions.get(cond)
        if extra is not None and extra.break_attempts:  # a binding, broken part by part
            tx.gain(t.id, cond, prof.name, level=extra.break_attempts)
        elif extra is not None or cond == PRONE:
            tx.gain(t.id, cond, prof.name)
        else:
            tx.note(
                f"{sentence(prof.name)} would inflict {cond!r}, which this table does not define."
            )


def _called_shot_disables(
    tx: Tx, t: Combatant, limb: str, prof: AttackProfile, health_before: int
) -> None:
    """UTTAS "Conditions", Disabled Limb: a called shot strong enough disables the limb until
    the Health damage of that hit is healed (``restore_at_health``)."""
    t.disabled_limbs.append(
        DisabledLimb(limb=limb, source="injury", restore_at_health=health_before)
    )
    tx.gain(t.id, DISABLED, f"{limb} disabled by {prof.name}")
