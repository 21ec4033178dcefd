"""What ``/gm settings`` changes: the settings every system shares (``ChangeSettings``), less
those given the value they already have — not a change to log, announce or undo. Decided here,
on the state the change is made to (under the channel's lock), so every caller gets it:
:meth:`bot.services.combat.CombatService.change_settings`."""

from __future__ import annotations

from typing import Any

from bot.engine.core.commands import ChangeSettings, CommandBase, describe_settings
from bot.errors import InvalidInput
from bot.services.encounter import Encounter

NO_DEFAULT_ACTIONS = (
    "{title} has no action a turn can default to when its deadline passes: set "
    "`deadline_action:` to End the turn or Only tell the GM."
)

SAME_IS_NOTHING = (
    "reaction_window_s",
    "npcs_react",
    "hide_npc_numbers",
    "turn_deadline_action",
    "reminders",
    "show_odds",
)
"""The settings a value equal to the current one leaves as they were. Not ``turn_deadline_s``
but when it is off (set again, a deadline gives the running turn a whole one from now), nor
the ones a system may refuse by its own rules (``initiative_mode``, ``interleaved``: that
refusal says more)."""


def unchanged(current: Encounter, changes: dict[str, Any]) -> dict[str, Any]:
    """The settings of ``changes`` that ``current`` already has, and that setting again would
    not change (:data:`SAME_IS_NOTHING`; a turn deadline that is off, set off)."""
    now = current.state.settings
    return {
        k: v
        for k, v in changes.items()
        if getattr(now, k, None) == v and (k in SAME_IS_NOTHING or (k, v) == ("turn_deadline_s", 0))
    }


def settings_command(current: Encounter, changes: dict[str, Any]) -> CommandBase:
    """The settings command for what ``changes`` would change in ``current``: a setting given
    its current value is left out (:func:`unchanged`). Refuses (:class:`InvalidInput`) when
    nothing is left, and a default action at a passed deadline in a system that has none."""
    wanted = changes.get("turn_deadline_action") == "default_action"
    if wanted and not current.rules.deadline_action_keys:
        raise InvalidInput(NO_DEFAULT_ACTIONS.format(title=current.rules.title))
    same = unchanged(current, changes)
    left = {k: v for k, v in changes.items() if k not in same}
    if not left:
        raise InvalidInput(
            f"Nothing to change: {describe_settings(same)} already. The settings are as they were."
        )
    return ChangeSettings.model_validate(left)
