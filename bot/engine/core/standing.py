"""Standing reactions (issue 17, "Standing reactions"): what a combatant does when a decision's
window would otherwise run out unanswered, set ahead by its player.

Ruleset-neutral shape: an ordered list of steps, each a *choice* (a :class:`ReactionOption`
``choice`` of the ruleset) taken *when* a *condition* holds (``always`` unless the ruleset
names others, e.g. UTTAS ``melee``). When the window runs out, the first step whose condition
holds and whose choice is among the options the combatant can afford right now is taken; a
``take it`` step (or no step that fits) lets the window lapse as usual.

A member types a rule as words, steps separated by commas, semicolons, ``else`` or ``then``:
``evade if I can afford it, else take it``; ``block against melee, evade``. The ruleset's
:class:`StandingWords` says which words name which choice and which condition.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence

from pydantic import BaseModel, ConfigDict, Field

from bot import names
from bot.engine.core.contract_models import ReactionOption
from bot.errors import InvalidInput

ALWAYS = "always"
"""The condition every ruleset knows: the step applies to any decision."""

LAPSE = ""
"""The choice of a ``take it`` step: let the window lapse (the ruleset's default)."""

LAPSE_WORDS = ("take it", "take the hit", "nothing", "no reaction", "lapse")
"""Words for a step that lets the window lapse, in every ruleset."""

MAX_STEPS = 5
MAX_TEXT = 200

_AFFORD = re.compile(
    r"\b(?:if|when)\s+(?:i|we|they|he|she|it)\s+(?:can|could)\s+(?:afford|pay\s+for)\s+it\b"
    r"|\bif\s+(?:affordable|possible|i\s+can)\b"
)
_SPLIT = re.compile(r"\s*(?:[,;]|\belse\b|\bthen\b|\botherwise\b)\s*")
_WHEN = re.compile(r"^(?P<choice>.+?)\s+(?:against|vs\.?|versus|if|when|on)\s+(?P<cond>.+)$")


class StandingWords(BaseModel):
    """A ruleset's words for standing reactions: ``choices`` maps a word a member types (lower
    case) to a :class:`ReactionOption` ``choice``; ``conditions`` maps a word to a condition
    key its :meth:`~bot.engine.core.contract.Ruleset.standing_holds` evaluates. Empty
    ``choices``: the ruleset has no standing reactions. ``example``: a rule in those words,
    which :func:`parse_rule` takes, for the help and refusals to show (UTTAS's
    :data:`EXAMPLE` when left out)."""

    model_config = ConfigDict(frozen=True)

    choices: dict[str, str] = Field(default_factory=dict)
    conditions: dict[str, str] = Field(default_factory=dict)
    example: str = ""

    @property
    def shown_example(self) -> str:
        """The example rule this ruleset's help and refusals show."""
        return self.example or EXAMPLE


EXAMPLE = "evade if I can afford it, else take it"
"""UTTAS's example rule (its Evade): every other system names one in its own words."""


class StandingStep(BaseModel):
    """One step: take ``choice`` (:data:`LAPSE`: let the window lapse) when ``condition``
    holds."""

    model_config = ConfigDict(frozen=True)

    choice: str
    condition: str = ALWAYS


class StandingRule(BaseModel):
    """A combatant's standing reaction: its ``steps`` in order and the ``text`` as typed."""

    model_config = ConfigDict(frozen=True)

    text: str = Field(max_length=MAX_TEXT)
    steps: tuple[StandingStep, ...] = Field(min_length=1, max_length=MAX_STEPS)


def parse_rule(text: str, words: StandingWords, system: str) -> StandingRule:
    """The rule ``text`` means in a ruleset with ``words`` (``system``: its title, for errors).

    Raises :class:`InvalidInput` naming the word not understood and listing those that are,
    for an empty rule, one longer than :data:`MAX_TEXT` characters or with more than
    :data:`MAX_STEPS` steps, and in a ruleset without standing reactions."""
    if not words.choices:
        raise InvalidInput(f"{system} has no standing reactions.")
    cleaned = " ".join(text.split())
    if not cleaned:
        raise InvalidInput(f"Write the rule, e.g. `{words.shown_example}`.")
    if len(cleaned) > MAX_TEXT:
        raise InvalidInput(f"A standing reaction is at most {MAX_TEXT} characters.")
    parts = [p for p in _SPLIT.split(_AFFORD.sub("", cleaned.casefold())) if p.strip()]
    if not parts:
        raise InvalidInput(f"Write the rule, e.g. `{words.shown_example}`.")
    if len(parts) > MAX_STEPS:
        raise InvalidInput(f"A standing reaction has at most {MAX_STEPS} steps.")
    steps = [_step(part.strip(" ."), words) for part in parts]
    return StandingRule(text=cleaned, steps=tuple(steps))


def _step(part: str, words: StandingWords) -> StandingStep:
    choice_word, condition_word = part, ALWAYS
    match = _WHEN.match(part)
    if match is not None:
        choice_word, condition_word = match["choice"].strip(), match["cond"].strip()
    if choice_word in LAPSE_WORDS:
        choice = LAPSE
    elif choice_word in words.choices:
        choice = words.choices[choice_word]
    else:
        known = ", ".join(f"`{w}`" for w in [*words.choices, LAPSE_WORDS[0]])
        raise InvalidInput(
            f"{names.code(choice_word[:40])} is not a standing choice here: use {known}."
        )
    if condition_word == ALWAYS:
        return StandingStep(choice=choice)
    condition = words.conditions.get(condition_word)
    if condition is None:
        known = ", ".join(f"`{w}`" for w in words.conditions) or "none (every step always applies)"
        raise InvalidInput(
            f"{names.code(condition_word[:40])} is not a condition a standing reaction knows "
            f"here: {known}."
        )
    return StandingStep(choice=choice, condition=condition)


def _own_choice(option: ReactionOption) -> str:
    return option.choice


def pick(
    rule: StandingRule,
    options: Sequence[ReactionOption],
    holds: Callable[[str], bool],
    choice_of: Callable[[ReactionOption], str] = _own_choice,
) -> ReactionOption | None:
    """The option ``rule`` takes among ``options`` (those the combatant can afford now):
    the first step whose condition ``holds`` and whose choice is offered (the basic option of
    that choice before a named maneuver; the first offered otherwise); None when a ``take it``
    step comes first, or no step fits (the window lapses). ``choice_of``: the standing choice
    an option is (:meth:`~bot.engine.core.contract.Ruleset.standing_choice`; by default its
    ``choice``). Options only the GM may take are never picked."""
    for step in rule.steps:
        if step.condition != ALWAYS and not holds(step.condition):
            continue
        if step.choice == LAPSE:
            return None
        offered = [o for o in options if choice_of(o) == step.choice and not o.gm]
        if offered:
            offered.sort(key=lambda o: o.maneuver is not None)
            return offered[0]
    return None


def described(words: StandingWords) -> Mapping[str, list[str]]:
    """The words a member may use, for help text: ``choices`` and ``conditions``."""
    return {
        "choices": [*words.choices, LAPSE_WORDS[0]],
        "conditions": [ALWAYS, *words.conditions],
    }
