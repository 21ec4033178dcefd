"""The GM removes the combatant whose turn it is and that ends the fight (the last of its
side): in every system the channel reads that they leave and that the fight is over — no
turn announced or pinged in a fight that has ended (each system's newest rules version:
:meth:`bot.engine.core.tx.CoreTx.leave_fight`); and a second ``/gm skip`` of the same next turn
is refused. Played through Discord against the real bot."""

from __future__ import annotations

import pytest

from bot.client import CombatBot
from tests.e2e.combat_helpers import (
    ONE_ON_ONE,
    answered,
    current_name,
    ok,
    one_on_one,
    refused,
    set_up_fight,
    slash,
)
from tests.e2e.conftest import Table
from tests.harness.server import DiscordHarness


@pytest.mark.parametrize("system", sorted(ONE_ON_ONE))
async def test_removing_the_last_of_a_side_on_its_turn_ends_the_fight_without_a_turn(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table, system: str
) -> None:
    h = discord_harness
    await one_on_one(h, table, system, name="Last stand")
    leaver = await current_name(bot, h)
    stayer = next(
        c.name
        for c in (await bot.services.encounters.live(h.channel.id)).state.combatants
        if c.name != leaver
    )
    removed = await ok(await slash(h, table.moderator, "gm remove", combatant=leaver))
    said = removed.message.text()
    assert f"{leaver} leaves the encounter" in said, said
    assert "The fight is over" in said, said
    assert "'s turn" not in said and stayer not in said.split("leaves the encounter")[1], said
    assert "<@" not in removed.message.content, removed.message.content  # nobody pinged
    status = await answered(await slash(h, table.player, "encounter status"))
    assert "'s turn" not in status.message.text(), status.message.text()


async def test_a_second_gm_skip_of_the_same_next_turn_is_refused(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """``/gm skip`` of a combatant already set to skip its next turn changed nothing and said
    so again; it is refused, ephemeral, nothing written (rules version 3)."""
    h, gm = discord_harness, table.moderator
    await set_up_fight(h, table)
    current = await current_name(bot, h)
    waiting = next(n for n in ("Thug 1", "Thug 2", "Thug 3") if n != current)
    await ok(await slash(h, gm, "gm skip", combatant=waiting))
    before = (await bot.services.encounters.live(h.channel.id)).version
    said = await refused(await slash(h, gm, "gm skip", combatant=waiting))
    assert f"{waiting} already skips their next turn" in said, said
    assert (await bot.services.encounters.live(h.channel.id)).version == before
