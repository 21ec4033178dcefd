"""Attacks on the bot's promises in Untitled, Utopia and Uune (brief: attack-systems): buttons
pressed twice, by the wrong member or too late, a member acting for another's combatant,
undo/redo across turns and restarts, absurd input, commands where no fight runs. Each test
says what a user saw; the ones that found nothing are kept as regression guards."""

from __future__ import annotations

import asyncio

import pytest

from bot.client import CombatBot
from bot.ui.replies import UNEXPECTED
from tests.e2e.combat_helpers import (
    answered,
    button,
    end_encounter,
    hound_pass,
    ok,
    pass_turns_until,
    refused,
    set_up_cast,
    slash,
)
from tests.e2e.conftest import Table
from tests.e2e.test_restart_combat import lagging_click
from tests.harness.models import StoredMessage
from tests.harness.server import DiscordHarness

NO_ENCOUNTER = "There is no encounter in this channel. Start one with `/encounter start`."


async def untitled_mill(h: DiscordHarness, table: Table) -> None:
    """Wren (the player's), Brask (the other player's), the GM's Hill giant 1; Wren's turn."""
    await set_up_cast(
        h,
        table,
        "untitled",
        name="Burnt mill",
        pcs={"Wren": "wren", "Brask": "brask"},
        npc=("hill-giant", "Hill giant"),
    )


async def utopia_pass(h: DiscordHarness, table: Table) -> None:
    """Vesna (the player's), Brannoc (the other player's), the GM's Stone hound 1."""
    await hound_pass(h, table)


async def uune_docks(h: DiscordHarness, table: Table) -> None:
    """Mira Quell (the player's), Tobin Ash (the other player's), the GM's Dock Thug 1."""
    await set_up_cast(
        h,
        table,
        "uune",
        name="Docks",
        pcs={"Mira Quell": "mira", "Tobin Ash": "tobin"},
        npc=("dock-thug", "Dock Thug"),
    )


THREAD_COMMANDS: list[tuple[str, dict[str, object]]] = [
    ("endturn", {}),
    ("act", {"action": "attack", "target": "Hill giant 1"}),
    ("gm undo", {}),
    ("encounter status", {}),
    ("encounter join", {"character": "Wren"}),
    ("check", {"skill": "Swords"}),
]

FIGHTS = {
    "untitled": (untitled_mill, "Wren", "Brask"),
    "utopia": (utopia_pass, "Vesna", "Brannoc"),
    "uune": (uune_docks, "Mira Quell", "Tobin Ash"),
}


@pytest.mark.parametrize("system", sorted(FIGHTS))
async def test_the_gms_turn_command_after_the_end_names_no_turn_of_the_ended_fight(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table, system: str
) -> None:
    """The GM ended the fight on Brask's turn, then typed `/endturn`: the refusal read "There
    is no encounter in this channel. … (You acted as **Brask**, whose turn it is: name another
    combatant with `as:`.)" — a turn in a fight that no longer exists. The command was first
    worked out on the row this process kept from its last write (the fight as it stood), whose
    write then failed; the hint came from that attempt, not from the refusal."""
    h = discord_harness
    setup, first, _ = FIGHTS[system]
    await setup(h, table)
    await pass_turns_until(bot, h, table, first)
    # Commands in a thread of the fight's channel: no fight runs there.
    thread = h.add_channel(h.guild, "side", type=11, parent=h.channel)
    for command, options in THREAD_COMMANDS:
        for member in (table.player, table.moderator):
            text = await refused(await h.slash(member, thread, command, options))
            assert text == NO_ENCOUNTER, (command, text)
    await ok(await slash(h, table.player, "endturn"))
    assert h.channel.id in bot.services.encounters._live_rows  # the last write's row, kept
    await end_encounter(h, table)
    # Ending it drops that row: the next command reads what is live now, not the ended fight.
    assert h.channel.id not in bot.services.encounters._live_rows
    for command in ("gm undo", "gm redo"):
        assert await refused(await slash(h, table.moderator, command)) == NO_ENCOUNTER
    for command, options in (("endturn", {}), ("act", {"action": "free", "detail": "x"})):
        text = await refused(await slash(h, table.moderator, command, **options))
        assert text == NO_ENCOUNTER, (command, text)
        assert text != UNEXPECTED


BLANK_LOOKUPS: list[tuple[str, str, dict[str, object]]] = [
    ("player", "encounter join", {"character": "{}"}),
    ("player", "character show", {"name": "{}"}),
    ("player", "character export", {"name": "{}"}),
    ("player", "character import", {"example": "{}"}),
    ("gm", "npc show", {"name": "{}"}),
    ("gm", "gm add-npc", {"template": "{}"}),
    ("gm", "gm remove", {"combatant": "{}"}),
    ("gm", "gm place engage", {"a": "{}", "b": "Hill giant 1"}),
    ("player", "act", {"action": "attack", "target": "{}"}),
    ("player", "endturn", {"as_": "{}"}),
    ("gm", "gm settings", {"turn_deadline": "{}"}),
    ("gm", "gm settings", {"reaction_window": "{}"}),
    ("player", "encounter recap", {"since": "{}"}),
]


@pytest.mark.parametrize("typed", [" ", "\u200b", " \u200b\u2060 "])
async def test_a_blank_name_typed_to_look_something_up_is_refused_as_blank(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table, typed: str
) -> None:
    """A player who typed a space (or pasted a zero-width character) as `character:` read
    "You have no character called ****."; as a combatant, "There is no combatant called
    **Unnamed**" (a name nobody typed); as `since:`, "`` is not a duration". A lookup by a
    name that shows as nothing now says the name typed is blank, for every kind of name."""
    h = discord_harness
    await untitled_mill(h, table)
    live = await bot.services.encounters.live(h.channel.id)
    before = live.state_json
    for who, command, options in BLANK_LOOKUPS:
        member = table.moderator if who == "gm" else table.player
        given = {k: typed if v == "{}" else v for k, v in options.items()}
        text = await refused(await slash(h, member, command, **given))
        assert "blank" in text.casefold() or "Name an example sheet" in text, (command, text)
        for empty in ("****", "**Unnamed**", "``"):
            assert empty not in text, (command, text)
    assert (await bot.services.encounters.live(h.channel.id)).state_json == before


ODD = "||Sly|| `Bob`"
ODD_SHOWN = "\\|\\|Sly\\|\\| \\`Bob\\`"


async def _prompt_naming(h: DiscordHarness, text: str) -> str:
    """The newest channel message with buttons whose text contains ``text``."""
    found = ""

    def seen() -> bool:
        nonlocal found
        with_buttons = [m.text() for m in h.messages_in(h.channel) if m.components]
        found = next((t for t in reversed(with_buttons) if text in t), "")
        return bool(found)

    await h.wait_for(seen)
    return found


@pytest.mark.parametrize("system", ["uttas", "untitled", "utopia", "uune"])
async def test_a_prompt_shows_markdown_in_a_name_as_typed(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table, system: str
) -> None:
    """Brask's player named him ``||Sly|| `Bob` ``; when the giant swung at him the channel's
    prompt read "**Hill giant 1** attacks **||Sly|| `Bob`** …" — a spoiler and a code span,
    not the name — in every system: the decisions' words were worked out with the engine's
    plain view, not one that escapes names for Discord as every other channel text does."""
    h = discord_harness
    gm, player = table.moderator, table.player
    if system == "uune":
        await ok(await slash(h, gm, "encounter start", name="Docks", ruleset="uune"))
        await answered(await slash(h, player, "character import", example="mira", name=ODD))
        await ok(await slash(h, player, "encounter join", character=ODD))
        await answered(await slash(h, gm, "npc import", example="dock-thug"))
        await ok(await slash(h, gm, "gm add-npc", template="Dock Thug"))
        await ok(await slash(h, gm, "encounter begin"))
        await pass_turns_until(bot, h, table, ODD)
        await ok(await slash(h, player, "act", action="action", detail="climb: Lockpicks"))
        prompt = await _prompt_naming(h, "approve or refuse")
    else:
        example, npc, template, attack = {
            "uttas": ("willow", "thug", "Thug", {"with_": "Cudgel"}),
            "untitled": ("brask", "hill-giant", "Hill giant", {}),
            "utopia": ("vesna", "stone-hound", "Stone hound", {"detail": "Crushing bite"}),
        }[system]
        await ok(await slash(h, gm, "encounter start", name="Odd", ruleset=system))
        await answered(await slash(h, player, "character import", example=example, name=ODD))
        await ok(await slash(h, player, "encounter join", character=ODD))
        await answered(await slash(h, gm, "npc import", example=npc))
        await ok(await slash(h, gm, "gm add-npc", template=template))
        await ok(await slash(h, gm, "encounter begin"))
        await pass_turns_until(bot, h, table, f"{template} 1")
        if system == "uttas":
            await ok(await slash(h, gm, "attack", target=ODD, **attack))
        else:
            await ok(await slash(h, gm, "act", action="attack", target=ODD, **attack))
        prompt = await _prompt_naming(h, f"{template} 1")
    assert f"**{ODD_SHOWN}**" in prompt or f"{ODD_SHOWN}'s" in prompt, prompt
    assert ODD not in prompt, prompt


# ---- attacks that found nothing, kept as guards ---------------------------------------------


@pytest.mark.parametrize("system", ["untitled", "utopia"])
async def test_the_gm_of_another_channel_moderates_nothing_here(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table, system: str
) -> None:
    """Gemma runs a fight in #other; in the moderator's fight here every GM command of hers is
    refused by name, and nothing changes."""
    h = discord_harness
    setup, first, _ = FIGHTS[system]
    await setup(h, table)
    other = h.add_channel(h.guild, "other")
    started = await h.slash(table.gm, other, "encounter start", {"name": "Elsewhere"})
    await ok(started)
    before = (await bot.services.encounters.live(h.channel.id)).state_json
    for command, options in (
        ("gm undo", {}),
        ("gm pause", {}),
        ("gm next", {}),
        ("gm remove", {"combatant": first}),
        ("gm vital", {"combatant": first, "vital": "health", "amount": "0"}),
        ("gm settings", {"hide_npc_numbers": True}),
        ("encounter end", {}),
        ("endturn", {"as_": first}),
    ):
        text = await refused(await slash(h, table.gm, command, **options))
        assert text != UNEXPECTED and text, (command, text)
        if command.startswith(("gm", "encounter")):
            assert text.startswith("Only the GM can"), (command, text)
    assert (await bot.services.encounters.live(h.channel.id)).state_json == before


async def test_an_untitled_shield_button_after_undo_redo_and_in_the_next_fight(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """The giant's swing at Brask waits on his shield. After `/gm undo` the old button (on a
    lagging client) is refused; `/gm redo` posts the prompt again and it works once; in the
    next fight in the channel the old fight's button is refused and changes nothing."""
    h = discord_harness
    await untitled_mill(h, table)
    await pass_turns_until(bot, h, table, "Hill giant 1")
    swing = await ok(await slash(h, table.moderator, "act", action="attack", target="Brask"))
    raise_id = button(swing.message, "Raise")["custom_id"]
    await ok(await slash(h, table.moderator, "gm undo"))
    await h.wait_for(lambda: h.message(swing.message).components == [])
    again = await lagging_click(h, table.other_player, swing.message, raise_id)
    assert again.ephemeral and "no longer" in again.response_data["content"], again.response_data
    redo = await ok(await slash(h, table.moderator, "gm redo"))
    await h.wait_for(lambda: _with_label(h, "Raise") is not None)
    prompt = _with_label(h, "Raise")
    assert prompt is not None and prompt.id != swing.message.id, redo.message.text()
    new_id = button(prompt, "Raise")["custom_id"]
    first, second = await asyncio.gather(
        h.click(table.other_player, prompt, new_id), h.click(table.other_player, prompt, new_id)
    )
    await asyncio.gather(first.response(), second.response())
    assert [first.ephemeral, second.ephemeral].count(True) == 1
    await end_encounter(h, table)
    await untitled_mill(h, table)
    before = (await bot.services.encounters.live(h.channel.id)).state_json
    for custom_id, message in ((raise_id, swing.message), (new_id, prompt)):
        late = await lagging_click(h, table.other_player, message, custom_id)
        assert late.ephemeral and late.response_data["content"] != UNEXPECTED
    assert (await bot.services.encounters.live(h.channel.id)).state_json == before


def _with_label(h: DiscordHarness, label: str) -> StoredMessage | None:
    found = [
        m
        for m in h.messages_in(h.channel)
        if any(
            c.get("label", "").startswith(label) for row in m.components for c in row["components"]
        )
    ]
    return found[-1] if found else None


async def test_the_uune_npcs_attack_button_attacks(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """On the Dock Thug's turn the ping offered "Attack…"; the GM picked Mira Quell and read
    "Dock Thug 1 is an NPC: NPCs never roll (Attack is a PC's; …)" — every time: the button
    built a PC's Attack, not the NPC attack Uune's statblocks make, and its question pointed
    to `/act action:attack`, refused the same way. It now makes the NPC attack (the PC rolls
    Defend), as `/act action:npc-attack` does."""
    h = discord_harness
    await uune_docks(h, table)
    await pass_turns_until(bot, h, table, "Dock Thug 1")
    [ping] = [m for m in h.messages_in(h.channel) if "**Dock Thug 1**'s turn" in m.text()][-1:]
    asked = await h.click(table.moderator, ping, button(ping, "Attack…")["custom_id"])
    await asked.response()
    question = asked.message
    assert "`/act action:npc-attack`" in question.text(), question.text()
    [select] = [c for c in question.all_components() if c.get("type") == 3]
    [mira] = [o["value"] for o in select["options"] if o["label"].startswith("Mira")]
    picked = await h.select(table.moderator, question, select["custom_id"], [mira])
    await picked.response()
    assert not picked.ephemeral, picked.response_data
    live = await bot.services.encounters.live(h.channel.id)
    assert live.state.decisions, "Mira Quell's Defend waits"
    said = await _prompt_naming(h, "Mira Quell")
    assert "Dock Thug 1" in said and "Cudgel" in said, said


async def test_the_untitled_attack_button_swings_a_weapon_in_hand(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Wren begins with her Hunting knife drawn and her Longbow put away. Her turn ping's
    "Attack…" asked "Wren attacks with Longbow: whom?" and, once she picked the giant,
    answered "Wren's Longbow is put away: draw it first": the button's usual attack was the
    sheet's first weapon, drawn or not. A weapon in hand comes first."""
    h = discord_harness
    await untitled_mill(h, table)
    [ping] = [m for m in h.messages_in(h.channel) if "**Wren**'s turn" in m.text()][-1:]
    asked = await h.click(table.player, ping, button(ping, "Attack…")["custom_id"])
    await asked.response()
    question = asked.message
    assert "**Hunting knife**" in question.text(), question.text()
    [select] = [c for c in question.all_components() if c.get("type") == 3]
    [giant] = [o["value"] for o in select["options"] if o["label"].startswith("Hill giant")]
    picked = await h.select(table.player, question, select["custom_id"], [giant])
    await picked.response()
    assert not picked.ephemeral, picked.response_data
