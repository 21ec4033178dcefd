"""Utopia tests through Discord (issue 12, slice U4): ``/check`` rolls a trait or subtrait
test (3d6 + modifier against a difficulty, or opposed) in a fight and outside one, and the GM's
``/gm advantage`` gives points of favor or disfavor on the next test — as a player sees it,
with scripted dice."""

from __future__ import annotations

from bot.client import CombatBot
from tests.e2e.combat_helpers import ok, refused, slash
from tests.e2e.conftest import DiceBox, Table
from tests.harness.server import DiscordHarness


async def utopia_fight(h: DiscordHarness, table: Table, dice: DiceBox, *, begin: bool) -> None:
    """Vesna (the player's) against a Stone hound (the moderator's NPC)."""
    gm, player = table.moderator, table.player
    await ok(await slash(h, gm, "encounter start", name="Ridge", ruleset="utopia"))
    await (await slash(h, gm, "npc import", example="stone-hound")).response()
    await ok(await slash(h, gm, "gm add-npc", template="Stone hound"))
    await (await slash(h, player, "character import", example="vesna")).response()
    await ok(await slash(h, player, "encounter join", character="Vesna"))
    if begin:
        dice.load([1, 1, 1, 6, 6, 6])  # Speed tests (the hound joined first): Vesna first
        await ok(await slash(h, gm, "encounter begin"))


async def test_check_rolls_a_utopia_test_before_and_during_a_fight(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    h, player = discord_harness, table.player
    await utopia_fight(h, table, dice, begin=False)
    offered = await h.autocomplete(player, h.channel, "check", focused="skill", value="aw")
    assert [c["value"] for c in offered] == ["awareness"]
    dice.load([4, 4, 4])  # Awareness 5 → +1: 13 against 12, before the fight begins
    checked = await ok(await slash(h, player, "check", skill="Awareness", difficulty=12))
    text = checked.message.text()
    assert "Vesna's Awareness test" in text and "against difficulty 12: success" in text
    dice.load([6, 6, 6, 1, 1, 1])
    await ok(await slash(h, table.moderator, "encounter begin"))
    # Opposed: Vesna's Stunt (4 → +0) against the hound's Awareness (6, gifted → +2): 9 vs 8.
    dice.load([3, 3, 3, 2, 2, 2])
    checked = await ok(
        await slash(h, player, "check", skill="stunt", target="Stone hound 1", against="awareness")
    )
    assert "Vesna prevails" in checked.message.text()
    assert dice.empty
    text = await refused(await slash(h, player, "check", skill="Perception", difficulty=10))
    assert "no trait or subtrait 'Perception'" in text and "awareness" in text


async def test_gm_favor_adds_a_die_to_the_next_test(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    h, player, gm = discord_harness, table.player, table.moderator
    await utopia_fight(h, table, dice, begin=True)
    given = await ok(await slash(h, gm, "gm advantage", combatant="Vesna", dice=1))
    assert "1 point of favor on their next test" in given.message.text()
    # Titled in Utopia's words: it said "The GM adjusts Vesna's dice" (UTTAS's Advantage dice)
    assert "The GM adjusts Vesna's favor" in given.message.text(), given.message.text()
    dice.load([1, 2, 3, 4])  # 3d6 + a die of favor
    checked = await ok(await slash(h, player, "check", skill="power", difficulty=8))
    assert "the GM's favor 1" in checked.message.text()
    dice.load([1, 1, 1])  # used up: 3d6 again
    checked = await ok(await slash(h, player, "check", skill="power", difficulty=8))
    assert "favor" not in checked.message.text() and dice.empty


async def test_stealth_then_an_attack_the_hound_does_not_see_coming(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """Vesna (Stunt 4, +0) sneaks with a distraction (a favor: 4d6) past the Stone hound
    (Awareness 6, gifted: doubled to 12), then knifes it: it cannot defend."""
    h, player = discord_harness, table.player
    await utopia_fight(h, table, dice, begin=True)
    text = await refused(await slash(h, player, "act", action="stealth", detail="shadows"))
    assert "no circumstance 'shadows'" in text and "`distracting`" in text
    dice.load([6, 6, 6, 1])
    done = await ok(await slash(h, player, "act", action="stealth", detail="distracting"))
    assert "Vesna stays unnoticed by Stone hound 1" in done.message.text()
    dice.load([4])  # the Knife: 1d4 + 3
    hit = await ok(
        await slash(h, player, "act", action="attack", target="Stone hound 1", detail="Knife")
    )
    shown = hit.message.text()
    assert "did not see it coming and cannot defend" in shown
    live = await scripted_bot.services.encounters.live(h.channel.id)
    hound = next(c for c in live.state.combatants if c.name == "Stone hound 1")
    assert live.state.pending is None and hound.shp < hound.sheet.shp
    assert dice.empty


async def test_brannoc_pledges_an_assist_to_vesnas_next_test(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """Brannoc (Dexterity 3: modifier −1, so +1) pledges 1 IA to Vesna's next test: a point of
    favor (4d6) and +1 on her Dexterity test (7, gifted: +3)."""
    h, gm, ally = discord_harness, table.moderator, table.other_player
    await utopia_fight(h, table, dice, begin=False)
    await (await slash(h, ally, "character import", example="brannoc")).response()
    await ok(await slash(h, ally, "encounter join", character="Brannoc"))
    dice.load([1, 1, 1, 6, 6, 6, 2, 2, 2])  # Speed tests: Vesna, Brannoc, the hound
    await ok(await slash(h, gm, "encounter begin"))
    text = await refused(
        await slash(h, ally, "act", action="assist", target="Vesna", detail="block")
    )
    assert "test (1 IA), leap (1 IA) or grapple (2 IA)" in text
    pledged = await ok(await slash(h, ally, "act", action="assist", target="Vesna", detail="test"))
    assert "Brannoc stands ready to assist Vesna's next test" in pledged.message.text()
    dice.load([2, 2, 2, 2])  # 8 + 3 + 1 = 12
    checked = await ok(await slash(h, table.player, "check", skill="dexterity", difficulty=12))
    shown = checked.message.text()
    assert "assisted: Brannoc's modifier +1" in shown and "success" in shown
    assert dice.empty
