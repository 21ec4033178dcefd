"""A button's "no longer pending" means the fight it belongs to ended or moved on; a
:class:`NotFound` raised inside the rules (an unknown combatant) is said as it is, not hidden
behind it — the QA round's removed helper looked like a stale button for that reason."""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine.uttas.commands import Attack
from bot.errors import Conflict, NoEncounter, NotFound
from bot.store.db import Database
from tests.services.test_snapstate_attacks import CHANNEL, GM, Bot


async def _attacked(bot: Bot) -> Any:
    willow, thug = await bot.fight()

    def attack(cur: Any) -> Attack:
        me = cur.state.turn
        return Attack(actor=me, target=thug if me == willow else willow, attack="Sword")

    await bot.gm(attack, "attack")
    live = await bot.encounters.live(CHANNEL)
    assert live.row.pending_version is not None
    return live


async def test_a_rules_not_found_during_a_button_press_is_said_as_it_is(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot = Bot(db)
    live = await _attacked(bot)

    def unknown(*_args: Any) -> Any:
        raise NotFound("No combatant called 'c9' in this encounter.")

    monkeypatch.setattr(type(live.rules), "apply", unknown)
    with pytest.raises(NotFound, match="c9") as raised:
        await bot.combat.decide(live.id, live.row.pending_version, GM, "none")
    assert not isinstance(raised.value, NoEncounter)


async def test_a_button_of_an_ended_encounter_is_no_longer_pending(db: Database) -> None:
    bot = Bot(db)
    live = await _attacked(bot)
    await bot.encounters.end(live.id, GM)

    with pytest.raises(Conflict, match="no longer pending"):
        await bot.combat.decide(live.id, live.row.pending_version, GM, "none")
