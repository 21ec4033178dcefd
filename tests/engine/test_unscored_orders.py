"""An order no score or roll sets — Untitled's Storyteller's order, Uune's player characters
then NPCs — shows places and names only: the begin's order line names no Agility (UTTAS's
score) and no roll, for the GM either, and says whose order it is (``UNSCORED_ORDERS`` in
``bot/engine/core/events.py``). Every ruleset whose begin emits such an order is checked."""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine.core.audience import GM, PUBLIC
from bot.engine.core.dice import RandomRoller
from bot.engine.core.events import UNSCORED_ORDERS, InitiativeRolled
from bot.engine.untitled.ruleset import UntitledRuleset
from bot.engine.uune.ruleset import UuneRuleset
from tests.contract.harness_untitled import UntitledHarness
from tests.contract.harness_uune import UuneHarness
from tests.engine.helpers import NOW

CASES: list[tuple[Any, Any, str]] = [
    (UntitledRuleset(), UntitledHarness(), "Order (the Storyteller's; the GM changes it"),
    (UuneRuleset(), UuneHarness(), "Order (the player characters, then the NPCs)"),
]


@pytest.mark.parametrize(("rules", "harness", "heading"), CASES)
def test_an_unscored_order_shows_no_score(rules: Any, harness: Any, heading: str) -> None:
    state = rules.new_encounter(name="Ford", seed=1)
    order = None
    for command in harness.setup([harness.example_sheet()] * 3, [False, False, True]):
        outcome = rules.apply(state, command, RandomRoller(seed=1), NOW)
        state = outcome.state
        order = next((e for e in outcome.events if isinstance(e, InitiativeRolled)), order)
    assert order is not None and order.mode in UNSCORED_ORDERS
    for audience in (GM, PUBLIC):
        [line] = order.render(rules.view(state, audience))
        assert line.startswith(heading) and "1. F0, 2. F1, 3. F2" in line, line
        assert "Agility" not in line and "rolled" not in line and "Initiative" not in line
    assert order.text.startswith(heading)
