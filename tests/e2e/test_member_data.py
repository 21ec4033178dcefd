"""A member's own data through the harness (issue 9 §9): ``/me export`` sends everything the bot
keeps about them and nothing of anyone else's; ``/me delete`` erases it after Confirm (only their
own click counts), keeping fights running with the GM in charge of their combatants and the logs
with their name replaced; server GMs do the same for a member who left."""

from __future__ import annotations

from typing import Any

import pytest

from bot.client import CombatBot
from tests.e2e.combat_helpers import answered, button, ok, pass_turns_until, refused, slash
from tests.e2e.conftest import Table
from tests.e2e.test_gm import gm_fight
from tests.harness.models import InteractionRecord, Member, StoredMessage
from tests.harness.server import DiscordHarness


async def export_of(
    h: DiscordHarness, member: Member, command: str = "me export", **options: Any
) -> dict[str, Any]:
    """Run an export command and return the JSON file it sent (ephemerally)."""
    record = await answered(await slash(h, member, command, **options))
    message = record.followups[0]
    assert message.ephemeral
    (attachment,) = message.attachments
    document: dict[str, Any] = attachment.json()
    return document


async def delete_prompt(
    h: DiscordHarness, member: Member, command: str = "me delete", **options: Any
) -> StoredMessage:
    record = await answered(await slash(h, member, command, **options))
    message = record.followups[0] if record.deferred else record.message
    assert message.ephemeral
    return message


async def click(
    h: DiscordHarness, member: Member, message: StoredMessage, label: str
) -> InteractionRecord:
    record = await h.click(
        member, h.message(message), button(h.message(message), label)["custom_id"]
    )
    await record.response()
    return record


async def stored_anywhere(bot: CombatBot, needle: str) -> list[str]:
    """Every ``table.column`` of the database (SQLite or PostgreSQL) holding a value that
    contains ``needle``."""
    found = []
    async with bot.db.read() as conn:
        postgres = conn.dialect == "postgresql"
        tables = await conn.fetch_all(
            "SELECT table_name AS name FROM information_schema.tables"
            " WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
            if postgres
            else "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        )
        find = "strpos" if postgres else "instr"
        for table in tables:
            columns = await conn.fetch_all(
                "SELECT column_name AS name FROM information_schema.columns"
                " WHERE table_schema = current_schema() AND table_name = ?"
                if postgres
                else f"PRAGMA table_info({table['name']})",
                (table["name"],) if postgres else (),
            )
            for column in columns:
                as_text = f"CAST({column['name']} AS TEXT)"
                hit = await conn.fetch_one(
                    f"SELECT 1 FROM {table['name']} WHERE {find}({as_text}, ?) > 0", (needle,)
                )
                if hit:
                    found.append(f"{table['name']}.{column['name']}")
    return found


async def test_export_holds_my_sheet_and_nothing_of_another_members(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await gm_fight(h, table, begin=False)
    document = await export_of(h, table.player)
    assert document["about"]["user_id"] == str(table.player.id)
    assert [c["name"] for c in document["characters"]] == ["Willow"]
    assert document["characters"][0]["sheet"]["name"] == "Willow"
    assert document["combatants"] == [
        {
            "encounter_id": document["combatants"][0]["encounter_id"],
            "encounter": "Matrix",
            "channel_id": str(h.channel.id),
            "status": "live",
            "combatant_id": document["combatants"][0]["combatant_id"],
            "combatant": "Willow",
        }
    ]
    entries = document["encounter_log"]["entries"]
    assert [(e["command"], e["issued_by_you"]) for e in entries] == [("join", True)]
    assert document["encounters_run"] == []
    assert document["npc_templates_created"] == []
    raw = str(document)
    assert "General Bearington" not in raw and "Thug" not in raw
    assert str(table.other_player.id) not in raw and str(table.gm.id) not in raw
    # The GM's export says which encounter they run; the moderator's, which template they made.
    assert [e["encounter"] for e in (await export_of(h, table.gm))["encounters_run"]] == ["Matrix"]
    templates = (await export_of(h, table.moderator))["npc_templates_created"]
    assert [t["name"] for t in templates] == ["Thug"]


async def test_delete_then_cancel_changes_nothing(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await gm_fight(h, table, begin=False)
    before = await export_of(h, table.player)
    prompt = await delete_prompt(h, table.player)
    assert "Erase everything the bot keeps about you in this server?" in prompt.content
    assert "• 1 — your character sheets" in prompt.content
    cancel = await click(h, table.player, prompt, "Cancel")
    assert h.message(prompt).content == "Cancelled: nothing about you was erased."
    assert not h.message(prompt).components
    after = await export_of(h, table.player)
    for key in ("characters", "combatants", "encounters_run", "npc_templates_created"):
        assert after[key] == before[key]
    assert after["encounter_log"] == before["encounter_log"]
    assert cancel.response_type == 7


async def test_delete_erases_me_and_the_fight_goes_on_under_the_gm(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    player, gm = table.player, table.gm
    await gm_fight(h, table)
    # Things that carry the player's id: a turn they ended, a GM seat handed to them and back.
    await pass_turns_until(bot, h, table, "Willow")
    await ok(await slash(h, player, "endturn"))
    await ok(await h.slash(gm, h.channel, "gm seat transfer", {"member": player}))
    await ok(await h.slash(player, h.channel, "gm seat transfer", {"member": gm}))
    await answered(await slash(h, player, "character import", example="thug", name="Spare"))

    before = set(await stored_anywhere(bot, str(player.id)))
    # (The log's state snapshots are sparse — issue 15 —: the player's join is in a row's
    # result, replayed, not in a snapshot.)
    assert {
        "sheets.owner_id",
        "encounters.state",
        "encounter_log.actor_id",
        "encounter_log.options",
        "encounter_log.result",
    } <= before, before

    prompt = await delete_prompt(h, player)
    assert "• 2 — your character sheets" in prompt.content
    assert "• 1 — combatants you control" in prompt.content
    # Another member's click on Confirm is refused and changes nothing.
    text = await refused(
        await h.click(table.other_player, prompt, button(prompt, "Confirm")["custom_id"])
    )
    assert text == f"Only <@{player.id}>, who asked for this, can answer it. Nothing changed."
    assert len((await export_of(h, player))["characters"]) == 2

    done = await click(h, player, prompt, "Confirm")
    assert done.response_type == 7  # the prompt itself is updated
    shown = h.message(prompt).content
    assert shown.startswith("Done: the bot no longer keeps you in this server's records.")
    assert "• 2 character sheets deleted." in shown
    assert f"• In <#{h.channel.id}> the GM now runs **Willow**." in shown
    await h.wait_for(lambda: "no longer has a player" in h.last_message(h.channel).content)
    assert h.last_message(h.channel).content == (
        "**Willow** no longer has a player in this fight: the GM runs them from now on."
    )

    # Nothing in the database holds the player's id any more.
    assert await stored_anywhere(bot, str(player.id)) == []
    empty = await export_of(h, player)
    assert all(not empty[k] for k in ("characters", "combatants", "encounters_run", "prompts"))
    assert empty["encounter_log"]["count"] == 0

    # The GM's log keeps the events, without the player's id.
    record = await slash(h, gm, "gm log")
    await record.response()
    files = record.message.attachments
    assert len(files) == 2
    for file in files:
        assert str(player.id) not in file.text()
    document = next(f for f in files if f.filename.endswith(".json")).json()
    commands = [(e["command"], e["actor_id"]) for e in document["entries"]]
    assert ("endturn", "0") in commands and ("forget_member", "0") in commands
    transfer = next(e for e in document["entries"] if e["command"] == "transfer")
    assert transfer["options"] == {"member": 0} and transfer["result"]["to"] == 0

    # The fight goes on: Willow is the GM's now; the player cannot act for her.
    live = await bot.services.encounters.live(h.channel.id)
    assert live.state.find("Willow").controller_id is None
    await pass_turns_until(bot, h, table, "Willow")
    assert "no combatant" in await refused(await slash(h, player, "endturn"))
    await ok(await slash(h, gm, "endturn"))
    # Undo never gives her back: it skips forget_member, and the snapshots are scrubbed.
    await ok(await slash(h, gm, "gm undo"))
    await ok(await slash(h, gm, "gm undo"))
    live = await bot.services.encounters.live(h.channel.id)
    assert live.state.find("Willow").controller_id is None
    assert await stored_anywhere(bot, str(player.id)) == []


async def test_a_gm_seat_is_handed_on_first(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    gm = table.gm
    await gm_fight(h, table, begin=False)
    text = await refused(await slash(h, gm, "me delete"))
    assert text == (
        f"You hold the GM seat of live encounters in <#{h.channel.id}>: hand each on with "
        "`/gm seat transfer` there, or end it with `/encounter end`, then run `/me delete` again."
    )
    end = await answered(await slash(h, gm, "encounter end"))
    await click(h, gm, end.message, "Confirm")
    prompt = await delete_prompt(h, gm)
    await click(h, gm, prompt, "Confirm")
    assert await stored_anywhere(bot, str(gm.id)) == []
    ended = await bot.services.encounters.get(
        int((await export_of(h, table.player))["combatants"][0]["encounter_id"])
    )
    assert ended.row.gm_id == 0 and ended.row.started_by == 0
    assert ended.row.status == "archived"


async def test_a_server_gm_exports_and_erases_a_member_who_left(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    player, moderator = table.player, table.moderator
    await gm_fight(h, table, begin=False)
    # Still a member: they do it themselves.
    record = await answered(
        await slash(h, moderator, "server member-export", user_id=str(player.id))
    )
    assert record.followups[0].ephemeral
    assert record.followups[0].content == (
        f"<@{player.id}> is still a member of this server: they can use `/me export` and "
        "`/me delete` themselves."
    )
    h.guild.members.remove(player)  # the player leaves the server

    document = await export_of(h, moderator, "server member-export", user_id=str(player.id))
    assert [c["name"] for c in document["characters"]] == ["Willow"]
    assert document["about"]["exported_by"] == str(moderator.id)

    prompt = await delete_prompt(h, moderator, "server member-delete", user_id=f"<@{player.id}>")
    assert f"Erase everything the bot keeps about <@{player.id}>" in prompt.content
    await click(h, moderator, prompt, "Confirm")
    assert h.message(prompt).content.startswith(f"Done: the bot no longer keeps <@{player.id}>")
    assert await stored_anywhere(bot, str(player.id)) == []
    live = await bot.services.encounters.live(h.channel.id)
    assert live.state.find("Willow").controller_id is None
    # The moderator's erasure is logged under the moderator.
    log = await bot.services.encounters.log(live.id)
    assert [(e.command, e.actor_id) for e in log][-1] == ("forget_member", moderator.id)


@pytest.mark.parametrize("typed", ["abc", "12345", "123456789012345678901", "99999999999999999999"])
async def test_a_user_id_must_be_a_snowflake(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table, typed: str
) -> None:
    h = discord_harness
    for command in ("server member-export", "server member-delete"):
        text = await refused(await slash(h, table.moderator, command, user_id=typed))
        assert "is not a user id: give the 17-20 digits" in text
