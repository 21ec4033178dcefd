"""UTTAS "Damage" from hazards (issue 11: the chase's burning bush): the GM's hazard deals d6s
of a damage type through the target's Armor and Defense, with the Health/Stamina split and the
conditions a hit causes, in a fight or out of one."""

from __future__ import annotations

import pytest

from bot.engine.core.audience import PUBLIC
from bot.engine.core.commands import EndCombat
from bot.engine.uttas.commands import Hazard
from bot.errors import InvalidInput
from tests.engine.helpers import Fight


def test_a_hazard_goes_through_armor_and_defense_and_splits_health_and_stamina() -> None:
    f = Fight()
    w = f.add("Willow", agility=12, armor={"heat": 1}, defense={"heat": 3}, body=15, stamina=100)
    f.add("Thug", npc=True)
    f.begin(dice=[])
    out = f.do(Hazard(target=w, dice=3, damage_type="heat", source="the burning bush"), [4, 5, 6])
    willow = f.c(w)
    assert willow.health == 20 - (3 - 1) and willow.stamina == 100 - (15 - 3)
    assert "The burning bush hurts Willow" in out.text and "Armor 1, Defense 3" in out.text
    assert not willow.has("Stunned")  # 12 Stamina damage does not exceed Body 15
    f.do(Hazard(target=w, dice=6, source="a fall"), [6] * 6)  # 36 > Body 15: Stunned
    assert f.c(w).has("Stunned") and f.state.turn is not None


def test_a_hazard_outside_a_fight_and_the_dead_and_hidden_numbers() -> None:
    f = Fight()
    f.add("Willow", agility=12)
    t = f.add("Thug", npc=True, health=4)
    f.begin(dice=[])
    f.do(EndCombat())
    out = f.do(Hazard(target=t, dice=5, damage_type="heat", source="fire"), [6] * 5)
    assert f.c(t).has("Dead")
    public = out.events[0].render(f.rules.view(f.state, PUBLIC))
    assert public == ["Thug is hurt by fire and looks **Dead**."]  # its numbers stay hidden
    with pytest.raises(InvalidInput, match="dead already"):
        f.do(Hazard(target=t, dice=1))
