"""The pure rules engine: no Discord, no I/O, randomness and clock injected.

Entry point: :func:`get_ruleset` → :class:`Ruleset`; then ``new_encounter``, ``apply``,
``load_state``, ``reaction_options``. See ``docs/architecture.md``.
"""

from __future__ import annotations

import json

from bot.engine.commands import (
    ActivatePower,
    AddCombatant,
    AdjustCharacteristic,
    Attack,
    Begin,
    Breather,
    ChangeStance,
    Command,
    DropPower,
    EndCombat,
    EndTurn,
    GrappleContest,
    Move,
    NaturalHealing,
    React,
    Ready,
    RemoveCombatant,
    ResolveReadied,
    ResolveSurrender,
    Rest,
    SetCondition,
    Sprint,
    Stand,
    Surrender,
    Talk,
    UseSkill,
)
from bot.engine.contract import COMMAND_ADAPTER, ReactionOption, Ruleset
from bot.engine.dice import (
    MAX_DICE,
    DiceRoller,
    DiceScriptExhausted,
    RandomRoller,
    Roll,
    ScriptedRoller,
)
from bot.engine.events import Event, Outcome
from bot.engine.state import Combatant, EncounterState, PendingAttack
from bot.engine.uttas.ruleset import UttasRuleset
from bot.engine.uttas.sheet import UttasSheet
from bot.engine.uttas.tables import load_tables
from bot.errors import InvalidInput, RulesetNotImplemented

RULESET_KEYS = ("uttas", "utopia", "untitled", "uune")
"""Every game system the product plans, in menu order; only ``uttas`` runs today."""

_PLANNED = {"utopia": "Utopia", "untitled": "Untitled", "uune": "Uune"}
_DEFAULT: dict[str, Ruleset] = {}
_CACHE_MAX = 64


def get_ruleset(key: str, overrides: str | None = None) -> Ruleset:
    """The ruleset for ``key`` (case-insensitive): with the shipped tables, or with a server's
    changes deep-merged on top — ``overrides`` is JSON text keyed by ruleset, e.g.
    ``{"uttas": {"reactions": {"block": {"dodge_bonus": 3}}}}``. Rulesets are cached per
    distinct change set.

    Raises :class:`RulesetNotImplemented` for a planned system that cannot run encounters yet,
    and :class:`InvalidInput` for an unknown key or changes the tables do not accept.
    """
    k = key.strip().casefold()
    if k == "uttas":
        changes = json.loads(overrides).get("uttas") if overrides else None
        cache_key = json.dumps(changes, sort_keys=True) if changes else "uttas"
        if cache_key not in _DEFAULT:
            if len(_DEFAULT) >= _CACHE_MAX:
                _DEFAULT.pop(next(k for k in _DEFAULT if k != "uttas"))
            tables = load_tables(overrides=changes) if changes else None
            _DEFAULT[cache_key] = UttasRuleset(tables)
        return _DEFAULT[cache_key]
    if k in _PLANNED:
        raise RulesetNotImplemented(
            f"{_PLANNED[k]} combat is planned but not available yet; use UTTAS for now."
        )
    raise InvalidInput(f"Unknown ruleset {key!r}. Choose one of: {', '.join(RULESET_KEYS)}.")


__all__ = [
    "COMMAND_ADAPTER",
    "MAX_DICE",
    "RULESET_KEYS",
    "ActivatePower",
    "AddCombatant",
    "AdjustCharacteristic",
    "Attack",
    "Begin",
    "Breather",
    "ChangeStance",
    "Combatant",
    "Command",
    "DiceRoller",
    "DiceScriptExhausted",
    "DropPower",
    "EncounterState",
    "EndCombat",
    "EndTurn",
    "Event",
    "GrappleContest",
    "Move",
    "NaturalHealing",
    "Outcome",
    "PendingAttack",
    "RandomRoller",
    "React",
    "ReactionOption",
    "Ready",
    "RemoveCombatant",
    "ResolveReadied",
    "ResolveSurrender",
    "Rest",
    "Roll",
    "Ruleset",
    "ScriptedRoller",
    "SetCondition",
    "Sprint",
    "Stand",
    "Surrender",
    "Talk",
    "UseSkill",
    "UttasRuleset",
    "UttasSheet",
    "get_ruleset",
]
