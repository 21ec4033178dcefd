"""A brand-new GM and two players run an Untitled fight and a UTTAS one from the README and
the /help texts alone (newuser26): sheets from the examples and typed by hand, the GM's NPCs,
the shield by button, holding an action, conditions, a rest, undo and redo, an away player and
a stand-in, `/odds`, `/gm log`. Each test is a place where what the bot said was wrong or left
them guessing, and states what they should see."""

from __future__ import annotations

import json
from pathlib import Path

from bot.client import CombatBot
from bot.engine import REGISTRY
from bot.ui.help import SYSTEM_GUIDES, guide
from tests.e2e.combat_helpers import (
    answered,
    current_name,
    ok,
    press,
    refused,
    set_up_cast,
    set_up_fight,
    slash,
    version,
)
from tests.e2e.conftest import DiceBox, Table
from tests.e2e.test_characters import import_file
from tests.e2e.test_newuser17 import README
from tests.harness.server import DiscordHarness

UTOPIA_SHEETS = Path(__file__).resolve().parents[2] / "data" / "sheets" / "utopia"


async def test_a_hand_written_sheets_wrong_types_are_named_in_jsons_words(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Wren's player wrote a second Untitled character by hand: the shield as its name
    (`"shield": "Buckler"`), the armor as its weight (`"armor": "light"`) and the weapons keyed
    by name, as `/character edit` paths read them (`weapons.Axe`). The refusal read "input
    should be a valid tuple" and "input should be a valid dictionary or instance of Shield" —
    Python's words, with nothing saying what JSON to write. Each now says what the value should
    be in JSON's terms and which fields the object takes; a UTTAS sheet's health written as a
    word reads "should be a whole number", not "unable to parse string as an integer"."""
    h, player = discord_harness, table.player
    await ok(await slash(h, table.moderator, "encounter start", name="Mill", ruleset="untitled"))
    sheet = {
        "system": "untitled",
        "name": "Ash",
        "shield": "Buckler",
        "armor": "light",
        "weapons": {"Axe": {"skill": "Axes", "form": "Chopping"}},
    }
    ephemeral, text, _ = await import_file(h, player, json.dumps(sheet).encode())
    assert ephemeral and text.startswith("That sheet was not imported (3 problems):"), text
    for python in ("tuple", "dictionary", "instance of"):
        assert python not in text, text
    assert '• `shield` = `"Buckler"`: should be an object (`{…}`) with the fields name, skill' in (
        text
    )
    assert '• `armor` = `"light"`: should be an object (`{…}`) with the fields name, weight' in (
        text
    )
    assert (
        "should be a list (`[…]`) of objects, each with its own `name` "
        '(`[{"name": "Axe", …}]`; fields: name, skill, form,'
    ) in text, text
    # Written as it says, the sheet imports.
    fixed = {
        **sheet,
        "shield": {"name": "Buckler", "skill": "Shields"},
        "armor": {"name": "Jerkin", "weight": "light"},
        "weapons": [{"name": "Axe", "skill": "Axes", "form": "Chopping"}],
    }
    ephemeral, text, _ = await import_file(h, player, json.dumps(fixed).encode())
    assert "Imported **Ash**" in text, text
    # A UTTAS sheet (no `system`): a number written as a word.
    uttas = {"name": "Rook", "health": "lots"}
    ephemeral, text, _ = await import_file(h, player, json.dumps(uttas).encode())
    assert ephemeral and '`health` = `"lots"`: should be a whole number' in text, text
    assert "parse string" not in text, text


async def test_help_in_a_channel_of_another_system_shows_that_systems_guide(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """In the channel where the Untitled fight was gathering, Wren's player typed `/help` (the
    README: "the player's guide (default)") and read UTTAS's turn — "`/stance name:Steady`",
    "a free half move — `/move meters:6`", "The Speed pool", the buttons "Evade, Block, Move,
    Counter" — with no word that it was another game's; `/stance` and `/move` are then refused
    there. `/help` with no topic now shows the guide of the channel's fight's system, saying
    so and where the player's guide is; elsewhere (no fight, a UTTAS fight) it is the
    player's guide as before, and `topic:player` still gives it everywhere."""
    h, player = discord_harness, table.player

    async def shown(**options: str) -> str:
        record = await slash(h, player, "help", **options)
        await record.response()
        assert record.ephemeral, record.response_data
        return "\n".join(e.get("description") or "" for e in record.response_data["embeds"])

    assert "/stance name:Steady" in await shown()  # no fight here: the player's guide
    await ok(await slash(h, table.moderator, "encounter start", name="Mill", ruleset="untitled"))
    text = await shown()
    assert "**Your turn (6 seconds).**" in text and "/stance" not in text, text
    assert "This channel's fight plays Untitled, so `/help` shows its guide." in text, text
    assert "`/help topic:player`" in text, text
    assert "/stance name:Steady" in await shown(topic="player")
    record = await slash(h, player, "help")
    await record.response()
    assert record.response_data["embeds"][0]["title"] == "Playing Untitled"
    # Every other system with a guide of its own, each in a channel of its fight.
    for system in SYSTEM_GUIDES:
        channel = h.add_channel(h.guild, f"{system}-fight")
        await ok(await h.slash(table.moderator, channel, "encounter start", {"ruleset": system}))
        asked = await h.slash(player, channel, "help", {})
        await asked.response()
        assert asked.response_data["embeds"][0]["title"] == guide(system).title
    assert set(SYSTEM_GUIDES) == set(REGISTRY.implemented) - {"uttas"}
    # A UTTAS fight's channel: the player's guide, which is UTTAS's.
    other = h.add_channel(h.guild, "uttas-fight")
    start = await h.slash(table.moderator, other, "encounter start", {"name": "Grove"})
    await ok(start)
    uttas = await h.slash(player, other, "help", {})
    await uttas.response()
    assert uttas.response_data["embeds"][0]["title"] == "Player's guide"


async def test_a_stand_in_is_not_told_they_control_the_away_players_combatants(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Willow's player went `/away delegate:@Bear's player`; on the Thug's turn Bear's player,
    who has no character of his own, typed `/breather` and read "It is **Thug 1**'s turn, not
    yours. You control **Willow** and **General Bearington**" — he controls neither; he stands
    in for them while their player is away. The refusal (and `/me reactions`' "Name the
    combatant") now say so; the player's own combatants still read "You control"."""
    h, gm, player, other = discord_harness, table.moderator, table.player, table.other_player
    await set_up_fight(h, table, thugs=1)
    await ok(await slash(h, player, "away", delegate=other))
    while (await current_name(bot, h)) != "Thug 1":
        await ok(await slash(h, gm, "gm next"))
    text = await refused(await slash(h, other, "breather"))
    assert "You control" not in text, text
    assert text == (
        "It is **Thug 1**'s turn, not yours. You act for **Willow** and **General Bearington** "
        f"while <@{player.id}> is away: to act off-turn, say which one acts with `as:`."
    ), text
    text = await refused(await slash(h, other, "me reactions", rule="evade"))
    assert text == (
        "Name the combatant (`combatant:`): you act for **Willow** and **General Bearington** "
        f"while <@{player.id}> is away."
    ), text
    # Back: the player's own combatants are theirs.
    await ok(await slash(h, player, "back"))
    text = await refused(await slash(h, player, "breather"))
    assert "You control **Willow** and **General Bearington**: to act off-turn" in text, text


async def test_untitleds_button_without_the_shield_says_combat_defense(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """The Hill giant swung at Brask; the prompt read "**Brask** may defend with their Oak
    heater shield or with Combat Defense alone", and its buttons "Raise the Oak heater shield"
    and "Take it (no reaction)" — the second sounds like taking the club with no defense at
    all, where it rolls Combat Defense (the rules text: "The defender will attempt to defend
    themselves by rolling … Combat Defense"), as the README says ("Untitled Combat Defense
    alone and the raised shield"). The button now says so; UTTAS keeps "Take it (no
    reaction)"."""
    h, gm, other = discord_harness, table.moderator, table.other_player
    pcs = {"Wren": "wren", "Brask": "brask"}
    await set_up_cast(h, table, "untitled", name="Mill", pcs=pcs, npc=("hill-giant", "Hill giant"))
    while (await current_name(bot, h)) != "Hill giant 1":
        await ok(await slash(h, gm, "gm next"))
    swing = await ok(await slash(h, gm, "act", action="attack", target="Brask"))
    prompt = h.message(swing.message)
    shown = [c["label"] for c in prompt.all_components() if c.get("label")]
    assert shown == ["Raise the Oak heater shield", "Combat Defense alone"], shown
    assert "Combat Defense alone" in README  # the README's name for it
    pressed = await press(h, other, swing.message, "Combat Defense alone")
    assert (
        "against Combat Defense (Journeyman)" in pressed.response_data["embeds"][0]["description"]
    )
    assert "Shield" not in pressed.response_data["embeds"][0]["description"]


async def test_a_command_that_changes_nothing_is_refused_not_recorded(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """The GM meant to stand Thug 1 up and typed `/gm condition combatant:Willow action:remove
    name:Prone` — Willow was not Prone. The channel read "The GM removes Prone from Willow —
    Nothing happened.", a change of its own in the log, which the next `/gm undo` took back
    instead of the command the GM meant to undo. A command that changes nothing (no event, no
    die, the same state) is now refused, only to the GM, and nothing is recorded (Untitled's
    engine already refused removing Down from a combatant standing: "Wren is not Down.")."""
    h, gm = discord_harness, table.moderator
    await set_up_fight(h, table, thugs=1)
    await ok(await slash(h, gm, "gm condition", combatant="Thug 1", action="add", name="Prone"))
    before = await version(bot, h)
    text = await refused(
        await slash(h, gm, "gm condition", combatant="Willow", action="remove", name="Prone")
    )
    assert text.startswith("That would change nothing in the fight"), text
    assert await version(bot, h) == before
    undone = await ok(await slash(h, gm, "gm undo"))
    assert "Undid **/gm condition" in undone.message.text()
    assert "~~Thug 1 is now Prone" in undone.message.text(), undone.message.text()


async def test_a_multi_hit_says_how_the_target_looked_after_each_hit(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """General Bearington clawed Thug 1 twice (`hits:2`); the channel read, after the first
    claw, "Thug 1 looks **Dead**." and then "Thug 1 is now Unconscious (Stamina ran out)" — it
    was the second claw that killed him ("Thug 1 is now Dead (Health ran out)"): each hit's
    line showed how the thug looked once the whole attack was over. A hit now says how the
    target looked after that hit: Down (out of Stamina), then Dead."""
    h, gm, player = discord_harness, table.moderator, table.player
    await ok(await slash(h, gm, "encounter start", name="Den"))
    await answered(await slash(h, player, "character import", example="general-bearington"))
    await ok(await slash(h, player, "encounter join", character="General Bearington"))
    await answered(await slash(h, gm, "npc import", example="thug"))
    await ok(await slash(h, gm, "gm add-npc", template="Thug"))
    await ok(await slash(h, gm, "gm place engage", a="General Bearington", b="Thug 1"))
    await ok(await slash(h, gm, "encounter begin"))
    await ok(await slash(h, gm, "gm hp", combatant="Thug 1", health="6", stamina="1"))
    dice.load([6, 6, 6, 3, 3, 3, 3, 3] + [6, 6, 6, 6, 3, 3, 3, 3, 3] + [1] * 20)
    claws = await ok(await slash(h, player, "attack", target="Thug 1", with_="Claws", hits=2))
    text = claws.message.text()
    first, second = text.split("(hit 2)")
    assert "Thug 1 looks **Dead**" not in first, text
    assert "Thug 1 looks **Down**.\nThug 1 is now Unconscious" in first, text
    assert "Thug 1 looks **Dead**.\nThug 1 is now Dead" in second, text


async def test_a_utopia_weapon_of_several_says_how_the_target_looked_after_it(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """The same in Utopia: Vesna, unseen, struck the Stone hound with her Knife and Longbow at
    once; the hound had 2 SHP left. The Knife's 2 took the SHP ("Hurt"), the Longbow's 2 its
    DHP ("Bloodied") — but both lines read "Bloodied", how it looked after both. Each weapon's
    line now says how the hound looked after that weapon."""
    h, gm, player = discord_harness, table.moderator, table.player
    await ok(await slash(h, gm, "encounter start", name="Ridge", ruleset="utopia"))
    await (await slash(h, gm, "npc import", example="stone-hound")).response()
    await ok(await slash(h, gm, "gm add-npc", template="Stone hound"))
    data = json.loads((UTOPIA_SHEETS / "vesna.json").read_text())
    data.update(turn_actions=9)
    upload = h.make_attachment("vesna.json", json.dumps(data).encode())
    await answered(await slash(h, player, "character import", file=upload))
    await ok(await slash(h, player, "encounter join", character="Vesna"))
    dice.load([1, 1, 1, 6, 6, 6])  # Speed tests (the hound joined first): Vesna first
    await ok(await slash(h, gm, "encounter begin"))
    await ok(await slash(h, gm, "gm vital", combatant="Stone hound 1", vital="shp", amount="2"))
    dice.load([6, 6, 6, 1])  # Stunt 4d6 (distracting) = 19 against the gifted 6 × 2 = 12
    await ok(await slash(h, player, "act", action="stealth", detail="distracting"))
    # The Knife: 1d4 = 4, halved 2, + 3; the Longbow's Dexterity test 4d6 + 3 against 1 m,
    # then 1d10 = 10, halved 5: each 5, 2 after the hound's Physical defense of 3.
    dice.load([4, 6, 6, 6, 6, 10])
    hit = await ok(
        await slash(
            h,
            player,
            "act",
            action="attack",
            target="Stone hound 1",
            detail="Knife, Longbow",
            amount=1,
        )
    )
    shown = "\n".join([hit.message.text(), *(m.text() for m in hit.followups)])
    looks = [line.rsplit(": ", 1)[-1] for line in shown.splitlines() if "does not defend" in line]
    assert looks == ["Hurt.", "Bloodied."], shown
