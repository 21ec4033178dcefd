"""Defects left open after round 20, each driven through the real bot (slash command or button
→ service → SQLite → what the channel and the member see)."""

from __future__ import annotations

from bot.client import CombatBot
from tests.e2e.combat_helpers import (
    button,
    ok,
    pass_turns_until,
    refused,
    slash,
)
from tests.e2e.combat_helpers import set_up_fight as uttas_fight
from tests.e2e.conftest import Table
from tests.harness.server import DiscordHarness


async def _coordinated(bot: CombatBot, h: DiscordHarness, table: Table) -> tuple[str, str]:
    """Two Thugs against Willow: the first to act readies a coordinated Cudgel on Willow with
    the second, whose turn then begins. Returns (first, second)."""
    gm = table.moderator
    await uttas_fight(h, table, thugs=2)
    live = await bot.services.encounters.live(h.channel.id)
    thugs = [live.state.get(cid).name for cid in live.state.order]
    first, second = [name for name in thugs if name.startswith("Thug")]
    await pass_turns_until(bot, h, table, first)
    await ok(
        await slash(
            h,
            gm,
            "ready",
            trigger="coordinated",
            watch=second,
            action="strike with my partner",
            attack="Cudgel",
            target="Willow",
            as_=first,
        )
    )
    await pass_turns_until(bot, h, table, second)
    return first, second


async def test_the_turn_pings_attack_strikes_together_with_a_readied_coordinated_attack(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """`together:` (UTTAS's coordinated attacks) was on `/attack` only: the turn ping's
    "Attack…" offered Willow alone, so the Thug whose partner readied a coordinated Cudgel on
    her could strike only without it from the ping. The ping's target list now offers
    "Willow, together with Thug 1" (as `/attack together:` does), and picking it strikes
    together; Willow alone stays offered."""
    h, gm = discord_harness, table.moderator
    first, second = await _coordinated(bot, h, table)
    [ping] = [m for m in h.messages_in(h.channel) if f"**{second}**'s turn" in m.content][-1:]
    asked = await h.click(gm, ping, button(ping, "Attack…")["custom_id"])
    await asked.response()
    [select] = [c for c in asked.message.all_components() if c.get("type") == 3]
    labels = [o["label"] for o in select["options"]]
    assert f"Willow, together with {first}" in labels and "Willow" in labels, labels
    together = next(o["value"] for o in select["options"] if "together" in o["label"])
    attacked = await h.select(gm, asked.message, select["custom_id"], [together])
    await attacked.response()
    assert not attacked.ephemeral, attacked.response_data
    assert "attacks Willow" in attacked.message.text(), attacked.message.text()
    live = await bot.services.encounters.live(h.channel.id)
    (waiting,) = live.state.decisions
    assert live.state.get(waiting.attacker).name == second
    assert [live.state.get(a).name for a in waiting.joint] == [first], waiting.joint
    assert live.state.get(next(iter(waiting.joint))).readied is None


async def test_act_attack_in_uttas_points_to_attack_together(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """UTTAS's `/act` has no attack (attacks are `/attack`): `/act action:attack` is refused,
    and the refusal names `/attack` with its `together:` for a coordinated attack, so a
    member whose ally readied one knows where it is made."""
    h, gm = discord_harness, table.moderator
    _, second = await _coordinated(bot, h, table)
    text = await refused(await slash(h, gm, "act", action="attack", target="Willow", as_=second))
    assert "`/attack`" in text and "`together:`" in text, text
    live = await bot.services.encounters.live(h.channel.id)
    assert not live.state.decisions
