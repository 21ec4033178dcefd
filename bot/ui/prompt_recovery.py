"""After a restart: no decision prompt is ever forgotten.

The bot stores a decision, answers, and then notes which message shows it; a crash in between
leaves a prompt whose buttons nothing would retire. At start-up, before any reaction window is
expired, :func:`recover_prompts` looks for each such decision's prompt among the channel's recent
messages (the bot needs Read Message History there), records it, and retires older prompts of
the same encounter found on the way. If no prompt was ever posted, it posts one.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.services.encounters import Encounter
from bot.ui.combat import decision_prompt
from bot.ui.decision_view import decision_view
from bot.ui.prompt_messages import retire_prompt

log = logging.getLogger(__name__)

HISTORY = 100  # recent messages searched per channel


def _custom_ids(message: discord.Message) -> list[str]:
    ids: list[str] = []
    for row in message.components:
        for child in getattr(row, "children", []):
            custom_id = getattr(child, "custom_id", None)
            if custom_id:
                ids.append(custom_id)
    return ids


async def recover_prompts(client: Any) -> int:
    """Record (or post) the prompt of every pending decision whose message was never noted.
    Returns how many decisions were recovered. Never raises for one channel's failure."""
    recovered = 0
    for encounter in await client.services.encounters.unprompted():
        try:
            await _recover(client, encounter)
            recovered += 1
        except discord.HTTPException as error:
            log.warning(
                "could not recover the prompt of encounter %s in channel %s: %s",
                encounter.id,
                encounter.row.channel_id,
                error,
            )
    return recovered


async def _recover(client: Any, encounter: Encounter) -> None:
    pending_version = encounter.row.pending_version
    assert pending_version is not None
    channel = client.get_partial_messageable(encounter.row.channel_id)
    prefix = f"rx:{encounter.id}:"
    current = f"{prefix}{pending_version}:"
    found: discord.Message | None = None
    async for message in channel.history(limit=HISTORY):
        if client.user is None or message.author.id != client.user.id:
            continue
        ids = [c for c in _custom_ids(message) if c.startswith(prefix)]
        if not ids:
            continue
        if any(c.startswith(current) for c in ids):
            found = found or message  # the newest one shows the decision
        else:
            await retire_prompt(
                client,
                channel.id,
                message.id,
                "That attack is no longer pending: it was settled while the bot was away.",
            )
    service = client.services.encounters
    if found is not None:
        await service.set_prompt_message(encounter.id, pending_version, found.id)
        log.info("recovered the prompt of encounter %s: message %s", encounter.id, found.id)
        return
    decision = client.services.combat.decision(encounter)
    if decision is None:
        return
    members = decision.members(encounter.row.gm_id)
    message = await channel.send(
        decision_prompt(encounter, decision),
        view=decision_view(encounter, decision),
        allowed_mentions=discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(id=uid) for uid in members]
        ),
    )
    await service.set_prompt_message(encounter.id, pending_version, message.id)
    log.info("posted the lost prompt of encounter %s again", encounter.id)
