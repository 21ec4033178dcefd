"""Standing reactions in Untitled and Uune through Discord (issue 17, "Standing reactions"):
each system's own words — Untitled's shield or Combat Defense alone (``untitled-combat.txt``),
Uune's spends on a rolled Defend (Uune SRD "Defend", "Vitality") — set with ``/me reactions``,
applied by the expiry pass when the window runs out, and said so in the channel; rules a system
does not understand are refused by name. Every die is scripted; the clock is the test's."""

from __future__ import annotations

import pytest

from bot.client import CombatBot
from tests.clock import ManualClock
from tests.e2e.combat_helpers import answered, ok, refused, slash
from tests.e2e.conftest import DiceBox, Table
from tests.e2e.test_reaction_expiry import WINDOW, standing_said, window_over
from tests.harness.models import Member, StoredMessage
from tests.harness.server import DiscordHarness

BANDIT = "Bandit crossbowman 1"
SHIELD = "Oak heater shield"


@pytest.fixture
def bot(scripted_clocked_bot: CombatBot) -> CombatBot:
    """The real bot with the test's dice and clock, and no background expiry loop
    (``conftest.scripted_clocked_bot``)."""
    return scripted_clocked_bot


async def posted(h: DiscordHarness, member: Member, command: str, **options: object) -> str:
    return (await ok(await slash(h, member, command, **options))).message.text()


def roll_windows_over(h: DiscordHarness) -> list[StoredMessage]:
    """The results the bot posted for Uune roll windows that ran out."""
    return [m for m in h.messages_in(h.channel) if "Roll window over" in m.text()]


async def set_rule(h: DiscordHarness, member: Member, combatant: str, rule: str) -> str:
    record = await answered(await slash(h, member, "me reactions", combatant=combatant, rule=rule))
    assert record.ephemeral, record.response_data
    return str(record.response_data["content"])


# ---- Untitled: the shield or Combat Defense alone -------------------------------------------


async def untitled_fight(h: DiscordHarness, table: Table) -> None:
    """Brask (sword and shield; the other player's) against the GM's bandit; Brask's turn
    first."""
    gm, brask = table.moderator, table.other_player
    await posted(h, gm, "encounter start", name="Mill yard", ruleset="untitled")
    await answered(await slash(h, brask, "character import", example="brask"))
    await posted(h, brask, "encounter join", character="Brask")
    await answered(await slash(h, gm, "npc import", example="bandit-crossbowman"))
    await posted(h, gm, "gm add-npc", template="Bandit crossbowman")
    await posted(h, gm, "encounter begin")


async def bandit_cuts_brask(h: DiscordHarness, table: Table) -> StoredMessage:
    """Brask ends his turn; the bandit's Short sword (melee) waits on Brask's shield choice."""
    await posted(h, table.other_player, "endturn")
    cut = (
        await ok(
            await slash(
                h, table.moderator, "act", action="attack", target="Brask", detail="Short sword"
            )
        )
    ).message
    await h.wait_for(lambda: h.message(cut).components != [])
    assert f"**Brask** may defend with their {SHIELD} or with Combat Defense alone." in (cut.text())
    return cut


async def test_untitled_a_standing_combat_defense_alone_is_rolled_without_the_shield(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox, clock: ManualClock
) -> None:
    h = discord_harness
    await untitled_fight(h, table)
    rule = "combat defense alone against melee, take it"
    reply = await set_rule(h, table.other_player, "Brask", rule)
    assert "Standing reaction for **Brask**" in reply, reply
    cut = await bandit_cuts_brask(h, table)

    clock.advance(WINDOW - 1)
    assert await bot.expire_due() == []
    # Short blades 2: 2d6 [1, 1] + 2 = 4 against Combat Defense 5: 2d8 [3, 3] + 5 = 11 — a miss,
    # and no die for the shield (the lapse would roll its 2d6 too).
    dice.load([1, 1, 3, 3])
    clock.advance(1)
    [result] = await bot.expire_due()
    assert dice.empty
    assert [(u.name, u.label) for u in result.standing] == [("Brask", "Combat Defense alone")]
    [notice] = window_over(h)
    assert "+ 5 = 11: a miss." in notice.text() and "Shield (" not in notice.text()
    said = f"for **Brask**: Combat Defense alone (“{rule}”)"
    assert said in notice.text() and standing_said(notice) == 1, notice.text()
    retired = h.message(cut)
    assert retired.components == []
    assert retired.content.endswith(" — answered as the window ran out."), retired.content
    assert said in retired.text() and standing_said(retired) == 1, retired.text()
    clock.advance(WINDOW)
    assert await bot.expire_due() == []  # applied once


async def test_untitled_a_step_for_ranged_attacks_lets_a_sword_cut_lapse_to_the_shield(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox, clock: ManualClock
) -> None:
    h = discord_harness
    await untitled_fight(h, table)
    await set_rule(h, table.other_player, "Brask", "combat defense against ranged")
    await bandit_cuts_brask(h, table)
    # No step fits the Short sword (melee): the window lapses as usual — the shield is rolled.
    dice.load([1, 1, 3, 3, 2, 2])
    clock.advance(WINDOW)
    [result] = await bot.expire_due()
    assert dice.empty and result.standing == ()
    [notice] = window_over(h)
    assert "+ Shield (Novice): 2d6 [2] [2] = 4: a miss." in notice.text(), notice.text()
    assert f"rolled with the {SHIELD}" in notice.embeds[0]["footer"]["text"], notice.embeds


async def test_untitled_rules_not_understood_are_refused_by_name(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, brask = discord_harness, table.other_player
    await untitled_fight(h, table)
    text = await refused(await slash(h, brask, "me reactions", combatant="Brask", rule="parry"))
    assert "`parry` is not a standing choice here" in text and "`shield`" in text, text
    assert "`combat defense`" in text
    text = await refused(
        await slash(h, brask, "me reactions", combatant="Brask", rule="shield against giants")
    )
    assert "`giants` is not a condition" in text and "`melee`" in text and "`ranged`" in text
    listed = await refused(await slash(h, brask, "me reactions"))
    assert "**Brask**: none" in listed and "`shield`" in listed, listed
    encounter = await bot.services.encounters.live(h.channel.id)
    assert await bot.services.combat.standing.of_encounter(encounter.id) == {}


# ---- Uune: a rolled Defend's spends -----------------------------------------------------------


async def uune_fight(h: DiscordHarness, table: Table) -> None:
    """Mira (the player's) against the GM's Dock Thug; Mira's turn first."""
    gm, player = table.moderator, table.player
    await posted(h, gm, "encounter start", name="Dock nine", ruleset="uune")
    await answered(await slash(h, player, "character import", example="mira"))
    await posted(h, player, "encounter join", character="Mira Quell")
    await answered(await slash(h, gm, "npc import", example="dock-thug"))
    await posted(h, gm, "gm add-npc", template="Dock Thug")
    await posted(h, gm, "encounter begin")


async def thug_attacks_mira(h: DiscordHarness, table: Table) -> None:
    await posted(h, table.player, "endturn")
    text = await posted(
        h, table.moderator, "act", action="npc-attack", target="Mira Quell", detail="Cudgel"
    )
    assert "Dock Thug 1 attacks Mira Quell with Cudgel: Mira Quell defends." in text, text


async def test_uune_a_standing_vitality_reroll_answers_a_failed_defend_then_keeps_it(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox, clock: ManualClock
) -> None:
    h = discord_harness
    await uune_fight(h, table)
    rule = "reroll with vitality if I can afford it, else keep"
    reply = await set_rule(h, table.player, "Mira Quell", rule)
    assert "Standing reaction for **Mira Quell**" in reply, reply
    await thug_attacks_mira(h, table)

    # The Defend's approval is the GM's: its window lapses as usual (no standing reaction
    # answers it) and rolls the base die — a 1, no hits against the Cudgel's 3.
    dice.load([1])
    clock.advance(WINDOW)
    [approval] = await bot.expire_due()
    assert dice.empty and approval.standing == ()

    # The rolled Defend's window runs out: Mira's standing reaction rerolls the missed die
    # with 5 vitality (Uune SRD "Vitality") — a 6, one hit.
    dice.load([6])
    clock.advance(WINDOW)
    [spent] = await bot.expire_due()
    assert dice.empty
    [use] = spent.standing
    assert (use.name, use.label) == ("Mira Quell", "Reroll die 1"), use
    # Titled by the window that ran out, the Defend's roll's, as when it lapses — it read
    # "Reaction window over" when a standing reaction answered it (fix21).
    assert not window_over(h), [m.text() for m in window_over(h)]
    notice = roll_windows_over(h)[-1]
    said = f"for **Mira Quell**: Reroll die 1 (“{rule}”)"
    assert said in notice.text() and standing_said(notice) == 1, notice.text()
    assert "Mira Quell rerolls a die (5 vitality)" in notice.text(), notice.text()

    # The changed roll waits again (the Thug may still force a reroll of the hit); when that
    # window runs out too, nothing is left to reroll: the rule's next step keeps the roll.
    clock.advance(WINDOW)
    [kept] = await bot.expire_due()
    assert [(u.name, u.label) for u in kept.standing] == [("Mira Quell", "Keep the roll")]
    text = roll_windows_over(h)[-1].text()
    assert "Dock Thug 1's Cudgel gives Mira Quell a heavy wound" in text, text
    clock.advance(WINDOW)
    assert await bot.expire_due() == []


async def test_uune_rules_not_understood_are_refused_by_name(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, player = discord_harness, table.player
    await uune_fight(h, table)
    text = await refused(
        await slash(h, player, "me reactions", combatant="Mira Quell", rule="dodge")
    )
    assert "`dodge` is not a standing choice here" in text and "`reroll with vitality`" in text
    text = await refused(
        await slash(h, player, "me reactions", combatant="Mira Quell", rule="keep against melee")
    )
    assert "`melee` is not a condition" in text and "every step always applies" in text, text
    encounter = await bot.services.encounters.live(h.channel.id)
    assert await bot.services.combat.standing.of_encounter(encounter.id) == {}
