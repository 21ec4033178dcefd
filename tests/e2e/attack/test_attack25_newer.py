"""QA attack (round 25): a newer bot's fight ended unread (attack24), and what follows it —
a player pressing the end prompt, a double press, undo and redo, the recap and the log, a
member's export."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.ui.replies import UNEXPECTED
from tests.e2e.attack.test_attack24_newer import newer_fight, rows, text_of
from tests.e2e.combat_helpers import answered, work_done
from tests.e2e.conftest import Table
from tests.e2e.test_turn_ping_recovery import restarted
from tests.harness.server import DiscordHarness


@pytest.mark.async_timeout(200)
@pytest.mark.timeout(200)
@pytest.mark.parametrize("shape", ["unparsed", "behind"])
async def test_after_a_newer_fight_ended_unread(
    discord_patched: DiscordHarness, table: Table, tmp_path: Path, shape: str
) -> None:
    """Once the GM had ended the newer bot's fight here, `/encounter recap` and `/gm log` (which
    read the channel's last ended fight) still told them "Run that version to go on with it;
    `/encounter end` ends it here unread" — a fight already ended, the command they had just
    used. What reads an ended fight a newer bot saved now says it has ended and the newer
    version shows it. A player's press of the prompt is refused, a double press ends it once,
    and the rest answers without an error."""
    h, path = discord_patched, tmp_path / "bot.sqlite3"
    await newer_fight(h, table, path, "uttas", shape)
    gm, player = table.moderator, table.player
    async for _bot in restarted(h, path):
        prompt = await answered(await h.slash(gm, h.channel, "encounter end", {}))
        confirm = prompt.message.component(label="Confirm: end it")["custom_id"]
        by_player = await h.click(player, prompt.message, confirm)
        await by_player.response()
        assert by_player.ephemeral and "Only the GM" in text_of(by_player), text_of(by_player)
        _, log_before = rows(path)
        first = await h.click(gm, prompt.message, confirm)
        again = await h.click(gm, prompt.message, confirm)  # before the first is answered
        await first.response()
        await again.response()
        await work_done()
        assert [text_of(first), text_of(again)].count("**Newer** has ended.") == 1
        assert len(rows(path)[1]) == len(log_before) + 1  # one `end`
        ended = rows(path)
        for name in ("encounter recap", "gm log"):
            said = text_of(await answered(await h.slash(gm, h.channel, name, {})))
            assert "ends it here unread" not in said and "It has ended" in said, (name, said)
            assert "newer version" in said, said
        for member, name in (
            (gm, "gm undo"),
            (gm, "gm redo"),
            (gm, "campaign show"),
            (player, "me export"),
            (gm, "encounter status"),
        ):
            record = await answered(await h.slash(member, h.channel, name, {}))
            assert record.ephemeral and UNEXPECTED not in text_of(record), (name, text_of(record))
        await work_done()
        assert rows(path) == ended


async def test_a_restart_between_the_end_prompt_and_its_press(
    discord_patched: DiscordHarness, table: Table, tmp_path: Path
) -> None:
    """The GM asked to end the newer bot's fight, and the bot restarted before they pressed:
    the prompt keeps its buttons, and its Confirm ends the fight unread."""
    h, path = discord_patched, tmp_path / "bot.sqlite3"
    await newer_fight(h, table, path, "uttas", "behind")
    gm = table.moderator
    async for _bot in restarted(h, path):
        prompt = await answered(await h.slash(gm, h.channel, "encounter end", {}))
        await work_done()
    async for _bot in restarted(h, path):
        await work_done()
        confirm = prompt.message.component(label="Confirm: end it")["custom_id"]
        click = await h.click(gm, prompt.message, confirm)
        await click.response()
        await work_done()
        assert text_of(click) == "**Newer** has ended.", text_of(click)
        assert "could not read the fight" in h.messages_in(h.channel)[-1].content
    [stored], _ = rows(path)
    assert "archived" in stored, stored
