"""A brand-new GM and two players try Utopia and Uune from the README alone: each test here is a
place where the README, `/help` or a reply left them stuck, misled or guessing, and states what
they should see."""

from __future__ import annotations

import re
from pathlib import Path

from bot.client import CombatBot
from tests.e2e.combat_helpers import (
    answered,
    ok,
    pass_turns_until,
    press,
    refused,
    set_up_cast,
    slash,
)
from tests.e2e.conftest import DiceBox, Table
from tests.e2e.uune_steps import prompt_with
from tests.harness.models import InteractionRecord
from tests.harness.server import DiscordHarness

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")


async def dock_nine(h: DiscordHarness, table: Table) -> None:
    """The README's Uune conflict: Mira Quell (the player's) and Tobin Ash (the other
    player's) against one Dock Thug, begun."""
    await set_up_cast(
        h,
        table,
        "uune",
        name="Dock nine",
        pcs={"Mira Quell": "mira", "Tobin Ash": "tobin"},
        npc=("dock-thug", "Dock Thug"),
    )


async def reed_ford(bot: CombatBot, h: DiscordHarness, table: Table, pc: str) -> None:
    """The README's Utopia fight at Reed Ford: ``pc`` (Vesna or Brannoc, the player's) against
    one Bandit archer, run to ``pc``'s turn."""
    await set_up_cast(
        h,
        table,
        "utopia",
        name="Reed Ford",
        pcs={pc: pc.lower()},
        npc=("bandit-archer", "Bandit archer"),
    )
    await pass_turns_until(bot, h, table, pc)


async def test_a_utopia_table_entry_set_without_ruleset_names_utopia(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """A server GM typed `/tables set entry:actions.turn_per_interrupt_action value:2` (the
    entry `docs/rules/utopia.md` names) and forgot `ruleset:`; the bot answered "Invalid UTTAS
    table value at actions: Extra inputs are not permitted" — as if the value were wrong. It now
    says UTTAS has no such entry and that Utopia's tables do (`ruleset:Utopia`); `/tables show`
    says the same."""
    h = discord_harness
    sgm = table.moderator
    entry = "actions.turn_per_interrupt_action"
    text = await refused(await slash(h, sgm, "tables set", entry=entry, value="2"))
    assert "Extra inputs" not in text, text
    assert f"The UTTAS tables have no entry `{entry}`" in text, text
    assert "Utopia's tables have it: add `ruleset:Utopia`" in text, text
    shown = await refused(await slash(h, sgm, "tables show", entry=entry))
    assert "Utopia's tables have it: add `ruleset:Utopia`" in shown, shown


async def test_help_on_a_command_group_lists_its_commands(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """The README sends a server GM to `/tables show|set|reset`; `/help topic:tables` answered
    "There is no help topic called 'tables'" although `/tables` is a command. A group's name now
    lists its commands, and says how to see one's options."""
    h = discord_harness
    record = await slash(h, table.moderator, "help", topic="tables")
    await record.response()
    assert record.ephemeral
    text = "\n".join(e.get("description") or "" for e in record.response_data.get("embeds", []))
    assert "`/tables set` — Change a table entry (server GMs)" in text, record.response_data
    assert "`/tables show`" in text and "`/tables reset`" in text, text
    assert "`/help topic:tables reset`" in text, text


async def test_a_spell_whose_description_ends_a_sentence_is_not_stopped_twice(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Brannoc (the README's Utopia example) cast Stoneskin and the channel read "… Harden your
    skin until your next turn.." — the sheet's description's full stop, then the bot's. One
    full stop now."""
    h = discord_harness
    await reed_ford(bot, h, table, "Brannoc")
    text = (
        await ok(await slash(h, table.player, "act", action="cast", detail="Stoneskin"))
    ).message.text()
    assert "Harden your skin until your next turn." in text, text
    assert "turn.." not in text, text


async def test_a_travel_too_far_says_how_to_get_there(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Brannoc (a melee grappler) typed `/act action:travel target:Bandit archer 1 amount:6` to
    close in and read only "Brannoc travels at most 3 m by land per action." — not what to do
    instead. The refusal now says what the Travel costs, the `amount:` that works and that a
    second Travel covers the rest."""
    h = discord_harness
    await reed_ford(bot, h, table, "Brannoc")
    text = await refused(
        await slash(h, table.player, "act", action="travel", target="Bandit archer 1", amount=6)
    )
    assert text.startswith("Brannoc travels at most 3 m by land per Travel (1 TA)"), text
    assert "give `amount:` 3 m or less (or leave it out)" in text, text
    assert "Travel again for the rest" in text, text


async def test_act_lists_the_exchange_rates_the_server_set(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """A server GM set `actions.turn_per_interrupt_action` to 2 and
    `actions.interrupt_per_turn_action` to 1 (`/tables set ruleset:Utopia`) and started a new
    fight: `/act action:exchange` took 2 TA and an off-turn Knife 1 IA, as set — but `/act`'s
    list still said "Exchange — 1 TA for 1 IA on your turn by default" and "Attack — …; off turn
    2 IA per TA". The list now shows the fight's own rates; an older fight keeps the text's."""
    h = discord_harness
    sgm = table.moderator
    for entry, value in (
        ("actions.turn_per_interrupt_action", "2"),
        ("actions.interrupt_per_turn_action", "1"),
    ):
        await refused(await slash(h, sgm, "tables set", entry=entry, value=value, ruleset="utopia"))
    await reed_ford(bot, h, table, "Vesna")
    names = [
        c["name"]
        for c in await h.autocomplete(table.player, h.channel, "act", focused="action", value="")
    ]
    assert "Exchange — 2 TA for 1 IA on your turn" in names, names
    assert "Attack — the weapon's TA (weaponless 2 TA); off turn 1 IA per TA" in names, names
    assert "Hold Action — 2 TA for 1 IA later" in names, names
    assert any(n.startswith("Assist — ") and "(2 TA per IA on your turn)" in n for n in names)
    done = await ok(await slash(h, table.player, "act", action="exchange"))
    assert "Vesna turns 2 TA into 1 IA." in done.message.text()


async def test_the_tracker_shows_an_ia_held_on_this_turn(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Vesna used `/act action:exchange` ("Vesna turns 1 TA into 1 IA.") and `/encounter status`
    still read "5 TA · 2 IA" — the IA she had just paid for was nowhere, so she could not tell
    whether it worked (a Hold read the same). The tracker now shows it, held for after the
    turn, as the rules keep it."""
    h = discord_harness
    await reed_ford(bot, h, table, "Vesna")
    await ok(await slash(h, table.player, "act", action="exchange"))
    status = await slash(h, table.player, "encounter status")
    await status.response()
    text = status.message.text() if status.message else str(status.response_data)
    assert "5 TA · 2 IA (+1 held for after this turn)" in text, text


def _help_text(record: InteractionRecord) -> str:
    return "\n".join(e.get("description") or "" for e in record.response_data.get("embeds", []))


async def test_the_uune_help_examples_work_for_the_example_characters(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Mira's player copied `/help topic:uune`'s action roll, `detail:climb the wall: Rope,
    Grit`, and read "Mira Quell has no resource called 'Rope'" — neither example character
    (`mira`, `tobin`) has a Rope or Grit, and neither did the downtime example. The guide's
    examples now name Mira's own resources, and typed as written they are accepted."""
    h = discord_harness
    gm, player = table.moderator, table.player
    guide = await slash(h, player, "help", topic="uune")
    await guide.response()
    text = _help_text(guide)
    rolled = re.search(r"`/act action:action detail:([^`]+)`", text)
    rested = re.search(r"`/act\s+action:downtime detail:([^`]+)`", text)
    assert rolled and rested, text
    await ok(await slash(h, gm, "encounter start", name="Dock nine", ruleset="uune"))
    await answered(await slash(h, player, "character import", example="mira"))
    await ok(await slash(h, player, "encounter join", character="Mira Quell"))
    await answered(await slash(h, gm, "npc import", example="dock-thug"))
    await ok(await slash(h, gm, "gm add-npc", template="Dock Thug"))
    await ok(await slash(h, gm, "encounter begin"))
    await ok(await slash(h, player, "act", action="action", detail=rolled.group(1)))
    await ok(await slash(h, gm, "gm end-fight"))
    await ok(await slash(h, player, "act", action="downtime", detail=rested.group(1)))


async def test_an_action_roll_with_every_resource_answered_asks_only_the_difficulty(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Tobin tried `/act action:action detail:climb the crates: Quarterstaff`; the GM pressed
    "GM: approve all for the scene" first, and the prompt then read "GM: name the difficulty
    and approve or refuse Tobin Ash's resources for climb the crates: none." — there was
    nothing left to approve. It now asks only for the difficulty."""
    h = discord_harness
    gm, player = table.moderator, table.player
    await ok(await slash(h, gm, "encounter start", name="Dock nine", ruleset="uune"))
    await answered(await slash(h, player, "character import", example="tobin"))
    await ok(await slash(h, player, "encounter join", character="Tobin Ash"))
    await answered(await slash(h, gm, "npc import", example="dock-thug"))
    await ok(await slash(h, gm, "gm add-npc", template="Dock Thug"))
    await ok(await slash(h, gm, "encounter begin"))
    asked = await ok(
        await slash(h, player, "act", action="action", detail="climb the crates: Quarterstaff")
    )
    await press(h, gm, asked.message, "GM: approve all for the scene")
    latest = await prompt_with(h, "GM: difficulty 3")
    text = latest.text()
    assert "GM: name the difficulty of Tobin Ash's climb the crates" in text, text
    assert "approve or refuse" not in text and ": none." not in text, text


async def test_proposing_on_another_pcs_roll_names_the_help_command(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """While Tobin's action roll waited for the GM, Mira's player typed `/act action:propose
    detail:Street fencing` and read "This is Tobin Ash's roll: help it with Help." — Help is
    an `/act` action, which the reply did not say. It now names the command to type."""
    h = discord_harness
    gm, mira, tobin = table.moderator, table.player, table.other_player
    await dock_nine(h, table)
    await ok(await slash(h, mira, "act", action="next", target="Tobin Ash"))
    await ok(await slash(h, gm, "endturn", as_="Mira Quell"))
    await ok(await slash(h, tobin, "act", action="action", detail="climb: Quarterstaff"))
    text = await refused(await slash(h, mira, "act", action="propose", detail="Street fencing"))
    assert "This is Tobin Ash's roll, not Mira Quell's" in text, text
    assert "`/act action:help target:Tobin Ash detail:`" in text, text


async def test_a_helpers_dice_are_shown_with_the_roll_they_help(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """Tobin helped Mira's Defend with his Quarterstaff (`/act action:help`), the GM pressed
    "GM: approve all" ("The GM approves Street fencing, Tobin Ash's Quarterstaff."), and the
    roll read "action 1d6 + Street fencing 1d6 [5] [5] = 2 hits vs 3 needed: failure" — no
    trace of Tobin's dice, as if his help had been dropped. His dice are now shown beside the
    roll (his hits, when he has any, still add as "+ N from help")."""
    h = discord_harness
    gm, mira, tobin = table.moderator, table.player, table.other_player
    await dock_nine(h, table)
    await ok(await slash(h, gm, "endturn", as_="Mira Quell"))
    await ok(await slash(h, gm, "endturn", as_="Tobin Ash"))
    await ok(await slash(h, gm, "act", action="npc-attack", target="Mira Quell", detail="Cudgel"))
    await ok(await slash(h, mira, "act", action="propose", detail="Street fencing"))
    await ok(
        await slash(h, tobin, "act", action="help", target="Mira Quell", detail="Quarterstaff")
    )
    prompt = await prompt_with(h, "GM: approve all")
    # Mira: action, Street fencing; Tobin: Quarterstaff alone (a helper has no base die: Uune
    # rules version 3)
    dice.load([5, 5, 2])
    await press(h, gm, prompt, "GM: approve all")
    assert dice.empty
    said = "\n".join(m.text() for m in h.messages_in(h.channel))
    assert "Tobin Ash helps Mira Quell: Quarterstaff 1d6 [2] = 0 hits." in said


async def test_a_utopia_ranged_attack_without_distance_names_the_option_act_has(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Vesna typed `/act action:attack target:Bandit archer 1 detail:Longbow` (nobody had been
    placed) and read "A ranged attack needs the distance: give `range:` in meters" — `/act`
    has no `range:` (its number is `amount:`), and `/attack`, which has one, is refused in
    Utopia. The refusal now names `amount:` and the GM's `/gm place distance`."""
    h = discord_harness
    await reed_ford(bot, h, table, "Vesna")
    text = await refused(
        await slash(
            h, table.player, "act", action="attack", target="Bandit archer 1", detail="Longbow"
        )
    )
    assert "`range:`" not in text, text
    assert "give `amount:` in meters with `/act action:attack`" in text, text
    assert "`/gm place distance`" in text, text


async def test_the_uune_guide_says_how_to_read_the_trackers_wounds(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """After the Cudgel's light wound Mira's tracker row read "Wounds 0/0/1 · Stress 0/0/0";
    nothing — not `/help topic:uune`, not the tracker — said which number is which kind. The
    guide now says: worst first, lethal/heavy/light and traumatic/heavy/light."""
    h = discord_harness
    guide = await slash(h, table.player, "help", topic="uune")
    await guide.response()
    text = " ".join(_help_text(guide).split())
    assert "`Wounds 0/1/2` is no lethal, one heavy and two light wounds" in text, text
    assert "`Stress` is traumatic/heavy/light" in text, text


async def test_a_uune_tracker_row_counts_actions_in_plural(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Once Mira had centred, her tracker row ended "Focus 2 · 0 action". It now reads
    "0 actions" (and "1 action" while she has one)."""
    h = discord_harness
    gm, player = table.moderator, table.player
    await ok(await slash(h, gm, "encounter start", name="Dock nine", ruleset="uune"))
    await answered(await slash(h, player, "character import", example="mira"))
    await ok(await slash(h, player, "encounter join", character="Mira Quell"))
    await answered(await slash(h, gm, "npc import", example="dock-thug"))
    await ok(await slash(h, gm, "gm add-npc", template="Dock Thug"))
    await ok(await slash(h, gm, "encounter begin"))
    status = await slash(h, player, "encounter status")
    await status.response()
    assert "Focus 0 · 1 action" in status.message.text()
    await ok(await slash(h, player, "act", action="center"))
    status = await slash(h, player, "encounter status")
    await status.response()
    assert "Focus 2 · 0 actions" in status.message.text(), status.message.text()


async def test_the_utopia_guide_says_assist_needs_the_allies_placed(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Following the README's Utopia block, Vesna pressed Dodge with Brannoc (her ally) in the
    fight; `/help topic:utopia` promised "An ally within 1 m of you gets Assist buttons", but
    none came — nobody had told the bot where anyone stood, and with no distance known the bot
    offers none. The guide and the README's block now say that the GM places them; placed so,
    Brannoc gets his Assist button."""
    h = discord_harness
    guide = await slash(h, table.player, "help", topic="utopia")
    await guide.response()
    text = " ".join(_help_text(guide).split())
    assert "only where the bot knows it: the GM places you (`/gm place engage" in text, text
    block = README[README.index("**A Utopia fight**") :]
    block = block[: block.index("```", block.index("```") + 3)]
    assert "/gm place engage a:Vesna b:Brannoc" in block, block
    gm = table.moderator
    await ok(await slash(h, gm, "encounter start", name="Reed Ford", ruleset="utopia"))
    for member, example, name in (
        (table.player, "vesna", "Vesna"),
        (table.other_player, "brannoc", "Brannoc"),
    ):
        await answered(await slash(h, member, "character import", example=example))
        await ok(await slash(h, member, "encounter join", character=name))
    await answered(await slash(h, gm, "npc import", example="bandit-archer"))
    await ok(await slash(h, gm, "gm add-npc", template="Bandit archer"))
    await ok(await slash(h, gm, "gm place engage", a="Vesna", b="Brannoc"))
    await ok(await slash(h, gm, "encounter begin"))
    await pass_turns_until(bot, h, table, "Bandit archer 1")
    shot = await ok(
        await slash(h, gm, "act", action="attack", target="Vesna", detail="Crossbow", amount=10.0)
    )
    await press(h, table.player, shot.message, "Dodge")  # the seeded dice hit
    await prompt_with(h, "Assist Vesna's Dodge")


async def test_a_pc_chosen_to_go_next_is_told_when_it_goes(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """The README's Uune block has `/act action:next target:Tobin Ash`; Mira's player sent it
    and Tobin's player attacked at once — "It is Mira Quell's turn, not Tobin Ash's.", nothing
    about Tobin being next. The refusal now says he goes when Mira's turn ends; a PC not chosen
    is told how to be."""
    h = discord_harness
    gm, mira, tobin = table.moderator, table.player, table.other_player
    await ok(await slash(h, gm, "encounter start", name="Dock nine", ruleset="uune"))
    await answered(await slash(h, mira, "character import", example="mira"))
    await answered(await slash(h, tobin, "character import", example="tobin"))
    await answered(await slash(h, table.bystander, "character import", example="mira", name="Wren"))
    await ok(await slash(h, mira, "encounter join", character="Mira Quell"))
    await ok(await slash(h, table.bystander, "encounter join", character="Wren"))
    await ok(await slash(h, tobin, "encounter join", character="Tobin Ash"))
    await answered(await slash(h, gm, "npc import", example="dock-thug"))
    await ok(await slash(h, gm, "gm add-npc", template="Dock Thug"))
    await ok(await slash(h, gm, "encounter begin"))
    text = await refused(await slash(h, tobin, "act", action="center"))
    assert "It is Mira Quell's turn, not Tobin Ash's: Tobin Ash acts later this round;" in text
    assert "`/act action:next target:Tobin Ash` makes them next." in text, text
    await ok(await slash(h, mira, "act", action="next", target="Tobin Ash"))
    text = await refused(
        await slash(
            h,
            tobin,
            "act",
            action="attack",
            target="Dock Thug 1",
            detail="Quarterstaff",
        )
    )
    assert text.startswith(
        "It is Mira Quell's turn, not Tobin Ash's: Tobin Ash goes next, when Mira Quell's turn ends"
    ), text


async def test_an_assisted_strength_test_names_the_helper_once(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Vesna pledged an Assist to Brannoc's next test (`/act action:assist target:Brannoc
    detail:test`) and his `/check skill:strength` read "Brannoc's Strength test (assisted:
    Vesna's Vesna's Strength test (assisting): …)". Her name now comes once."""
    h = discord_harness
    await set_up_cast(
        h,
        table,
        "utopia",
        name="Reed Ford",
        pcs={"Vesna": "vesna", "Brannoc": "brannoc"},
        npc=("bandit-archer", "Bandit archer"),
    )
    await pass_turns_until(bot, h, table, "Brannoc")
    await ok(await slash(h, table.player, "act", action="assist", target="Brannoc", detail="test"))
    text = (
        await ok(await slash(h, table.other_player, "check", skill="strength", difficulty=14))
    ).message.text()
    assert "(assisted: Vesna's Strength test (assisting): 3d6 [" in text, text
    assert "Vesna's Vesna's" not in text, text


async def test_a_grapple_says_the_stamina_it_costs(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Brannoc grappled the bandit ("Grapple — 3 TA + 2 Stamina" in `/act`'s list): the reply
    said only "Brannoc spends 3 TA to grapple Bandit archer 1." while his Stamina fell from 22
    to 20 (a Leap, 3 Stamina, the same). What an action spends in Stamina is now said beside
    its TA — a Cast already said it, and still says it once."""
    h = discord_harness
    await reed_ford(bot, h, table, "Brannoc")
    text = (
        await ok(await slash(h, table.player, "act", action="grapple", target="Bandit archer 1"))
    ).message.text()
    assert "Brannoc spends 2 Stamina to grapple Bandit archer 1 (Stamina 20 left)." in text, text
    text = (
        await ok(await slash(h, table.player, "act", action="cast", detail="Stoneskin"))
    ).message.text()
    assert text.count("Stamina") == 2, text  # "3 Stamina; Stamina 17 left", said once


async def test_the_gm_guide_names_the_rule_tables(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """A new server GM looked for how to change Utopia's exchange rate: `/help topic:gm` (and
    every other guide) never mentioned `/tables`, only the README's command table did. The GM's
    guide now names it, with `ruleset:`, and the example it gives is accepted as written."""
    h = discord_harness
    guide = await slash(h, table.moderator, "help", topic="gm")
    await guide.response()
    text = " ".join(_help_text(guide).split())
    example = re.search(r"`/tables set (entry:\S+) (value:\S+) (ruleset:\w+)`", text)
    assert example and "`/tables show ruleset:Utopia`" in text, text
    options = dict(part.split(":", 1) for part in example.groups())
    options["ruleset"] = options["ruleset"].lower()
    done = await slash(h, table.moderator, "tables set", **options)
    await done.response()
    assert "is now" in (done.response_data.get("content") or ""), done.response_data
