"""A brand-new GM and two players follow the README alone: each test here is a place where the
bot's reply left them stuck, misled or guessing, and states what they should see."""

from __future__ import annotations

from pathlib import Path

from bot.client import CombatBot
from tests.e2e.combat_helpers import (
    answered,
    current_name,
    ok,
    pass_turns_until,
    refused,
    set_up_cast,
    set_up_fight,
    slash,
    winded,
)
from tests.e2e.conftest import Table
from tests.harness.server import DiscordHarness

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")


async def test_gm_attacking_on_a_players_turn_is_told_they_acted_as_that_player(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """The README's first fight has the GM type `/attack target:Willow with:Cudgel` "on a
    thug's turn". A new GM typed it while it was still Willow's turn and read "Willow cannot
    attack themselves." — nothing said that, without `as:`, the GM acts as whoever holds the
    turn. The refusal now says whom the GM acted as and how to name another."""
    h = discord_harness
    await set_up_fight(h, table, thugs=1)
    await pass_turns_until(bot, h, table, "Willow")
    text = await refused(await slash(h, table.moderator, "attack", target="Willow", with_="Cudgel"))
    assert "cannot attack themselves" in text, text
    assert "**Willow**, whose turn it is" in text and "`as:`" in text, text


async def test_a_command_waiting_on_a_reaction_says_how_it_is_decided(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """With `/gm settings npcs_react:True` (the README's optional step), Willow attacked Thug 1
    and the GM's next command was refused "Waiting for Thug 1 to decide on Willow's Club
    first." — the GM is the one who decides for Thug 1, and nothing said how. The refusal now
    names the buttons on the attack's message and `/gm resolve`."""
    h = discord_harness
    await set_up_fight(h, table, thugs=1, begin=False)
    await ok(await slash(h, table.moderator, "gm settings", npcs_react=True))
    await ok(await slash(h, table.moderator, "encounter begin"))
    await pass_turns_until(bot, h, table, "Willow")
    await ok(await slash(h, table.player, "attack", target="Thug 1", with_="Club"))
    text = await refused(await slash(h, table.moderator, "endturn"))
    assert text.startswith("Waiting for Thug 1 to decide on Willow's Club first."), text
    assert "buttons on the attack's message" in text and "`/gm resolve`" in text, text


async def test_an_attack_on_someone_taking_a_breather_offers_no_dodge_or_block(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Willow took a breather (no reactions until her next turn); Thug 1's attack then said
    "**Willow** reacts with a button (or `/dodge`, `/block`)" — its buttons were Take it and
    Surrender, and `/block` answered "no reaction is possible". The prompt now names only the
    commands that can be used."""
    h = discord_harness
    await set_up_fight(h, table, thugs=1)
    await pass_turns_until(bot, h, table, "Willow")
    await winded(h, table, "Willow")  # a breather at full Stamina is refused
    await ok(await slash(h, table.player, "breather"))
    await pass_turns_until(bot, h, table, "Thug 1")
    text = (
        await ok(await slash(h, table.moderator, "attack", target="Willow", with_="Cudgel"))
    ).message.text()
    assert "**Willow** reacts with a button" in text, text
    assert "`/dodge`" not in text and "`/block`" not in text, text
    assert "no reaction is possible" in await refused(await slash(h, table.player, "block"))


async def test_untitled_settings_do_not_claim_an_agility_initiative(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """In the README's Untitled fight (the order is the join order, which the Storyteller
    changes with `/gm order`), `/gm settings` listed "initiative: agility" — Untitled has no
    Agility and nothing is rolled. Each system's settings now name its own turn order; UTTAS
    keeps its initiative line."""
    h = discord_harness
    gm = table.moderator
    await ok(await slash(h, gm, "encounter start", name="The mill", ruleset="untitled"))
    text = await refused(await slash(h, gm, "gm settings"))
    assert "initiative: agility" not in text, text
    assert "turn order: the Storyteller's" in text and "`/gm order`" in text, text


async def test_a_redo_that_hands_the_turn_on_says_whose_turn_it_is_once(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """The GM tried `/gm undo` then `/gm redo` on an `/endturn`: the redo's message put back
    "Round 1: General Bearington's turn (6 actions left)." and then said "Round 1: General
    Bearington's turn." again on the next line. It now says it once."""
    h = discord_harness
    await set_up_fight(h, table, thugs=1)
    await pass_turns_until(bot, h, table, "Willow")
    await ok(await slash(h, table.player, "endturn"))
    after = await current_name(bot, h)
    await ok(await slash(h, table.moderator, "gm undo"))
    text = (await ok(await slash(h, table.moderator, "gm redo"))).message.text()
    assert "Redid **/endturn**" in text, text
    assert text.count(f"{after}'s turn") == 1, text  # once, as put back (the ping bolds it)


async def test_the_readme_uune_conflict_runs_minutes_after_the_conflict(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """The README's Uune block had the GM type `/gm condition … name:Bleeding    /gm time
    minutes count:2` in the middle of the conflict; the bot refused the minutes ("minutes
    count outside a conflict only") and the README never said how a conflict stops. It now
    ends the conflict with `/gm end-fight` first, which lets the minutes bleed as written."""
    h = discord_harness
    block = README[README.index("**A Uune conflict**") :]
    assert block.index("/gm end-fight") < block.index("/gm time minutes count:2")
    gm = table.moderator
    await ok(await slash(h, gm, "encounter start", name="Dock nine", ruleset="uune"))
    await answered(await slash(h, table.player, "character import", example="mira"))
    await answered(await slash(h, gm, "npc import", example="dock-thug"))
    await ok(await slash(h, table.player, "encounter join", character="Mira Quell"))
    await ok(await slash(h, gm, "gm add-npc", template="Dock Thug"))
    await ok(await slash(h, gm, "encounter begin"))
    await ok(
        await slash(h, gm, "gm condition", combatant="Mira Quell", action="add", name="Bleeding")
    )
    assert "outside a conflict" in await refused(await slash(h, gm, "gm time minutes", count=2))
    await ok(await slash(h, gm, "gm end-fight"))
    text = (await ok(await slash(h, gm, "gm time minutes", count=2))).message.text()
    assert "Mira Quell bleeds 20 vitality" in text, text


async def test_a_player_without_characters_is_told_how_to_get_one(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """The GM's `/encounter start` said "Players join with `/encounter join`"; a new player
    did, and read "You have no character called **Willow**. Names must match exactly; see
    `/character list`." — a list that was empty. A player with no sheet at all is now told to
    import an example of the encounter's system or create one."""
    h = discord_harness
    await ok(await slash(h, table.gm, "encounter start", name="The mill", ruleset="untitled"))
    text = await refused(await slash(h, table.player, "encounter join", character="Wren"))
    assert "`/character import example:wren`" in text and "`/character create`" in text, text
    await answered(await slash(h, table.player, "character import", example="wren"))
    text = await refused(await slash(h, table.player, "encounter join", character="Wrne"))
    assert "You have no character called **Wrne**" in text, text


async def test_a_gm_adding_a_missing_template_is_told_who_can_add_it(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """The encounter's GM (no server permissions) typed `/gm add-npc template:Thug` before a
    server GM had imported it, and was told "a GM can see them with `/npc list`" — which
    refuses them: only server GMs manage templates. The refusal now says who adds one and
    offers the one-off NPC the README names."""
    h = discord_harness
    await ok(await slash(h, table.gm, "encounter start", name="Ambush at the ford"))
    text = await refused(await slash(h, table.gm, "gm add-npc", template="Thug"))
    assert "no NPC template called **Thug**" in text, text
    assert "`/npc list`" not in text, text
    assert "server GM" in text and "`/npc import`" in text and "`/gm add-npc name:`" in text
    assert "Only a GM of this server" in await refused(await slash(h, table.gm, "npc list"))


async def test_untitled_turn_line_and_held_action_read_as_the_readme_says(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """The README's Untitled block listed `/act action:hold` after the player's move, attack and
    reload, as if to be typed then — the bot refuses it ("already acted this turn"): a hold is
    declared instead of acting. The README now says so. The turn line also read "(a fresh round
    of actions (two moves and a standard, or a full-round) left)", brackets inside brackets."""
    assert "(before acting; later: /act action:resume)" in README
    h = discord_harness
    gm, player = table.moderator, table.player
    await set_up_cast(
        h,
        table,
        "untitled",
        name="The mill",
        pcs={"Wren": "wren"},
        npc=("hill-giant", "Hill giant"),
        begin=False,
    )
    begun = await ok(await slash(h, gm, "encounter begin"))
    text = begun.message.text()
    line = next(part for part in text.split("\n") if part.startswith("Round 1: Wren's turn"))
    inside = line.removeprefix("Round 1: Wren's turn (").removesuffix(").")
    assert "(" not in inside and ")" not in inside, line
    await ok(await slash(h, player, "act", action="move", amount=9, detail="Longbow"))
    text = await refused(await slash(h, player, "act", action="hold", detail="the giant swings"))
    assert "already acted this turn" in text, text
    await ok(await slash(h, gm, "endturn"))  # the player's turn ends: the giant's
    await ok(await slash(h, gm, "endturn"))  # round 2: Wren, who holds before acting
    assert await current_name(bot, h) == "Wren"
    await ok(await slash(h, player, "act", action="hold", detail="the giant swings"))
    assert await current_name(bot, h) == "Hill giant 1"
    await ok(await slash(h, player, "act", action="resume"))
