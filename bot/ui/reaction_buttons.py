"""Reaction buttons: one per choice the decider can afford, routed by ``custom_id`` alone.

``rx:<encounter id>:<pending version>:<option code>`` names the encounter, the decision (the
state version at which it started waiting) and the choice, so a button keeps working after a
restart and a click on a decision already made is refused by the service.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.engine import ReactionOption
from bot.services.combat import CombatService, Decision, option_code
from bot.ui.encounter_end import actor_of
from bot.ui.replies import guarded

MAX_BUTTONS = 25  # 5 action rows × 5 buttons

_STYLES = {
    "none": discord.ButtonStyle.secondary,
    "evade": discord.ButtonStyle.primary,
    "block": discord.ButtonStyle.primary,
    "move": discord.ButtonStyle.primary,
    "counter": discord.ButtonStyle.danger,
    "stance": discord.ButtonStyle.secondary,
    "intercept": discord.ButtonStyle.success,
    "surrender": discord.ButtonStyle.secondary,
    "complete": discord.ButtonStyle.danger,
    "stop": discord.ButtonStyle.secondary,
}


def button_label(option: ReactionOption) -> str:
    """The option's label with its cost, within Discord's 80 characters."""
    costs = []
    if option.actions:
        costs.append(f"{option.actions} action" + ("s" if option.actions > 1 else ""))
    if option.stamina:
        costs.append(f"{option.stamina} Stamina")
    label = option.label if option.choice != "none" else "Take it (no reaction)"
    suffix = f" ({', '.join(costs)})" if costs else ""
    return (label[: 80 - len(suffix)] + suffix)[:80]


def combat_of(interaction: discord.Interaction[Any]) -> CombatService:
    service: CombatService = interaction.client.services.combat
    return service


class ReactionButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"rx:(?P<enc>\d{1,19}):(?P<pv>\d{1,19}):(?P<code>[a-z]{1,12}(?:\.[0-9a-f]{8})?)",
):
    """One reaction choice for one pending decision."""

    def __init__(
        self, encounter_id: int, pending_version: int, code: str, label: str = "React"
    ) -> None:
        choice = code.split(".")[0]
        super().__init__(
            discord.ui.Button(
                label=label,
                style=_STYLES.get(choice, discord.ButtonStyle.secondary),
                custom_id=f"rx:{encounter_id}:{pending_version}:{code}",
            )
        )
        self.encounter_id = encounter_id
        self.pending_version = pending_version
        self.code = code

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ReactionButton:
        return cls(int(match["enc"]), int(match["pv"]), match["code"])

    @guarded
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        from bot.ui.combat_flow import after_decision

        result = await combat_of(interaction).decide(
            self.encounter_id, self.pending_version, actor_of(interaction), self.code
        )
        await after_decision(interaction, result)


def decision_view(encounter_id: int, decision: Decision) -> discord.ui.View:
    """Buttons for every choice any decider has (deduplicated by code), at most 25."""
    view = discord.ui.View(timeout=None)
    seen: set[str] = set()
    ordered = sorted(decision.deciders.items(), key=lambda pair: pair[0] != decision.target.id)
    for _, options in ordered:
        for option in options:
            code = option_code(option)
            if code in seen or len(seen) >= MAX_BUTTONS:
                continue
            seen.add(code)
            view.add_item(
                ReactionButton(encounter_id, decision.pending_version, code, button_label(option))
            )
    return view
