"""No decision prompt is ever forgotten: recovering a decision's lost prompt.

The bot stores a decision, answers, and then notes which message shows it; a crash in between
leaves a prompt whose buttons nothing would retire, and a post Discord refused leaves a decision
nobody is asked about. For each such decision — at start-up before any reaction window is
expired, and later from the bot's background loop (:meth:`PromptKeeper.retry
<bot.ui.prompt_messages.PromptKeeper.retry>`) — :func:`recover` looks for its prompt among the
channel's recent messages (the bot needs Read Message History there), records it, and retires
older prompts of the same encounter found on the way. If no prompt was ever posted, it posts one.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.services.encounters import Encounter
from bot.ui.combat import decision_prompt
from bot.ui.decision_view import decision_view

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


async def recover(client: Any, encounter: Encounter) -> None:
    """Record (or post) the prompt of ``encounter``'s pending decision, whose message was never
    noted, and retire its older prompts found on the way. Raises
    :class:`discord.HTTPException` when Discord refuses (the caller tries again later)."""
    pending_version = encounter.row.pending_version
    assert pending_version is not None
    keeper = client.prompts
    channel = client.get_partial_messageable(encounter.row.channel_id)
    prefixes = (f"rx:{encounter.id}:", f"rxg:{encounter.id}:")
    current = tuple(f"{prefix}{pending_version}:" for prefix in prefixes)
    found: discord.Message | None = None
    async for message in channel.history(limit=HISTORY):
        if client.user is None or message.author.id != client.user.id:
            continue
        ids = [c for c in _custom_ids(message) if c.startswith(prefixes)]
        if not ids:
            continue
        if any(c.startswith(current) for c in ids):
            found = found or message  # the newest one shows the decision
        else:
            await keeper.retire(
                channel.id,
                message.id,
                "That attack is no longer pending: it was settled while the bot was away.",
            )
    decision = client.services.combat.decision(encounter)
    if decision is None:
        return
    if found is not None:
        await keeper.note(encounter, decision, found.id)
        log.info("recovered the prompt of encounter %s: message %s", encounter.id, found.id)
        return
    members = decision.members(encounter.row.gm_id)
    message = await channel.send(
        decision_prompt(encounter, decision),
        view=decision_view(encounter, decision),
        allowed_mentions=discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(id=uid) for uid in members]
        ),
    )
    await keeper.note(encounter, decision, message.id)
    log.info("posted the lost prompt of encounter %s again", encounter.id)
