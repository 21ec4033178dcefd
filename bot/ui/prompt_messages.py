"""Decision prompt messages after the fact: whatever settles a decision (a button, a command, an
expired window, an undo, the end of the encounter) edits its prompt to say how and removes its
buttons. Shared by the combat flow and the encounter-end buttons."""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.services.encounters import Encounter

log = logging.getLogger(__name__)


async def retire_prompt(
    client: Any,
    channel_id: int,
    message_id: int,
    content: str,
    embed: discord.Embed | None = None,
) -> None:
    """Edit a decision's prompt message to say how it was settled and remove its buttons. Never
    raises: the prompt may be gone, or the bot may have lost access (logged)."""
    channel = client.get_partial_messageable(channel_id)
    try:
        await channel.get_partial_message(message_id).edit(
            content=content[:2000],
            embed=embed,
            view=None,
            allowed_mentions=discord.AllowedMentions.none(),
        )
    except discord.NotFound:
        pass
    except discord.HTTPException:
        log.exception("could not retire prompt %s in channel %s", message_id, channel_id)


async def retire_ended(client: Any, ended: Encounter) -> None:
    """An encounter ended while a decision waited: its prompt says so and loses its buttons."""
    message_id = ended.row.prompt_message_id
    if message_id is None or ended.state.pending is None:
        return
    await retire_prompt(
        client,
        ended.row.channel_id,
        message_id,
        "The encounter ended before this attack was decided.",
    )
