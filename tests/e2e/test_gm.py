"""``/gm`` through the harness: who may do what (GM, controller, another player, bystander),
refusals that change nothing, undo/redo restoring exact states, pause, and the log files."""

from __future__ import annotations

import asyncio
from typing import Any

import discord

from bot.client import CombatBot
from tests.e2e.combat_helpers import answered, button, game_state, ok, press, refused, slash
from tests.e2e.conftest import Table
from tests.harness.server import DiscordHarness


async def snapshot(bot: CombatBot, h: DiscordHarness) -> tuple[int, str]:
    live = await bot.services.encounters.live(h.channel.id)
    return live.version, live.state_json


async def prompt_stored(bot: CombatBot, h: DiscordHarness) -> None:
    """Wait until the bot has recorded which message shows the pending decision (it does so
    right after answering, so a GM quick enough could undo before that)."""
    for _ in range(100):
        if (await bot.services.encounters.live(h.channel.id)).row.prompt_message_id:
            return
        await asyncio.sleep(0.02)
    raise AssertionError("the prompt message was never recorded")


async def gm_fight(h: DiscordHarness, table: Table, *, begin: bool = True) -> None:
    """The plain GM (no server permissions) runs a Thug; the player brings Willow and the other
    player General Bearington."""
    await ok(await slash(h, table.gm, "encounter start", name="Matrix"))
    await answered(await slash(h, table.moderator, "npc import", example="thug"))
    await ok(await slash(h, table.gm, "gm add-npc", template="Thug", count=1))
    await answered(await slash(h, table.player, "character import", example="willow"))
    await answered(
        await slash(h, table.other_player, "character import", example="general-bearington")
    )
    await ok(await slash(h, table.player, "encounter join", character="Willow"))
    await ok(await slash(h, table.other_player, "encounter join", character="General Bearington"))
    if begin:
        await ok(await slash(h, table.gm, "encounter begin"))


def gm_commands(table: Table, role: Any) -> list[tuple[str, dict[str, Any]]]:
    return [
        ("gm next", {}),
        ("gm skip", {"combatant": "Thug 1"}),
        ("gm order", {"combatant": "Thug 1", "position": 1}),
        ("gm remove", {"combatant": "Thug 1"}),
        ("gm hp", {"combatant": "Willow", "health": "-2", "stamina": "-1d4"}),
        ("gm condition", {"combatant": "Willow", "action": "add", "name": "Prone"}),
        ("gm advantage", {"combatant": "Willow", "dice": 2}),
        ("gm time end-of", {"period": "scene"}),
        ("gm add-npc", {"name": "Dan", "health": 5, "stamina": 5}),
        ("gm add-npc", {"template": "Thug", "count": 2}),
        ("gm refresh", {"combatant": "Willow"}),
        ("gm settings", {"npcs_react": True}),
        ("gm settings", {}),
        ("gm time rest", {"kind": "short"}),
        ("gm resolve", {}),
        ("gm undo", {}),
        ("gm redo", {}),
        ("gm log", {}),
        ("gm pause", {}),
        ("gm resume", {}),
        ("gm seat transfer", {"member": table.player}),
        ("encounter end", {}),
        ("encounter begin", {}),
    ]


async def test_permission_matrix_refusals_change_nothing(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await gm_fight(h, table)
    await ok(await slash(h, table.gm, "gm hp", combatant="Willow", health="-1"))  # undo has work
    role = h.add_role(h.guild, "Game Masters")
    for command, options in gm_commands(table, role):
        for member in (table.player, table.other_player, table.bystander):
            before = await snapshot(bot, h)
            text = await refused(await h.slash(member, h.channel, command, options))
            assert "Only the GM can" in text, (command, member.name, text)
            assert await snapshot(bot, h) == before, (command, member.name)
    # The server's GM role can only be chosen by a member with Manage Server: not even the GM.
    for member in (table.gm, table.player, table.moderator):
        text = await refused(await slash(h, member, "gm seat role", role=role))
        assert "Manage Server" in text
    # Autocomplete shows combatants and conditions to the GM only.
    for member, expected in ((table.gm, True), (table.player, False)):
        names = await h.autocomplete(member, h.channel, "gm hp", focused="combatant", value="")
        assert bool(names) is expected
        conditions = await h.autocomplete(
            member, h.channel, "gm condition", focused="name", value="Pro", combatant="Willow"
        )
        assert ([c["value"] for c in conditions] == ["Prone"]) is expected


async def test_gm_commands_work_and_each_undo_restores_the_exact_state(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await gm_fight(h, table)
    for command, options in gm_commands(table, None)[:12]:
        before = await snapshot(bot, h)
        record = await h.slash(table.gm, h.channel, command, options)
        await record.response()
        assert not record.ephemeral, (command, record.response_data)
        after = await snapshot(bot, h)
        assert after[0] == before[0] + 1, command
        undo = await ok(await slash(h, table.gm, "gm undo"))
        assert "Undid" in undo.message.text()
        assert game_state((await snapshot(bot, h))[1]) == game_state(before[1]), command
    # Names are matched exactly: "Dan" is added although "Daniel" exists, and "Dan" is not found
    # as a prefix of "Daniel".
    await ok(await slash(h, table.gm, "gm add-npc", name="Daniel", health=5, stamina=5))
    text = await refused(await slash(h, table.gm, "gm hp", combatant="Dan", health="3"))
    assert "no combatant called **Dan**" in text
    await ok(await slash(h, table.gm, "gm add-npc", name="Dan", health=5, stamina=5))
    live = await bot.services.encounters.live(h.channel.id)
    assert {"Dan", "Daniel"} <= {c.name for c in live.state.combatants}
    # Rests follow the rules: not during a fight.
    text = await refused(await slash(h, table.gm, "gm time rest", kind="short"))
    assert "Rest once the fight is over" in text
    # The GM's dice expressions have /roll's limits.
    text = await refused(await slash(h, table.gm, "gm hp", combatant="Willow", health="500d6"))
    assert "at most 100 dice" in text


async def test_players_act_only_for_their_own_combatants(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await gm_fight(h, table)
    live = await bot.services.encounters.live(h.channel.id)
    for _ in range(4):
        if live.state.current is not None and live.state.current.name == "Thug 1":
            break
        await ok(await slash(h, table.gm, "gm next"))
        live = await bot.services.encounters.live(h.channel.id)
    await ok(await slash(h, table.gm, "gm settings", npcs_react=True))
    prompt = (
        await ok(await slash(h, table.gm, "attack", target="Willow", with_="Cudgel", as_="Thug 1"))
    ).message
    evade = button(prompt, "Evade")["custom_id"]
    for member in (table.other_player, table.bystander):
        before = await snapshot(bot, h)
        click = await h.click(member, h.message(prompt), evade)
        await click.response()
        assert click.ephemeral, member.name
        assert "Only **Willow**'s controller or the GM" in click.response_data["content"]
        text = await refused(await slash(h, member, "dodge"))
        assert "not yours to move" in text or "no combatant" in text.lower()
        assert await snapshot(bot, h) == before
    await press(h, table.player, prompt, "Evade")
    # Turn commands: another player cannot act as Willow, a bystander has nobody to act for.
    live = await bot.services.encounters.live(h.channel.id)
    while live.state.current is None or live.state.current.name != "Willow":
        await ok(await slash(h, table.gm, "gm next"))
        live = await bot.services.encounters.live(h.channel.id)
    before = await snapshot(bot, h)
    text = await refused(await slash(h, table.other_player, "endturn", as_="Willow"))
    assert "You do not control **Willow**" in text
    text = await refused(await slash(h, table.bystander, "endturn"))
    assert "no combatant" in text
    assert await snapshot(bot, h) == before
    await ok(await slash(h, table.player, "endturn"))
    await ok(await slash(h, table.gm, "gm undo"))  # the GM takes it back
    assert game_state((await snapshot(bot, h))[1]) == game_state(before[1])


async def test_undo_past_a_pending_reaction_retires_its_buttons_and_redo_reposts_them(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await gm_fight(h, table)
    await ok(await slash(h, table.gm, "gm order", combatant="Thug 1", position=1))
    live = await bot.services.encounters.live(h.channel.id)
    while live.state.current is None or live.state.current.name != "Thug 1":
        await ok(await slash(h, table.gm, "gm next"))
        live = await bot.services.encounters.live(h.channel.id)
    prompt = (
        await ok(await slash(h, table.gm, "attack", target="Willow", with_="Cudgel", as_="Thug 1"))
    ).message
    evade = button(prompt, "Evade")["custom_id"]
    await prompt_stored(bot, h)
    undo = await ok(await slash(h, table.gm, "gm undo"))
    assert "Undid **/attack**" in undo.message.text()
    await h.wait_for(lambda: h.message(prompt).components == [])  # the old buttons go
    stale = h.message(prompt)
    stale.payload["components"] = stale.versions[0]["components"]  # a lagging client
    before = await snapshot(bot, h)
    click = await h.click(table.player, stale, evade)
    await click.response()
    assert click.ephemeral and "no longer pending" in click.response_data["content"]
    assert await snapshot(bot, h) == before
    # Redo brings the attack back with a fresh prompt and fresh buttons.
    redo = await ok(await slash(h, table.gm, "gm redo"))
    assert "Redid **/attack**" in redo.message.text()
    fresh = redo.message
    assert button(fresh, "Evade")["custom_id"] != evade
    await press(h, table.player, fresh, "Evade")
    assert "Willow reacts: Evade" in h.message(fresh).text()
    # A new command after an undo clears the redo history.
    await ok(await slash(h, table.gm, "gm undo"))
    await ok(await slash(h, table.gm, "gm hp", combatant="Willow", health="-1"))
    text = await refused(await slash(h, table.gm, "gm redo"))
    assert "nothing to redo" in text


async def test_pause_refuses_players_until_resume(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await gm_fight(h, table)
    paused = await ok(await slash(h, table.gm, "gm pause"))
    assert "paused" in paused.message.text()
    await h.wait_for(  # the tracker says so too
        lambda: any("Paused by the GM" in m.text() for m in h.messages_in(h.channel))
    )
    before = await snapshot(bot, h)
    for member, command, options in (
        (table.player, "endturn", {}),
        (table.other_player, "endturn", {}),
        (table.player, "stance", {"name": "Neutral"}),
        (table.bystander, "encounter join", {"character": "Nobody"}),
    ):
        text = await refused(await slash(h, member, command, **options))
        assert "The GM has paused the encounter." in text or "no character" in text.lower()
    assert await snapshot(bot, h) == before
    text = await refused(await slash(h, table.player, "endturn"))
    assert text.startswith("The GM has paused the encounter.")
    # The GM keeps running the table while paused.
    await ok(await slash(h, table.gm, "gm hp", combatant="Thug 1", health="-1"))
    await ok(await slash(h, table.gm, "gm undo"))
    again = await refused(await slash(h, table.gm, "gm pause"))
    assert "already paused" in again
    await ok(await slash(h, table.gm, "gm resume"))
    live = await bot.services.encounters.live(h.channel.id)
    assert not live.row.paused
    current = live.state.current
    assert current is not None
    who = {"Willow": table.player, "General Bearington": table.other_player}.get(current.name)
    await ok(await slash(h, who or table.gm, "endturn", **({} if who else {"as_": "Thug 1"})))


async def test_transfer_and_gm_role(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await gm_fight(h, table, begin=False)
    await ok(await h.slash(table.gm, h.channel, "gm seat transfer", {"member": table.other_player}))
    text = await refused(await slash(h, table.gm, "gm next"))
    assert "Only the GM can" in text  # the old GM lost the seat
    await ok(await slash(h, table.other_player, "encounter begin"))
    admin = h.add_member(h.guild, "Admin", permissions=discord.Permissions(manage_guild=True))
    role = h.add_role(h.guild, "Game Masters")
    helper = h.add_member(h.guild, "Helper GM", roles=[role])
    assert "Only the GM can" in await refused(await slash(h, helper, "gm next"))
    await ok(await slash(h, admin, "gm seat role", role=role))
    await ok(await slash(h, helper, "gm next"))
    await ok(await slash(h, admin, "gm seat role"))  # cleared
    assert "Only the GM can" in await refused(await slash(h, helper, "gm next"))


async def test_log_files_match_what_happened(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await gm_fight(h, table, begin=False)
    await ok(await slash(h, table.gm, "gm hp", combatant="Willow", stamina="-2d1"))
    rested = await ok(await slash(h, table.gm, "gm time rest", kind="short"))
    # The NPCs rest too (newuser24: the title said "The party").
    assert rested.message is not None
    assert "Everyone in the encounter takes a short rest" in rested.message.text()
    await ok(await slash(h, table.gm, "encounter begin"))
    await ok(await slash(h, table.gm, "gm undo"))
    record = await slash(h, table.gm, "gm log")
    await record.response()
    assert record.ephemeral
    message = record.message
    names = sorted(a["filename"] for a in message.payload["attachments"])
    assert names[0].endswith("-log.json") and names[1].endswith("-log.md")
    document = message.attachment(names[0]).json()
    markdown = message.attachment(names[1]).text()
    entries = document["entries"]
    log = await bot.services.encounters.log((await bot.services.encounters.live(h.channel.id)).id)
    assert [e["version"] for e in entries] == [e.version for e in log]
    commands = [e["command"] for e in entries]
    assert commands[0] == "start"
    assert commands[-5:] == ["join", "hp", "rest", "begin", "undo"]
    hp = entries[-4]
    assert hp["actor_id"] == str(table.gm.id)
    assert hp["options"]["stamina"] == "-2d1" and "stamina_rolled" in hp["options"]
    begin = entries[-2]
    assert begin["undone_by"] == entries[-1]["version"]
    assert any(e["kind"] == "initiative" for e in begin["result"]["events"])
    assert begin["result"]["dice"] and all(d >= 1 for d in begin["result"]["dice"])  # issue 15
    assert document["state"] == document["state"] and document["encounter"]["name"] == "Matrix"
    assert f"## Version {hp['version']}: /gm hp" in markdown
    assert f"undone by version {entries[-1]['version']}" in markdown
    assert "Willow recovers" in markdown
    assert "🎲" in markdown or "initiative" in markdown.lower()


async def test_add_npc_refuses_a_template_and_one_off_stats_together(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await gm_fight(h, table, begin=False)
    before = await snapshot(bot, h)
    text = await refused(await slash(h, table.gm, "gm add-npc", template="Thug", name="Boss"))
    assert "either a `template`" in text and "not both" in text
    text = await refused(await slash(h, table.gm, "gm add-npc", template="Thug", health=5))
    assert "not both" in text
    assert await snapshot(bot, h) == before


async def test_gm_vital_sets_any_of_the_rulesets_vitals(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await gm_fight(h, table)
    names = await h.autocomplete(table.gm, h.channel, "gm vital", focused="vital", value="")
    assert [c["value"] for c in names] == ["health", "stamina"]
    await ok(await slash(h, table.gm, "gm vital", combatant="Willow", vital="Stamina", amount="-5"))
    live = await bot.services.encounters.live(h.channel.id)
    willow = live.state.find("Willow")
    assert willow.stamina == willow.sheet.stamina - 5
    before = await snapshot(bot, h)
    text = await refused(
        await slash(h, table.gm, "gm vital", combatant="Willow", vital="mana", amount="3")
    )
    assert "UTTAS has no vital called 'mana'" in text
    text = await refused(
        await slash(
            h, table.gm, "gm vital", combatant="Willow", vital="health", amount="999999d999999"
        )
    )
    assert "at most 100 dice" in text
    text = await refused(
        await slash(h, table.player, "gm vital", combatant="Willow", vital="health", amount="3")
    )
    assert "Only the GM can" in text
    assert await snapshot(bot, h) == before
