"""QA round on Untitled through Discord (issue 13): an attacker's view of the ruleset — double
clicks and wrong users on the shield buttons, a player acting for another's combatant, hold
triggers, draw / stow / reload edge cases, full-round and standard actions mixed, Down
combatants acting, absurd input to every Untitled option. Every die is scripted."""

from __future__ import annotations

import asyncio
import json

from bot.client import CombatBot
from tests.e2e.combat_helpers import answered, button, ok, refused, slash
from tests.e2e.conftest import BotProcess, DiceBox, Table
from tests.e2e.test_restart_combat import _prompt_stored, lagging_click
from tests.e2e.test_worked_example import Table5
from tests.harness.server import DiscordHarness

GIANT = "Hill giant 1"


async def mill(h: DiscordHarness, table: Table, t: Table5) -> None:
    """Wren (the player's), Brask (the other player's) and the GM's Hill giant, in that order;
    it is Wren's turn."""
    await t.gm("encounter start", name="Burnt mill", ruleset="untitled")
    await answered(await slash(h, table.player, "character import", example="wren"))
    await answered(await slash(h, table.other_player, "character import", example="brask"))
    await t.player("encounter join", character="Wren")
    await ok(await slash(h, table.other_player, "encounter join", character="Brask"))
    await answered(await slash(h, table.moderator, "npc import", example="hill-giant"))
    await t.gm("gm add-npc", template="Hill giant")
    await t.gm("encounter begin")


async def giant_swings_at_brask(h: DiscordHarness, table: Table, t: Table5) -> object:
    await t.player("endturn")
    await ok(await slash(h, table.other_player, "endturn"))
    return await t.gm("act", action="attack", target="Brask")


async def test_the_shield_buttons_refuse_other_members_and_a_double_click_rolls_once(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    h = discord_harness
    t = Table5(h, table, dice)
    await mill(h, table, t)
    swing = await giant_swings_at_brask(h, table, t)
    raise_id = button(h.message(swing), "Raise the Oak heater shield")["custom_id"]
    for stranger in (table.player, table.bystander):
        click = await h.click(stranger, swing, raise_id)
        await click.response()
        assert click.ephemeral, click.response_data
        assert "Brask" in (click.response_data.get("content") or "")
    assert dice.empty and button(h.message(swing), "Raise")
    # Two clicks at once by Brask's player: the attack is rolled once.
    dice.load([1, 1, 6, 6, 6, 6])  # a miss: 2d8 + 9 = 11 against 2d6 + 5 + 2d6 = 29
    first, second = await asyncio.gather(
        h.click(table.other_player, swing, raise_id),
        h.click(table.other_player, swing, raise_id),
    )
    await first.response()
    await second.response()
    assert dice.empty
    assert h.message(swing).text().count("a miss") == 1
    assert [first.ephemeral, second.ephemeral].count(True) == 1


async def test_a_player_cannot_act_for_anothers_combatant(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    h = discord_harness
    t = Table5(h, table, dice)
    await mill(h, table, t)
    other = table.other_player
    text = await refused(await slash(h, other, "act", action="move", as_="Wren"))
    assert "Wren" in text and "not" in text.casefold()
    text = await refused(await slash(h, other, "act", action="move"))
    assert "Wren's turn" in text
    text = await refused(await slash(h, table.bystander, "act", action="move"))
    assert "no combatant" in text.casefold() or "not in" in text.casefold(), text
    text = await refused(await slash(h, table.player, "act", action="attack", as_=GIANT))
    assert "Hill giant 1" in text
    # The player's own immediate action off-turn is hers; another's is not.
    text = await refused(
        await slash(h, table.player, "act", action="immediate", detail="duck", as_="Brask")
    )
    assert "Brask" in text


async def test_hold_triggers_at_the_edges(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    h = discord_harness
    t = Table5(h, table, dice)
    await mill(h, table, t)
    other = table.other_player
    text = await refused(await slash(h, table.player, "act", action="hold"))
    assert "needs a `detail:` saying until when" in text
    text = await refused(await slash(h, other, "act", action="resume"))
    assert "Brask" in text and "hold" in text.casefold(), text
    await t.player("act", action="move", amount=1.0)
    text = await refused(await slash(h, table.player, "act", action="hold", detail="later"))
    assert "Wren has already acted this turn: there is nothing to hold." in text
    await t.player("endturn")
    held = (await ok(await slash(h, other, "act", action="hold", detail="x" * 300))).message
    assert "Brask holds their action" in held.text()
    text = await refused(await slash(h, other, "act", action="hold", detail="again"))
    assert "Brask" in text
    text = await refused(await slash(h, table.player, "act", action="resume", as_="Brask"))
    assert "Brask" in text
    resumed = (await ok(await slash(h, other, "act", action="resume"))).message
    assert "Brask will act as soon as the current turn ends." in resumed.text()
    text = await refused(await slash(h, other, "act", action="resume"))
    assert "already" in text.casefold() or "not holding" in text.casefold(), text


async def test_draw_stow_and_reload_at_the_edges(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    h = discord_harness
    t = Table5(h, table, dice)
    await mill(h, table, t)
    p = table.player
    text = await refused(await slash(h, p, "act", action="attack", target=GIANT, detail="Longbow"))
    assert "Wren's Longbow is put away: draw it first (a move action)." in text
    text = await refused(await slash(h, p, "act", action="attack", target=GIANT, detail="   "))
    assert "`detail`: is blank" in text, text  # refused as blank before any weapon is read
    text = await refused(await slash(h, p, "act", action="draw", detail="Hunting knife"))
    assert "Wren's Hunting knife is already drawn." in text
    text = await refused(await slash(h, p, "act", action="draw", detail="Excalibur"))
    assert "Wren has no weapon called 'Excalibur' (weapons: Longbow, Hunting knife)." in text
    text = await refused(await slash(h, p, "act", action="stow", detail="   "))
    assert "`detail`: is blank" in text, text
    text = await refused(await slash(h, p, "act", action="reload"))
    assert "Wren has nothing to reload." in text
    text = await refused(await slash(h, p, "act", action="reload", detail="Hunting knife"))
    assert "Wren's Hunting knife needs no reloading." in text
    await t.player("act", action="draw", detail="longbow")
    text = await refused(await slash(h, p, "act", action="reload", detail="Longbow"))
    assert "Wren's Longbow is already loaded." in text
    dice.load([1, 1, 6, 6])  # a miss
    await t.player("act", action="attack", target=GIANT, detail="Longbow")
    await t.player("act", action="stow", detail="Longbow")
    text = await refused(await slash(h, p, "act", action="reload"))
    assert "move action" in text, text  # both move actions are spent
    assert dice.empty


async def test_full_round_and_standard_actions_do_not_mix(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    h = discord_harness
    t = Table5(h, table, dice)
    await mill(h, table, t)
    p = table.player
    await t.player("act", action="move", amount=2.0)
    text = await refused(await slash(h, p, "act", action="full-round", detail="aim"))
    assert "a full-round action takes the whole round" in text
    await t.player("endturn")
    o = table.other_player
    await ok(await slash(h, o, "act", action="full-round", detail="brace"))
    text = await refused(await slash(h, o, "act", action="attack", target=GIANT))
    assert "standard action" in text
    text = await refused(await slash(h, o, "act", action="move", amount=1.0))
    assert "move action" in text
    text = await refused(await slash(h, o, "act", action="standard", detail="shout"))
    assert "standard action" in text
    # A swift action is still his; an immediate one too; free actions cost nothing.
    await ok(await slash(h, o, "act", action="swift", detail="grit teeth"))
    text = await refused(await slash(h, o, "act", action="swift", detail="again"))
    assert "swift action" in text
    await ok(await slash(h, o, "act", action="free", detail="shout"))


async def test_a_down_combatant_cannot_act_or_be_attacked(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    h = discord_harness
    t = Table5(h, table, dice)
    await mill(h, table, t)
    await t.gm("gm vital", combatant="Brask", vital="health", amount="0")
    p, o = table.player, table.other_player
    text = await refused(await slash(h, o, "act", action="immediate", detail="duck"))
    assert "Brask is down and cannot act." in text, text
    text = await refused(await slash(h, o, "act", action="free", detail="groan"))
    assert "Brask is down and cannot act." in text, text
    text = await refused(await slash(h, o, "check", skill="Swords", difficulty=5))
    assert "Brask is down and cannot act." in text, text
    text = await refused(
        await slash(h, p, "act", action="attack", target="Brask", detail="Hunting knife")
    )
    assert "Brask is already Down." in text
    ended = await t.player("endturn")
    assert "Brask" not in ended.text().split("turn")[-1] or "Hill giant 1's turn" in ended.text()


async def test_absurd_input_to_every_untitled_option(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    h = discord_harness
    t = Table5(h, table, dice)
    await mill(h, table, t)
    p, gm = table.player, table.moderator
    text = await refused(await slash(h, p, "act", action="move", amount=10_000.0))
    assert "Wren moves at most 9 m per move action." in text
    text = await refused(await slash(h, p, "act", action="move", amount=1.0, target="Nobody"))
    assert "Nobody" in text
    text = await refused(await slash(h, p, "act", action="attack", target=GIANT, detail="Z" * 300))
    assert "`weapon`: is 300 characters long; names are at most 80 characters." in text
    text = await refused(
        await slash(
            h, p, "act", action="attack", target=GIANT, detail="Hunting knife", amount=10_000.0
        )
    )
    assert "Hunting knife reaches 1 m" in text
    text = await refused(await slash(h, p, "act", action="flourish"))
    assert "Flourishes: the Untitled text only names them" in text
    text = await refused(await slash(h, p, "act", action="x" * 80))
    assert "Untitled has no action" in text and len(text) <= 2000
    text = await refused(
        await slash(h, p, "act", action="attack", target="Wren", detail="Hunting knife")
    )
    assert "Wren cannot attack themselves." in text
    dice.load([3])
    checked = await answered(await slash(h, p, "check", skill="Q" * 80, difficulty=1000))
    assert dice.empty and "untrained" in checked.message.text()
    text = await refused(
        await slash(h, gm, "gm settings", rule="Legendary dice", value="1d2+" * 15)
    )
    assert "`Legendary dice`" in text
    text = await refused(await slash(h, gm, "gm settings", rule="R" * 40, value="3d12"))
    assert "Untitled has no encounter rule called" in text
    text = await refused(
        await slash(
            h, gm, "gm settings", rule="Combined move actions", value="refused", combatant="Nobody"
        )
    )
    assert "Nobody" in text
    text = await refused(
        await slash(h, gm, "gm vital", combatant="Wren", vital="health", amount="999999d999999")
    )
    assert "999999" in text or "sides" in text or "dice" in text, text


async def test_a_down_holder_cannot_resume_and_a_stowed_bow_is_not_reloaded(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    h = discord_harness
    t = Table5(h, table, dice)
    await mill(h, table, t)
    p, o = table.player, table.other_player
    await t.player("act", action="draw", detail="Longbow")
    dice.load([1, 1, 6, 6])  # a miss; the bow is unloaded
    await t.player("act", action="attack", target=GIANT, detail="Longbow")
    await t.player("act", action="stow", detail="Longbow")
    await t.player("endturn")
    await ok(await slash(h, o, "act", action="hold", detail="the giant swings"))
    await t.gm("gm vital", combatant="Brask", vital="health", amount="0")
    text = await refused(await slash(h, o, "act", action="resume"))
    assert "Brask is down and cannot act." in text, text
    await t.gm("endturn")  # the giant's turn ends: round 2, Wren
    text = await refused(await slash(h, p, "act", action="reload", detail="Longbow"))
    assert "Wren's Longbow is put away: draw it first (a move action)." in text


async def test_the_storytellers_dice_wait_while_an_attack_waits(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """An attack's dice are checked when it is declared; changing them before it is rolled
    could leave it with dice nobody set (``table`` again): refused while anything waits."""
    h = discord_harness
    t = Table5(h, table, dice)
    await mill(h, table, t)
    await t.gm("gm settings", rule="Heavy armor above 18", value="5d8")
    swing = await giant_swings_at_brask(h, table, t)
    text = await refused(
        await slash(h, table.moderator, "gm settings", rule="Heavy armor above 18", value="table")
    )
    assert "An attack is waiting for Brask's defense against Tree-trunk club: change" in text
    dice.load([1, 1, 6, 6, 6, 6])
    await ok(
        await h.click(
            table.other_player,
            swing,
            button(h.message(swing), "Raise the Oak heater shield")["custom_id"],
        )
    )
    await t.gm("gm settings", rule="Heavy armor above 18", value="table")


async def test_the_shield_button_works_after_a_sigkill_and_only_once(
    discord_harness: DiscordHarness, bot_process: BotProcess, table: Table
) -> None:
    """The giant's swing waits on Brask's shield; the bot is killed and started again: the
    old button rolls the attack once, a lagging client's second click is refused."""
    h = discord_harness
    await bot_process.start()
    t = Table5(h, table, DiceBox())
    await mill(h, table, t)
    swing = await giant_swings_at_brask(h, table, t)
    raise_id = button(h.message(swing), "Raise the Oak heater shield")["custom_id"]
    await _prompt_stored(bot_process, swing.id)

    bot_process.kill()
    await bot_process.start()

    click = await h.click(table.other_player, swing, raise_id)
    await click.response()
    assert not click.ephemeral, click.response_data
    text = h.message(swing).text()
    # The bot's own dice (a real process): any verdict, exactly one.
    verdicts = [v for v in (": a hit", ": a critical hit", ": a miss") if v in text]
    assert len(verdicts) == 1, text
    assert h.message(swing).components == []
    again = await lagging_click(h, table.other_player, swing, raise_id)
    assert again.ephemeral and "no longer" in again.response_data["content"]


async def test_typed_block_and_dodge_answer_only_the_defender(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    h = discord_harness
    t = Table5(h, table, dice)
    await mill(h, table, t)
    swing = await giant_swings_at_brask(h, table, t)
    text = await refused(await slash(h, table.player, "block"))
    assert "Wren" in text or "Brask" in text, text
    text = await refused(await slash(h, table.bystander, "dodge"))
    assert text
    assert dice.empty and button(h.message(swing), "Raise")
    dice.load([1, 1, 6, 6, 6, 6])
    blocked = await ok(await slash(h, table.other_player, "block"))
    assert dice.empty and "a miss" in blocked.message.text()
    text = await refused(await slash(h, table.other_player, "dodge"))
    assert "waiting" in text.casefold() or "no " in text.casefold(), text


async def test_absurd_untitled_sheets_are_refused_by_name(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    base = {
        "system": "untitled",
        "name": "Odd",
        "weapons": [{"name": "Stick", "skill": "Clubs", "form": "Bashing", "reach_m": 1}],
    }
    for change, reason in (
        ({"weapon_skills": [{"name": "Clubs", "level": 31}]}, "30"),
        ({"health": -5}, "health"),
        ({"speed_m": 1e12}, "speed"),
        ({"combat_defense": 0}, "combat_defense"),
        (
            {
                "weapons": [{"name": "Stick", "skill": "Clubs", "form": "Bashing", "reach_m": 1}]
                * 500
            },
            "weapons",
        ),
        ({"armor": {"name": "Plate", "weight": "adamant"}}, "weight"),
    ):
        data = json.dumps({**base, **change}).encode()
        sheet = h.make_attachment("odd.json", data)
        record = await answered(await slash(h, table.player, "character import", file=sheet))
        assert record.message.ephemeral, (change, record.response_data)
        text = record.message.text()
        assert reason in text.casefold() and len(text) <= 2000, (change, text)
