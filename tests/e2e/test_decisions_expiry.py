"""The expiry loop against pauses that arrive at the same moment."""

from __future__ import annotations

from bot.client import CombatBot
from tests.e2e.combat_helpers import (
    ok,
    run_out_windows,
    set_up_fight,
    slash,
    thug_attacks_willow,
)
from tests.e2e.conftest import Table
from tests.e2e.test_decision_prompts import prompt_recorded
from tests.harness.server import DiscordHarness


async def test_a_pause_that_lands_just_before_the_expiry_stops_the_window(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """The GM pauses just as Willow's window runs out: the pause is applied first (the expiry
    loop read the due decisions before the pause was committed, and its expiry queued behind
    it). The GM was told "reaction windows stop running", so the attack must still wait for
    Willow's choice after /gm resume. Instead the expiry is applied to the paused fight: Willow
    loses her reaction while the encounter is paused."""
    h, gm = discord_harness, table.moderator
    await set_up_fight(h, table)
    await thug_attacks_willow(bot, h, table)
    await prompt_recorded(bot, h)
    service = bot.services.encounters
    lock = service._lock(h.channel.id)
    await lock.acquire()
    try:
        pause = await slash(h, gm, "gm pause")
        await h.wait_for(lambda: len(lock._waiters or ()) == 1)
        await run_out_windows(bot)  # the loop reads it due (the pause is not committed yet)
        await h.wait_for(lambda: len(lock._waiters or ()) == 2, timeout=10)
    finally:
        lock.release()
    await ok(pause)
    await h.wait_for(lambda: not lock.locked() and not lock._waiters)
    live = await service.live(h.channel.id)
    assert live.row.paused
    assert live.state.pending is not None, "the window ran out in a paused encounter"
