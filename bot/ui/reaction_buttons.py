"""Reaction buttons: one per choice the decider can afford, routed by ``custom_id`` alone.

``rx:<encounter id>:<pending version>:<option code>`` names the encounter, the decision (the
state version at which it started waiting) and the choice, so a button keeps working after a
restart and a click on a decision already made is refused by the service.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.services.combat import CombatService
from bot.ui.combat_flow import after_decision
from bot.ui.decision_view import reaction_button
from bot.ui.interaction import actor_of
from bot.ui.replies import guarded


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
        super().__init__(reaction_button(encounter_id, pending_version, code, label))
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
        result = await combat_of(interaction).decide(
            self.encounter_id, self.pending_version, actor_of(interaction), self.code
        )
        await after_decision(interaction, result)
