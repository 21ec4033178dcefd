"""Draw the two example fight charts in ``docs/`` (issue 18) from a scripted, seeded UTTAS fight.

    .venv/bin/python tools/fight_chart_examples.py

The worked example's cast — Willow and General Bearington against three Thugs whose numbers are
hidden — fights up to five rounds by a simple script: whoever's turn it is attacks the first enemy
still standing with the first weapon on its sheet (a breather instead when its Stamina runs
low), nobody reacts, then the turn ends. The fight is sampled as the bot samples its log (the
first round's start, each round's end) and drawn twice: as the channel sees it
(``docs/fight-chart-public.png``) and as the GM does (``docs/fight-chart-gm.png``).
"""

from __future__ import annotations

import json
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bot.engine import RandomRoller, get_ruleset
from bot.engine.core.audience import GM, PUBLIC
from bot.engine.core.chart import Sample, chart_data
from bot.engine.core.commands import Begin, EndTurn
from bot.engine.uttas.commands import AddCombatant, Attack, Breather
from bot.engine.uttas.sheet import UttasSheet
from bot.errors import DomainError
from bot.ui.chart_drawing import render_png

ROOT = Path(__file__).resolve().parent.parent
SHEETS = ROOT / "data" / "sheets" / "uttas"
NOW = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
ROUNDS = 5
LIMIT = 10 * 1024 * 1024  # Discord's default attachment size limit


def sheet(name: str) -> UttasSheet:
    return UttasSheet.model_validate(json.loads((SHEETS / f"{name}.json").read_text()))


def scripted_fight(seed: int = 18) -> list[Sample]:
    """The fight's samples: the first round's start, then each round's end (the last state
    before the next round begins)."""
    rules: Any = get_ruleset("uttas")
    roller = RandomRoller(seed=seed)
    state: Any = rules.new_encounter(name="Firewood", seed=seed)
    cast = [
        *(AddCombatant(name=f"Thug {i}", sheet=sheet("thug"), is_npc=True) for i in (1, 2, 3)),
        AddCombatant(name="Willow", sheet=sheet("willow")),
        AddCombatant(name="General Bearington", sheet=sheet("general-bearington")),
    ]
    for command in [*cast, Begin()]:
        state = rules.apply(state, command, roller, NOW).state
    samples = [Sample("Start", state)]
    for _ in range(5000):
        if state.phase != "active" or state.round > ROUNDS:
            break
        played = turn(rules, state, roller)
        if played.round != state.round:
            samples.append(Sample(str(state.round), state))
        state = played
    if state.round <= ROUNDS and samples[-1].state is not state:  # the fight ended mid-round
        samples.append(Sample(str(state.round), state))
    return samples


def turn(rules: Any, state: Any, roller: RandomRoller) -> Any:
    """One command of the script for whoever's turn it is: a breather when its Stamina is
    below a third, else an attack on the first enemy standing (nobody reacts), else the end of
    its turn. Returns the state after it."""
    me = state.current
    enemies = [
        c for c in state.combatants if c.is_npc != me.is_npc and c.health > 0 and not c.conditions
    ]
    if me.stamina < me.sheet.stamina // 3 and not me.conditions:
        command: Any = Breather(actor=me.id)
    elif enemies and not me.conditions:
        command = Attack(actor=me.id, target=enemies[0].id, attack=me.sheet.weapons[0].name)
    else:
        command = EndTurn(actor=me.id)
    try:
        state = rules.apply(state, command, roller, NOW).state
    except DomainError:
        return rules.apply(state, EndTurn(actor=me.id), roller, NOW).state
    while state.pending is not None:
        state = rules.apply(state, rules.lapse(state), roller, NOW).state
    return state


def main() -> int:
    rules = get_ruleset("uttas")
    samples = scripted_fight()
    for audience, name in ((PUBLIC, "public"), (GM, "gm")):
        data = chart_data(rules, samples, audience, title="Firewood")
        path = ROOT / "docs" / f"fight-chart-{name}.png"
        path.write_bytes(render_png(data, LIMIT))
        print(f"{path.relative_to(ROOT)}: {path.stat().st_size:,} bytes — {data.alt_text()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
