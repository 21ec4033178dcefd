"""Showing a committed change when its interaction can no longer be answered.

Discord gives an interaction 3 s for its first answer; a command that took longer (a loaded
host, a long fight replayed) finds the token dead: "Unknown interaction" (error 10062, a
:class:`discord.NotFound`), and no followup works either. The change is stored by then, and
what it shows — a result, the next turn holder's ping, a decision's buttons taken off — must
still reach the channel: these helpers answer the interaction, or do the same through the
channel when its token is dead.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

log = logging.getLogger(__name__)

UNKNOWN_INTERACTION = 10062  # Discord's error code for a dead interaction token


def token_dead(error: BaseException) -> bool:
    """Whether ``error`` is Discord refusing an interaction's answer because its token is dead."""
    return isinstance(error, discord.NotFound) and error.code == UNKNOWN_INTERACTION


def _token_dead(interaction: discord.Interaction[Any], error: discord.NotFound) -> None:
    """Log that ``interaction`` could not be answered; raise ``error`` when it says anything
    else than a dead token (an unknown message, say)."""
    if not token_dead(error):
        raise error
    log.warning(
        "interaction %s could not be answered (%s): its committed change is shown in channel %s",
        interaction.id,
        error.text or error.status,
        interaction.channel_id,
    )


async def send_or_post(
    interaction: discord.Interaction[Any], channel_id: int, **message: Any
) -> int | None:
    """Send ``message`` as the interaction's answer, or — its token dead — post it in channel
    ``channel_id``. The id of the message that shows it; a post Discord refuses raises, as any
    refused post."""
    try:
        callback = await interaction.response.send_message(**message)
    except discord.NotFound as error:
        _token_dead(interaction, error)
        posted: discord.Message = await interaction.client.get_partial_messageable(channel_id).send(
            **message
        )
        return posted.id
    return callback.message_id


async def edit_clicked(
    interaction: discord.Interaction[Any], channel_id: int, message_id: int, **edit: Any
) -> bool:
    """Edit the clicked message ``message_id`` as the click's answer, or — its token dead —
    through channel ``channel_id``. Whether the click was answered (so its followups work)."""
    try:
        await interaction.response.edit_message(**edit)
    except discord.NotFound as error:
        _token_dead(interaction, error)
        message = interaction.message
        if message_id and not (message is not None and message.flags.ephemeral):
            channel = interaction.client.get_partial_messageable(channel_id)
            await channel.get_partial_message(message_id).edit(**edit)
        return False  # (an ephemeral message can only be edited through its token)
    return True


async def followup_or_post(
    interaction: discord.Interaction[Any], answered: bool, channel_id: int, **message: Any
) -> discord.Message:
    """Send ``message`` as a followup of an ``answered`` interaction, else post it in channel
    ``channel_id``; the message sent."""
    if answered:
        sent: discord.Message = await interaction.followup.send(wait=True, **message)
    else:
        sent = await interaction.client.get_partial_messageable(channel_id).send(**message)
    return sent
