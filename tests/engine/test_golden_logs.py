"""Recorded fights replay as they were played (decision C; issue 15: a state is its nearest
snapshot with the log's changes after it replayed). ``tests/fixtures/golden/<system>.json``
keeps fights of each game system at each rules version it still plays: each command with its
dice, and a digest of the state after it. Replaying them with today's engine, thawed at
that version, must give every state again.

When this fails: if the same commands and dice now play out differently, the change must
become a new rules version (what ``UtopiaRuleset.rules_version`` documents), with the older
version kept for fights started before; only a new *shape* of the same state (a new field)
is a reason to record the files again (``tests/fixtures/make_golden_logs.py``)."""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from bot.engine import REGISTRY, ScriptedRoller, get_ruleset

GOLDEN = Path(__file__).resolve().parents[1] / "fixtures" / "golden"


def _fights() -> list[Path]:
    return sorted(GOLDEN.glob("*.json"))


def test_every_system_and_rules_version_has_recorded_fights() -> None:
    recorded = {p.stem for p in _fights()}
    for key in REGISTRY.implemented:
        rules = get_ruleset(key)
        for version in getattr(type(rules), "known_versions", (rules.version,)):
            assert f"{key}-v{version}" in recorded


@pytest.mark.parametrize("path", _fights(), ids=lambda p: p.stem)
def test_a_recorded_fight_replays_as_it_was_played(path: Path) -> None:
    recorded: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    rules = get_ruleset(recorded["system"], frozen=recorded["rules"])
    now = datetime.fromisoformat(recorded["at"])
    for f, fight in enumerate(recorded["fights"]):
        state = rules.load_state(fight["start"])
        for n, step in enumerate(fight["steps"]):
            kind = step["command"]["kind"]
            dice = ScriptedRoller(step["dice"])
            state = rules.apply(state, rules.parse_command(step["command"]), dice, now).state
            assert dice.remaining == 0, f"fight {f} step {n} ({kind}) left dice unused"
            text = state.model_dump_json()
            assert hashlib.sha256(text.encode()).hexdigest() == step["sha256"], (
                f"fight {f} step {n} ({kind}) of {path.stem} plays out differently"
            )
        assert state.model_dump_json() == fight["end"]
