"""UTTAS "Stamina Costs" (ranged attacks: "Damage added through ranged Martial Arts do not add to
the Stamina cost") and "Range Modifiers" for a martial art with a range (issue 11, Missing 8)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from bot.engine.uttas import rules
from bot.engine.uttas.commands import Attack, React
from bot.engine.uttas.events import AttackResolved
from bot.engine.uttas.tables import default_tables
from bot.errors import RuleViolation
from tests.engine.helpers import Fight, sheet

T = default_tables()
PALM = {"name": "Wind Palm", "maneuver": "attack", "bonus_dice": 3, "range_m": 10}


def duel() -> tuple[Fight, str, str]:
    f = Fight()
    a = f.add("Ann", agility=14, strength=10, martial_arts=[PALM])
    b = f.add("Bob", npc=True, agility=12)
    f.begin(dice=[])
    return f, a, b


def test_a_ranged_martial_art_costs_only_its_strength_dice() -> None:
    """Stamina Costs: the martial art's 3 bonus dice add nothing; Strength 10 → 2 dice → 2."""
    f, a, _ = duel()
    from bot.engine.uttas.state import Combatant

    c = Combatant(id="x", name="Ann", side="s", sheet=f.c(a).sheet, health=1, stamina=1)
    p = rules.martial_profile(c, c.sheet.martial_arts[0], T)
    assert (p.kind, p.range_m, p.strength_dice, p.extra_dice, p.stamina) == ("thrown", 10, 2, 3, 2)


def test_a_ranged_martial_art_strikes_at_range_with_the_range_penalties() -> None:
    """Range Modifiers: within 10 m no penalty; 11–30 m (one increment beyond) a Disadvantage;
    three increments beyond fails and is refused before anything is paid."""
    f, a, b = duel()
    f.do(Attack(actor=a, target=b, attack="Wind Palm", range_m=8))
    f.do(React(actor=b, choice="none"), dice=[6, 6, 6, 1, 1, 1, 1, 1])
    hit = next(e for e in f.log[-1].events if isinstance(e, AttackResolved))
    assert hit.hit and len(hit.damage.dice) == 5 and not hit.accuracy.disadvantage
    assert f.c(a).stamina == 40 - 2

    g, a, b = duel()
    g.do(Attack(actor=a, target=b, attack="Wind Palm", range_m=20))
    g.do(React(actor=b, choice="none"), dice=[6, 6, 1, 1, 1, 1, 1])  # 3d6 - 1d6, then 5 damage dice
    hit = next(e for e in g.log[-1].events if isinstance(e, AttackResolved))
    assert hit.accuracy.disadvantage == 1

    h, a, b = duel()
    with pytest.raises(RuleViolation, match="out of range"):
        h.do(Attack(actor=a, target=b, attack="Wind Palm", range_m=100))
    assert h.c(a).stamina == 40


def test_a_melee_martial_art_still_reaches_two_meters() -> None:
    """Without ``range_m`` a martial art is melee (reach 2 m), as before."""
    f = Fight()
    a = f.add("Ann", agility=14, martial_arts=[{"name": "Tiger Claw", "maneuver": "attack"}])
    b = f.add("Bob", npc=True)
    f.begin(dice=[])
    with pytest.raises(RuleViolation, match="reaches 2 m"):
        f.do(Attack(actor=a, target=b, attack="Tiger Claw", range_m=5))


@pytest.mark.parametrize(
    ("art", "message"),
    [
        ({"name": "Far Wall", "maneuver": "block", "range_m": 10}, "only an attack or counter"),
        ({"name": "Reach Grab", "maneuver": "attack", "grab": True, "range_m": 4}, "Grab"),
        ({"name": "Zero", "maneuver": "attack", "range_m": 0}, "greater than 0"),
    ],
)
def test_the_sheet_refuses_a_range_that_cannot_be(art: dict[str, object], message: str) -> None:
    """Sheet validation: a defence has no range, a Grab holds in melee, a range is positive."""
    with pytest.raises(ValidationError, match=message):
        sheet(martial_arts=[art])
