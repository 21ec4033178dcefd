"""UTTAS's rules version 5 (``UttasRuleset.rules_version``): the Game Master ending a day (or a
quest or an arc) in an encounter moves the encounter's clock to the next day's start. Versions
1–4 said "A new day begins" and left the fight's clock where it was, so the campaign clock the
fight left behind was still the old day's; a fight started at version 4 keeps that reading, so
its log replays as it was played."""

from __future__ import annotations

import pytest

from bot.engine.core.commands import EndPeriod
from bot.engine.uttas.commands import Rest
from bot.engine.uttas.ruleset import UttasRuleset
from tests.engine.helpers import RULES, Fight

DAY = 86_400


def test_versions_1_to_4_are_still_known() -> None:
    assert UttasRuleset.rules_version >= 5
    assert UttasRuleset.known_versions[:5] == (1, 2, 3, 4, 5)


def _fight(rules: UttasRuleset) -> Fight:
    f = Fight(rules)
    f.add("Willow")
    f.add("Foe", npc=True)
    f.do(Rest(rest="long"))  # 8 hours pass before the fight: day 1, 08:00
    f.begin()
    return f


@pytest.mark.parametrize("period", ["day", "quest", "arc"])
def test_the_end_of_a_day_in_a_fight_begins_the_next_day_on_its_clock(period: str) -> None:
    f = _fight(RULES)
    before = f.state.game_time_s
    assert 0 < before < DAY
    f.do(EndPeriod(period=period))  # type: ignore[arg-type]
    assert f.state.game_time_s == DAY, f.state.game_time_s
    assert "A new day begins" in f.texts()
    f.do(EndPeriod(period="day"))
    assert f.state.game_time_s == 2 * DAY


def test_the_end_of_a_scene_leaves_the_clock() -> None:
    f = _fight(RULES)
    before = f.state.game_time_s
    f.do(EndPeriod(period="scene"))
    assert f.state.game_time_s == before


def test_version_4_leaves_the_fights_clock_as_it_was() -> None:
    f = _fight(UttasRuleset(version=4))
    before = f.state.game_time_s
    f.do(EndPeriod(period="day"))
    assert f.state.game_time_s == before
