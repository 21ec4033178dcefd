"""Utopia's Assist on a Block, through Discord ("Assist": "spend an interrupt action to add 1d4
to a blocking creature's Block Rating … any number of times per event. Creatures aided this way
must be within 1 meter"): the Stone hound bites Vesna; Vesna blocks; Brannoc, engaged beside
her, assists twice — his buttons pressed by his player only, a double click charging once, the
second Assist after a restart — and Vesna rolls with the Assists given."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.client import CombatBot
from tests.e2e.combat_helpers import button, hound_pass, ok, press, refused, slash
from tests.e2e.conftest import DiceBox, Table, _running_bot
from tests.harness.models import StoredMessage
from tests.harness.server import DiscordHarness


async def utopia_fight(h: DiscordHarness, table: Table, dice: DiceBox) -> None:
    """The moderator GMs a Stone hound; Vesna (the player's) and Brannoc (the other player's)
    stand engaged. Speed tests all 9: ties by the Speed score, the hound (6) first."""
    gm = table.moderator
    await hound_pass(h, table, begin=False)
    dice.load([3, 3, 3] * 3)
    await ok(await slash(h, gm, "encounter begin"))
    await ok(await slash(h, gm, "gm place engage", a="Vesna", b="Brannoc"))


async def ia_of(bot: CombatBot, h: DiscordHarness, name: str) -> int:
    live = await bot.services.encounters.live(h.channel.id)
    c = next(c for c in live.state.combatants if c.name == name)
    return int(c.pools["interrupt"])


async def newest_with(h: DiscordHarness, label: str) -> StoredMessage:
    """The newest channel message with a button starting ``label``."""

    def found() -> StoredMessage | None:
        for message in reversed(h.messages_in(h.channel)):
            try:
                button(message, label)
            except AssertionError:
                continue
            return message
        return None

    await h.wait_for(lambda: found() is not None)
    message = found()
    assert message is not None
    return message


async def test_assist_on_a_block_through_buttons_across_a_restart(
    discord_patched: DiscordHarness, table: Table, tmp_path: Path, dice: DiceBox
) -> None:
    h, gm = discord_patched, table.moderator
    database = tmp_path / "bot.sqlite3"
    async for first in _running_bot(h, database, dice):
        await utopia_fight(h, table, dice)
        dice.load([8])  # the bite: 1d10 [8] + Power 2
        bite = await ok(
            await slash(h, gm, "act", action="attack", target="Vesna", detail="Crushing bite")
        )
        assert "Block (1 IA)" in [
            c["label"] for row in bite.message.components for c in row["components"]
        ]
        await press(h, table.player, bite.message, "Block (1 IA)")
        prompt = await newest_with(h, "Assist Vesna's Block: +1d4 (1 IA)")
        assert "**Brannoc** may Assist (+1d4 per IA" in prompt.content
        assert button(prompt, "Roll the Block now")
        # Vesna's player cannot spend Brannoc's actions.
        assist = button(prompt, "Assist Vesna's Block")["custom_id"]
        wrong = await h.click(table.player, prompt, assist)
        await wrong.response()
        assert wrong.ephemeral and "Only **Brannoc**'s controller" in wrong.response_data["content"]
        # A double click: one Assist, one IA.
        assert await ia_of(first, h, "Brannoc") == 2
        clicks = await asyncio.gather(
            h.click(table.other_player, prompt, assist),
            h.click(table.other_player, prompt, assist),
        )
        for click in clicks:
            await click.response()
        assert sorted(click.ephemeral for click in clicks) == [False, True]
        refusal = next(c for c in clicks if c.ephemeral).response_data["content"]
        assert "no longer pending" in refusal
        assert await ia_of(first, h, "Brannoc") == 1
    async for second in _running_bot(h, database, dice):
        again = await newest_with(h, "Assist Vesna's Block")
        assert "Given so far: **Brannoc** +1d4" in again.content
        await press(h, table.other_player, again, "Assist Vesna's Block")
        assert await ia_of(second, h, "Brannoc") == 0
        last = await newest_with(h, "Roll the Block now")
        assert "Brannoc** +2d4" in last.content
        assert all(
            not c["label"].startswith("Assist")
            for row in last.components
            for c in row["components"]
        ), "Brannoc has no IA left: no Assist button"
        text = await refused(
            await slash(h, gm, "act", action="attack", target="Vesna", detail="Crushing bite")
        )
        assert "Waiting for" in text
        dice.load([1, 2, 3])  # Vesna's Block 1d4 [1] + the Assists 2d4 [2, 3] = 6
        rolled = await press(h, table.player, last, "Roll the Block now")
        shown = str(rolled.response_data)
        assert "Assist from Brannoc: 2d4 [2, 3] = 5" in shown, shown
        assert "Vesna blocks" in shown and "takes 2 of 8" in shown, shown
        live = await second.services.encounters.live(h.channel.id)
        vesna = next(c for c in live.state.combatants if c.name == "Vesna")
        assert live.state.decisions == []
        assert vesna.shp == vesna.sheet.shp - 2  # 10 − defense 2 (innate, coat) − 6
