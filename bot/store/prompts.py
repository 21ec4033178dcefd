"""Confirm / Cancel prompts: the only SQL that touches ``prompts``.

A prompt is opened when a command asks "Are you sure?" and its buttons carry the prompt's id.
It is answered at most once: :func:`answer` moves it off ``'open'`` with a conditional UPDATE,
so of two clicks (Confirm and Cancel, or Confirm twice) exactly one changes a row. Run it in the
same transaction as the change a Confirm makes, so a refused change leaves the prompt open.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from bot.store.base import StoreConnection as Connection

PromptKind = Literal["sheet.delete", "encounter.end", "member.delete"]
PromptStatus = Literal["open", "confirmed", "cancelled"]
Answer = Literal["confirmed", "cancelled"]

_COLUMNS = "id, kind, target_id, guild_id, channel_id, opened_by, status, created_at, answered_at"


class PromptRow(BaseModel):
    """One row of ``prompts``: what it asks (``kind``) about which sheet, encounter or member
    (``target_id``; a member's user id for ``member.delete``), who opened it where, and whether
    it was answered."""

    model_config = ConfigDict(frozen=True)

    id: int
    kind: PromptKind
    target_id: int
    guild_id: int
    channel_id: int | None
    opened_by: int
    status: PromptStatus
    created_at: datetime
    answered_at: datetime | None


def _ts(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def _row(values: Any) -> PromptRow:
    return PromptRow.model_validate(dict(values))


async def open_prompt(
    conn: Connection,
    *,
    kind: PromptKind,
    target_id: int,
    guild_id: int,
    channel_id: int | None,
    opened_by: int,
    now: datetime,
) -> int:
    """Record a new open prompt; returns its id (never one used before)."""
    return await conn.insert(
        "INSERT INTO prompts (kind, target_id, guild_id, channel_id, opened_by, status,"
        " created_at) VALUES (?, ?, ?, ?, ?, 'open', ?)",
        (kind, target_id, guild_id, channel_id, opened_by, _ts(now)),
    )


async def by_id(conn: Connection, prompt_id: int, kind: PromptKind) -> PromptRow | None:
    """The prompt ``prompt_id`` if it exists and asks ``kind``; else ``None``."""
    row = await conn.fetch_one(
        f"SELECT {_COLUMNS} FROM prompts WHERE id = ? AND kind = ?", (prompt_id, kind)
    )
    return _row(row) if row else None


async def answer(
    conn: Connection, prompt_id: int, kind: PromptKind, status: Answer, now: datetime
) -> bool:
    """Answer an open prompt; returns whether this call did (``False``: it was already
    answered, or no open prompt of ``kind`` has that id)."""
    changed = await conn.execute(
        "UPDATE prompts SET status = ?, answered_at = ? WHERE id = ? AND kind = ?"
        " AND status = 'open'",
        (status, _ts(now), prompt_id, kind),
    )
    return changed == 1
