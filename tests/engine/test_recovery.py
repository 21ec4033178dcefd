"""UTTAS "Healing": Take a Breather, short and long rests, natural healing."""

from __future__ import annotations

import pytest

from bot.engine.core.commands import EndCombat, EndTurn
from bot.engine.uttas.commands import (
    AdjustCharacteristic,
    Attack,
    Breather,
    Move,
    NaturalHealing,
    React,
    Rest,
    SetCondition,
)
from bot.errors import RuleViolation
from tests.engine.helpers import Fight


def tired_duel(**ann: object) -> tuple[Fight, str, str]:
    f = Fight()
    a = f.add("Ann", agility=12, **ann)  # type: ignore[arg-type]
    b = f.add("Bob", npc=True)
    f.begin(dice=[])
    return f, a, b


def hurt(f: Fight, cid: str, stamina: int) -> None:
    """Put ``cid`` at ``stamina`` (test setup, outside the rules)."""
    c = f.state.get(cid).model_copy(update={"stamina": stamina})
    f.state = f.state.model_copy(
        update={"combatants": [c if x.id == cid else x for x in f.state.combatants]}
    )


def test_breather_is_an_action_rolled_at_the_next_turn_with_no_reactions_meanwhile() -> None:
    f, a, b = tired_duel(body=10)
    hurt(f, a, 20)
    assert f.c(a).breather_uses == 2  # natural Body dice
    f.do(Breather(actor=a))
    assert f.c(a).breathing and f.c(a).breather_uses == 1 and f.state.turn == b
    f.do(Attack(actor=b, target=a, attack="Sword"))
    assert [o.choice for o in f.rules.reaction_options(f.state, a)] == ["none", "surrender"]
    # A miss (no damage); Bob's turn ends, Ann's starts and the breather completes: 2d6.
    f.do(React(actor=a, choice="none"), dice=[1, 1, 1, 3, 4])
    assert f.state.turn == a and f.c(a).stamina == 27 and not f.c(a).breathing


def test_breather_completion_rolls_the_body_dice() -> None:
    f, a, b = tired_duel(body=10)
    hurt(f, a, 20)
    f.do(Breather(actor=a))
    f.do(EndTurn(actor=b), dice=[5, 4])  # Ann's turn starts: 2d6 Body dice
    assert f.c(a).stamina == 29 and not f.c(a).breathing


def test_breather_needs_no_movement_and_uses_left() -> None:
    f, a, b = tired_duel()
    f.do(Move(actor=a, meters=1))
    with pytest.raises(RuleViolation, match="moved"):
        f.do(Breather(actor=a))
    g, a, b = tired_duel(body=4)  # 0 natural Body dice at divisor 5 → minimum 1
    assert g.c(a).breather_uses == 1
    hurt(g, a, 30)  # at full a breather is refused (rules version 7)
    g.do(Breather(actor=a))
    g.do(EndTurn(actor=b), dice=[3])
    g.do(EndTurn(actor=a))
    g.do(EndTurn(actor=b))
    with pytest.raises(RuleViolation, match="no breathers left"):
        g.do(Breather(actor=a))


def test_damage_interrupts_the_breather_and_refunds_the_use() -> None:
    f, a, b = tired_duel()
    hurt(f, a, 20)
    f.do(Breather(actor=a))
    f.do(Attack(actor=b, target=a, attack="Sword"))
    out = f.do(React(actor=a, choice="none"), dice=[6, 6, 6, 1, 1, 1, 1])
    assert "interrupted" in out.text
    assert f.c(a).breather_uses == 2 and not f.c(a).breathing and f.c(a).stamina == 16


def test_aid_changes_the_breather_roll_not_the_number_of_uses() -> None:
    f, a, b = tired_duel(body=10)
    hurt(f, a, 10)
    f.do(AdjustCharacteristic(target=a, characteristic="body", delta=5))
    f.do(Breather(actor=a))
    f.do(EndTurn(actor=b), dice=[1, 1, 1])  # 3 dice now
    assert f.c(a).stamina == 13 and f.c(a).breather_uses == 1


def test_disabled_body_forbids_the_breather() -> None:
    f, a, _b = tired_duel()
    f.do(SetCondition(target=a, condition="Disabled limb", limb="body"))
    with pytest.raises(RuleViolation, match="body"):
        f.do(Breather(actor=a))


def test_short_rest_half_the_damage_twice_a_day_and_restores_breathers() -> None:
    f, a, _b = tired_duel()
    hurt(f, a, 10)
    f.do(Breather(actor=a))
    with pytest.raises(RuleViolation, match="over"):
        f.do(Rest(rest="short"))
    f.do(EndCombat())
    f.do(Rest(rest="short", combatants=(a,)))
    assert f.c(a).stamina == 25 and f.c(a).breather_uses == 2  # breathing cleared? no roll
    f.do(Rest(rest="short", combatants=(a,)))
    assert f.c(a).stamina == 32
    out = f.do(Rest(rest="short", combatants=(a,)))
    assert "no benefit" in out.text and f.c(a).stamina == 32
    f.state = f.state.model_copy(update={"game_time_s": f.state.game_time_s + 24 * 3600})
    f.do(Rest(rest="short", combatants=(a,)))
    assert f.c(a).stamina == 36


def test_long_rest_recovers_all_once_per_24_hours_and_respects_held_stamina() -> None:
    f, a, _b = tired_duel()
    hurt(f, a, 5)
    f.do(EndCombat())
    f.do(Rest(rest="long"))
    assert f.c(a).stamina == 40
    hurt(f, a, 5)
    out = f.do(Rest(rest="long"))
    assert "no benefit" in out.text and f.c(a).stamina == 5
    f.state = f.state.model_copy(update={"game_time_s": f.state.game_time_s + 16 * 3600})
    f.do(Rest(rest="long"))
    assert f.c(a).stamina == 40


def test_health_heals_one_point_per_week_and_restores_limbs() -> None:
    f, a, b = tired_duel()
    f.do(Attack(actor=a, target=b, attack="Sword", aimed_limb="left arm"))
    f.do(React(actor=b, choice="none"), dice=[6, 6, 1, 1, 1, 1])
    assert f.c(b).health == 16 and f.c(b).disabled_limbs
    with pytest.raises(RuleViolation):
        f.do(NaturalHealing(weeks=1))
    f.do(EndCombat())
    f.do(NaturalHealing(weeks=3, combatants=(b,)))
    assert f.c(b).health == 19 and f.c(b).disabled_limbs
    f.do(NaturalHealing(weeks=3, combatants=(b,)))
    assert f.c(b).health == 20 and not f.c(b).disabled_limbs
    assert not f.c(b).has("Disabled limb")


def test_a_breather_capped_at_the_maximum_says_so() -> None:
    """The recovery line says when the maximum cut a roll short (issue 9 §7: "recovers 8
    Stamina… = 11" read as if 11 had been recovered)."""
    f, a, b = tired_duel(body=10)
    hurt(f, a, 36)
    f.do(Breather(actor=a))
    out = f.do(EndTurn(actor=b), dice=[5, 6])  # 11 rolled, 4 missing
    assert "Ann recovers 4 of 11 Stamina (breather; capped at the maximum 40); now 40." in out.text
    g, a, b = tired_duel(body=10)
    hurt(g, a, 20)
    g.do(Breather(actor=a))
    out = g.do(EndTurn(actor=b), dice=[5, 4])
    assert "Ann recovers 9 Stamina (breather); now 29." in out.text
