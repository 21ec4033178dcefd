"""QA attack on the fight chart (``/encounter status chart:True``, the chart on
``/encounter end``) and the recap in awkward fights: none fought yet, a crowd with long names."""

from __future__ import annotations

from bot.client import CombatBot
from bot.ui.replies import UNEXPECTED
from tests.e2e.combat_helpers import (
    answered,
    end_encounter,
    ok,
    pass_turns_until,
    set_up_fight,
    slash,
)
from tests.e2e.conftest import Table
from tests.harness.server import DiscordHarness


def said(record: object) -> str:
    data = getattr(record, "response_data", {}) or {}
    return str(data.get("content") or "")


async def test_chart_and_recap_before_anyone_fought(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await set_up_fight(h, table, begin=False)
    for member in (table.player, table.moderator):
        for command, options in (
            ("encounter status", {"chart": True}),
            ("encounter recap", {}),
            ("encounter recap", {"since": "30d"}),
        ):
            record = await answered(await slash(h, member, command, **options))
            assert said(record) != UNEXPECTED, (command, said(record))
    ended = await end_encounter(h, table)
    assert said(ended) != UNEXPECTED


async def test_chart_of_a_crowd_with_long_names(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm = discord_harness, table.moderator
    await ok(await slash(h, gm, "encounter start", name="Crowd"))
    await answered(await slash(h, gm, "npc import", example="thug"))
    await ok(await slash(h, gm, "gm add-npc", template="Thug", count=25))
    for i in range(8):
        name = f"{i} " + "A very long-named ruffian of the eastern docks, " * 2
        await ok(await slash(h, gm, "gm add-npc", name=name[:80], health=30, stamina=30))
    for example in ("willow", "general-bearington"):
        await answered(await slash(h, table.player, "character import", example=example))
    await ok(await slash(h, table.player, "encounter join", character="Willow"))
    await ok(await slash(h, gm, "encounter begin"))
    await pass_turns_until(bot, h, table, "Willow")
    await ok(await slash(h, table.player, "endturn"))
    for member in (table.player, gm):
        record = await answered(await slash(h, member, "encounter status", chart=True))
        assert said(record) != UNEXPECTED, said(record)
        recap = await answered(await slash(h, member, "encounter recap", since="1d"))
        assert said(recap) != UNEXPECTED, said(recap)
    ended = await end_encounter(h, table)
    assert said(ended) != UNEXPECTED


async def test_a_players_chart_keeps_npc_numbers_hidden(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await set_up_fight(h, table)
    await pass_turns_until(bot, h, table, "Willow")
    await ok(await slash(h, table.player, "endturn"))
    record = await answered(await slash(h, table.player, "encounter status", chart=True))
    message = record.message if not record.deferred else await record.followup(0)
    [chart] = message.attachments
    assert "Thug 1 Unhurt" in (chart.description or ""), chart.description
    assert "Thug 1 Health" not in (chart.description or ""), chart.description
    await end_encounter(h, table)

    def public_chart() -> list[str]:
        return [
            f.description or ""
            for m in h.messages_in(h.channel)
            for f in m.attachments
            if f.filename.endswith(".png")
        ]

    await h.wait_for(lambda: bool(public_chart()))
    assert all("Thug 1 Health" not in d for d in public_chart()), public_chart()
