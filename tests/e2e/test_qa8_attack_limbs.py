"""QA8: `/attack aim:` and `limbs:` with input a player could type (issue 11, "Reachable through
Discord"): limbs the target lacks, garbage, repeats, too many, absurd lengths, and limbs given
to an attack that grabs nothing. Each must be refused with the reason, nothing spent."""

from __future__ import annotations

from bot.client import CombatBot
from tests.e2e.combat_helpers import (
    answered,
    pass_turns_until,
    refused,
    set_up_fight,
    slash,
    version,
)
from tests.e2e.conftest import Table
from tests.harness.server import DiscordHarness


async def thugs_turn(bot: CombatBot, h: DiscordHarness, table: Table) -> None:
    await set_up_fight(h, table)
    await pass_turns_until(bot, h, table, "Thug 1")


async def test_limbs_and_aim_the_target_lacks_are_refused(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm = discord_harness, table.moderator
    await thugs_turn(bot, h, table)
    before = await version(bot, h)
    text = await refused(
        await slash(h, gm, "attack", target="Willow", with_="Grapple", limbs="tail")
    )
    assert "no limb called 'tail'" in text
    text = await refused(await slash(h, gm, "attack", target="Willow", with_="Cudgel", aim="wing"))
    assert "no limb called 'wing'" in text
    text = await refused(
        await slash(h, gm, "attack", target="Willow", with_="Grapple", limbs=" , ,, ")
    )
    assert "Name the limb" in text
    assert await version(bot, h) == before


async def test_too_many_limbs_are_refused_with_the_arm_count(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm = discord_harness, table.moderator
    await thugs_turn(bot, h, table)
    before = await version(bot, h)
    text = await refused(
        await slash(
            h, gm, "attack", target="Willow", with_="Grapple", limbs="left arm, right arm, head"
        )
    )
    assert "at most 2 limbs" in text
    record = await slash(
        h,
        gm,
        "attack",
        target="Willow",
        with_="Grapple",
        limbs="head, body, left arm, right arm, left leg, right leg, head",
    )
    text = await refused(record)
    assert "at most 2 limbs" in text, text
    assert await version(bot, h) == before


async def test_an_overlong_limb_name_is_refused_with_the_reason(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm = discord_harness, table.moderator
    await thugs_turn(bot, h, table)
    before = await version(bot, h)
    text = await refused(
        await slash(h, gm, "attack", target="Willow", with_="Grapple", limbs="x" * 60)
    )
    assert "limb" in text.casefold(), text
    assert await version(bot, h) == before


async def test_a_grapple_naming_the_same_limb_twice_is_refused(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm = discord_harness, table.moderator
    await thugs_turn(bot, h, table)
    before = await version(bot, h)
    record = await slash(
        h, gm, "attack", target="Willow", with_="Grapple", limbs="left arm, Left Arm"
    )
    await answered(record)
    assert record.ephemeral, record.response_data
    assert await version(bot, h) == before


async def test_limbs_given_to_an_attack_that_grabs_nothing_are_refused(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm = discord_harness, table.moderator
    await thugs_turn(bot, h, table)
    before = await version(bot, h)
    record = await slash(
        h, gm, "attack", target="Willow", with_="Cudgel", limbs="left arm, right arm"
    )
    await answered(record)
    assert record.ephemeral, record.response_data
    assert await version(bot, h) == before
