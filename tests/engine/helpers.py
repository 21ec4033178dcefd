"""Shared helpers for engine tests: sheets, a driver that applies commands, scripted dice."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from bot.engine import EncounterState, Outcome, RandomRoller, ScriptedRoller, get_ruleset
from bot.engine.core.commands import Begin
from bot.engine.core.dice import DiceRoller
from bot.engine.uttas.commands import AddCombatant, Command
from bot.engine.uttas.ruleset import UttasRuleset
from bot.engine.uttas.sheet import UttasSheet

NOW = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
RULES: UttasRuleset = get_ruleset("uttas")  # type: ignore[assignment]


def sheet(name: str = "Fighter", **kw: Any) -> UttasSheet:
    base: dict[str, Any] = {
        "name": name,
        "agility": 10,
        "dexterity": 10,
        "strength": 10,
        "body": 10,
        "speed": 4,
        "health": 20,
        "stamina": 40,
        "weapons": [{"name": "Sword", "damage_dice": 2}],
        "stances": ["Steady", "Bracing", "Mobile"],
    }
    base.update(kw)
    return UttasSheet.model_validate(base)


class Fight:
    """Applies commands to a state, keeping the events; asserts the input is never mutated."""

    def __init__(self, rules: UttasRuleset = RULES, seed: int = 7) -> None:
        self.rules = rules
        self.state: EncounterState = rules.new_encounter(name="Test", seed=seed)
        self.roller: DiceRoller = RandomRoller(seed=seed)
        self.log: list[Outcome] = []

    def add(self, name: str, *, npc: bool = False, side: str | None = None, **kw: Any) -> str:
        self.do(AddCombatant(name=name, sheet=sheet(name, **kw), is_npc=npc, side=side))
        return self.state.combatants[-1].id

    def do(self, command: Command, dice: Iterable[int] | None = None) -> Outcome:
        roller = ScriptedRoller(dice) if dice is not None else self.roller
        before = self.state.model_dump_json()
        out = self.rules.apply(self.state, command, roller, NOW)
        assert self.state.model_dump_json() == before, "apply mutated its input"
        if isinstance(roller, ScriptedRoller):
            assert roller.remaining == 0, f"{roller.remaining} scripted dice unused"
        self.state = out.state
        self.log.append(out)
        return out

    def begin(self, dice: Iterable[int] | None = None) -> Outcome:
        return self.do(Begin(), dice)

    def c(self, cid: str) -> Any:
        return self.state.get(cid)

    def texts(self) -> str:
        return "\n".join(o.text for o in self.log)
