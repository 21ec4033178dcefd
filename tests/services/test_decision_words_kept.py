"""A decision's words are worked out once per state (issue 15, "CPU diet"): the command that
shows a decision and the button that answers it share them, as they share its choices
(:func:`bot.services.decisions._kept`), and a newer state gets its own."""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine import get_ruleset
from bot.engine.core.commands import EndTurn
from bot.engine.uttas.commands import Attack
from bot.store.db import Database
from tests.services.test_undo import PLAYER, Table, fight


@pytest.mark.state_cache  # the words are kept per parsed state, which --parsed-states drops
async def test_a_decision_shown_then_answered_is_put_in_words_once(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    t = Table(db)
    willow, thug = await fight(t)
    await t.gm(lambda cur: EndTurn(actor=cur.state.turn))
    rules = type(get_ruleset("uttas"))
    original = rules.decision_words
    asked: list[int] = []

    def counted(self: Any, state: Any, decision: Any, *args: Any) -> Any:
        asked.append(decision.id)
        return original(self, state, decision, *args)

    monkeypatch.setattr(rules, "decision_words", counted)
    shown = await t.gm(lambda cur: Attack(actor=thug, target=willow, attack="Sword"))
    assert shown.decision is not None
    title = shown.decision.title  # what the channel's prompt says
    assert "Willow" in title and "Sword" in title
    answered = await t.combat.decide(
        shown.encounter.id, shown.decision.pending_version, PLAYER, "none"
    )
    assert answered.label == title  # the answer names the decision as it was shown
    assert asked == [shown.decision.engine.id]
    # The next attack is a new state and a new decision: put in words afresh.
    for _ in range(4):  # on to the thug's next turn
        if (await t.live()).state.turn == thug:
            break
        await t.gm(lambda cur: EndTurn(actor=cur.state.turn))
    again = await t.gm(lambda cur: Attack(actor=thug, target=willow, attack="Sword"))
    assert again.decision is not None and again.decision.title == title
    assert len(asked) == 2
