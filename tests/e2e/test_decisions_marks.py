"""A command meant for a turn or decision that an undo took back is not applied to the turn or
decision the undo brought back."""

from __future__ import annotations

from bot.client import CombatBot
from tests.e2e.combat_helpers import (
    current_name,
    ok,
    pass_turns_until,
    press,
    set_up_fight,
    slash,
)
from tests.e2e.conftest import Table
from tests.e2e.test_decision_prompts import prompt_recorded
from tests.harness.server import DiscordHarness


async def test_an_endturn_meant_for_the_turn_an_undo_took_back_does_not_end_the_restored_one(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Two GMs run the table. Willow's turn ends and Thug 1's begins; the co-GM types
    `/endturn` for Thug 1 just as the GM's `/gm undo` gives Willow her turn back. The undo is
    applied first: the `/endturn` — typed during Thug 1's turn — then ends *Willow's* restored
    turn, which nobody asked for. It should be refused like any command typed for a turn that
    is no longer the current one ("That turn already ended…")."""
    h, gm = discord_harness, table.moderator
    await set_up_fight(h, table)
    await pass_turns_until(bot, h, table, "Willow")
    await ok(await slash(h, table.player, "endturn"))
    after_willow = await current_name(bot, h)
    assert after_willow != "Willow"
    service = bot.services.encounters
    lock = service._lock(h.channel.id)
    async with lock:  # both arrive before either is applied, the undo first
        undo = await slash(h, gm, "gm undo")
        await h.wait_for(lambda: service.horizon >= undo.id)
        # the undo defers (an HTTP round trip) before it queues on the channel's lock: under
        # load the /endturn queued first and was applied before it (a CI run)
        await h.wait_for(lambda: len(lock._waiters or ()) == 1)
        typed = await slash(h, gm, "endturn")  # meant for the turn of whoever follows Willow
        await h.wait_for(lambda: service.horizon >= typed.id)
        await h.wait_for(lambda: len(lock._waiters or ()) == 2)
    await ok(undo)
    await typed.response()
    assert await current_name(bot, h) == "Willow", "the restored turn was ended"
    assert typed.ephemeral, typed.response_data


async def test_a_gm_resolve_meant_for_hit_two_does_not_decide_hit_one_brought_back(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """General Bearington's three-hit flurry on Thug 1 (the GM decides its reactions). Hit 1
    is taken, hit 2 waits; the GM types `/gm resolve` for hit 2 just as `/gm undo` brings hit 1
    back. The undo is applied first, and the `/gm resolve` — typed after hit 2 began waiting —
    decides hit 1 instead. Two typed reactions sent together are refused for the next hit
    (test_two_typed_reactions_together_decide_one_hit); the same should hold for a hit an
    undo re-opened."""
    h, gm = discord_harness, table.moderator
    await set_up_fight(h, table, thugs=1)
    await ok(await slash(h, gm, "gm settings", npcs_react=True))
    await pass_turns_until(bot, h, table, "General Bearington")
    await ok(await slash(h, table.player, "attack", target="Thug 1", with_="Claws", hits=3))
    await press(h, gm, h.message(await prompt_recorded(bot, h)), "Take it")  # hit 1 → hit 2
    service = bot.services.encounters
    hit_two = (await service.live(h.channel.id)).row.pending_version
    lock = service._lock(h.channel.id)
    async with lock:  # both arrive before either is applied, the undo first
        undo = await slash(h, gm, "gm undo")
        await h.wait_for(lambda: service.horizon >= undo.id)
        await h.wait_for(lambda: len(lock._waiters or ()) == 1)
        typed = await slash(h, gm, "gm resolve")
        await h.wait_for(lambda: service.horizon >= typed.id)
        await h.wait_for(lambda: len(lock._waiters or ()) == 2)
    await ok(undo)
    await typed.response()
    live = await service.live(h.channel.id)
    assert live.row.pending_version not in (None, hit_two)
    assert typed.ephemeral, typed.response_data
