"""Answering a Confirm / Cancel prompt exactly once (shared by sheet delete and encounter end).

A prompt's buttons carry its id (see :mod:`bot.store.prompts`). A service looks the prompt up,
checks its own rules (does the sheet still exist, may this member change it, is the encounter
still live), then calls :func:`settle` in the same transaction as the change a Confirm makes: if
another click answered first, :func:`settle` raises and the whole transaction — the change
included — rolls back.
"""

from __future__ import annotations

from datetime import datetime

from bot.errors import Conflict, NotFound
from bot.store import prompts as repo
from bot.store.base import StoreConnection as Connection
from bot.store.prompts import Answer, PromptKind, PromptRow

PROMPT_GONE = "This prompt is no longer valid; run the command again."
PROMPT_ANSWERED = "This prompt was already answered."


async def require_prompt(
    conn: Connection, prompt_id: int, kind: PromptKind, guild_id: int | None = None
) -> PromptRow:
    """The prompt ``prompt_id`` asking ``kind`` (in ``guild_id`` when given), answered or not.
    Raises :class:`NotFound` (:data:`PROMPT_GONE`) when there is no such prompt."""
    prompt = await repo.by_id(conn, prompt_id, kind)
    if prompt is None or (guild_id is not None and prompt.guild_id != guild_id):
        raise NotFound(PROMPT_GONE)
    return prompt


def require_open(prompt: PromptRow) -> None:
    """Raise :class:`Conflict` (:data:`PROMPT_ANSWERED`) unless ``prompt`` is still open."""
    if prompt.status != "open":
        raise Conflict(PROMPT_ANSWERED)


async def settle(conn: Connection, prompt: PromptRow, status: Answer, now: datetime) -> None:
    """Answer ``prompt`` with ``status`` or raise :class:`Conflict` (:data:`PROMPT_ANSWERED`)
    when another answer got there first (run it in the transaction of the change it allows)."""
    if not await repo.answer(conn, prompt.id, prompt.kind, status, now):
        raise Conflict(PROMPT_ANSWERED)
