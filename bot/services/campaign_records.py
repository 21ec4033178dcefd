"""Campaign records inside an encounter's transaction (issue 10, decision A): a character
joins as its record left it, and its record is written back when it leaves the encounter or
the encounter ends — in the same transaction as that change, so a record and the fight it came
from never disagree. The out-of-fight commands are :mod:`bot.services.campaign`'s."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from pydantic import BaseModel

from bot import names
from bot.engine.core.contract import Ruleset
from bot.errors import Conflict, InvalidInput
from bot.store import campaign as repo
from bot.store import encounters as encounter_repo
from bot.store import sheets as sheet_repo
from bot.store.base import StoreConnection

log = logging.getLogger(__name__)


async def load(
    conn: StoreConnection, rules: Ruleset[Any], character_id: int, name: str
) -> BaseModel | None:
    """The campaign record a character joins with: None when it has none in ``rules``'s
    system (a first fight, or a record of another system). Raises :class:`InvalidInput` when
    the stored record cannot be read (it is kept; a server GM may reset it)."""
    row = await repo.get(conn, character_id)
    if row is None or row.ruleset != rules.key:
        return None
    try:
        return rules.parse_record(row.record)
    except InvalidInput as error:
        log.warning("campaign record of character %s unreadable: %s", character_id, error)
        raise InvalidInput(
            f"**{names.escaped(name)}**'s campaign record cannot be read ({error.message}). "
            "A server GM can start it afresh with `/campaign reset`."
        ) from None


async def require_free(
    conn: StoreConnection, current: Any, combatant: Any, *, came_back: bool
) -> None:
    """Refuse (:class:`Conflict`) a character coming into ``current`` (an encounter) while it
    fights in another live encounter of the server, or — ``came_back`` by undo or redo — when
    its record changed since it left (a rest, healing or another fight since): bringing it back
    would overwrite that with the older state."""
    name = names.escaped(combatant.name)
    elsewhere = await encounter_repo.live_with_character(
        conn, current.row.guild_id, combatant.character_id
    )
    if elsewhere is not None and elsewhere.id != current.id:
        raise Conflict(
            f"**{name}** is already fighting in <#{elsewhere.channel_id}>: a character is in "
            "one encounter at a time."
        )
    if not came_back:
        return
    row = await repo.get(conn, combatant.character_id)
    left_as = current.rules.record_of(combatant).model_dump_json()
    if row is None or row.record != left_as:  # leaving wrote it: gone or different = changed
        raise Conflict(
            f"**{name}**'s campaign record changed since they left this fight (a rest, healing, "
            "a reset or another fight): bringing them back would undo that. Join them again "
            "instead."
        )


async def write_back(
    conn: StoreConnection,
    rules: Ruleset[Any],
    guild_id: int,
    combatants: Iterable[Any],
    now: datetime,
) -> int:
    """Store the record of every character among ``combatants`` (those with a
    ``character_id``). Returns how many were written."""
    written = 0
    for c in combatants:
        if c.character_id is None:
            continue
        if await sheet_repo.by_id(conn, c.character_id) is None:
            continue  # the sheet was deleted (or its member's data erased): no record for it
        await repo.put(
            conn,
            character_id=c.character_id,
            guild_id=guild_id,
            ruleset=rules.key,
            record=rules.record_of(c).model_dump_json(),
            now=now,
        )
        written += 1
    return written
