"""The pure rules engine: no Discord, no I/O, randomness and clock injected.

Entry point: :func:`get_ruleset` → a :class:`Ruleset`; then ``new_encounter``, ``apply``,
``load_state``, ``reaction_options``. The ruleset-neutral core is :mod:`bot.engine.core`; each
game system is a package beside it (``bot.engine.uttas``) registered in
:mod:`bot.engine.registry`. See ``docs/architecture.md``.
"""

from __future__ import annotations

from bot.engine.core.commands import CommandBase
from bot.engine.core.contract import ReactionOption, Ruleset
from bot.engine.core.dice import (
    MAX_DICE,
    DiceRoller,
    DiceScriptExhausted,
    RandomRoller,
    RecordingRoller,
    Roll,
    ScriptedRoller,
)
from bot.engine.core.events import Event, Outcome
from bot.engine.core.state import AnyState, CombatantBase, EncounterState
from bot.engine.registry import REGISTRY, RULESET_KEYS, get_ruleset

__all__ = [
    "MAX_DICE",
    "REGISTRY",
    "RULESET_KEYS",
    "AnyState",
    "CombatantBase",
    "CommandBase",
    "DiceRoller",
    "DiceScriptExhausted",
    "EncounterState",
    "Event",
    "Outcome",
    "RandomRoller",
    "ReactionOption",
    "RecordingRoller",
    "Roll",
    "Ruleset",
    "ScriptedRoller",
    "get_ruleset",
]
