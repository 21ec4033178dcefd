"""Standing reactions' words and choice (issue 17; :mod:`bot.engine.core.standing`): what a
typed rule means, and which offered option it takes — only one the combatant can afford."""

from __future__ import annotations

import importlib

import pytest

from bot.engine import RULESET_KEYS, ReactionOption, get_ruleset
from bot.engine.core.standing import LAPSE, StandingStep, StandingWords, parse_rule, pick
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
    with pytest.raises(InvalidInput, match="has no standing reactions"):
        parse_rule("block", StandingWords(), "Nameless")


@pytest.mark.parametrize("key", sorted(RULESET_KEYS))
def test_every_system_has_standing_reactions(key: str) -> None:
    """Each registered system understands some standing words (issue 17)."""
    words = get_ruleset(key).standing_words()
    assert words.choices, key


@pytest.mark.parametrize("key", sorted(RULESET_KEYS))
def test_each_systems_example_rule_is_in_its_own_words(key: str) -> None:
    """The example ``/me reactions`` shows (its help line, the refusal of an empty rule) is a
    rule the system takes: UTTAS's `evade if I can afford it, else take it` was shown in every
    system, where `evade` is refused."""
    rules = get_ruleset(key)
    words = rules.standing_words()
    rule = parse_rule(words.shown_example, words, rules.title)
    assert any(step.choice != LAPSE for step in rule.steps), (key, words.shown_example)
    with pytest.raises(InvalidInput) as blank:
        parse_rule(" ", words, rules.title)
    assert words.shown_example in blank.value.message


UNTITLED = get_ruleset("untitled").standing_words()
UUNE = get_ruleset("uune")


def test_untitled_words_name_the_shield_or_combat_defense_alone() -> None:
    rule = parse_rule("combat defense alone against ranged, raise the shield", UNTITLED, "U")
    assert rule.steps == (
        StandingStep(choice="none", condition="ranged"),
        StandingStep(choice="shield"),
    )
    shield = ReactionOption(choice="shield", label="Raise the Oak heater shield")
    alone = ReactionOption(choice="none", label="Combat Defense alone")
    assert pick(rule, [shield, alone], lambda c: c == "ranged") == alone
    assert pick(rule, [shield, alone], lambda c: c == "melee") == shield


def test_uune_steps_name_a_spend_whatever_die_it_is_offered_on() -> None:
    rule = parse_rule("bump with vitality, reroll with vitality, keep", UUNE.standing_words(), "")
    keep = ReactionOption(choice="keep", label="Keep the roll")
    reroll = ReactionOption(choice="vitality_reroll:2", label="Reroll die 2 (5 vitality)")
    forced = ReactionOption(choice="npc_reroll:1", label="Force a reroll", gm=True)
    choice_of = UUNE.standing_choice
    assert pick(rule, [keep, reroll, forced], lambda _: True, choice_of) == reroll
    assert pick(rule, [keep, forced], lambda _: True, choice_of) == keep
    # Without the system's reading of its choices, "vitality_reroll:2" is no "vitality_reroll".
    assert pick(rule, [reroll], lambda _: True) is None


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
