"""Defects found on 2026-12-06 and left open (fix20a): each test states what a member should
see, through the real bot against the local Discord-compatible server."""

from __future__ import annotations

from bot.client import CombatBot
from tests.e2e.combat_helpers import window_ran_out
from tests.e2e.conftest import DiceBox, Table
from tests.e2e.uune_steps import Docks, prompt_with
from tests.harness.server import DiscordHarness

# ---- a decision that is no reaction runs out: its post says what it was -----------------------


async def test_a_uune_approval_that_runs_out_is_titled_as_an_approval(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """Mira's Attack waited on the GM's approval; its window ran out and the post was titled
    "Reaction window over" — nobody reacted to anything. It is titled by the decision's own
    words now: "Approval window over"."""
    h = discord_harness
    u = Docks(scripted_bot, h, table, dice)
    await u.cast(wren=False)
    await u.run(table.moderator, "encounter begin")
    await u.run(table.player, "act", action="attack", target="Dock Thug 1", detail="Street fencing")
    await prompt_with(h, "GM: approve all")
    dice.load([5] * 12)  # the lapse refuses what is unanswered and rolls
    await window_ran_out(scripted_bot, h)

    def over() -> list[str]:
        return [
            e.get("title", "")
            for m in h.messages_in(h.channel)
            for e in m.embeds
            if "window over" in e.get("title", "")
        ]

    await h.wait_for(lambda: bool(over()), what="the expiry's post")
    assert over() == ["Approval window over"], over()
