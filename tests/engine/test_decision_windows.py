"""Every decision kind of every system titles its timed-out post by its own kind of window.

``DecisionWords.window`` names the window whose end the bot posts ("Reaction window over"); it
defaults to ``reaction``, a defender's choice. A decision that is not a reaction and forgets to
set it — an approval, a roll's spends, an Assist, a surrendered attack's choice — would post
"Reaction window over" when nobody reacted to anything. This guard builds every decision model
each system's state can hold (found from the state model, so a new kind fails here until it is
given a sample), in every variant its literal fields allow, and checks the words: a reaction
says ``reaction``; anything else says its own window, not ``reaction``."""

from __future__ import annotations

import itertools
import json
import typing
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, get_args, get_origin

import pytest

from bot.engine import get_ruleset
from bot.engine.core.audience import PUBLIC
from bot.engine.core.commands import Begin
from bot.engine.core.decisions import DecisionBase
from bot.engine.core.dice import RandomRoller
from bot.engine.registry import REGISTRY
from bot.engine.uune import commands as u
from tests.engine.helpers import NOW
from tests.engine.test_uune_engine import Table as UuneTable

ROOT = Path(__file__).resolve().parents[2]
CAST = {
    "uttas": ("willow", "thug"),
    "utopia": ("vesna", "stone-hound"),
    "untitled": ("wren", "hill-giant"),
    "uune": ("mira", "dock-thug"),
}
"""Two example sheets per system (data/sheets/<system>/): the decisions' actor and target."""

REACTIONS: dict[tuple[str, str], Callable[[Any], bool]] = {
    ("uttas", "PendingAttack"): lambda d: d.awaiting == "reaction",
    ("utopia", "DamageDecision"): lambda d: True,
    ("untitled", "ShieldDecision"): lambda d: True,
}
"""The decisions that are a defender's reaction to an attack (their window is ``reaction``);
every other decision is not."""


def _state(key: str) -> Any:
    rules = get_ruleset(key)
    state = rules.new_encounter(name="Windows", seed=1)
    for i, slug in enumerate(CAST[key]):
        text = (ROOT / "data" / "sheets" / key / f"{slug}.json").read_text()
        sheet = rules.parse_sheet(json.dumps(json.loads(text)))
        state = rules.apply(
            state, rules.add_command(name=f"C{i}", sheet=sheet), RandomRoller(seed=1), NOW
        ).state
    return rules.apply(state, Begin(), RandomRoller(seed=1), NOW).state


def _uune_roll() -> Any:
    """A real Uune action roll (a SpendDecision's), as a fight makes it."""
    t = UuneTable(6, 5)
    t.do(u.RollAction(actor="c1", action="leap the gap", resources=("Quickblade",)))
    t.do(u.Approve(actor="c1", decision=t.open.id, difficulty=2, approve=("Quickblade",)))
    return t.open.roll


def _base(name: str, a: str, b: str) -> list[dict[str, Any]]:
    """The fields each decision model needs, in the variants its non-literal fields matter in
    (a Uune approval with and without a difficulty, with and without resources waiting)."""
    damage = {
        "attacker": a,
        "target": b,
        "source": "Sword",
        "damage_type": "physical",
        "rolled": 4,
        "damage": 4,
    }
    bases: dict[str, list[dict[str, Any]]] = {
        "PendingAttack": [{"attacker": a, "target": b, "attack": "Sword"}],
        "DamageDecision": [damage],
        "AssistDecision": [{"hit": damage, "defense": "block"}],
        "ShieldDecision": [{"attacker": a, "target": b, "weapon": "Sword"}],
        "ApprovalDecision": [
            {"actor": a, "action": "leap", **more}
            for more in (
                {},
                {"difficulty": 2},
                {"proposed": ("Bond 1",)},
                {"proposed": ("Bond 1",), "difficulty": 2, "approved": ("Bond 1",)},
                {"target": b, "attacker": b, "attack": "Cudgel"},
            )
        ],
        "SpendDecision": [{"actor": a, "action": "leap", "roll": _uune_roll()}],
    }
    if name not in bases:
        pytest.fail(f"{name}: a decision kind with no sample here; add one to _base")
    return bases[name]


def _kinds(key: str) -> list[type[DecisionBase]]:
    """The decision models system ``key``'s state holds (its ``decisions`` list's items)."""
    found: list[type[DecisionBase]] = []

    def walk(t: Any) -> None:
        if isinstance(t, type) and issubclass(t, DecisionBase):
            found.append(t)
        for arg in get_args(t):
            walk(arg)

    walk(get_ruleset(key).state_model.model_fields["decisions"].annotation)
    return found


def _variants(cls: type[DecisionBase], base: dict[str, Any]) -> Iterator[DecisionBase]:
    """``cls`` built from ``base`` in every combination of its literal fields' values (not
    ``kind`` and ``stage``, which name it)."""
    literal = {
        name: get_args(f.annotation)
        for name, f in cls.model_fields.items()
        if get_origin(f.annotation) is typing.Literal and name not in ("kind", "stage")
    }
    for values in itertools.product(*literal.values()):
        yield cls.model_validate({**base, **dict(zip(literal, values, strict=True)), "id": 1})


CASES = [(key, cls) for key in REGISTRY.implemented for cls in _kinds(key)]


def test_every_system_has_decision_kinds() -> None:
    assert {key for key, _ in CASES} == set(REGISTRY.implemented)


@pytest.mark.parametrize(("key", "cls"), CASES, ids=[f"{k}-{c.__name__}" for k, c in CASES])
def test_a_decision_titles_its_timed_out_post_by_its_own_window(
    key: str, cls: type[DecisionBase]
) -> None:
    rules = get_ruleset(key)
    state = _state(key)
    a, b = (c.id for c in state.combatants)
    public = rules.view(state, PUBLIC)
    reaction = REACTIONS.get((key, cls.__name__))
    seen = 0
    for base in _base(cls.__name__, a, b):
        for d in _variants(cls, base):
            seen += 1
            words = rules.decision_words(state, d, {}, public)
            if reaction is not None and reaction(d):
                assert words.window == "reaction", (d, words)
                assert words.over == "Reaction window over", words
            else:
                assert words.window != "reaction", (
                    f"{key} {cls.__name__} {d.model_dump(exclude_defaults=True)} is not a "
                    "reaction but its timed-out post would read 'Reaction window over': set "
                    "its DecisionWords.window"
                )
                assert words.window.lower() in words.over.lower(), words
    assert seen
