"""UTTAS "Healing": the Heal power and First Aid restore Health within the tables' daily limits
(Heal powers and First Aid stack; First Aid checks overlap), restore injured limbs, work
between fights without a turn, and refuse the dead and the unhurt."""

from __future__ import annotations

import pytest

from bot.engine.core.commands import EndCombat
from bot.engine.uttas.commands import ActivatePower, Attack, FirstAid, React, SetVitals
from bot.errors import InvalidInput, RuleViolation
from tests.engine.helpers import Fight

HEAL = {"name": "Heal", "active_points": 20, "targets": None, "heals": True}


def party() -> tuple[Fight, str, str, str]:
    """Hana (a healer with First Aid 3) and Ben, against Orc."""
    f = Fight()
    h = f.add("Hana", agility=14, powers=[HEAL], skills={"First Aid": 3})
    b = f.add("Ben", agility=12, side="party")
    o = f.add("Orc", npc=True, agility=10)
    f.begin(dice=[])
    return f, h, b, o


def hurt(f: Fight, cid: str, health: int) -> None:
    """Set ``cid``'s Health (the GM's tool; it takes nobody's turn)."""
    f.do(SetVitals(target=cid, health=health))


def test_the_heal_power_rolls_its_dice_and_is_the_turns_action() -> None:
    f, h, b, _o = party()
    hurt(f, b, 10)
    out = f.do(ActivatePower(actor=h, power="Heal", target=b), dice=[4, 5])  # 20 AP: 2d6
    assert f.c(b).health == 19 and "Ben regains 9 Health" in out.text
    assert f.c(h).stamina == 40 - 4 and f.state.turn != h  # 4 Stamina; the turn's action


def test_heal_powers_stop_at_half_the_health_a_day_and_first_aid_stacks_on_top() -> None:
    f, h, b, _o = party()
    hurt(f, b, 2)  # Ben: 18 damage; Heal powers may restore 10 of his 20 today
    f.do(ActivatePower(actor=h, power="Heal", target=b), dice=[6, 6])
    assert f.c(b).health == 12
    f.do(EndCombat())  # between fights: no turn needed, no action spent
    with pytest.raises(RuleViolation, match="today's limit"):  # nothing spent
        f.do(ActivatePower(actor=h, power="Heal", target=b))
    out = f.do(FirstAid(actor=h, target=b), dice=[1, 1, 1])  # 3 vs 8
    assert "failure" in out.text and f.c(b).health == 12
    f.do(FirstAid(actor=h, target=b), dice=[5, 5, 4])  # 14 vs 8: +3 (3 dice × 1)
    assert f.c(b).health == 15
    with pytest.raises(RuleViolation, match="overlap"):  # checks overlap: nothing more
        f.do(FirstAid(actor=h, target=b))


def test_a_new_day_gives_the_limits_back() -> None:
    from bot.engine.uttas.commands import Rest

    f, h, b, _o = party()
    hurt(f, b, 2)
    f.do(ActivatePower(actor=h, power="Heal", target=b), dice=[6, 6])
    f.do(EndCombat())
    for _ in range(3):  # a long rest is 8 in-game hours: three pass a day
        f.do(Rest(rest="long"))
    before = f.c(b).health
    f.do(ActivatePower(actor=h, power="Heal", target=b), dice=[2, 2])
    assert f.c(b).health == min(20, before + 4)


def test_healing_restores_an_injured_limb_and_refuses_the_dead_and_the_unhurt() -> None:
    f, h, b, o = party()
    with pytest.raises(RuleViolation, match="no Health damage"):
        f.do(ActivatePower(actor=h, power="Heal", target=b))
    with pytest.raises(InvalidInput, match="target"):
        f.do(ActivatePower(actor=h, power="Heal"))
    f.do(Attack(actor=h, target=o, attack="Sword", aimed_limb="left arm"))
    f.do(React(actor=o, choice="none"), dice=[6, 6, 1, 1, 1, 1])
    assert f.c(o).disabled_limbs and f.c(o).health == 16
    f.do(EndCombat())
    out = f.do(ActivatePower(actor=h, power="Heal", target=o), dice=[2, 3])
    assert f.c(o).health == 20 and not f.c(o).disabled_limbs
    assert "Orc's left arm works again." in out.text
    f.do(SetVitals(target=b, health=0))  # Ben dies
    with pytest.raises(RuleViolation, match="dead"):
        f.do(ActivatePower(actor=h, power="Heal", target=b))


def test_first_aid_needs_the_skill() -> None:
    f, h, b, _o = party()
    hurt(f, h, 10)
    f.do(SetVitals(target=h, health=10))
    assert f.state.turn == h
    f.do(ActivatePower(actor=h, power="Heal", target=h), dice=[1, 1])
    with pytest.raises(RuleViolation, match="Ben has neither First Aid nor Paramedics"):
        f.do(FirstAid(actor=b, target=h))


def test_first_aid_rolls_the_paramedics_skill_when_it_is_the_better() -> None:
    """UTTAS "Healing": "using the Paramedics skill" — First Aid rolls the healer's better of
    First Aid and Paramedics (``healing.paramedics_skill``); its checks overlap like First
    Aid's."""
    f = Fight()
    medic = f.add("Medic", agility=14, skills={"First Aid": 1, "Paramedics": 3})
    hurt_one = f.add("Hurt", agility=12)
    f.add("Foe", agility=1, side="foes")
    f.begin(dice=[])
    f.do(SetVitals(target=hurt_one, health=10))
    out = f.do(FirstAid(actor=medic, target=hurt_one), dice=[4, 4, 4])
    assert "Medic's Paramedics on Hurt" in out.text and f.c(hurt_one).health == 13
