"""Delivering member notices (:class:`bot.services.notices.NoticeService`) on the member's next
slash command, as ephemeral followups after the command was answered.

Delivery never gets in the way: it runs after the command's own answer, a failure to read or
send is logged and swallowed, and notices that could not be sent are left for the next time
(so each is delivered once, and none is lost to a failed send).
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.services.notices import NoticeService

log = logging.getLogger(__name__)

MESSAGE_MAX = 2000
HEADING = "📬 "
NONE = discord.AllowedMentions.none()


def messages(texts: list[str]) -> list[list[str]]:
    """The notices grouped into messages of at most 2000 characters (one notice per line;
    a notice is at most 1900 characters, so each fits one message)."""
    grouped: list[list[str]] = []
    size = 0
    for text in texts:
        line = HEADING + text
        if grouped and size + 1 + len(line) <= MESSAGE_MAX:
            grouped[-1].append(line)
            size += 1 + len(line)
        else:
            grouped.append([line[:MESSAGE_MAX]])
            size = len(grouped[-1][0])
    return grouped


async def deliver_notices(service: NoticeService, interaction: discord.Interaction[Any]) -> None:
    """Send the member's pending notices in this server as ephemeral followups of an answered
    interaction. Never raises. Skipped (the notices wait) in direct messages and when the
    interaction was answered with a form, which takes no followups."""
    response = interaction.response
    if (
        interaction.guild_id is None
        or not response.is_done()
        or response.type == discord.InteractionResponseType.modal
    ):
        return
    guild_id, user_id = interaction.guild_id, interaction.user.id
    try:
        texts = await service.take(guild_id, user_id)
    except Exception:
        log.exception("could not read the notices of member %s in server %s", user_id, guild_id)
        return
    groups = messages(texts)
    for index, group in enumerate(groups):
        try:
            await interaction.followup.send("\n".join(group), ephemeral=True, allowed_mentions=NONE)
        except Exception:
            log.warning(
                "could not deliver %d notice(s) to member %s in server %s; kept for next time",
                sum(len(g) for g in groups[index:]),
                user_id,
                guild_id,
                exc_info=True,
            )
            await _keep(service, guild_id, user_id, groups[index:])
            return


async def _keep(
    service: NoticeService, guild_id: int, user_id: int, groups: list[list[str]]
) -> None:
    """Store again the notices that were taken but not sent."""
    for group in groups:
        for line in group:
            try:
                await service.add(guild_id, user_id, line.removeprefix(HEADING))
            except Exception:
                log.exception("lost a notice for member %s in server %s", user_id, guild_id)
