"""The Game Master ending a day (or a quest or an arc: ``/gm time end-of``) in a fight moves the
fight's clock to when the next day begins, as each rules text reads a day (the core's reading
``"new_day_moves_clock"``, :func:`bot.engine.core.scenes.end_period`): UTTAS and Untitled from
rules version 5 and Utopia from 7 to the next day's start (00:00; none of the three texts has a
day boundary of its own), Uune from 6 to the following dawn (its "Day" scope lasts "the rest
of the in-game day, or until the following dawn": :data:`bot.engine.core.tx.DAWN_S`).
The versions before left the fight's clock where it was, and still do, so their logs replay as
they were played.

Guard: every system's newest version moves the clock, but those listed in :data:`NOT_YET`
(a system whose newest version does not yet; adding one there needs a reason)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from bot.engine import get_ruleset
from bot.engine.core.commands import EndPeriod
from bot.engine.core.dice import RandomRoller
from bot.engine.core.effects import PERIODS
from tests.engine.helpers import NOW
from tests.engine.rehearsed import begun

DAY = 86_400
HOUR = 3_600
FIRST = {"uttas": 5, "utopia": 7, "untitled": 5, "uune": 6}
"""The rules version from which each system's fight clock moves when a day ends."""
NOT_YET: dict[str, int] = {}
"""Systems whose newest version leaves the fight's clock (none now; adding one needs a reason)."""
NEW_DAY_AT = {"uttas": 0, "utopia": 0, "untitled": 0, "uune": 6 * HOUR}
"""When each system's next day begins, in seconds after midnight."""
CASTS = {
    "uttas": (("Willow", "willow", False), ("Thug", "thug", True)),
    "utopia": (("Vesna", "vesna", False), ("Hound", "stone-hound", True)),
    "untitled": (("Wren", "wren", False), ("Giant", "hill-giant", True)),
    "uune": (("Mira", "mira", False), ("Thug", "dock-thug", True)),
}


def _rules(key: str, version: int) -> Any:
    data = json.loads(get_ruleset(key).frozen())
    data["version"] = version
    return get_ruleset(key, frozen=json.dumps(data))


def _fight_at(rules: Any, key: str, clock: int) -> Any:
    state = begun(rules, key, RandomRoller(random.Random(7)), cast=CASTS[key])
    state.game_time_s = clock
    return state


def _end(rules: Any, state: Any, period: str) -> Any:
    return rules.apply(state, EndPeriod(period=period), RandomRoller(random.Random(1)), NOW).state  # type: ignore[arg-type]


def test_every_system_is_listed() -> None:
    assert set(FIRST) | set(NOT_YET) == set(CASTS)
    for key, version in NOT_YET.items():
        assert type(get_ruleset(key)).rules_version == version, (key, "moves it now?")


@pytest.mark.parametrize("key", sorted(FIRST))
def test_the_newest_version_moves_the_clock_from_the_first(key: str) -> None:
    rules = type(get_ruleset(key))
    assert rules.rules_version >= FIRST[key]
    assert FIRST[key] - 1 in rules.known_versions


@pytest.mark.parametrize("period", [p for p in PERIODS if p != "scene"])
@pytest.mark.parametrize("key", sorted(FIRST))
def test_the_end_of_a_day_at_evening_begins_the_next_day(key: str, period: str) -> None:
    rules = _rules(key, get_ruleset(key).version)
    evening = 3 * DAY + 20 * HOUR  # day 4, 20:00
    after = _end(rules, _fight_at(rules, key, evening), period)
    assert after.game_time_s == 4 * DAY + NEW_DAY_AT[key], after.game_time_s


@pytest.mark.parametrize("key", sorted(FIRST))
def test_the_end_of_a_day_before_dawn_begins_the_day_the_system_reads(key: str) -> None:
    """At 03:00, UTTAS's and Utopia's day began at midnight (the next begins at the next
    midnight); Uune's lasts until the following dawn, three hours on."""
    rules = _rules(key, get_ruleset(key).version)
    night = 3 * DAY + 3 * HOUR
    after = _end(rules, _fight_at(rules, key, night), "day")
    expected = 3 * DAY + NEW_DAY_AT[key] if NEW_DAY_AT[key] > 3 * HOUR else 4 * DAY
    assert after.game_time_s == expected, after.game_time_s


@pytest.mark.parametrize("key", sorted(FIRST))
def test_the_end_of_a_scene_leaves_the_clock(key: str) -> None:
    rules = _rules(key, get_ruleset(key).version)
    evening = 3 * DAY + 20 * HOUR
    assert _end(rules, _fight_at(rules, key, evening), "scene").game_time_s == evening


@pytest.mark.parametrize("key", sorted(FIRST) + sorted(NOT_YET))
def test_versions_before_leave_the_fights_clock(key: str) -> None:
    version = FIRST.get(key, NOT_YET.get(key, 0) + 1) - 1
    rules = _rules(key, version)
    evening = 3 * DAY + 20 * HOUR
    assert _end(rules, _fight_at(rules, key, evening), "day").game_time_s == evening
