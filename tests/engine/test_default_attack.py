"""The attack made when none is named, in every system (play26, defect 1): the turn ping's
Attack… button makes :meth:`~bot.engine.core.contract.Ruleset.usual_attack`, and `/act`'s
attack with no ``detail:`` is :meth:`~bot.engine.core.contract.Ruleset.naming_attack` — the
same attack when the combatant has only one, else refused naming them all. Utopia's `/act`
used to attack weaponless while the button swung the first weapon; Untitled's took the
sheet's first weapon, drawn or not, while the button took the first drawn. This guard runs
every example sheet of every system through both paths."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bot.engine import get_ruleset
from bot.engine.core.dice import RandomRoller
from bot.engine.core.verbs import ActInput
from bot.errors import DomainError, InvalidInput

SHEETS = Path(__file__).resolve().parents[2] / "data" / "sheets"
SYSTEMS = ("uttas", "utopia", "untitled", "uune")
NOW = datetime(2026, 1, 1, tzinfo=UTC)
ROLLER = RandomRoller(random.Random(1))


def cast(system: str) -> tuple[Any, Any]:
    """System ``system``'s shipped rules and an encounter with every example sheet in it (the
    sheets an NPC's statblock parses as join as NPCs)."""
    rules = get_ruleset(system)
    state = rules.new_encounter(name="Defaults", seed=1)
    for path in sorted((SHEETS / system).glob("*.json")):
        sheet = rules.parse_sheet(json.loads(path.read_text()))
        name = str(getattr(sheet, "name", path.stem))
        for npc in (False, True):
            try:
                added = rules.add_command(name=f"{name} {npc}", sheet=sheet, is_npc=npc)
                state = rules.apply(state, added, ROLLER, NOW).state
            except DomainError:  # a sheet only one side takes
                continue
    return rules, state


@pytest.mark.parametrize("system", SYSTEMS)
def test_an_unnamed_attack_is_the_buttons_attack_or_refused(system: str) -> None:
    rules, state = cast(system)
    checked = 0
    for me in state.combatants:
        key = rules.attack_action(me)
        if key not in [a.key for a in rules.actions(state, me)]:
            continue  # the system's attack is not an /act action (UTTAS: /attack)
        attacks = rules.usable_attack_names(state, me)
        given = ActInput(key=key, target="x")
        if not attacks:
            assert rules.naming_attack(state, me, given) == given
            continue
        checked += 1
        if len(attacks) == 1:
            named = rules.naming_attack(state, me, given)
            assert named.detail == rules.usual_attack(state, me) == attacks[0]
        else:
            with pytest.raises(InvalidInput, match="Which attack") as refused:
                rules.naming_attack(state, me, given)
            assert all(a in str(refused.value) for a in attacks)
    assert checked or system == "uttas"
