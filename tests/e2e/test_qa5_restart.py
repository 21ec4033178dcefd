"""QA5: a restart (SIGKILL) in the middle of a fight with timed effects and characters whose
records are written when it ends."""

from __future__ import annotations

from tests.e2e.combat_helpers import ok, set_up_fight, slash
from tests.e2e.conftest import BotProcess, Table
from tests.harness.server import DiscordHarness


async def test_timed_effects_and_records_survive_a_sigkill(
    discord_harness: DiscordHarness, bot_process: BotProcess, table: Table
) -> None:
    h, gm, player = discord_harness, table.moderator, table.player
    await bot_process.start()
    await set_up_fight(h, table)
    await ok(await slash(h, gm, "gm hp", combatant="Willow", health="-5"))
    await ok(
        await slash(
            h, gm, "gm condition", combatant="Willow", action="add", name="Prone", lasts="day"
        )
    )
    await ok(
        await slash(h, gm, "gm condition", combatant="Thug 2", action="add", name="Prone", rounds=1)
    )

    bot_process.kill()
    await bot_process.start()

    said = []
    for _ in range(6):
        said.append((await ok(await slash(h, gm, "endturn"))).message.text())
        if any("Thug 2 is no longer Prone" in text for text in said):
            break
    assert any("Thug 2 is no longer Prone (its time ran out)" in t for t in said), said
    prompt = await h.slash(gm, h.channel, "encounter end")
    await prompt.response()
    confirm = prompt.message.component(label="Confirm: end it")["custom_id"]
    await (await h.click(gm, prompt.message, confirm)).response()
    shown = await h.slash(player, h.channel, "campaign show", {"character": "Willow"})
    await shown.response()
    text = shown.response_data["content"]
    assert "Health 11/16" in text and "Prone (day)" in text, text
