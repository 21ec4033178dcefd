"""Utopia's multi-weapon attacks (``utopia-actions.txt`` "Multi-weapon Attacks": "the number of
turn actions required is equal to the highest needed of the weapons Rolls made this way are
reduced by half, rounded down. Modifiers, although, are still calculated as normal"), with
scripted dice."""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine.core.verbs import ActInput
from bot.engine.utopia import commands as u
from bot.engine.utopia import verbs
from bot.errors import InvalidInput
from tests.engine.test_utopia_engine import fight, run, sheet

WEAPONS = [
    {"name": "Knife", "ta_cost": 1, "damage": "1d4"},
    {"name": "Club", "ta_cost": 2, "damage": "1d6 + 1", "damage_modifier": "power"},
    {"name": "Maul", "ta_cost": 3, "damage": "2d6"},
]


def duel() -> Any:
    return fight(a=sheet(weapons=WEAPONS), b=sheet(weapons=WEAPONS, shp=30))


def test_the_highest_ta_once_and_each_weapon_halved_with_its_modifier_in_full() -> None:
    """Knife (1 TA) and Club (2 TA): 2 TA. Knife 1d4 [4] / 2 = 2, − defense 1 = 1; Club
    (1d6 [5] + 1) / 2 = 3, + Power modifier 2 in full = 5, − 1 = 4. Two sources: two
    decisions, each blocked on its own."""
    s = duel()
    out = run(
        s, u.MultiAttack(actor="c1", target="c2", weapons=("Knife", "Club"), range_m=1), [4, 5]
    )
    s = out.state
    assert s.get("c1").pools["turn"] == 6 - 2
    knife, club = s.decisions
    assert (knife.source, knife.damage) == ("Knife", 1)
    assert (club.source, club.damage) == ("Club", 4)
    texts = [e.text for e in out.events]
    assert any("(1d6 + 1) / 2 + 2" in t for t in texts), texts
    s = run(s, u.Defend(actor="c2", choice="block", decision=club.id), [3, 1]).state
    s = run(s, u.Defend(actor="c2", choice="none", decision=knife.id), []).state
    assert s.decisions == [] and s.get("c2").shp == 30 - 0 - 1
    assert s.get("c2").pools["interrupt"] == 1  # one Block, 1 IA


def test_a_sheathed_weapon_is_drawn_free_and_errors_change_nothing() -> None:
    """The free draw applies to each weapon; an unknown weapon, one named twice or weaponless
    is refused."""
    s = duel()
    s = run(s, u.Sheathe(actor="c1", weapon="Maul", drawn=False), []).state
    out = run(
        s, u.MultiAttack(actor="c1", target="c2", weapons=("Maul", "Knife"), range_m=1), [6, 6, 1]
    )
    assert out.state.get("c1").sheathed == () and out.state.get("c1").pools["turn"] == 5 - 3
    assert any("draws Maul" in e.text for e in out.events)
    for named, message in (
        (("Knife", "Spear"), "no weapon called 'Spear'"),
        (("Knife", "knife"), "Knife is named twice"),
        (("Knife", "weaponless"), "made with weapons"),
    ):
        with pytest.raises(InvalidInput, match=message):
            run(s, u.MultiAttack(actor="c1", target="c2", weapons=named, range_m=1), [])


class _Fake:
    """A combatant as ``verbs.act`` reads it: its id and its sheet's weapons (none)."""

    id = "c1"
    sheet = type("S", (), {"weapons": ()})()


def test_act_attack_with_commas_is_a_multi_weapon_attack() -> None:
    """``detail:"Knife, Club"`` names the weapons; an empty name is refused."""
    made = verbs.act(
        _Fake(),
        ActInput(key="attack", target="c2", detail="Knife, Club"),
    )
    assert isinstance(made, u.MultiAttack) and made.weapons == ("Knife", "Club")
    with pytest.raises(InvalidInput, match="separated by commas"):
        verbs.act(_Fake(), ActInput(key="attack", target="c2", detail="Knife,"))
