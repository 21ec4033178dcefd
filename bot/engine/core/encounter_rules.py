"""A game system's own encounter settings: rules the GM sets for one encounter, by name
(``/gm settings rule: value: [combatant:]``), beside the settings every system shares
(:class:`bot.engine.core.state.EncounterSettings`).

Untitled has three: the Legendary tier's dice ("Storyteller"), the armor dice above level 18
(issue 13: "the Storyteller's call, an encounter setting") and a fighter's combined move
actions, which the Storyteller may refuse ("your Storyteller will advise you should there be
an issue with something you propose"). A system without such rules refuses every name
(:meth:`EncounterRulesHooks.rule_command`).

An encounter-wide rule's value lives in ``EncounterSettings.rules`` (name → value, as the
ruleset stored it), so it is saved, undone and redone with the state; a per-combatant rule
lives on the combatant (the ruleset's model)."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field

from bot import names
from bot.engine.core.commands import CommandBase
from bot.errors import InvalidInput

RULE_NAME_MAX = 40
RULE_VALUE_MAX = 60
RULES_MAX = 20

RuleName = Annotated[str, Field(min_length=1, max_length=RULE_NAME_MAX)]
RuleValue = Annotated[str, Field(min_length=1, max_length=RULE_VALUE_MAX)]


class EncounterRule(BaseModel):
    """One rule a GM may set per encounter: its ``name`` (as ``/gm settings rule:`` shows it),
    what ``value`` it takes in words (``takes``: "dice, e.g. 3d12; `table` for the server's"),
    and whether it is set for one combatant (``per_combatant``) or the whole encounter."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: RuleName
    takes: Annotated[str, Field(max_length=100)]
    per_combatant: bool = False


def find_rule(rules: tuple[EncounterRule, ...], name: str, title: str) -> EncounterRule:
    """The rule of ``rules`` called ``name`` (case and spacing folded). Raises
    :class:`InvalidInput` naming the rules ``title`` (the system) has, or that it has none."""
    folded = names.key(name)
    for rule in rules:
        if names.key(rule.name) == folded:
            return rule
    if not rules:
        raise InvalidInput(f"{title} has no rules the GM sets per encounter.")
    known = ", ".join(names.code(r.name) for r in rules)
    raise InvalidInput(
        f"{title} has no encounter rule called {names.quoted(name[:RULE_NAME_MAX])}: {known}."
    )


class EncounterRulesHooks:
    """The contract's hooks for a system's own encounter settings (mixed into
    :class:`bot.engine.core.contract.Ruleset`). The defaults: no such rules."""

    title: ClassVar[str]

    def encounter_rules(self) -> tuple[EncounterRule, ...]:
        """The rules a GM may set per encounter in this system (none by default)."""
        return ()

    def rule_command(self, rule: str, value: str, target: str | None) -> CommandBase:
        """The command that sets ``rule`` to ``value`` (in words, as typed) for this encounter,
        or for the combatant with id ``target`` when the rule is per combatant. Raises
        :class:`InvalidInput` for a rule the system does not have (by name), a malformed or
        absurd value, a combatant given to an encounter-wide rule or missing for a
        per-combatant one."""
        find_rule(self.encounter_rules(), rule, str(self.title))
        raise InvalidInput(f"{self.title} cannot set {names.quoted(rule)} yet.")  # pragma: no cover

    def rule_lines(self, state: Any) -> list[str]:
        """The system's encounter rules and their values now, one line each, for
        ``/gm settings`` (empty when it has none)."""
        return []


def rule_target(rule: EncounterRule, target: str | None) -> None:
    """Refuse a combatant given to an encounter-wide ``rule`` or missing for a per-combatant
    one (:class:`InvalidInput`)."""
    if rule.per_combatant and target is None:
        raise InvalidInput(
            f"{names.code(rule.name)} is set for one combatant: name it with `combatant:`."
        )
    if not rule.per_combatant and target is not None:
        raise InvalidInput(
            f"{names.code(rule.name)} is set for the whole encounter: leave `combatant:` out."
        )
