"""Fights of the example sheets, played by each system's rehearsal policy — what the fuzz and
version tests play (the golden logs' recorder, ``tests/fixtures/make_golden_logs.py``, plays
the same way and keeps its own copy, frozen with the files it wrote)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bot.engine.core.commands import Begin
from bot.engine.core.dice import DiceRoller
from bot.errors import DomainError
from tests.engine.helpers import NOW

ROOT = Path(__file__).resolve().parents[2]

CASTS: dict[str, tuple[tuple[str, str, bool], ...]] = {
    "uttas": (("Willow", "willow", False), ("Brawler", "brawler", False), ("Thug", "thug", True)),
    "utopia": (
        ("Vesna", "vesna", False),
        ("Brannoc", "brannoc", False),
        ("Hound", "stone-hound", True),
    ),
    "untitled": (("Wren", "wren", False), ("Brask", "brask", False), ("Giant", "hill-giant", True)),
    "uune": (("Mira", "mira", False), ("Tobin", "tobin", False), ("Thug", "dock-thug", True)),
}
"""Each system's cast: ``(name, example sheet, is an NPC)`` — two players' characters and the
GM's NPC."""


def example(rules: Any, key: str, stem: str) -> Any:
    """The example sheet ``data/sheets/<key>/<stem>.json``, parsed by ``rules``."""
    data = json.loads((ROOT / "data" / "sheets" / key / f"{stem}.json").read_text())
    return rules.parse_sheet(data)


def begun(
    rules: Any,
    key: str,
    roller: DiceRoller,
    *,
    seed: int = 7,
    cast: Sequence[tuple[str, Any, bool]] | None = None,
) -> Any:
    """A fight by ``rules`` of ``cast`` (``(name, sheet or example stem, is an NPC)``; default
    the system's :data:`CASTS`), begun. A refusal on the way (a join or the start) raises its
    :class:`DomainError`."""
    state = rules.new_encounter(name="Rehearsed", seed=seed)
    for name, sheet, npc in CASTS[key] if cast is None else cast:
        parsed = example(rules, key, sheet) if isinstance(sheet, str) else sheet
        add = rules.add_command(name=name, sheet=parsed, is_npc=npc)
        state = rules.apply(state, add, roller, NOW).state
    return rules.apply(state, Begin(), roller, NOW).state


def rehearse(rules: Any, state: Any, roller: DiceRoller, steps: int) -> Any:
    """Up to ``steps`` commands of the system's first rehearsal policy from ``state``: each
    step the first candidate the rules take (refusals skipped), else the open decision
    lapsed; ends early when the fight ends or nothing can be done. Errors other than a
    :class:`DomainError` propagate (the fuzz tests' point)."""
    policy = rules.rehearsal(rules.rehearsal_policies[0])
    for _ in range(steps):
        if state.phase != "active":
            break
        for command in policy.candidates(state):
            try:
                state = rules.apply(state, command, roller, NOW).state
            except DomainError:
                continue
            break
        else:
            try:
                state = rules.apply(state, rules.lapse(state), roller, NOW).state
            except DomainError:
                break
    return state
