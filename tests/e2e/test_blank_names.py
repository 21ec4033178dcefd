"""Names that would show as blank, through the real bot: a lone combining mark, a blank-rendering
symbol or an unassigned code point is refused with a message saying why, wherever a name is
typed; nothing blank is ever added, announced or offered by autocomplete."""

from __future__ import annotations

import pytest

from bot import names
from bot.client import CombatBot
from tests.e2e.combat_helpers import ok, refused, slash
from tests.e2e.conftest import Table
from tests.harness.server import DiscordHarness

ZWSP = "\u200b"


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("\u0301", "shows as blank: it has no letter, digit or symbol, only marks that need one"),
        ("\u0308", "(found combining diaeresis, U+0308)"),
        (f"{ZWSP}\u0308", "(found combining diaeresis, U+0308)"),
        ("\u20dd", "(found combining enclosing circle, U+20DD)"),
        ("\U0001d159", "is blank once invisible characters and spaces are removed"),
        ("\u2800\u3164", "is blank once invisible characters and spaces are removed"),
        ("\u1cbc", "contains an unassigned code point, U+1CBC, which shows as nothing"),
        ("Brute\ue000", "contains a private-use character, U+E000"),
    ],
)
async def test_a_name_that_shows_as_blank_is_refused(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table, name: str, message: str
) -> None:
    h = discord_harness
    text = await refused(await slash(h, table.gm, "encounter start", name=name))
    assert text.startswith("The encounter name ") and message in text, text
    await ok(await slash(h, table.gm, "encounter start", name="Alley"))
    text = await refused(await slash(h, table.gm, "gm add-npc", name=name, health=5, stamina=5))
    assert text.startswith("The NPC's name ") and message in text, text
    text = await refused(
        await slash(h, table.player, "character import", example="willow", name=name)
    )
    assert text.startswith("The name ") and message in text, text
    # Nothing was added, and the channel never heard of a blank combatant.
    live = await bot.services.encounters.live(h.channel.id)
    assert live.state.combatants == []
    assert not any("Added **" in m.text() for m in h.messages_in(h.channel))
    found = await h.autocomplete(
        table.player, h.channel, "character show", focused="name", value=""
    )
    assert found == []


async def test_a_mark_on_a_letter_is_a_name_and_autocomplete_shows_nothing_blank(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await ok(await slash(h, table.gm, "encounter start", name="Alley"))
    added = await ok(
        await slash(h, table.gm, "gm add-npc", name="Rene\u0301e", health=5, stamina=5)
    )
    assert "Added **Renée**." in added.message.text()  # composed: e + U+0301 is é
    added = await ok(
        await slash(h, table.gm, "gm add-npc", name="Brute\U0001d159", health=5, stamina=5)
    )
    assert "Added **Brute**." in added.message.text()
    text = await refused(
        await slash(h, table.gm, "gm add-npc", name=f"Brute{ZWSP}\u2800", health=5, stamina=5)
    )
    assert "already a combatant called Brute" in text
    choices = await h.autocomplete(table.gm, h.channel, "gm hp", focused="combatant", value="")
    assert [c["value"] for c in choices] == ["Brute", "Renée"]
    assert all(names.visible(c["name"]) for c in choices)
