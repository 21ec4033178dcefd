"""Decision prompt messages after the fact: whatever settles a decision (a button, a command, an
expired window, an undo, the end of the encounter) edits its prompt to say how and removes its
buttons; a decision whose deciders changed hands while it waits (a member's data erased: the GM
runs their combatants) gets its prompt re-addressed. Shared by the combat flow, the
encounter-end buttons and the member-data buttons."""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.services.combat import Decision
from bot.services.encounters import Encounter
from bot.ui.combat import decision_prompt
from bot.ui.decision_view import decision_view

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


async def readdress_prompt(client: Any, encounter: Encounter, decision: Decision) -> bool:
    """Edit the prompt of the decision ``encounter`` waits on (``decision``, computed from its
    current state) so that it asks whoever decides now, with one button per choice they have
    now. For a decision that stays the same while its deciders change hands. Returns whether
    the prompt was edited; never raises (no prompt recorded, the message gone, or no access —
    the last logged)."""
    message_id = encounter.row.prompt_message_id
    if message_id is None:
        return False
    channel = client.get_partial_messageable(encounter.row.channel_id)
    try:
        await channel.get_partial_message(message_id).edit(
            content=decision_prompt(encounter, decision)[:2000],
            view=decision_view(encounter, decision),
            allowed_mentions=discord.AllowedMentions.none(),
        )
    except discord.NotFound:
        return False
    except discord.HTTPException:
        log.exception(
            "could not re-address prompt %s in channel %s", message_id, encounter.row.channel_id
        )
        return False
    return True


async def drop_buttons(client: Any, channel_id: int, message_id: int) -> None:
    """Remove a prompt's buttons and leave its text: for a prompt re-addressed just as its
    decision was settled (whatever settled it says how). Never raises (logged)."""
    channel = client.get_partial_messageable(channel_id)
    try:
        await channel.get_partial_message(message_id).edit(view=None)
    except discord.NotFound:
        pass
    except discord.HTTPException:
        log.exception("could not remove the buttons of %s in channel %s", message_id, channel_id)
