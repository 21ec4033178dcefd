"""No decision prompt is ever forgotten: recovering a decision's lost prompt.

The bot stores a decision, answers, and then notes which message shows it; a crash in between
leaves a prompt whose buttons nothing would retire, and a post Discord refused leaves a decision
nobody is asked about. For each such decision — at start-up before any reaction window is
expired, and later from the bot's background loop (:meth:`PromptKeeper.retry
<bot.ui.prompt_messages.PromptKeeper.retry>`) — :func:`recover` looks for its prompt among the
channel's recent messages (the bot needs Read Message History there), records it, and retires
older prompts of the same encounter found on the way — only those of decisions opened by the
version it read: a decision opened while it read the history (a command, another process) is
not among those it read open, and is not taken for one settled. If no prompt was ever posted,
it posts one.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.services.combat import Decision
from bot.services.encounters import Encounter
from bot.ui.combat import decision_prompt
from bot.ui.decision_view import decision_key, decision_view

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
    """Record (or post) the prompt of each of ``encounter``'s open decisions whose message was
    never noted, and retire its prompts of decisions no longer open found on the way (those
    opened by ``encounter``'s version: :func:`_opened_by`). Raises
    :class:`discord.HTTPException` when Discord refuses (the caller tries again later)."""
    keeper = client.prompts
    channel = client.get_partial_messageable(encounter.row.channel_id)
    prefixes = (f"rx:{encounter.id}:", f"rxg:{encounter.id}:")
    waiting = client.services.combat.decisions(encounter)
    unprompted = [d for d in waiting if d.prompt_message_id is None]
    if not unprompted:
        return
    found: dict[int, discord.Message] = {}
    async for message in channel.history(limit=HISTORY):
        if client.user is None or message.author.id != client.user.id:
            continue
        ids = [c for c in _custom_ids(message) if c.startswith(prefixes)]
        if not ids:
            continue
        shows = [d for d in waiting if any(_names(c, encounter.id, d) for c in ids)]
        if not shows and all(_opened_by(c, encounter) for c in ids):
            await keeper.retire(
                channel.id,
                message.id,
                "That decision is no longer pending: it was settled while the bot was away.",
            )
            continue
        for decision in shows:
            found.setdefault(decision.ref, message)  # the newest one shows the decision
    for decision in unprompted:
        message = found.get(decision.ref)
        if message is not None:
            await keeper.note(encounter, decision, message.id)
            log.info("recovered the prompt of encounter %s: message %s", encounter.id, message.id)
            continue
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


def _opened_by(custom_id: str, encounter: Encounter) -> bool:
    """Whether the decision a button's ``custom_id`` names opened no later than ``encounter``'s
    version — what :func:`recover` read: only then does its absence from the decisions read
    open mean it was settled. One opened since (a command or another process went on while
    the channel's history was read; an undo or redo that brings one back opens it anew) is
    not known here, and its prompt is left alone."""
    for prefix in (f"rx:{encounter.id}:", f"rxg:{encounter.id}:"):
        if custom_id.startswith(prefix):
            opened = custom_id[len(prefix) :].split(":", 1)[0].split(".", 1)[0]
            return opened.isdigit() and int(opened) <= encounter.version
    return False


def _names(custom_id: str, encounter_id: int, decision: Decision) -> bool:
    """Whether a button's ``custom_id`` names ``decision`` (by its version and number, or — a
    button made before decisions had numbers — by its version alone)."""
    for prefix in (f"rx:{encounter_id}:", f"rxg:{encounter_id}:"):
        if custom_id.startswith(prefix):
            key = custom_id[len(prefix) :].split(":", 1)[0]
            return key in (
                decision_key(decision.pending_version, decision.ref),
                str(decision.pending_version),
            )
    return False
