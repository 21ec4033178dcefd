"""Defects left open earlier (fix18), each played through Discord and failing on the old code."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.client import CombatBot
from tests.e2e.combat_helpers import (
    against_a_thug,
    answered,
    button,
    end_encounter,
    ok,
    pass_turns_until,
    refused,
    set_up_fight,
    slash,
    thug_attacks_willow,
)
from tests.e2e.conftest import DiceBox, Table
from tests.e2e.test_attack_systems import FIGHTS
from tests.e2e.test_qa12_utopia import hound_fight
from tests.e2e.test_qa17_uttas import MAGE
from tests.e2e.test_recap import recap_of
from tests.e2e.uune_steps import Docks
from tests.harness.models import StoredMessage
from tests.harness.server import DiscordHarness

SHEETS = Path(__file__).resolve().parents[2] / "data" / "sheets" / "utopia"


async def test_a_uune_npcs_attack_reaches_the_defenders_recap(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """A Dock Thug's Cudgel left Mira Quell Incapacitated, and her recap said "Attacks on your
    combatants: None.": Uune wrote the attack's outcome as a note about Mira with no target,
    and the recap finds attacks by their target."""
    h = discord_harness
    u = Docks(scripted_bot, h, table, dice)
    mira = table.player
    await u.thug_swings_at_mira()
    await u.press(mira, "Roll now", [1])
    await u.press(mira, "Keep the roll")
    await h.wait_for(lambda: u.said("gives Mira Quell a lethal wound (vitality 0/0"))
    text = await recap_of(h, mira, since="1h")
    print(text)
    assert "**Attacks on your combatants**\nNone." not in text, text
    assert "Dock Thug 1's Cudgel gives Mira Quell a lethal wound" in text, text


async def test_what_a_utopia_defense_let_through_reaches_the_defenders_recap(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """The recap listed a Utopia attack's roll on Vesna but not what her defense let through
    (the damage she took is said by an event about her that names its attacker, not a
    target)."""
    h, gm, player = discord_harness, table.moderator, table.player
    await hound_fight(h, table)
    await pass_turns_until(bot, h, table, "Stone hound 1")
    await ok(await slash(h, gm, "act", action="attack", target="Vesna", detail="Crushing bite"))
    await ok(await slash(h, gm, "gm resolve"))
    text = await recap_of(h, player, since="1h")
    attacks = text.split("**Attacks on your combatants**\n")[1].split("\n\n")[0]
    assert "Stone hound 1 attacks Vesna with Crushing bite" in attacks, text
    assert "Vesna does not defend" in attacks or "Vesna takes" in attacks, text


async def test_a_recap_after_the_encounter_ended_recaps_the_ended_fight(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Right after `/encounter end`, a player catching up got only "There is no encounter in
    this channel.": the recap read the live encounter only. It now recaps the one that ended
    there last, says it ended, and that nothing waits on anyone."""
    bot, h, gm, player = clocked_bot, discord_harness, table.moderator, table.player
    await set_up_fight(h, table)
    await thug_attacks_willow(bot, h, table)
    await ok(await slash(h, gm, "gm resolve"))
    await end_encounter(h, table)
    text = await recap_of(h, player)
    assert text.startswith("Recap of Firewood\n"), text
    assert "**Thug 1** → **Willow** with Cudgel" in text, text
    assert "**Now**\nThe encounter ended <t:" in text, text
    assert "Start one with `/encounter start`." in text, text
    assert "Waiting on you" not in text and "turn" not in text.split("**Now**")[1], text
    # A channel where no encounter ever ran still says so.
    other = h.add_channel(h.guild, "quiet")
    refusal = await refused(await h.slash(player, other, "encounter recap", {}))
    assert "no encounter" in refusal.lower(), refusal


async def test_a_utopia_attack_says_who_attacks_whom_once(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """The channel read "Stone hound 1 attacks Vesna with Crushing bite." and, on the next
    line, "Stone hound 1 attacks Vesna with Crushing bite: …": Utopia's attack declared (an
    event awaiting nobody) rendered its own line before the roll that says it again."""
    h, gm = discord_harness, table.moderator
    await hound_fight(h, table)
    await pass_turns_until(bot, h, table, "Stone hound 1")
    bite = await ok(
        await slash(h, gm, "act", action="attack", target="Vesna", detail="Crushing bite")
    )
    text = bite.message.text()
    assert text.count("Stone hound 1 attacks Vesna with Crushing bite") == 1, text


NOTHING_TO_RESOLVE = {
    "uttas": "Nothing to resolve: no attack is waiting for a reaction.",
    "utopia": "Nothing to resolve: no damage is waiting for a Block, a Dodge or an Assist.",
    "untitled": "Nothing to resolve: no attack is waiting for a defense.",
    "uune": "Nothing to resolve: no roll is waiting for the GM's approval or its roller's spends.",
}


@pytest.mark.parametrize("system", sorted(NOTHING_TO_RESOLVE))
async def test_gm_resolve_with_nothing_waiting_says_so_in_one_wording(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table, system: str
) -> None:
    """`/gm resolve` with nothing waiting answered "No roll is waiting." in Uune and "Nothing is
    waiting for a decision." in UTTAS: each system's lapse had its own words, and the service
    its own. It now says "Nothing to resolve:" and what would wait, in the system's terms."""
    h = discord_harness
    if system == "uttas":
        await set_up_fight(h, table)
    else:
        await FIGHTS[system][0](h, table)
    text = await refused(await slash(h, table.moderator, "gm resolve"))
    assert text == NOTHING_TO_RESOLVE[system], text


async def test_an_attack_power_already_maintained_is_not_offered(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """The Mage holds the Thug with Hold (a maintained attack power). On the Mage's next turn
    `/attack with:` still listed Hold and the turn ping's "Attack…" still swung it — both
    refused ("already maintains Hold"). Only what can be used is offered now."""
    h, player = discord_harness, table.player
    await against_a_thug(h, table, MAGE)
    await pass_turns_until(bot, h, table, "Mage")
    listed = await h.autocomplete(player, h.channel, "attack", focused="with", value="")
    assert "Hold" in [c["value"] for c in listed], listed
    await ok(await slash(h, player, "attack", target="Thug 1", with_="Hold"))

    await pass_turns_until(bot, h, table, "Mage")
    listed = await h.autocomplete(player, h.channel, "attack", focused="with", value="")
    offered = [c["value"] for c in listed]
    assert offered and "Hold" not in offered, offered
    [ping] = [m for m in h.messages_in(h.channel) if "**Mage**'s turn" in m.text()][-1:]
    asked = await h.click(player, ping, button(ping, "Attack…")["custom_id"])
    await asked.response()
    question = asked.message
    assert "Hold" not in question.text(), question.text()
    [select] = [c for c in question.all_components() if c.get("type") == 3]
    [thug] = [o["value"] for o in select["options"] if o["label"].startswith("Thug")]
    picked = await h.select(player, question, select["custom_id"], [thug])
    await picked.response()
    assert not picked.ephemeral, picked.response_data


async def _vesna_without_a_block(h: DiscordHarness, table: Table, dice: DiceBox) -> None:
    """The Stone hound (the GM's) against Vesna alone, her Block Rating 0; the hound first."""
    gm, player = table.moderator, table.player
    await ok(await slash(h, gm, "encounter start", name="Pass", ruleset="utopia"))
    await answered(await slash(h, gm, "npc import", example="stone-hound"))
    await ok(await slash(h, gm, "gm add-npc", template="Stone hound"))
    vesna = json.loads((SHEETS / "vesna.json").read_text()) | {"block_rating": 0}
    sheet = h.make_attachment("vesna.json", json.dumps(vesna).encode())
    await answered(await slash(h, player, "character import", file=sheet))
    await ok(await slash(h, player, "encounter join", character="Vesna"))
    dice.load([3, 3, 3] * 2)  # Speed tests tie: the hound's Speed score goes first
    await ok(await slash(h, gm, "encounter begin"))
    await ok(await slash(h, gm, "gm place engage", a="Vesna", b="Stone hound 1"))


def labels_of(message: StoredMessage) -> list[str]:
    return [c["label"] for row in message.components for c in row["components"]]


async def test_a_block_rating_of_0_gets_no_block_button(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """ "Block": "It rolls its Block Rating, reducing a single instance of damage dealt by the
    roll." Vesna's Block Rating is 0 and no ally stands within 1 m to Assist: her "Block"
    button rolled no dice and still cost her an interrupt action. It is no longer offered, and
    a typed `/block` says why; her Dodge (Rating 2) still is."""
    h, gm, player = discord_harness, table.moderator, table.player
    await _vesna_without_a_block(h, table, dice)
    dice.load([8])  # the bite: 1d10 [8] + Power 2
    bite = await ok(
        await slash(h, gm, "act", action="attack", target="Vesna", detail="Crushing bite")
    )
    shown = labels_of(bite.message)
    assert any(label.startswith("Dodge") for label in shown), shown
    assert not any(label.startswith("Block") for label in shown), shown
    text = await refused(await slash(h, player, "block"))
    assert text == (
        "Vesna's Block Rating is 0 and no ally within 1 m can Assist: a Block would roll no dice."
    ), text


async def test_a_deep_breath_at_full_stamina_says_it_regained_nothing(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """ "Deep Breath": "spend 1 turn action to regain 1 stamina". At full Stamina it read
    "Vesna takes a deep breath: Stamina 18." — as if it had done something. Not refused (the
    text does not forbid it, and in the interleaved order its TA passes the go — a GM's
    default action may be it); the line now says nothing was regained."""
    h, gm, player = discord_harness, table.moderator, table.player
    await _vesna_without_a_block(h, table, dice)
    await ok(await slash(h, gm, "endturn"))  # the hound's
    breath = await ok(await slash(h, player, "act", action="deep-breath"))
    text = breath.message.text()
    assert "Vesna takes a deep breath: Stamina 18 (already full: nothing regained)." in text, text
