"""The untitled5 task's fixes: an empty object typed as a table entry's value (`/tables set
value:{}`), and typed text quoted back in refusals."""

from __future__ import annotations

from bot.client import CombatBot
from tests.e2e.combat_helpers import refused, slash
from tests.e2e.conftest import Table
from tests.harness.models import InteractionRecord
from tests.harness.server import DiscordHarness


async def ok(record: InteractionRecord) -> str:
    """The text of `/tables set`'s (ephemeral) answer, insisting it took the change."""
    text = await refused(record)
    assert " is now " in text or "back to the default" in text, text
    return text


async def test_an_empty_object_sets_a_new_stance_with_no_effects(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """`/tables set entry:stances.Wild value:{}` (a stance that changes nothing, to be filled
    in later) was refused "The UTTAS tables have no entry `stances.Wild`": the empty object was
    dropped as if a removal had left it before the entry was checked. It now adds the stance
    with every effect at its default, and sets an added stance empty again; other changes
    keep it; `{}` at a shipped stance clears the server's changes to it; `{}` for an entry
    that takes a number is refused by the entry's type, not dropped."""
    h, gm = discord_harness, table.moderator
    done = await ok(await slash(h, gm, "tables set", entry="stances.Wild", value="{}"))
    assert "`stances.Wild` is now" in done and '"dodge_bonus": 0' in done, done
    tables = await bot.services.tables.effective(h.guild.id, "uttas")
    assert tables["stances"]["Wild"]["movement_multiplier"] == 1.0, tables["stances"]
    # A later change elsewhere keeps it.
    await ok(await slash(h, gm, "tables set", entry="reactions.move.dodge_bonus", value="1"))
    await ok(await slash(h, gm, "tables set", entry="stances.Wild.dodge_bonus", value="2"))
    stored = await bot.services.tables.overrides(h.guild.id)
    assert stored["uttas"]["stances"] == {"Wild": {"dodge_bonus": 2}}, stored
    # Set empty again: every effect back to its default.
    done = await ok(await slash(h, gm, "tables set", entry="stances.wild", value="{}"))
    assert '"dodge_bonus": 0' in done, done
    stored = await bot.services.tables.overrides(h.guild.id)
    assert stored["uttas"]["stances"] == {"Wild": {}}, stored
    # A shipped stance: {} leaves nothing of the server's changes to it.
    await ok(await slash(h, gm, "tables set", entry="stances.Aggressive.dodge_bonus", value="-4"))
    await ok(await slash(h, gm, "tables set", entry="stances.Aggressive", value="{}"))
    stored = await bot.services.tables.overrides(h.guild.id)
    assert "Aggressive" not in stored["uttas"]["stances"], stored
    shipped = await bot.services.tables.value(h.guild.id, "uttas", "stances.Aggressive.dodge_bonus")
    assert shipped != -4, shipped
    # A number's entry refuses an object (it was dropped, and the bot said "is now 1").
    text = await refused(
        await slash(h, gm, "tables set", entry="reactions.move.dodge_bonus", value="{}")
    )
    assert "reactions.move.dodge_bonus" in text, text
    assert await bot.services.tables.value(h.guild.id, "uttas", "reactions.move.dodge_bonus") == 1
    # Removing the added stance leaves no empty object behind.
    await ok(await slash(h, gm, "tables set", entry="stances.Wild", value="-"))
    stored = await bot.services.tables.overrides(h.guild.id)
    assert "stances" not in stored["uttas"], stored


async def test_a_refusal_shows_control_characters_typed_instead_of_echoing_them(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """NUL typed in a table entry, a character's name or a user id came back raw in the
    refusal ("The UTTAS tables have no entry `\\x00`"): `names.code` and `names.quoted` quoted
    what a member typed as it was, and some refusals built their own code spans. A control
    character now shows as its Control Picture (␀), and a direction override is removed
    (it reordered the refusal's text)."""
    h, gm = discord_harness, table.moderator
    typed = "Wild\x00\u202e1"
    replies = [
        await refused(await slash(h, gm, "tables show", entry=typed)),
        await refused(await slash(h, gm, "tables set", entry=f"stances.{typed}", value="1")),
        await refused(await slash(h, gm, "character show", name=typed)),
        await refused(await slash(h, gm, "me settings", timezone=typed)),
        await refused(await slash(h, gm, "server member-export", user_id=typed)),
        await refused(await slash(h, gm, "away", until=typed)),
    ]
    for text in replies:
        assert "\x00" not in text and "\u202e" not in text, text
    assert "The UTTAS tables have no entry `Wild\u24001`" in replies[0], replies[0]
    assert "Wild\u24001" in replies[1], replies[1]
    assert all("Wild\u24001" in text for text in replies[2:]), replies
