"""UTTAS's rules version 4 (``UttasRuleset.rules_version``, found by the rules audit audit17a):
a maintained attack power can be dropped, a disabled head holds back the target's roll of an
opposed check, a grapple holds one limb per working arm, the Game Master's dice join every
Accuracy and skill roll of their combatant. A fight started at version 3 or
before keeps the older reading, so its log replays as it was played."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.engine.core.commands import EndTurn
from bot.engine.uttas.commands import (
    Attack,
    BreakFree,
    ChangeStance,
    DropPower,
    FirstAid,
    GrantDice,
    GrappleContest,
    Move,
    React,
    Ready,
    ResolveReadied,
    SetCondition,
    SetVitals,
    Stand,
    UseSkill,
)
from bot.engine.uttas.ruleset import UttasRuleset
from bot.errors import NotFound, RuleViolation
from tests.engine.helpers import RULES, Fight

V3 = UttasRuleset(version=3)

HOLD = {
    "name": "Hold",
    "active_points": 20,
    "targets": "dodge",
    "inflicts": ["Entangled"],
    "maintained": True,
}
"""A maintained attack power: 20 Active Points, 4 Stamina, doubled to 8 and held."""


def test_versions_1_to_4_are_still_known() -> None:
    assert RULES.version == UttasRuleset.rules_version >= 4
    assert UttasRuleset.known_versions[:4] == (1, 2, 3, 4)


def _mage_attacks(rules: UttasRuleset) -> tuple[Fight, str, str]:
    """The Mage (first by Agility) attacks the Foe with Hold, who takes it: it misses."""
    f = Fight(rules)
    mage = f.add("Mage", agility=14, powers=[HOLD])
    foe = f.add("Foe", npc=True)
    f.begin()
    f.do(Attack(actor=mage, target=foe, attack="Hold"))
    f.do(React(actor=foe, choice="none"), dice=[1, 1, 1])
    return f, mage, foe


def test_an_attack_with_a_maintained_power_can_be_dropped_to_free_its_stamina() -> None:
    """ "Activating Powers": a maintained power's Stamina cannot be regained "for as long as they
    Maintain the Power" — and no longer: dropping it frees it. Versions 1–3 held it for good
    (no record of what held it, so nothing could be dropped)."""
    f, mage, _ = _mage_attacks(RULES)
    m = f.c(mage)
    assert (m.stamina, m.stamina_held) == (32, 8)
    assert [(mp.power, mp.stamina_held) for mp in m.maintained] == [("Hold", 8)]
    f.do(DropPower(actor=mage, power="Hold"))
    assert (f.c(mage).stamina_held, f.c(mage).maintained) == (0, [])

    old, mage, _ = _mage_attacks(V3)
    assert (old.c(mage).stamina_held, old.c(mage).maintained) == (8, [])
    with pytest.raises(NotFound, match="not maintaining"):
        old.do(DropPower(actor=mage, power="Hold"))


def test_a_maintained_attack_power_is_not_used_again_until_dropped() -> None:
    """As ``/power`` refuses a maintained power already maintained, so does ``/attack``:
    nothing is spent."""
    f, mage, foe = _mage_attacks(RULES)
    while f.state.turn != mage:
        f.do(_end_turn(f))
    before = f.state
    with pytest.raises(RuleViolation, match="already maintains Hold: stop maintaining it first"):
        f.do(Attack(actor=mage, target=foe, attack="Hold"))
    assert f.state is before
    f.do(DropPower(actor=mage, power="Hold"))
    f.do(Attack(actor=mage, target=foe, attack="Hold"))
    assert [mp.power for mp in f.c(mage).maintained] == ["Hold"]


def _end_turn(f: Fight) -> Any:
    return EndTurn(actor=f.state.turn)


def test_a_counterattack_with_a_maintained_triggered_power_is_recorded_too() -> None:
    """The same rule for every way a maintained power strikes: a triggered counter."""
    counter = {**HOLD, "name": "Snare", "triggered": True}
    f = Fight()
    foe = f.add("Foe", agility=14, npc=True)
    mage = f.add("Mage", powers=[counter])
    f.begin()
    f.do(Attack(actor=foe, target=mage, attack="Sword"))
    f.do(React(actor=mage, choice="counter", maneuver="Snare"))
    assert [(mp.power, mp.stamina_held) for mp in f.c(mage).maintained] == [("Snare", 8)]


def _opposed(rules: UttasRuleset) -> str:
    """A's Perception against B (not hidden), whose head is disabled: B rolls Stealth 2d6."""
    f = Fight(rules)
    a = f.add("A", agility=14, skills={"Perception": 3})
    b = f.add("B", npc=True, skills={"Stealth": 2})
    f.begin()
    f.do(SetCondition(target=b, condition="Disabled limb", limb="head"))
    return f.do(UseSkill(actor=a, skill="Perception", target=b), dice=None).text


def test_the_target_of_an_opposed_check_rolls_with_its_disabled_heads_disadvantage() -> None:
    """ "Head": "a Disadvantage on all Accuracy rolls and skill checks" — the target's roll in
    an opposed check is a skill check too. Version 3 rolled it whole."""
    assert "B's Stealth: 2d6 -1 disadv" in _opposed(RULES)
    assert "B's Stealth: 2d6 [" in _opposed(V3)


def _head_disabled_fight() -> tuple[Fight, str, str]:
    f = Fight()
    a = f.add(
        "A",
        agility=14,
        skills={"Perception": 3, "Stealth": 3, "First Aid": 3, "Acrobatics": 3, "Lore": 3},
        skill_turns={"Lore": 2},
    )
    b = f.add("B", npc=True, skills={"Stealth": 3, "Perception": 3})
    f.begin()
    f.do(SetCondition(target=a, condition="Disabled limb", limb="head"))
    f.do(SetCondition(target=b, condition="Disabled limb", limb="head"))
    return f, a, b


def _skill_check_texts(kind: str) -> str:
    """The text of one kind of skill check, both combatants' heads disabled."""
    f, a, b = _head_disabled_fight()
    if kind == "check":
        return f.do(UseSkill(actor=a, skill="Stealth", difficulty=5)).text
    if kind == "opposed":
        return f.do(UseSkill(actor=a, skill="Perception", target=b)).text
    if kind == "acrobatics":
        f.do(SetCondition(target=a, condition="Prone"))
        return f.do(Stand(actor=a, method="acrobatics")).text
    f.do(UseSkill(actor=a, skill="Lore", difficulty=5))  # a skill of two turns: begun…
    f.do(_end_turn(f))
    return f.log[-1].text  # …and completed as A's next turn starts


@pytest.mark.parametrize("kind", ["check", "opposed", "acrobatics", "long skill"])
def test_every_skill_check_rolls_with_a_disabled_heads_disadvantage(kind: str) -> None:
    """The class guard: each kind of skill check (a plain one, both sides of an opposed one,
    standing with Acrobatics, a skill of several turns) takes the disabled head's die off —
    they all roll through ``Tx.check_roll``."""
    text = _skill_check_texts(kind)
    pools = re.findall(r"\d+d6( -1 disadv)?", text)
    assert pools, text
    assert all(pools), text  # every pool rolled took the die off


def test_first_aid_rolls_with_a_disabled_heads_disadvantage() -> None:
    f, a, _ = _head_disabled_fight()
    f.do(SetVitals(target=a, health_change=-5))
    text = f.do(FirstAid(actor=a, target=a)).text
    assert "First Aid on A: 3d6 -1 disadv" in text, text


def _grapple(rules: UttasRuleset, disabled: tuple[str, ...], limbs: tuple[str, ...]) -> str:
    f = Fight(rules)
    a = f.add("A", agility=14)
    b = f.add("B", npc=True)
    f.begin()
    for arm in disabled:
        f.do(SetCondition(target=a, condition="Disabled limb", limb=arm))
    return f.do(Attack(actor=a, target=b, attack="Grapple", limbs=limbs)).text


def test_a_grapple_holds_one_limb_per_working_arm() -> None:
    """ "Grappled": one limb per arm ("Extra Limbs ... one additional limb per arm"); "Arms/
    Hands": a disabled arm "cannot be used for any actions". Version 3 counted every arm."""
    with pytest.raises(RuleViolation, match=r"at most 1 limb \(a disabled arm holds nothing\)"):
        _grapple(RULES, ("left arm",), ("left arm", "right arm"))
    assert "A attacks B with Grapple" in _grapple(RULES, ("left arm",), ("head",))
    with pytest.raises(RuleViolation, match="no working arm to grapple with"):
        _grapple(RULES, ("left arm", "right arm"), ("head",))
    assert "A attacks B with Grapple" in _grapple(V3, ("left arm",), ("left arm", "right arm"))
    assert "A attacks B with Grapple" in _grapple(V3, ("left arm", "right arm"), ("head",))


def _granted(rules: UttasRuleset, kind: str) -> list[Any]:
    """The Game Master gives the roller 2 Advantage dice on its next roll, then the roller makes
    one roll of ``kind`` that no ``/attack`` or ``/check`` of its own brings them to. Returns
    the rolls (and the GM's dice left on the roller last)."""
    f = Fight(rules)
    a = f.add("A", agility=14, skills={"Stealth": 2, "First Aid": 2, "Acrobatics": 2})
    d = f.add("D", agility=13, martial_arts=[{"name": "Riposte", "maneuver": "counter"}])
    b = f.add("B", npc=True, agility=12, skills={"Perception": 2})
    f.begin(dice=[])
    roller = {"opposed": a, "first aid": a, "acrobatics": a, "counter": d, "ally": d}[kind]
    f.do(GrantDice(target=roller, dice=2))
    if kind == "opposed":  # B seeks A, who is not hidden: A opposes with Stealth
        f.do(_end_turn(f))
        f.do(_end_turn(f))
        out = f.do(UseSkill(actor=b, skill="Perception", target=a))
    elif kind == "first aid":
        f.do(SetVitals(target=a, health_change=-5))
        out = f.do(FirstAid(actor=a, target=a))
    elif kind == "acrobatics":
        f.do(SetCondition(target=a, condition="Prone"))
        out = f.do(Stand(actor=a, method="acrobatics"))
    elif kind == "counter":
        f.do(_end_turn(f))
        f.do(_end_turn(f))
        f.do(Attack(actor=b, target=d, attack="Sword"))
        out = f.do(React(actor=d, choice="counter", maneuver="Riposte"))
    else:  # D's readied attack coordinated with A's
        f.do(_end_turn(f))
        f.do(Ready(actor=d, trigger="coordinated", watch=a, attack="Sword", target=b))
        f.do(_end_turn(f))
        f.do(Attack(actor=a, target=b, attack="Sword", with_readied=(d,)))
        out = f.do(React(actor=b, choice="none"))
    rolls = [r for e in out.events for r in _rolls_of(e, f.c(roller).name)]
    return [*rolls, f.c(roller).gm_next_roll]


def _rolls_of(event: Any, name: str) -> list[Any]:
    """The Accuracy or skill rolls in ``event`` made by ``name`` (not damage)."""
    found = []
    for field in ("roll", "opposing", "accuracy"):
        r = getattr(event, field, None)
        if r is not None and r.purpose.startswith(f"{name}'s") and "damage" not in r.purpose:
            found.append(r)
    return found


@pytest.mark.parametrize("kind", ["opposed", "first aid", "acrobatics", "counter", "ally"])
def test_the_gm_dice_join_every_roll_of_their_combatant(kind: str) -> None:
    """``/gm advantage`` gives dice on the combatant's "next Accuracy or skill roll" — also the
    rolls no command of its own brings them to: its side of an opposed check, First Aid,
    standing with Acrobatics, a counterattack, its coordinated attack. The next roll uses them
    up. Version 3 rolled those without them and kept the dice for later."""
    *rolls, left = _granted(RULES, kind)
    assert [r.advantage for r in rolls] == [2], rolls
    assert left == 0
    *rolls, left = _granted(V3, kind)
    assert all(r.advantage == 0 for r in rolls) and left == 2, rolls


def test_a_coordinated_ally_rolls_with_its_own_gm_dice_not_the_attackers() -> None:
    """The attacker's GM dice belong to its own Accuracy roll; version 3 gave them to the ally's
    roll too."""
    f = Fight()
    a = f.add("Ann", agility=14)
    d = f.add("Dan", agility=13)
    b = f.add("Bob", npc=True, agility=12)
    f.begin(dice=[])
    f.do(_end_turn(f))
    f.do(Ready(actor=d, trigger="coordinated", watch=a, attack="Sword", target=b))
    f.do(_end_turn(f))
    f.do(GrantDice(target=a, dice=2))
    f.do(Attack(actor=a, target=b, attack="Sword", with_readied=(d,)))
    out = f.do(React(actor=b, choice="none"))
    ann, dan = [e.accuracy for e in out.events if getattr(e, "accuracy", None) is not None]
    assert (ann.advantage, dan.advantage) == (2, 0)


@pytest.mark.parametrize(
    ("how", "why"),
    [
        ("Entangled", "B is Entangled"),
        ("Prone", "B is Prone"),
        ("legs", "B cannot move at all"),
        ("grappling", "B is in a grapple"),
    ],
)
def test_a_creature_that_cannot_move_cannot_take_a_move_reaction(how: str, why: str) -> None:
    """ "Defend: ... a Block, Evade, or Move action": the Move reaction steps away, so whatever
    forbids moving (Entangled "cannot move", Prone, both legs disabled, "neither the grappler
    nor their victim can move") forbids it — refused with the reason and not offered among the
    buttons. Version 3 let the Entangled step away for its +2 Dodge."""
    for rules in (RULES, V3):
        f = Fight(rules)
        a = f.add("A", agility=14)
        b = f.add("B", npc=True, agility=12, movement={"run": 10})
        c = f.add("C", npc=True, agility=10)
        f.begin(dice=[])
        if how == "legs":
            for leg in ("left leg", "right leg"):
                f.do(SetCondition(target=b, condition="Disabled limb", limb=leg))
        elif how == "grappling":  # B holds C: B's turn comes after A's
            f.do(_end_turn(f))
            f.do(Attack(actor=b, target=c, attack="Grapple", limbs=("left arm",)))
            f.do(React(actor=c, choice="none"), dice=[6, 6, 6])
            while f.state.turn != a:
                f.do(_end_turn(f))
        else:
            f.do(SetCondition(target=b, condition=how))
        f.do(Attack(actor=a, target=b, attack="Sword"))
        offered = [o.choice for o in rules.reaction_options(f.state, b)]
        if rules is RULES:
            assert "move" not in offered and "evade" in offered
            with pytest.raises(RuleViolation, match=f"{why}: a Move reaction steps away"):
                f.do(React(actor=b, choice="move"))
        else:
            assert "move" in offered
            f.do(React(actor=b, choice="move"))


def _held_b(rules: UttasRuleset) -> tuple[Fight, str, str]:
    """A grapples B (B's left arm); it is B's turn, B has Speed 4, a Warp and a second stance."""
    f = Fight(rules)
    a = f.add("A", agility=14)
    b = f.add(
        "B",
        agility=12,
        npc=True,
        movement={"run": 10, "warp": 10},
        powers=[{"name": "Warp", "active_points": 10, "targets": None, "movement_mode": "warp"}],
    )
    f.begin(dice=[])
    f.do(Attack(actor=a, target=b, attack="Grapple", limbs=("left arm",)))
    f.do(React(actor=b, choice="none"), dice=[6, 6, 6])
    assert f.state.turn == b and f.c(b).has("Grappled")
    f.do(ChangeStance(actor=b, stance="Steady"))  # the free first change: no action
    return f, a, b


@pytest.mark.parametrize("kind", ["stance", "break-free"])
def test_a_held_creature_spends_actions_only_on_escaping(kind: str) -> None:
    """ "Grappled": "the only actions the grappled creature may take are those allowing him to
    either escape the grapple or take control of the grapple" — so a paid stance change,
    breaking out of a binding is refused while held (versions 1–3 took them); the grapple
    contest and a Warp away still work."""
    command = {
        "stance": lambda b: ChangeStance(actor=b, stance="Bracing"),
        "break-free": lambda b: BreakFree(actor=b),
    }[kind]
    f, _, b = _held_b(RULES)
    if kind == "break-free":
        f.do(SetCondition(target=b, condition="Entangled"))
    with pytest.raises(RuleViolation, match="B is grappled and may only try to escape"):
        f.do(command(b))
    old, _, b = _held_b(V3)
    if kind == "break-free":
        old.do(SetCondition(target=b, condition="Entangled"))
    old.do(command(b))


def test_a_held_creature_still_escapes_by_contest_or_by_warp() -> None:
    f, _, b = _held_b(RULES)
    f.do(GrappleContest(actor=b, goal="escape"), dice=[1, 1, 6, 6])
    f, a, b = _held_b(RULES)
    f.do(Move(actor=b, mode="warp", meters=8, full=True))
    assert not f.c(b).has("Grappled") and not f.c(a).has("Grappling")


def test_a_held_creature_does_not_resolve_its_readied_action() -> None:
    """B readied a Perception check for after A acts; A's action grapples B: held, B may not
    resolve it (version 3 let it)."""
    for rules in (RULES, V3):
        f = Fight(rules)
        a = f.add("A", agility=14)
        b = f.add("B", agility=12, npc=True, skills={"Perception": 2})
        f.begin(dice=[])
        f.do(_end_turn(f))
        f.do(Ready(actor=b, trigger="action", watch=a, plan="look around"))
        f.do(Attack(actor=a, target=b, attack="Grapple", limbs=("left arm",)))
        f.do(React(actor=b, choice="none"), dice=[6, 6, 6])
        assert f.c(b).has("Grappled")
        readied = ResolveReadied(actor=b, action=UseSkill(actor=b, skill="Perception"))
        if rules is RULES:
            with pytest.raises(RuleViolation, match="B is grappled and may only try to escape"):
                f.do(readied)
        else:
            f.do(readied)


def test_a_stance_after_standing_up_by_moving_is_not_the_free_one() -> None:
    """ "Enter a Stance ... at the start of their turn without spending an action"; "Prone":
    standing spends "half of their Run movement speed" — a move, after which the turn's start
    is past (as after any move). Version 3 still gave the change free."""
    for rules, cost in ((RULES, "(1 action)"), (V3, "(free, at the start of the turn)")):
        f = Fight(rules)
        a = f.add("A", agility=14)
        f.add("B", npc=True)
        f.begin(dice=[])
        f.do(SetCondition(target=a, condition="Prone"))
        f.do(Stand(actor=a, method="move"))
        assert cost in f.do(ChangeStance(actor=a, stance="Steady")).text


def _flurry_dice(rules: UttasRuleset) -> list[int]:
    """The GM gives Ann 2 Advantage dice on her next roll; Ann's three-hit flurry, taken:
    the Accuracy dice of each hit."""
    f = Fight(rules)
    a = f.add("Ann", agility=14, weapons=[{"name": "Claws", "damage_dice": 1, "max_hits": 3}])
    b = f.add("Bob", npc=True, stamina=200, health=200, body=50)
    f.begin(dice=[])
    f.do(GrantDice(target=a, dice=2))
    f.do(Attack(actor=a, target=b, attack="Claws", hits=3))
    rolled = []
    for _ in range(3):
        out = f.do(React(actor=b, choice="none"))
        rolled += [len(e.accuracy.dice) for e in out.events if getattr(e, "accuracy", None)]
    assert f.c(a).gm_next_roll == 0
    return rolled


def test_the_gm_dice_on_a_next_roll_join_the_first_hit_of_a_flurry_only() -> None:
    """Each hit of a flurry is its own Accuracy roll ("each attack takes up one of the
    character's allowed actions"): dice on the "next roll" join the first. Version 3 added them
    to the /attack command, so every hit rolled them."""
    assert _flurry_dice(RULES) == [5, 3, 3]
    assert _flurry_dice(V3) == [5, 5, 5]
