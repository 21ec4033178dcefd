"""QA5: Discord limits with positions — the tracker and status with 60 combatants, all engaged
or at declared distances, long names full of Markdown."""

from __future__ import annotations

from bot.client import CombatBot
from tests.e2e.combat_helpers import answered, ok, slash
from tests.e2e.conftest import Table
from tests.harness.server import DiscordHarness

LONG = "**Big_Bad** `Thug` of the ||very|| long and winding road to the far hills"[:72]


async def test_sixty_combatants_all_placed(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm, player = discord_harness, table.moderator, table.player
    await ok(await slash(h, gm, "encounter start", name="Crowd"))
    await answered(await slash(h, gm, "npc import", example="thug", name=LONG))
    for count in (25, 25, 8):
        await ok(await slash(h, gm, "gm add-npc", template=LONG, count=count))
    for example in ("willow", "general-bearington"):
        await answered(await slash(h, player, "character import", example=example))
        await ok(
            await slash(h, player, "encounter join", character=example.replace("-", " ").title())
        )
    names = [f"{LONG} {i}" for i in range(1, 59)]
    for a, b in zip(names[0::2], names[1::2], strict=True):
        await ok(await slash(h, gm, "gm place engage", a=a, b=b))
    for name in names[:40]:
        await ok(await slash(h, gm, "gm place distance", a="Willow", b=name, meters=12.5))
    await ok(await slash(h, gm, "encounter begin"))
    status = await h.slash(player, h.channel, "encounter status")
    await status.response()
    gm_status = await h.slash(gm, h.channel, "encounter status")
    await gm_status.response()
    for answer in (status, gm_status):
        fields = {f["name"]: f["value"] for f in answer.response_data["embeds"][0]["fields"]}
        assert "… and" in fields["Positions"]  # cut to fit, saying so
    # the harness fails the test on any request over Discord's limits (tracker included)


async def test_a_long_campaign_rest_still_says_who_was_left_out(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm = discord_harness, table.moderator
    for member in (table.player, table.other_player):
        for i in range(1, 26):
            await answered(
                await slash(h, member, "character import", example="willow", name=f"Hero {i}")
            )
        await ok(await h.slash(gm, h.channel, "campaign rest", {"kind": "short", "member": member}))
    shown = await h.slash(table.player, h.channel, "campaign show")
    await shown.response()
    assert len(shown.response_data["content"]) <= 2000
    await ok(await slash(h, gm, "encounter start", name="Busy"))
    await ok(await slash(h, table.player, "encounter join", character="Hero 7"))
    rested = await ok(await slash(h, gm, "campaign rest", kind="long"))
    text = rested.message.text()
    # 49 characters rested and one was left out because it is fighting: the GM must be told.
    assert "Hero 7: fighting in" in text, text
