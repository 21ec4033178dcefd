"""Commands that move the fight on say which turn they were issued for; the turn holder who
cannot act loses the turn; a fight that ends is ``finished`` until the GM closes it."""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine.core.commands import Begin, EndTurn, NextTurn, RemoveCombatant, SkipTurn
from bot.engine.uttas.commands import SetCondition, SetVitals
from bot.engine.uttas.state import UttasState
from bot.errors import Conflict, RuleViolation
from tests.engine.helpers import NOW, Fight


def fight() -> tuple[Fight, str, str, str]:
    f = Fight()
    a = f.add("Ann", agility=14)
    b = f.add("Bo", agility=12, npc=True)
    c = f.add("Cy", agility=10, npc=True)
    f.add("Dee", agility=8)
    f.begin()
    return f, a, b, c


def test_each_new_turn_counts_and_is_dated() -> None:
    f, a, b, _ = fight()
    assert f.state.turn == a and f.state.turn_seq == 1
    assert f.state.turn_started_at == NOW.isoformat()
    f.do(EndTurn(actor=a))
    assert f.state.turn == b and f.state.turn_seq == 2


def test_a_second_command_for_a_turn_that_ended_is_refused() -> None:
    f, _a, b, _ = fight()
    f.do(NextTurn(for_turn=1))
    before = f.state
    with pytest.raises(Conflict, match="That turn already ended: it is now Bo's"):
        f.rules.apply(f.state, NextTurn(for_turn=1), f.roller, NOW)
    with pytest.raises(Conflict, match="it is now Bo's"):
        f.rules.apply(f.state, SkipTurn(target=b, for_turn=1), f.roller, NOW)
    assert f.state is before


def test_a_command_issued_before_the_turn_began_is_refused() -> None:
    f, a, _b, _ = fight()
    f.do(EndTurn(actor=a))
    f.state = f.state.model_copy(update={"turn_marker": 1000})  # Bo's turn began at mark 1000
    with pytest.raises(Conflict, match="it is now Bo's"):
        f.rules.apply(f.state, NextTurn(issued=999), f.roller, NOW)
    with pytest.raises(Conflict, match="it is now Bo's"):
        f.rules.apply(f.state, NextTurn(issued=1000), f.roller, NOW)
    f.do(NextTurn(issued=1001))
    assert f.state.current is not None and f.state.current.name == "Cy"


@pytest.mark.parametrize(
    "command",
    [
        lambda t: SetVitals(target=t, health=0),
        lambda t: SetVitals(target=t, stamina=-5),
        lambda t: SetCondition(target=t, condition="Unconscious"),
        lambda t: SetCondition(target=t, condition="Dead"),
        lambda t: SetCondition(target=t, condition="Surrendered"),
    ],
)
def test_a_gm_tool_that_takes_the_turn_holder_out_passes_the_turn(command: Any) -> None:
    f, a, b, _ = fight()
    out = f.do(command(a))
    assert f.state.turn == b
    assert "the turn passes on" in out.text


def test_a_fight_that_ends_is_finished_and_refuses_turns_and_begin() -> None:
    f, a, b, c = fight()
    f.do(SetVitals(target=b, health=0))
    f.do(SetVitals(target=c, health=0))
    assert f.state.phase == "finished" and f.state.winner == "party" and f.state.turn is None
    with pytest.raises(RuleViolation, match=r"The fight is over \(party won\)"):
        f.rules.apply(f.state, EndTurn(actor=a), f.roller, NOW)
    with pytest.raises(Conflict, match="The fight is over"):
        f.rules.apply(f.state, Begin(), f.roller, NOW)


def test_a_fight_saved_as_setup_after_it_ended_loads_as_finished() -> None:
    f, _, b, c = fight()
    f.do(SetVitals(target=b, health=0))
    f.do(SetVitals(target=c, health=0))
    raw = f.state.model_dump(mode="json")
    raw["phase"] = "setup"  # how the wave-1 code stored a fight that ended
    assert UttasState.model_validate(raw).phase == "finished"
    fresh = f.rules.new_encounter(name="New", seed=1).model_dump(mode="json")
    assert UttasState.model_validate(fresh).phase == "setup"


def test_removing_the_last_foe_ends_the_fight() -> None:
    """`/gm remove` of the last NPC left the party cycling rounds forever: the fight ends when
    the last of a side leaves, as when it falls."""
    f = Fight()
    a = f.add("Ann", agility=14)
    f.add("Dee", agility=8)
    b = f.add("Bo", agility=12, npc=True)
    f.begin()
    f.do(EndTurn(actor=a))
    assert f.state.turn == b
    out = f.do(RemoveCombatant(combatant=b))
    assert f.state.phase == "finished" and f.state.winner == "party"
    assert "Winner: the party side." in out.text
