"""``/act`` as careless or hostile members type it, in every game system: any action (listed,
by label, or made up), any target, any ``detail:`` (the suggestions, lists of them, colons,
Markdown, dice nonsense, 300 characters) and any ``amount:`` (0 to 10,000, as Discord allows),
by any combatant, in fights played some way in. ``Ruleset.act`` either builds a command or
refuses with a :class:`~bot.errors.DomainError` (or a command's own validation error, which
the service words as the option's problem: ``_option_problem``); applying the command either
plays or refuses with one, and a refusal leaves the state as it was. Anything else is an
internal error a member would hit. (The contract suite draws commands; this draws what
``/act`` turns into them.) Run with 3,000 examples a system when written: none failed."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from bot.engine import get_ruleset
from bot.engine.core.dice import RandomRoller
from bot.engine.core.verbs import ActInput, spec_for
from bot.errors import DomainError
from bot.services.encounters import _option_problem
from tests.engine.helpers import NOW
from tests.engine.rehearsed import CASTS, begun, rehearse

NONSENSE = st.sampled_from(
    [
        "",
        " ",
        ",",
        ", ,",
        ":",
        "a: b, c",
        "999999d999999",
        "1d0",
        "-1",
        "0",
        "**bold**",
        "@everyone",
        "<@123>",
        "x" * 300,
        "all",
        "none",
        "self",
        "Willow",
        "Thug",
        "Hound",
        "land",
        "melee",
    ]
)


def _fight(key: str, seed: int, steps: int) -> tuple[Any, Any]:
    """The system's three-member cast, begun and played ``steps`` commands in by its rehearsal
    policy (seeded): the rules and the state."""
    rules = get_ruleset(key)
    roller = RandomRoller(random.Random(seed))
    return rules, rehearse(rules, begun(rules, key, roller, seed=seed), roller, steps)


@pytest.mark.parametrize("key", sorted(CASTS))
@given(data=st.data())
def test_act_builds_or_refuses_clearly_and_a_refusal_changes_nothing(
    key: str, data: st.DataObject
) -> None:
    seed = data.draw(st.integers(0, 10**6), label="seed")
    rules, state = _fight(key, seed, data.draw(st.integers(0, 30), label="steps"))
    me = data.draw(st.sampled_from(state.combatants), label="actor")
    specs = rules.actions(state, me)
    listed = st.sampled_from(specs) if specs else st.nothing()
    action = data.draw(
        st.one_of(
            listed.map(lambda s: s.key),
            listed.map(lambda s: s.label),
            listed.map(lambda s: s.label.upper()),
            st.text(max_size=20),
        ),
        label="action",
    )
    spec = spec_for(specs, action)
    key_typed = spec.key if spec is not None else action
    suggested = [value for _, value in rules.detail_choices(state, me, key_typed, "")]
    detail = data.draw(
        st.one_of(
            st.none(),
            st.sampled_from(suggested) if suggested else st.nothing(),
            st.lists(st.sampled_from(suggested), min_size=2, max_size=3).map(", ".join)
            if suggested
            else st.nothing(),
            NONSENSE,
            st.text(min_size=1, max_size=40),
        ),
        label="detail",
    )
    amount = data.draw(
        st.one_of(st.none(), st.integers(0, 20).map(float), st.floats(0.0, 10_000.0)),
        label="amount",
    )
    target = data.draw(
        st.one_of(st.none(), st.sampled_from([c.id for c in state.combatants])), label="target"
    )
    before = state.model_dump_json()
    try:  # a blank detail is refused as the member gives it (ActInput's own validation)
        given_input = ActInput(key=key_typed, target=target, detail=detail, amount=amount)
        command = rules.act(state, me, given_input)
        rules.apply(state, command, RandomRoller(random.Random(seed)), NOW)
    except DomainError as refusal:
        assert refusal.message.strip(), "an empty refusal"
    except ValidationError as error:  # an option out of a command's range: the service says
        assert _option_problem(error).strip()  # which (EncounterService._compute)
    assert state.model_dump_json() == before, "the state given was changed"
