"""A breather at full, in every system that has one (play26, defect 4): taken as a member
takes it (``Ruleset.act`` with :meth:`~bot.engine.core.contract.Ruleset.breather_action`,
what `/breather`, `/act` and the turn ping's button build), at full Stamina it is refused
(UTTAS "Take a Breather": the action and a breather spent to recover nothing) or says that
nothing was regained (Utopia "Deep Breath": 1 TA, allowed by the text, and a turn deadline's
default action passes the go with it) — never spent silently for nothing."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.engine import get_ruleset
from bot.engine.core.commands import Begin
from bot.engine.core.dice import RandomRoller
from bot.engine.core.verbs import ActInput
from bot.errors import RuleViolation
from tests.fixtures.make_golden_logs import CASTS

ROOT = Path(__file__).resolve().parents[2]
NOW = datetime(2026, 1, 1, tzinfo=UTC)


@pytest.mark.parametrize("system", list(CASTS))
def test_a_breather_at_full_is_refused_or_says_nothing_was_regained(system: str) -> None:
    rules = get_ruleset(system)
    key = rules.breather_action()
    if key is None:
        pytest.skip(f"{system} has no breather")
    roller = RandomRoller(random.Random(1))
    state = rules.new_encounter(name="Rest", seed=1)
    for name, stem, npc in CASTS[system]:
        path = ROOT / "data" / "sheets" / system / f"{stem}.json"
        sheet = rules.parse_sheet(json.loads(path.read_text()))
        state = rules.apply(
            state, rules.add_command(name=name, sheet=sheet, is_npc=npc), roller, NOW
        ).state
    state = rules.apply(state, Begin(), roller, NOW).state
    me = state.current
    assert me is not None and me.stamina == me.sheet.stamina  # unhurt, at the start
    command = rules.act(state, me, ActInput(key=key))
    if system == "uttas":
        with pytest.raises(RuleViolation, match="Stamina is full"):
            rules.apply(state, command, roller, NOW)
        return
    events = rules.apply(state, command, roller, NOW).events
    assert any("nothing regained" in e.text for e in events), [e.text for e in events]
