"""Reaction buttons: one per choice the decider can afford, routed by ``custom_id`` alone.

``rx:<encounter id>:<pending version>.<decision number>:<option code>`` names the encounter, the
decision (the state version at which it started waiting and its number) and the choice, so a
button keeps working after a restart and a click on a decision already made is refused by the
service. A button made before decisions had numbers (no ``.<number>``) names the decision that
opened at its version.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.services.combat import CombatService
from bot.ui.combat_flow import after_decision
from bot.ui.decision_view import gm_chooser_custom_id, options_view, reaction_button
from bot.ui.interaction import actor_of
from bot.ui.replies import guarded
from bot.ui.text import shown_name


def combat_of(interaction: discord.Interaction[Any]) -> CombatService:
    service: CombatService = interaction.client.services.combat
    return service


class ReactionButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=(
        r"rx:(?P<enc>\d{1,19}):(?P<pv>\d{1,19})(?:\.(?P<ref>\d{1,9}))?"
        r":(?P<code>[a-z]{1,12}(?:\.[0-9a-f]{8})?(?:@[a-z0-9]{1,12})?)"
    ),
):
    """One reaction choice for one pending decision."""

    def __init__(
        self,
        encounter_id: int,
        pending_version: int,
        code: str,
        label: str = "React",
        ref: int | None = None,
    ) -> None:
        super().__init__(reaction_button(encounter_id, pending_version, code, label, ref))
        self.encounter_id = encounter_id
        self.pending_version = pending_version
        self.code = code
        self.ref = ref

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ReactionButton:
        ref = int(match["ref"]) if match["ref"] else None
        return cls(int(match["enc"]), int(match["pv"]), match["code"], ref=ref)

    @guarded
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        result = await combat_of(interaction).decide(
            self.encounter_id, self.pending_version, actor_of(interaction), self.code, self.ref
        )
        await after_decision(interaction, result)


class GmReactionChooser(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=(
        r"rxg:(?P<enc>\d{1,19}):(?P<pv>\d{1,19})(?:\.(?P<ref>\d{1,9}))?"
        r":(?P<cid>[a-z0-9]{1,12})"
    ),
):
    """ "GM: choose Thug 1's reaction": shows the GM alone that NPC's affordable reactions
    (their buttons are ordinary reaction buttons); anyone else is refused."""

    def __init__(
        self, encounter_id: int, pending_version: int, combatant_id: str, ref: int | None = None
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label="GM: choose the reaction",
                custom_id=gm_chooser_custom_id(encounter_id, pending_version, combatant_id, ref),
            )
        )
        self.encounter_id = encounter_id
        self.pending_version = pending_version
        self.combatant_id = combatant_id
        self.ref = ref

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> GmReactionChooser:
        ref = int(match["ref"]) if match["ref"] else None
        return cls(int(match["enc"]), int(match["pv"]), match["cid"], ref=ref)

    @guarded
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        encounter, decision = await combat_of(interaction).gm_choices(
            self.encounter_id,
            self.pending_version,
            actor_of(interaction),
            self.combatant_id,
            self.ref,
        )
        who = decision.people[self.combatant_id]
        await interaction.response.send_message(
            f"Choose **{shown_name(who.name)}**'s {decision.words.gm_chooses} (only you see "
            "these):",
            view=options_view(encounter.id, decision, self.combatant_id),
            ephemeral=True,
        )
