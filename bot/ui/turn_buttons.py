"""Routes the turn ping's buttons and the Attack button's target select by ``custom_id``
alone (templates in :mod:`bot.ui.turn_view`), so they work after a restart; the service refuses
a click after the turn ended and anyone but the combatant's controller or the GM."""

from __future__ import annotations

import logging
import re
from typing import Any, cast

import discord

from bot.services.combat import CombatResult, CombatService
from bot.services.turn_moves import Move, attack_choice, rest_label, split_target, take_move
from bot.ui.combat import titled
from bot.ui.combat_flow import respond
from bot.ui.interaction import actor_of
from bot.ui.replies import guarded
from bot.ui.text import shown_name
from bot.ui.turn_view import move_button, target_custom_id, target_question, target_view

log = logging.getLogger(__name__)


def _doing(result: CombatResult, move: Move) -> str:
    """What the button did, after the combatant's name: "ends the turn", or "acts: " and the
    system's own breather, as ``/act`` titles it ("Deep Breath" in Utopia: not UTTAS's
    breather)."""
    if move == "end" or result.acting is None:
        return "ends the turn" if move == "end" else "acts"
    label = rest_label(result.encounter, result.acting) or "a breather"
    return f"acts: {shown_name(label)}"


def _combat(interaction: discord.Interaction[Any]) -> CombatService:
    service: CombatService = interaction.client.services.combat
    return service


class TurnMoveButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tb:(?P<enc>\d{1,19}):(?P<seq>\d{1,9}):(?P<move>end|rest|atk)",
):
    """End turn, the breather, or Attack… on the turn ping."""

    def __init__(self, encounter_id: int, turn_seq: int, move: str) -> None:
        super().__init__(move_button(encounter_id, turn_seq, cast(Move, move), move))
        self.encounter_id = encounter_id
        self.turn_seq = turn_seq
        self.move = cast(Move, move)

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> TurnMoveButton:
        return cls(int(match["enc"]), int(match["seq"]), match["move"])

    @guarded
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        combat, actor = _combat(interaction), actor_of(interaction)
        if self.move == "atk":
            choice = await attack_choice(combat, self.encounter_id, self.turn_seq, actor)
            await interaction.response.send_message(
                target_question(choice),
                view=target_view(choice),
                ephemeral=True,
                allowed_mentions=discord.AllowedMentions.none(),
            )
            return
        result = await take_move(combat, self.encounter_id, self.turn_seq, actor, self.move)
        await respond(interaction, titled(result, _doing(result, self.move)))
        if result.encounter.state.turn_seq != self.turn_seq:
            await _retire(interaction)


async def _retire(interaction: discord.Interaction[Any]) -> None:
    """The turn the clicked ping offered is over: its buttons go (best effort: a ping that
    keeps them refuses every press)."""
    if interaction.message is None:
        return
    try:
        await interaction.message.edit(view=None)
    except discord.HTTPException:
        log.warning("could not take the buttons off turn ping %s", interaction.message.id)


class TurnTargetSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"tba:(?P<enc>\d{1,19}):(?P<seq>\d{1,9})",
):
    """The target of the usual attack, picked after the Attack… button."""

    def __init__(self, encounter_id: int, turn_seq: int) -> None:
        super().__init__(
            discord.ui.Select(custom_id=target_custom_id(encounter_id, turn_seq), options=[])
        )
        self.encounter_id = encounter_id
        self.turn_seq = turn_seq

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> TurnTargetSelect:
        return cls(int(match["enc"]), int(match["seq"]))

    @guarded
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        data = cast(dict[str, Any], interaction.data or {})
        values = [str(v) for v in data.get("values") or []]
        target = values[0] if values else None
        result = await take_move(
            _combat(interaction),
            self.encounter_id,
            self.turn_seq,
            actor_of(interaction),
            "atk",
            target,
        )
        aimed, _ = split_target(target)
        who = result.encounter.state.get(aimed).name if aimed else "someone"
        await respond(interaction, titled(result, f"attacks {shown_name(who)}"))
