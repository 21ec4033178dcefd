"""Names that look the same are one name, through the real bot: a Cyrillic ``Wіllow`` does not
join beside ``Willow`` nor ``Тһug 1`` beside ``Thug 1``; a lookalike typed finds the name;
autocomplete offers each name once; names typed on a keyboard that merely resemble each other
(``Tom`` and ``Torn``) stay two names."""

from __future__ import annotations

from bot.client import CombatBot
from tests.e2e.combat_helpers import answered, ok, refused, slash
from tests.e2e.conftest import Table
from tests.harness.server import DiscordHarness

CYRILLIC_WILLOW = "W\u0456llow"  # Cyrillic small i
CYRILLIC_THUG_1 = "\u0422\u04bbug 1"  # Cyrillic capital Te, small shha


def values(choices: list[dict[str, str]]) -> list[str]:
    return [c["value"] for c in choices]


async def test_a_lookalike_never_makes_a_second_name(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    gm, player = table.gm, table.player
    await answered(await slash(h, player, "character import", example="willow"))
    text = await refused(
        await slash(h, player, "character import", example="willow", name=CYRILLIC_WILLOW)
    )
    assert "You already have a character called **Willow**" in text
    found = await h.autocomplete(player, h.channel, "character show", focused="name", value="")
    assert values(found) == ["Willow"]
    # Typed with the Cyrillic letter, the name still finds the sheet.
    shown = await answered(await slash(h, player, "character show", name=CYRILLIC_WILLOW))
    assert "Willow" in (shown.message.text() if shown.message else str(shown.response_data))

    await ok(await slash(h, gm, "encounter start", name="Ambush"))
    await ok(await slash(h, player, "encounter join", character=CYRILLIC_WILLOW))
    await answered(await slash(h, table.moderator, "npc import", example="thug"))
    await ok(await slash(h, gm, "gm add-npc", template="Thug", count=2))
    text = await refused(
        await slash(h, gm, "gm add-npc", name=CYRILLIC_THUG_1, health=5, stamina=5)
    )
    assert "already a combatant called Thug 1" in text
    text = await refused(
        await slash(h, gm, "gm add-npc", name=CYRILLIC_WILLOW, health=5, stamina=5)
    )
    assert "already a combatant called Willow" in text
    live = await bot.services.encounters.live(h.channel.id)
    assert [c.name for c in live.state.combatants] == ["Willow", "Thug 1", "Thug 2"]
    choices = await h.autocomplete(gm, h.channel, "gm hp", focused="combatant", value="")
    assert values(choices) == ["Thug 1", "Thug 2", "Willow"]
    choices = await h.autocomplete(gm, h.channel, "gm hp", focused="combatant", value="\u0422")
    assert values(choices) == ["Thug 1", "Thug 2"]  # a Cyrillic T finds the Thugs
    # A lookalike typed reaches the one combatant of that name.
    await ok(await slash(h, gm, "gm hp", combatant=CYRILLIC_THUG_1, health="-1"))
    live = await bot.services.encounters.live(h.channel.id)
    thug = live.state.find("Thug 1")
    assert thug.health == thug.sheet.health - 1


async def test_keyboard_names_that_resemble_each_other_stay_two_names(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await ok(await slash(h, table.gm, "encounter start", name="Alley"))
    for name in ("Tom", "Torn", "Thug l", "Thug 1"):
        await ok(await slash(h, table.gm, "gm add-npc", name=name, health=5, stamina=5))
    choices = await h.autocomplete(table.gm, h.channel, "gm hp", focused="combatant", value="")
    assert values(choices) == ["Thug 1", "Thug l", "Tom", "Torn"]


async def test_template_numbers_skip_a_lookalike_of_a_numbered_npc(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """A one-off "Тһug 1" (Cyrillic Т and һ) holds number 1: Thug copies are numbered after it,
    whatever the case of the template typed, instead of being refused as a clash."""
    h, gm = discord_harness, table.moderator
    await ok(await slash(h, gm, "encounter start", name="N"))
    await answered(await slash(h, gm, "npc import", example="thug"))
    await ok(await slash(h, gm, "gm add-npc", name="\u0422\u04bbug 1"))
    added = await ok(await slash(h, gm, "gm add-npc", template="Thug", count=2))
    assert added.message.content == "Added **Thug 2**, **Thug 3**."
    again = await ok(await slash(h, gm, "gm add-npc", template="thug", count=1))
    assert again.message.content == "Added **Thug 4**."
    live = await bot.services.encounters.live(h.channel.id)
    assert [c.name for c in live.state.combatants] == [
        "\u0422\u04bbug 1",
        "Thug 2",
        "Thug 3",
        "Thug 4",
    ]
