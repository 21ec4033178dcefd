"""Presentation for ``/server``: the settings text, the list of live encounters, and the
restart-proof Confirm / Cancel of ``/server end`` (``srv:endp:yes:<prompt id>``; answered by
:meth:`EncounterService.confirm_end` like ``/encounter end``, but the summary is posted in the
ended encounter's own channel)."""

from __future__ import annotations

import logging
import math
from typing import Any

import discord

from bot.engine.core.audience import PUBLIC
from bot.services.encounter import UnreadEncounter
from bot.services.encounters import Encounter, EncounterService
from bot.services.start_policy import server_gms_text
from bot.store.guild_encounters import LiveEncounter
from bot.store.guild_settings import StartSettings
from bot.ui import embeds
from bot.ui.encounter_end import unread_ended
from bot.ui.fight_chart import ChartReply, summary_chart
from bot.ui.id_button import IdButton
from bot.ui.interaction import actor_of
from bot.ui.late_answers import token_dead
from bot.ui.member_views import NONE, channel_of
from bot.ui.prompt_messages import keeper_of
from bot.ui.replies import describe, guarded
from bot.ui.text import shown_name
from bot.words import counted

log = logging.getLogger(__name__)

PAGE_SIZE = 15


def encounter_service(interaction: discord.Interaction[Any]) -> EncounterService:
    service: EncounterService = interaction.client.services.encounters
    return service


def settings_text(settings: StartSettings, *, changed: bool = False) -> str:
    """``/server settings``: who may start encounters, the starter role and the cap."""
    gms = f"server GMs ({server_gms_text(settings.gm_role_id)})"
    role = f"<@&{settings.starter_role_id}>" if settings.starter_role_id is not None else None
    if settings.who_can_start == "everyone":
        who = "everyone"
        role_line = f"{role} (used only while `who_can_start` is GMs)" if role else "none"
    else:
        who = gms + (f" and members with {role}" if role else "")
        role_line = role or "none"
    cap = settings.max_live_encounters
    cap_line = (
        f"{cap} at once (server GMs are not capped)" if cap else "no cap (`max_encounters: 0`)"
    )
    head = "Saved. This server's settings now:" if changed else "This server's settings:"
    return (
        f"{head}\n"
        f"**Who may start encounters:** {who}\n"
        f"**Starter role:** {role_line}\n"
        f"**Live encounters one member may run as GM:** {cap_line}\n"
        "Change them with `/server settings who_can_start: starter_role: max_encounters:` "
        "(Manage Server)."
    )


def pages(count: int) -> int:
    return max(1, math.ceil(count / PAGE_SIZE))


def encounters_embed(live: list[LiveEncounter], page: int) -> discord.Embed:
    """One page of the server's live encounters: channel, name, GM, version, last change.
    Raises ``ValueError`` for a page past the last."""
    total = pages(len(live))
    if page > total:
        are = "is" if total == 1 else "are"
        raise ValueError(f"There {are} only {counted(total, 'page')} of live encounters.")
    shown = live[(page - 1) * PAGE_SIZE : page * PAGE_SIZE]
    lines = [
        f"<#{e.channel_id}> · **{discord.utils.escape_markdown(e.name)}** · GM <@{e.gm_id}> · "
        f"version {e.version} · changed <t:{int(e.updated_at.timestamp())}:R>"
        for e in shown
    ]
    embed = discord.Embed(
        title=f"Live encounters in this server ({len(live)})",
        description=embeds.fit_lines(lines, embeds.DESCRIPTION_MAX, empty="None right now."),
        colour=discord.Colour.blurple(),
    )
    more = f" · `/server encounters page:{page + 1}` for more" if page < total else ""
    embed.set_footer(text=f"Page {page} of {total}{more} · end one with /server end")
    return embed


class ServerEndConfirm(IdButton, template=r"srv:endp:yes:(?P<id>\d{1,19})"):
    """``/server end``'s Confirm: ends the encounter and posts its summary in *its* channel."""

    PREFIX = "srv:endp:yes:"
    LABEL = "Confirm: end it"
    STYLE = discord.ButtonStyle.danger

    @guarded
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        actor = actor_of(interaction)
        ended = await encounter_service(interaction).confirm_end(self.item_id, actor)
        # Acknowledge now (the summary's post may take longer than Discord's 3 s), post the
        # summary, then say what really happened.
        try:
            await interaction.response.defer()
        except discord.NotFound as error:  # too late to answer: the ending is shown all the same
            if not token_dead(error):
                raise
            log.warning("/server end's Confirm answered too late (%s)", describe(interaction))
        if isinstance(ended, UnreadEncounter):  # a newer bot's fight: nothing of it is read
            posted = await _post(
                interaction.client, ended, content=unread_ended(ended, actor.user_id)
            )
        else:
            chart = await summary_chart(
                encounter_service(interaction), ended, PUBLIC, interaction.filesize_limit
            )
            posted = await _post_summary(interaction.client, ended, actor.user_id, chart)
        if interaction.response.is_done():
            await interaction.edit_original_response(
                content=ended_text(ended, posted=posted), view=None, allowed_mentions=NONE
            )
        if not isinstance(ended, UnreadEncounter):
            await keeper_of(interaction).retire_ended(ended)
        await interaction.client.turn_pings.refresh(ended.row.channel_id)


def ended_text(ended: Encounter | UnreadEncounter, *, posted: bool) -> str:
    """``/server end``'s prompt after Confirm: the encounter has ended, and whether its summary
    (for a fight this bot cannot read: that it ended) reached its channel."""
    head = f"**{shown_name(ended.row.name)}** in <#{ended.row.channel_id}> has ended"
    if posted and isinstance(ended, UnreadEncounter):
        return (
            f"{head}, unread (a newer version of the bot saved it): no summary, and its "
            "characters' campaign records and the campaign clock were left as they were. Its "
            "channel is told."
        )
    if posted:
        return f"{head}; its summary is posted there."
    return (
        f"{head}, but the bot could not post its summary there: check its permissions in that "
        "channel (View Channel, Send Messages, Embed Links)."
    )


class ServerEndCancel(IdButton, template=r"srv:endp:no:(?P<id>\d{1,19})"):
    """``/server end``'s Cancel: the encounter keeps running."""

    PREFIX = "srv:endp:no:"
    LABEL = "Cancel"

    @guarded
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        kept = await encounter_service(interaction).cancel_end(self.item_id, actor_of(interaction))
        await interaction.response.edit_message(
            content=(
                f"Cancelled: **{shown_name(kept.row.name)}** in <#{kept.row.channel_id}> "
                "keeps running."
            ),
            view=None,
        )


def server_end_prompt(prompt_id: int) -> discord.ui.View:
    """Confirm / Cancel for one ``/server end`` prompt (routed by custom_id)."""
    view = discord.ui.View(timeout=None)
    view.add_item(ServerEndConfirm(prompt_id))
    view.add_item(ServerEndCancel(prompt_id))
    return view


async def _post_summary(
    client: Any, ended: Encounter, ended_by: int, chart: ChartReply | None
) -> bool:
    """The summary in the encounter's channel, with the channel's chart of the fight."""
    extra: dict[str, Any] = {"content": chart.words, "file": chart.file} if chart else {}
    return await _post(client, ended, embed=embeds.summary(ended, ended_by), **extra)


async def _post(client: Any, ended: Encounter | UnreadEncounter, **message: Any) -> bool:
    """``message`` posted in the ended encounter's channel; whether it was."""
    try:
        channel = await channel_of(client, ended.row.channel_id)
        await channel.send(allowed_mentions=NONE, **message)
    except discord.HTTPException as error:
        log.warning("summary of encounter %s not posted: %s", ended.id, error)
        return False
    return True
