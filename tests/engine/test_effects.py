"""Effects with scope, level and end, shared by every ruleset (issue 10 §3): the turn cycle ends
them at their moment, the Game Master ends a scene, day, quest or arc, levels stack, hooks act
at their moment, and a state stored before effects loads with its conditions as effects."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import ValidationError

from bot.engine.core.commands import EndPeriod, EndTurn
from bot.engine.core.effects import Effect, Ends, Moment, ended_by, tick
from bot.engine.core.events import ConditionChanged
from bot.engine.uttas.commands import SetCondition, Sprint
from bot.engine.uttas.core import Tx
from bot.errors import RuleViolation
from tests.engine.helpers import NOW, RULES, Fight


def trio() -> tuple[Fight, str, str, str]:
    """Ann (fastest), Bob, Cy — Ann's turn."""
    f = Fight()
    a = f.add("Ann", agility=14)
    b = f.add("Bob", agility=12, npc=True)
    c = f.add("Cy", agility=10)
    f.begin(dice=[])
    assert f.state.turn == a
    return f, a, b, c


def end_turn(f: Fight) -> None:
    assert f.state.turn is not None
    f.do(EndTurn(actor=f.state.turn))


def changes(f: Fight) -> list[ConditionChanged]:
    return [e for e in f.log[-1].events if isinstance(e, ConditionChanged)]


def test_until_the_start_of_its_next_turn() -> None:
    f, _a, b, _c = trio()
    f.do(SetCondition(target=b, condition="Prone", lasts="start_of_next_turn"))
    assert "until the start of Bob's next turn" in f.texts()
    end_turn(f)  # Ann's ends: Bob's starts, and Prone ends first
    assert f.state.turn == b and not f.c(b).has("Prone")
    assert [x.reason for x in changes(f)] == ["its time ran out"]


def test_until_the_end_of_its_next_turn_counts_from_the_turn_it_is_in() -> None:
    f, a, _b, _c = trio()
    f.do(SetCondition(target=a, condition="Prone", lasts="end_of_next_turn"))  # Ann's own turn
    end_turn(f)  # the end of this turn is not the end of the next one
    assert f.c(a).has("Prone")
    end_turn(f)
    end_turn(f)  # round 2: Ann's turn
    assert f.state.turn == a and f.c(a).has("Prone")
    end_turn(f)  # its next turn ends
    assert not f.c(a).has("Prone")
    f2, _a2, b2, _ = trio()
    f2.do(SetCondition(target=b2, condition="Prone", lasts="end_of_next_turn"))  # not Bob's turn
    end_turn(f2)
    assert f2.c(b2).has("Prone")
    end_turn(f2)  # Bob's next turn ends
    assert not f2.c(b2).has("Prone")


def test_for_two_rounds() -> None:
    f, _a, _b, c = trio()
    f.do(SetCondition(target=c, condition="Entangled", lasts="rounds", rounds=2))
    for _ in range(3):
        end_turn(f)
    assert f.state.round == 2 and f.c(c).has("Entangled")
    for _ in range(3):
        end_turn(f)
    assert f.state.round == 3 and not f.c(c).has("Entangled")


def test_the_gm_ends_a_period_and_every_shorter_scope_with_it() -> None:
    f, a, b, c = trio()
    f.do(SetCondition(target=a, condition="Prone", lasts="scene"))
    f.do(SetCondition(target=b, condition="Entangled", lasts="day"))
    f.do(SetCondition(target=c, condition="Prone"))  # until removed
    f.do(EndPeriod(period="scene"))
    assert not f.c(a).has("Prone") and f.c(b).has("Entangled") and f.c(c).has("Prone")
    assert "the scene ended" in f.log[-1].text
    f.do(EndPeriod(period="quest"))  # a quest's end ends the day's effects too
    assert not f.c(b).has("Entangled") and f.c(c).has("Prone")
    f.do(EndPeriod(period="arc"))
    assert f.c(c).has("Prone")  # a rule (standing up) or the GM removes it
    assert "no effect lasted only that long" in f.log[-1].text
    assert ended_by("day") == {"action", "turn", "round", "scene", "day"}


def test_a_rule_driven_condition_has_no_set_duration() -> None:
    f, _a, b, _c = trio()
    for name in ("Dead", "Unconscious"):
        with pytest.raises(RuleViolation, match="no set duration"):
            f.do(SetCondition(target=b, condition=name, lasts="scene"))
    with pytest.raises(ValidationError):
        SetCondition(target=b, condition="Prone", lasts="rounds")
    with pytest.raises(ValidationError):
        SetCondition(target=b, condition="Prone", rounds=2)


def test_a_sprint_ends_at_the_sprinters_next_turn() -> None:
    f, a, _b, c = trio()
    f.do(Sprint(actor=a, meters=10))
    sprint = f.c(a).effect("Sprinting")
    assert sprint.ends == Ends(moment="turn_start", of=a)
    while f.state.turn != c:  # (a sprint may be the turn's action)
        end_turn(f)
    assert f.c(a).has("Sprinting")
    end_turn(f)
    assert f.state.turn == a and not f.c(a).has("Sprinting")


class Recording(Tx):
    __slots__ = ("calls",)

    def effect_hook(self, cid: str, effect: Effect, moment: Moment) -> None:
        self.calls.append((cid, effect.name, moment))


def test_levels_stack_and_come_off_one_at_a_time_and_hooks_act_at_their_moment() -> None:
    f, _a, b, c = trio()
    tx = Recording(f.state, RULES.tables, f.roller, NOW, RULES.economy, RULES.turn_order)
    tx.calls = []
    tx.gain(b, "Bleeding", "a wound", stack=True, hook="round_start")
    tx.gain(b, "Bleeding", "another wound", stack=True, hook="round_start")
    tx.gain(c, "Dazed", "a blow", hook="turn_start")
    assert tx.view(b).effect("Bleeding").level == 2
    assert tx.view(b).condition_labels() == ["Bleeding 2"]
    tx.tick_effects("turn_start", b)  # Bob's turn: Cy's turn-start hook is not for it
    tx.tick_effects("round_start", None)
    tx.tick_effects("turn_start", c)
    assert tx.calls == [(b, "Bleeding", "round_start"), (c, "Dazed", "turn_start")]
    tx.lose(b, "Bleeding", "bandaged", levels=1)
    assert tx.view(b).effect("Bleeding").level == 1
    tx.lose(b, "Bleeding", "bandaged", levels=1)
    assert not tx.view(b).has("Bleeding")
    texts = [e.text for e in tx.events if isinstance(e, ConditionChanged)]
    assert texts[-2:] == [
        "Bob is now Bleeding (bandaged).",
        "Bob is no longer Bleeding (bandaged).",
    ]
    assert f.c(b).effects == []  # the transaction never touched the caller's state


def test_tick_counts_down_only_its_own_moments() -> None:
    twice = Effect(name="Braced", ends=Ends(moment="turn_end", of="c1", left=2))
    kept, ended, _ = tick([twice], "turn_end", "c2", owner="c1")
    assert kept == [twice] and ended == []
    kept, ended, _ = tick(kept, "turn_end", "c1", owner="c1")
    assert kept[0].ends is not None and kept[0].ends.left == 1
    kept, ended, _ = tick(kept, "turn_end", "c1", owner="c1")
    assert kept == [] and ended[0].name == "Braced"
    a_turn = Effect(name="Focused", scope="turn")
    assert tick([a_turn], "turn_end", "c9", owner="c1")[1] == [a_turn]


def test_a_state_stored_before_effects_loads_with_its_conditions_as_effects() -> None:
    f, a, b, _c = trio()
    f.do(Sprint(actor=a, meters=5))
    f.do(SetCondition(target=b, condition="Prone"))
    raw: dict[str, Any] = json.loads(f.state.model_dump_json())
    for combatant in raw["combatants"]:  # as the wave-1 code stored them
        effects = combatant.pop("effects")
        combatant["conditions"] = [e["name"] for e in effects]
        combatant["sprinting"] = combatant["id"] == a
    loaded = RULES.load_state(json.dumps(raw))
    assert loaded.get(b).effects == [Effect(name="Prone")]
    assert loaded.get(a).effect("Sprinting").ends == Ends(moment="turn_start", of=a)
    assert loaded.model_dump() == f.state.model_dump()


def test_the_gm_gives_a_condition_a_new_duration_in_place() -> None:
    f, _a, b, _c = trio()
    f.do(SetCondition(target=b, condition="Prone", lasts="scene"))
    f.do(SetCondition(target=b, condition="Prone", lasts="rounds", rounds=2))
    held = f.c(b).effect("Prone")
    assert held.scope == "round" and held.ends == Ends(moment="round_start", left=2)
    assert "Bob is now Prone (by the Game Master, for 2 more rounds)." in f.log[-1].text
    # the same duration again: nothing changes, and the GM is told so (refused from rules
    # version 7; version 6's note: tests/engine/test_uttas_v7.py)
    with pytest.raises(RuleViolation, match=r"^Bob is already Prone, for 2 more rounds: nothing"):
        f.do(SetCondition(target=b, condition="Prone", lasts="rounds", rounds=2))
    assert f.c(b).effect("Prone") == held
