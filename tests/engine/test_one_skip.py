"""The GM's ``/gm skip`` of a combatant already set to skip its next turn: every system's newest
rules version refuses it (it changed nothing and said so again); the versions before noted it
again and still do, so their logs replay (the core's reading ``"one_skip"``,
:meth:`bot.engine.core.tx.CoreTx.plays`)."""

from __future__ import annotations

import random

import pytest

from bot.engine.core.commands import SkipTurn
from bot.engine.core.dice import RandomRoller
from bot.errors import RuleViolation
from tests.engine.helpers import NOW
from tests.engine.test_removal_ends_fight import FIRST, NEWEST, _begun, _rules


@pytest.mark.parametrize("key", sorted(NEWEST))
def test_a_second_skip_of_the_same_next_turn_is_refused_in_the_newest_version(key: str) -> None:
    rules = _rules(key, NEWEST[key])
    state = _begun(rules, key, 3)
    waiting = next(c for c in state.combatants if c.id != state.turn)
    skip = SkipTurn(target=waiting.id)
    once = rules.apply(state, skip, RandomRoller(random.Random(1)), NOW)
    assert once.state.get(waiting.id).skip_next_turn
    with pytest.raises(RuleViolation, match="already skips their next turn"):
        rules.apply(once.state, skip, RandomRoller(random.Random(1)), NOW)
    old = _rules(key, FIRST[key] - 1)
    again = old.apply(once.state, skip, RandomRoller(random.Random(1)), NOW)
    assert any("will skip their next turn" in e.text for e in again.events)
