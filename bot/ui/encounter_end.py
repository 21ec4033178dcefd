"""Confirm / Cancel buttons for ``/encounter end``.

They are :class:`discord.ui.DynamicItem` s: the ``custom_id`` alone (``enc:endp:yes:<id>``, the id
of the prompt recorded by ``EncounterService.open_end``) says what to do, so a button posted
before a restart still works after it. The prompt is answered once, whichever button is first.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.engine.core.audience import GM, PUBLIC
from bot.services.encounter import UnreadEncounter
from bot.services.encounters import Encounter, EncounterService
from bot.ui import embeds
from bot.ui.fight_chart import summary_chart
from bot.ui.id_button import IdButton
from bot.ui.interaction import actor_of
from bot.ui.late_answers import edit_clicked, followup_or_post
from bot.ui.prompt_messages import keeper_of
from bot.ui.replies import guarded
from bot.ui.text import shown_name

UNREAD_END = (
    "This version of the bot cannot read its fight (a newer version of the bot saved it): "
    "ending it here archives it as that version left it, with no summary, and its characters' "
    "campaign records and the campaign clock are not moved on. To end it with those, run the "
    "newer version of the bot and end it there."
)
"""What an end prompt adds for an encounter whose fight this bot cannot read."""


def end_question(encounter: Encounter | UnreadEncounter, where: str = "", gm: str = "") -> str:
    """An end prompt's question: ``where`` (" in #channel") follows the encounter's name,
    ``gm`` (" (GM: @member)") the sentence saying what ending does."""
    name = shown_name(encounter.row.name)
    head = f"End **{name}**{where}? It is archived and can no longer be played{gm}."
    return f"{head} {UNREAD_END}" if isinstance(encounter, UnreadEncounter) else head


def unread_ended(ended: UnreadEncounter, ended_by: int) -> str:
    """The channel's post when an encounter whose fight this bot cannot read has ended."""
    return (
        f"**{shown_name(ended.row.name)}** has ended (<@{ended_by}> ended it). This version of "
        "the bot could not read the fight (a newer version of the bot saved it), so there is no "
        "summary, and its characters' campaign records and the campaign clock were left as "
        "they were."
    )


def service_of(interaction: discord.Interaction[Any]) -> EncounterService:
    service: EncounterService = interaction.client.services.encounters
    return service


class EndConfirmButton(IdButton, template=r"enc:endp:yes:(?P<id>\d{1,19})"):
    """Answers an end prompt: ends (archives) the encounter and posts its final summary. GM
    only. A prompt already answered (Cancel, another click) ends nothing."""

    PREFIX = "enc:endp:yes:"
    LABEL = "Confirm: end it"
    STYLE = discord.ButtonStyle.danger

    @guarded
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        actor = actor_of(interaction)
        ended = await service_of(interaction).confirm_end(self.item_id, actor)
        channel_id = ended.row.channel_id
        answered = await edit_clicked(
            interaction,
            channel_id,
            interaction.message.id if interaction.message is not None else 0,
            content=f"**{shown_name(ended.row.name)}** has ended.",
            view=None,
        )
        if isinstance(ended, UnreadEncounter):
            await followup_or_post(
                interaction,
                answered,
                channel_id,
                content=unread_ended(ended, actor.user_id),
                allowed_mentions=discord.AllowedMentions.none(),
            )
            await interaction.client.turn_pings.refresh(channel_id)
            return
        service = service_of(interaction)
        limit = interaction.filesize_limit
        public = await summary_chart(service, ended, PUBLIC, limit)
        extra: dict[str, Any] = {"content": public.words, "file": public.file} if public else {}
        await followup_or_post(
            interaction,
            answered,
            channel_id,
            embed=embeds.summary(ended, actor.user_id),
            allowed_mentions=discord.AllowedMentions.none(),
            **extra,
        )
        if answered and public is not None and not public.data.exact:  # the GM's exact copy
            exact = await summary_chart(service, ended, GM, limit)
            if exact is not None:
                await interaction.followup.send(
                    f"Exact numbers (GM only). {exact.words}"[:2000],
                    file=exact.file,
                    ephemeral=True,
                    allowed_mentions=discord.AllowedMentions.none(),
                )
        await keeper_of(interaction).retire_ended(ended)
        await interaction.client.turn_pings.refresh(ended.row.channel_id)


class EndCancelButton(IdButton, template=r"enc:endp:no:(?P<id>\d{1,19})"):
    """Answers an end prompt with no; the encounter keeps running and the prompt's Confirm
    no longer ends it."""

    PREFIX = "enc:endp:no:"
    LABEL = "Cancel"

    @guarded
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await service_of(interaction).cancel_end(self.item_id, actor_of(interaction))
        await interaction.response.edit_message(
            content="Cancelled: the encounter keeps running.", view=None
        )


def end_prompt(prompt_id: int) -> discord.ui.View:
    """The Confirm / Cancel view of one end prompt (no timeout: it is routed by custom_id)."""
    view = discord.ui.View(timeout=None)
    view.add_item(EndConfirmButton(prompt_id))
    view.add_item(EndCancelButton(prompt_id))
    return view
