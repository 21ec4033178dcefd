"""Benchmark: the engine's share of ``service_throughput.py``'s command mix, without the services,
the database or serialisation — what ``bot/engine`` costs per command there.

The same fights as the service benchmark (five-combatant UTTAS encounters: two player characters
against three NPC thugs, durable sheets) and the same choices: answer a waiting attack (evade, or
none), else the current combatant attacks the first foe standing (or ends its turn when short of
Stamina). Each command makes the engine calls the command path makes for it
(``bot/services/combat.py``): ``apply``; after it, the NPC lapse check (``_auto_decide``: for
each open decision whose subject is an NPC, ``reaction_options`` of every player combatant, then
``lapse`` and ``apply``); for a decision shown to the table, ``decision_options`` once (the
services keep them per state) and ``decision_words``; the answer through ``answer``.

Run: ``.venv/bin/python benchmarks/engine_mix.py [--commands N] [--channels K] [--runs R]``.
Prints, per run, µs per command (mean over the run) and then the median of the runs, and the
share of the engine's time in each call. Times are this thread's CPU time
(``time.thread_time``), so other work on a shared machine inflates them less than wall time.
A benchmark, not a test: compare figures within one run of it, or medians of several runs
minutes apart on the same machine.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import defaultdict
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.engine import RandomRoller, get_ruleset  # noqa: E402
from bot.engine.core.audience import PUBLIC  # noqa: E402
from bot.engine.core.commands import Begin, EndTurn  # noqa: E402
from bot.engine.uttas.commands import AddCombatant, Attack  # noqa: E402
from bot.engine.uttas.sheet import UttasSheet  # noqa: E402
from bot.services.combat import npc_lapse  # noqa: E402

SHEETS = ROOT / "data" / "sheets" / "uttas"


def durable(name: str) -> UttasSheet:
    """An example sheet with the most Health and Stamina a sheet may have, so fights last (as
    ``service_throughput.durable``)."""
    data = json.loads((SHEETS / name).read_text())
    data.update(health=10_000, stamina=10_000)
    return UttasSheet.model_validate(data)


class Channel:
    """One fight and its engine calls, command by command."""

    def __init__(self, rules: Any, seed: int, now: datetime) -> None:
        self.rules, self.now = rules, now
        self.rng = random.Random(seed)
        hero, thug = durable("willow.json"), durable("thug.json")
        roster = [("Willow", hero, 10, False), ("Ally", hero, 11, False)]
        roster += [(f"Thug {i}", thug, None, True) for i in (1, 2, 3)]
        state = rules.new_encounter(name=f"Bench {seed}", seed=seed)
        for name, sheet, controller, npc in roster:
            add = AddCombatant(name=name, sheet=sheet, controller_id=controller, is_npc=npc)
            state = rules.apply(state, add, self.roller(), now).state
        self.state = rules.apply(state, Begin(), self.roller(), now).state

    def roller(self) -> RandomRoller:
        return RandomRoller(self.rng)

    def command(self, spent: dict[str, float]) -> None:
        """One command of the mix; adds the seconds each engine call took to ``spent``."""
        clock = time.thread_time  # CPU time: the machine's other work does not count
        rules, state = self.rules, self.state
        if state.decisions:
            decision = state.decisions[-1]
            t0 = clock()
            deciders = rules.decision_options(state, decision)
            t1 = clock()
            rules.decision_words(state, decision, deciders, rules.view(state, PUBLIC))
            t2 = clock()
            subject = rules.decision_subject(state, decision)
            options = deciders.get(subject or "") or next(iter(deciders.values()))
            choice = next((o for o in options if o.choice in ("evade", "none")), options[0])
            decider = state.get(subject) if subject in deciders else state.get(next(iter(deciders)))
            command = rules.answer(state, decider, choice, decision)
            t3 = clock()
            spent["decision_options"] += t1 - t0
            spent["decision_words"] += t2 - t1
            spent["answer"] += t3 - t2
        else:
            me = state.get(state.turn)
            foes = [c for c in state.combatants if c.side != me.side and c.health > 0]
            if not foes or me.stamina < 20:
                command = EndTurn(actor=me.id)
            else:
                command = Attack(actor=me.id, target=foes[0].id, attack=me.sheet.weapons[0].name)
        self.now += timedelta(seconds=1)
        t0 = clock()
        state = rules.apply(state, command, self.roller(), self.now).state
        t1 = clock()
        spent["apply"] += t1 - t0
        self.state = self.auto_decide(state, spent)

    def auto_decide(self, state: Any, spent: dict[str, float]) -> Any:
        """``CombatService._auto_decide``: an NPC's reaction no player could give lapses."""
        rules, clock = self.rules, time.thread_time
        while True:
            t0 = clock()
            lapsing = npc_lapse(rules, state)
            t1 = clock()
            spent["lapse check"] += t1 - t0
            if lapsing is None:
                return state
            state = rules.apply(state, rules.lapse(state, lapsing), self.roller(), self.now).state
            spent["apply (lapse)"] += clock() - t1


def run(commands: int, channels: int) -> tuple[float, dict[str, float]]:
    """``commands`` commands over ``channels`` fights, round-robin → (µs per command, seconds
    by engine call)."""
    rules = get_ruleset("uttas")
    now = datetime(2026, 1, 1, tzinfo=UTC)
    fights = [Channel(rules, seed, now) for seed in range(1, channels + 1)]
    for fight in fights:  # warm up: the first commands of every fight, not counted
        for _ in range(10):
            fight.command(defaultdict(float))
    spent: dict[str, float] = defaultdict(float)
    for n in range(commands):
        fights[n % channels].command(spent)
    return 1e6 * sum(spent.values()) / commands, spent


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--commands", type=int, default=4000)
    parser.add_argument("--channels", type=int, default=100)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    per_command: list[float] = []
    total: dict[str, float] = defaultdict(float)
    for i in range(args.runs):
        us, spent = run(args.commands, args.channels)
        per_command.append(us)
        for k, v in spent.items():
            total[k] += v
        print(f"run {i + 1}: {us:.1f} µs of engine calls per command ({args.commands} commands)")
    whole = sum(total.values())
    shares = ", ".join(
        f"{k} {100 * v / whole:.0f} %" for k, v in sorted(total.items(), key=lambda kv: -kv[1])
    )
    print(f"median {statistics.median(per_command):.1f} µs per command; by call: {shares}")


if __name__ == "__main__":
    main()
