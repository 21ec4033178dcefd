"""What the bot needs in a channel to run a fight there, checked from the interaction.

Every interaction tells the bot its own permissions in that channel (``app_permissions``). A
fight needs the bot to post and edit the tracker, reaction prompts and the results nobody asked
for (an expired reaction window, the next turn's ping): View Channel, Send Messages (in a thread,
Send Messages in Threads), Embed Links, Attach Files (log files) and Read Message History (to
find its own prompts again after a restart). Pin Messages is optional: with it the tracker is
pinned; without it the tracker is posted again at the bottom when a round starts.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.errors import NotAllowed, NotFound
from bot.ui.interaction import actor_of

log = logging.getLogger(__name__)

THREADS = (
    discord.ChannelType.public_thread,
    discord.ChannelType.private_thread,
    discord.ChannelType.news_thread,
)

HOW_TO_GRANT = (
    "A server admin can grant them to the bot's role (Server Settings → Roles) or in this "
    "channel (Edit Channel → Permissions → add the bot)."
)


def in_thread(interaction: discord.Interaction[Any]) -> bool:
    channel = interaction.channel
    return channel is not None and getattr(channel, "type", None) in THREADS


def missing_permissions(interaction: discord.Interaction[Any]) -> list[str]:
    """The names of the permissions the bot lacks in the interaction's channel, in Discord's
    own words (empty when it has them all)."""
    granted = interaction.app_permissions
    send = (
        ("send_messages_in_threads", "Send Messages in Threads")
        if in_thread(interaction)
        else ("send_messages", "Send Messages")
    )
    needed = [
        ("view_channel", "View Channel"),
        send,
        ("embed_links", "Embed Links"),
        ("attach_files", "Attach Files"),
        ("read_message_history", "Read Message History"),
    ]
    return [label for flag, label in needed if not getattr(granted, flag)]


def can_pin(interaction: discord.Interaction[Any]) -> bool:
    """Whether the bot may pin messages here (Pin Messages, or Manage Messages)."""
    granted = interaction.app_permissions
    return bool(granted.pin_messages or granted.manage_messages)


def listed(labels: list[str]) -> str:
    bold = [f"**{label}**" for label in labels]
    return bold[0] if len(bold) == 1 else ", ".join(bold[:-1]) + " and " + bold[-1]


def require_channel_permissions(interaction: discord.Interaction[Any], doing: str) -> None:
    """Refuse (:class:`NotAllowed`, shown ephemerally) to ``doing`` — e.g. "start an
    encounter" — in a channel where the bot could not post the fight."""
    missing = missing_permissions(interaction)
    if missing:
        raise NotAllowed(
            f"I can't {doing} in this channel: I'm missing {listed(missing)} here, so I could not "
            f"post the tracker, reaction prompts and turn pings. {HOW_TO_GRANT} Then try again."
        )


def blind_warning(interaction: discord.Interaction[Any]) -> str | None:
    """For the GM, mid-fight: what the bot cannot do in this channel any more (the fight itself
    is safe), or ``None`` when nothing is missing."""
    missing = missing_permissions(interaction)
    if not missing:
        return None
    return (
        f"Heads up: I'm missing {listed(missing)} in this channel now, so the tracker, reaction "
        "prompts and turn pings may not appear. Every command is still saved and nothing is "
        f"lost. {HOW_TO_GRANT}"
    )


async def warn_gm_if_blind(client: Any, interaction: discord.Interaction[Any]) -> None:
    """After any slash command the GM of this channel's encounter ran: if the bot has lost a
    permission it needs here, say so (ephemeral). Costs nothing when nothing is missing; never
    raises."""
    warning = blind_warning(interaction)
    if warning is None or interaction.channel_id is None or not interaction.response.is_done():
        return
    try:
        encounter = await client.services.encounters.live(interaction.channel_id)
    except NotFound:
        return
    if not encounter.is_gm(actor_of(interaction)):
        return
    try:
        await interaction.followup.send(warning, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not warn the GM in channel %s", interaction.channel_id)
