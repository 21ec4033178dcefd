"""Standing reactions' words and choice (issue 17; :mod:`bot.engine.core.standing`): what a
typed rule means, and which offered option it takes — only one the combatant can afford."""

from __future__ import annotations

import importlib

import pytest

from bot.engine import RULESET_KEYS, ReactionOption, get_ruleset
from bot.engine.core.standing import LAPSE, StandingStep, parse_rule, pick
from bot.errors import InvalidInput

UTTAS = get_ruleset("uttas").standing_words()


def test_a_typed_rule_becomes_ordered_steps() -> None:
    rule = parse_rule("Evade if I can afford it, else take it", UTTAS, "UTTAS")
    assert rule.steps == (StandingStep(choice="evade"), StandingStep(choice=LAPSE))
    rule = parse_rule("block against melee; dodge", UTTAS, "UTTAS")
    assert rule.steps == (
        StandingStep(choice="block", condition="melee"),
        StandingStep(choice="evade"),
    )


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("", "Write the rule"),
        ("fly", "`fly` is not a standing choice"),
        ("block vs dragons", "`dragons` is not a condition"),
        ("block, evade, move, block, evade, move", "at most 5 steps"),
        ("x" * 201, "at most 200 characters"),
    ],
)
def test_rules_not_understood_are_refused_by_name(text: str, error: str) -> None:
    with pytest.raises(InvalidInput, match=error):
        parse_rule(text, UTTAS, "UTTAS")


def test_a_system_without_standing_reactions_refuses_any_rule() -> None:
    words = get_ruleset("uune").standing_words()
    with pytest.raises(InvalidInput, match="has no standing reactions"):
        parse_rule("block", words, "Uune")


NONE = ReactionOption(choice="none", label="No reaction")
EVADE = ReactionOption(choice="evade", label="Evade", actions=1)
FANCY = ReactionOption(choice="evade", label="Wind Step", maneuver="Wind Step", actions=1)
BLOCK = ReactionOption(choice="block", label="Block", actions=1)


def test_pick_takes_the_first_affordable_step_and_the_basic_option() -> None:
    rule = parse_rule("evade, block", UTTAS, "UTTAS")
    assert pick(rule, [NONE, FANCY, EVADE, BLOCK], lambda _: True) == EVADE
    # Evade is not offered (it cannot be afforded now): the next step.
    assert pick(rule, [NONE, BLOCK], lambda _: True) == BLOCK
    assert pick(rule, [NONE], lambda _: True) is None


def test_pick_skips_steps_whose_condition_does_not_hold_and_stops_at_take_it() -> None:
    rule = parse_rule("block against melee, take it, evade", UTTAS, "UTTAS")
    assert pick(rule, [EVADE, BLOCK], lambda c: c == "melee") == BLOCK
    assert pick(rule, [EVADE, BLOCK], lambda c: False) is None  # "take it" comes first


@pytest.mark.parametrize("key", sorted(RULESET_KEYS))
def test_each_systems_breather_is_one_of_its_actions(key: str) -> None:
    """The turn ping's breather button names an action ``/act`` has (issue 17): checked for
    every registered system, so a renamed action cannot leave a dead button."""
    rules = get_ruleset(key)
    breather = rules.breather_action()
    if breather is None:
        return
    keys = {spec.key for spec in importlib.import_module(f"bot.engine.{key}.verbs").ACTIONS}
    assert breather in keys, (key, breather, sorted(keys))
