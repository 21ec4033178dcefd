"""Issue 11: the basic Block changed (+2 Dodge / +5 Defense → +3 / +3). Rules are frozen per
encounter, so a fight that began under the old Block keeps it; one started now gets the new."""

from __future__ import annotations

import json

from bot.engine.uttas.tables import default_tables
from bot.store.db import Database
from tests.services.test_frozen_rules import GM, services, set_rules


async def test_a_fight_started_under_the_old_block_keeps_it(db: Database) -> None:
    encounters, _ = services(db)
    started = await encounters.start(
        guild_id=1, channel_id=10, actor=GM, ruleset="uttas", name=None
    )
    assert started.row.rules is not None
    stored = json.loads(started.row.rules)
    assert stored["tables"]["reactions"]["block"]["dodge_bonus"] == 3
    # As stored by a bot from before the change:
    stored["tables"]["reactions"]["block"].update(dodge_bonus=2, defense_bonus=5)
    await set_rules(db, started.id, json.dumps(stored))

    old = (await encounters.live(10)).rules.tables.reactions["block"]  # type: ignore[attr-defined]
    assert (old.dodge_bonus, old.defense_bonus) == (2, 5)
    new = await encounters.start(guild_id=1, channel_id=11, actor=GM, ruleset="uttas", name=None)
    block = new.rules.tables.reactions["block"]  # type: ignore[attr-defined]
    assert (block.dodge_bonus, block.defense_bonus) == (3, 3)
    assert default_tables().reactions["block"].defense_bonus == 3
