"""UTTAS's rules version 7 (``UttasRuleset.rules_version``): a breather at full Stamina is
refused, saying why — "Take a Breather" recovers Stamina and nothing else, so at full it would
spend the turn's action and one of the character's breathers for nothing (found by play26).
Versions 1–6 took it, and a fight started then replays as it was played
(``tests/fixtures/golden/uttas-v6.json`` is unchanged)."""

from __future__ import annotations

import pytest

from bot.engine.uttas.commands import Breather, SetCondition
from bot.engine.uttas.ruleset import UttasRuleset
from bot.errors import RuleViolation
from tests.engine.helpers import RULES, Fight


def test_version_7_is_the_newest_and_versions_1_to_6_are_still_known() -> None:
    assert RULES.version == UttasRuleset.rules_version == 7
    assert UttasRuleset.known_versions == (1, 2, 3, 4, 5, 6, 7)


def _at_full(version: int) -> tuple[Fight, str]:
    f = Fight(UttasRuleset(version=version))
    w = f.add("Willow", agility=14)
    f.add("Thug", npc=True, agility=5)
    f.begin()
    assert f.state.turn == w and f.c(w).stamina == f.c(w).sheet.stamina
    return f, w


def test_a_breather_at_full_stamina_is_refused_and_spends_nothing() -> None:
    f, w = _at_full(7)
    before = f.state
    with pytest.raises(RuleViolation, match=r"Willow's Stamina is full \(\d+/\d+\)"):
        f.do(Breather(actor=w))
    assert f.state == before


def test_a_breather_below_full_is_taken() -> None:
    f, w = _at_full(7)
    f.state = f.state.model_copy(
        update={
            "combatants": [
                c.model_copy(update={"stamina": c.stamina - 3}) if c.id == w else c
                for c in f.state.combatants
            ]
        }
    )
    uses = f.c(w).breather_uses
    f.do(Breather(actor=w))
    assert f.c(w).breather_uses == uses - 1


def test_version_6_took_a_breather_at_full() -> None:
    f, w = _at_full(6)
    uses = f.c(w).breather_uses
    f.do(Breather(actor=w))
    assert f.c(w).breather_uses == uses - 1


@pytest.mark.parametrize("version", [7, 6])
def test_a_condition_put_again_for_as_long_is_refused_from_version_7(version: int) -> None:
    """``/gm condition`` Prone on a Thug already Prone (until removed): version 7 refuses it,
    changing nothing; version 6 noted "nothing changed." as a change of its own — an undo step
    the GM's next ``/gm undo`` took back instead of the command meant (newuser26)."""
    f = Fight(UttasRuleset(version=version))
    f.add("Willow", agility=14)
    t = f.add("Thug", npc=True, agility=5)
    f.begin()
    f.do(SetCondition(target=t, condition="Prone"))
    before = f.state
    if version == 7:
        with pytest.raises(RuleViolation, match=r"Thug is already Prone.*: nothing to change\."):
            f.do(SetCondition(target=t, condition="Prone"))
        assert f.state == before
        return
    out = f.do(SetCondition(target=t, condition="Prone"))
    assert "nothing changed." in out.text
