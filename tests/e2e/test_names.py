"""Names as people type them, through the real bot: invisible characters never make a second
name, control characters and blank names are refused with a clear message, Markdown and
mentions in a name show as typed, and autocomplete never offers one name twice."""

from __future__ import annotations

import discord

from bot.client import CombatBot
from tests.e2e.combat_helpers import answered, ok, refused, slash
from tests.e2e.conftest import Table
from tests.harness.server import DiscordHarness

ZWSP = "\u200b"


def values(choices: list[dict[str, str]]) -> list[str]:
    return [c["value"] for c in choices]


async def test_an_invisible_character_never_makes_a_second_willow(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    player = table.player
    await answered(await slash(h, player, "character import", example="willow"))
    text = await refused(
        await slash(h, player, "character import", example="willow", name=f"Willow{ZWSP}")
    )
    assert "You already have a character called **Willow**" in text
    found = await h.autocomplete(player, h.channel, "character show", focused="name", value="")
    assert values(found) == ["Willow"]
    # Blank once the invisible characters go, or holding a control character: refused.
    text = await refused(await slash(h, player, "character import", example="willow", name=ZWSP))
    assert "The name is blank once invisible characters and spaces are removed." in text
    text = await refused(
        await slash(h, player, "character import", example="willow", name="Wil\x00low")
    )
    assert "may not contain line breaks or other control characters (found NUL, U+0000)" in text
    # A right-to-left override is dropped; the name is stored as people read it.
    record = await answered(
        await slash(h, player, "character import", example="willow", name="\u202eRowan\u202c")
    )
    assert record.followups or record.response_data  # answered
    names = await h.autocomplete(player, h.channel, "character show", focused="name", value="")
    assert values(names) == ["Rowan", "Willow"]
    # In an encounter: a one-off NPC with an invisible name is refused, one with an invisible
    # character beside its name is the same name as the combatant already there.
    await ok(await slash(h, table.gm, "encounter start", name=f"Ambush{ZWSP}"))
    await ok(await slash(h, player, "encounter join", character=f"willow{ZWSP}"))
    text = await refused(await slash(h, table.gm, "gm add-npc", name=ZWSP, health=5, stamina=5))
    assert "The NPC's name is blank" in text
    text = await refused(
        await slash(h, table.gm, "gm add-npc", name=f"\u2066Willow{ZWSP}", health=5, stamina=5)
    )
    assert "already a combatant called Willow" in text
    live = await bot.services.encounters.live(h.channel.id)
    assert live.row.name == live.state.name == "Ambush"
    assert [c.name for c in live.state.combatants] == ["Willow"]
    await ok(await slash(h, table.gm, "gm hp", combatant=f"WILLOW{ZWSP}", health="-1"))


async def test_markdown_and_mentions_in_names_show_as_typed(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    player, gm = table.player, table.gm
    odd = "||Sly|| `Bob`"
    record = await answered(await slash(h, player, "character import", example="willow", name=odd))
    content = (record.followups[0].content if record.followups else "") or (
        record.response_data.get("content") or ""
    )
    assert "Imported **\\|\\|Sly\\|\\| \\`Bob\\`**." in content
    await ok(await slash(h, gm, "encounter start", name="**Bold** fight"))
    joined = await ok(await slash(h, player, "encounter join", character=odd))
    assert "brings **\\|\\|Sly\\|\\| \\`Bob\\`** into the fight" in joined.message.content
    tracker = joined.message.embeds[0]
    assert tracker["title"] == "\\*\\*Bold\\*\\* fight"
    assert "**\\|\\|Sly\\|\\| \\`Bob\\`**" in tracker["fields"][-2]["value"]
    added = await ok(await slash(h, gm, "gm add-npc", name="@everyone", health=5, stamina=5))
    assert "Added **@\u200beveryone**." in added.message.text()
    log = await answered(await slash(h, gm, "gm log"))
    (markdown,) = [f for f in log.message.attachments if f.filename.endswith(".md")]
    text = markdown.text()
    assert text.startswith("# \\*\\*Bold\\*\\* fight — encounter log")
    assert "- @\u200beveryone joins the encounter" in text
    assert "name: `@everyone`" in text  # typed options stay inside code spans
    # The channel's tracker, posted when the fight begins, escapes it too.
    await ok(await slash(h, gm, "encounter begin"))
    trackers = lambda: [  # noqa: E731
        m
        for m in h.messages_in(h.channel)
        if m.embeds and "— Round" in m.embeds[0].get("title", "")
    ]
    await h.wait_for(lambda: bool(trackers()))
    assert trackers()[-1].embeds[0]["title"].startswith("\\*\\*Bold\\*\\* fight — Round")


async def test_attack_with_lists_a_one_off_npcs_strike_once(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await ok(await slash(h, table.gm, "encounter start", name="Alley"))
    await ok(await slash(h, table.gm, "gm add-npc", name="Brute", health=9, stamina=9, damage=3))
    choices = await h.autocomplete(
        table.gm, h.channel, "attack", focused="with", value="", **{"as": "Brute"}
    )
    assert values(choices) == ["Grapple", "Strike", "Trip"]
    choices = await h.autocomplete(
        table.gm, h.channel, "attack", focused="with", value="str", **{"as": "Brute"}
    )
    assert values(choices) == ["Strike"]
    # The Strike listed is the one an attack uses: the weapon (3 damage dice), not the maneuver.
    live = await bot.services.encounters.live(h.channel.id)
    brute = live.state.find("Brute")
    assert [w.name for w in brute.sheet.weapons] == ["Strike"]
    assert live.rules.attack_names(brute) == ["Strike", "Grapple", "Trip"]


async def test_gm_combatant_autocomplete_lists_each_combatant_once(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await ok(await slash(h, table.gm, "encounter start", name="Alley"))
    for name in ("Dan", "Daniel"):
        await ok(await slash(h, table.gm, "gm add-npc", name=name, health=5, stamina=5))
    choices = await h.autocomplete(table.gm, h.channel, "gm hp", focused="combatant", value="DAN")
    assert values(choices) == ["Dan", "Daniel"]
    member = h.add_member(h.guild, "Nobody", permissions=discord.Permissions(send_messages=True))
    assert await h.autocomplete(member, h.channel, "gm hp", focused="combatant", value="") == []


async def test_a_typed_reference_with_only_invisible_characters_is_refused_clearly(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await ok(await slash(h, table.gm, "encounter start", name="Alley"))
    await ok(await slash(h, table.gm, "gm add-npc", name="Brute", health=9, stamina=9, damage=3))
    await ok(await slash(h, table.gm, "gm add-npc", name="Dan", health=9, stamina=9))
    await ok(await slash(h, table.gm, "encounter begin"))
    live = await bot.services.encounters.live(h.channel.id)
    actor = live.state.current
    assert actor is not None
    target = "Dan" if actor.name == "Brute" else "Brute"
    text = await refused(
        await slash(h, table.gm, "attack", target=target, with_=ZWSP, as_=actor.name)
    )
    assert text == "`attack`: is blank once invisible characters and spaces are removed."
    # An invisible character beside a real name still finds it.
    await ok(await slash(h, table.gm, "attack", target=f"{target}{ZWSP}", with_=f"Strike{ZWSP}"))
