"""A brand-new GM and three players run a Utopia fight and a Uune conflict over a week of chat
from the README alone (issue 24's walkthrough): sheets from the forms, the examples and a
hand-written file, the GM's NPCs with hidden numbers, defenses by button, `/odds` before acting,
turn deadlines, an away player, undo and redo. Each test is a place where what the bot said was
wrong or left them guessing, and states what they should see."""

from __future__ import annotations

import json

from bot.client import CombatBot
from tests.e2e.combat_helpers import (
    ONE_ON_ONE,
    answered,
    end_encounter,
    ok,
    press,
    refused,
    set_up_cast,
    set_up_fight,
    slash,
    version,
    work_done,
)
from tests.e2e.conftest import DiceBox, Table
from tests.e2e.test_characters import answer, import_file
from tests.e2e.test_utopia_assist import newest_with, utopia_fight
from tests.harness.server import DiscordHarness


async def test_utopia_odds_say_what_the_chance_is_of(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Before the bandit's turn the GM asked `/odds target:Brannoc with:Hatchet as:Bandit
    archer 2` and read "no defense: 0 % to hit — damage gets through" — a melee attack lands
    within reach (README, "Odds"), so "0 % to hit" was wrong, and it contradicted its own note:
    the figure is the chance any damage gets past Brannoc's defense 4 (the Hatchet's 1d6 - 2
    never does). Each Utopia line now says what its chance is of, as an attack's result does
    ("Odds: 50.0 % damage gets through the Dodge"); a UTTAS line still reads "to hit"."""
    h, gm = discord_harness, table.moderator
    pcs = {"Vesna": "vesna", "Brannoc": "brannoc"}
    await set_up_cast(
        h, table, "utopia", name="Reed ford", pcs=pcs, npc=("bandit-archer", "Bandit archer")
    )
    text = await refused(
        await slash(h, gm, "odds", target="Brannoc", with_="Hatchet", as_="Bandit archer 1")
    )
    lines = text.splitlines()
    assert lines[0] == "Bandit archer 1's Hatchet against Brannoc", text
    assert "to hit" not in text, text
    assert lines[2] == "no defense: 0 % damage gets through", text
    assert lines[3] == "Block: 0 % damage gets through — 2d4", text
    assert lines[4] == "Dodge: 0 % damage gets through — 1d12", text
    # A ranged attack: the test may miss, and the figure is still of damage getting through.
    bow = await refused(
        await slash(
            h, gm, "odds", target="Vesna", with_="Crossbow", range=10.0, as_="Bandit archer 1"
        )
    )
    assert "to hit" not in bow and "% damage gets through — " in bow, bow


async def test_a_sheet_naming_no_system_says_which_sheet_it_was_read_as(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Ilka's player typed her Utopia sheet by hand in the Utopia fight's channel, writing the
    game system as the commands call it (`"ruleset": "utopia"`), and uploaded it with
    `/character import file:`. The refusal read "`ruleset` is not a known field; allowed:
    system, name, agility, body, …" and "`shp` is not a known field; allowed: …" — UTTAS's
    fields, with no word that the file had been read as a UTTAS sheet, nor how to name
    Utopia. The refusal now says so under its heading; a UTTAS sheet with a wrong value (no
    unknown field) is refused as before, and the corrected file imports."""
    h, player = discord_harness, table.player
    await ok(await slash(h, table.moderator, "encounter start", name="Reed", ruleset="utopia"))
    sheet = {"name": "Ilka", "ruleset": "utopia", "shp": 14, "dhp": 12, "stamina": 16}
    ephemeral, text, _ = await import_file(h, player, json.dumps(sheet).encode())
    assert ephemeral, text
    heading, note, *problems = text.splitlines()
    assert heading == "That sheet was not imported (3 problems):", text
    assert note.startswith("It names no `system`, so it was read as a UTTAS sheet;"), text
    assert '`"system": "utopia"`' in note and "`uune`" in note, text
    assert problems[0].startswith("• `ruleset` is not a known field"), text
    # A UTTAS sheet's wrong value names no system either, but has no unknown field: no note.
    willow = {"name": "Willow", "agility": 500}
    ephemeral, text, _ = await import_file(h, player, json.dumps(willow).encode())
    assert ephemeral and text.startswith("That sheet was not imported:"), text
    assert "names no `system`" not in text, text
    # The sheet naming its system imports.
    fixed = {"system": "utopia", **{k: v for k, v in sheet.items() if k != "ruleset"}}
    ephemeral, text, _ = await import_file(h, player, json.dumps(fixed).encode())
    assert "Imported **Ilka**" in text, text


async def test_the_defender_handed_back_an_assisted_dodge_is_told_to_roll_it(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """Vesna's player was away with the bystander standing in, who pressed Dodge when the
    Stone hound bit her; Brannoc, engaged beside her, may Assist. Back with `/back`, her
    player was pinged "you now have a choice to make: **Vesna** dodges: Assist with +1d12 per
    IA" — an Assist is Brannoc's to give; what waits on her is the roll ("Roll the Dodge now").
    The ping now says both: who may Assist, and who rolls when ready."""
    h, gm, player = discord_harness, table.moderator, table.player
    await utopia_fight(h, table, dice)
    await ok(await slash(h, player, "away", delegate=table.bystander))
    dice.load([8])  # the bite: 1d10 [8] + Power 2
    bite = await ok(
        await slash(h, gm, "act", action="attack", target="Vesna", detail="Crushing bite")
    )
    await press(h, table.bystander, bite.message, "Dodge (1 IA)")
    await newest_with(h, "Roll the Dodge now")
    await ok(await slash(h, player, "back"))
    await work_done()

    def pings() -> list[str]:
        return [m.content for m in h.messages_in(h.channel) if "a choice to make" in m.content]

    await h.wait_for(lambda: len(pings()) == 1)
    [ping] = pings()
    assert ping.startswith(f"<@{player.id}> you now have a choice to make: "), ping
    assert "**Vesna** will dodge: **Brannoc** may Assist (+1d12 per IA)" in ping, ping
    assert "**Vesna** rolls when ready" in ping, ping


async def test_help_on_a_rest_does_not_promise_utopia_a_long_rest(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """After the first fight the GM read `/help topic:gm time rest` — "`kind`: Short (1 hour,
    twice a day) or long (8 hours, once a day)" — and called a long rest in the Utopia
    fight: refused, "Utopia has no long rest" (README: "Utopia: the rests its tables give, by
    default a short rest only"). Both rest commands' `kind:` now say whose rests those are."""
    h = discord_harness
    for topic in ("gm time rest", "campaign rest"):
        record = await h.slash(table.gm, h.channel, "help", {"topic": topic})
        await record.response()
        text = record.message.text()
        assert "UTTAS: 1 h twice a day, 8 h once a day" in text, text
        assert "Utopia: short, unless /tables adds a long" in text, text


async def test_a_bond_is_named_by_its_kind_as_the_sheet_shows_it(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Mira's sheet (`/character show`) lists her bonds as "motivation: Pay back the river
    guild…" and "flaw: Cannot walk away from a wager…"; her player typed `/act action:bond
    detail:motivation` and was refused, "Mira Quell has no such bond (bonds: 1. Pay back the
    river guild that...; 2. Cannot walk away…)" — the list left out the very word she used.
    A bond is now named by its kind too (the only one of that kind, or "kind: words"), and
    the refusal lists each bond with its kind."""
    h, player = discord_harness, table.player
    pcs = {"Mira Quell": "mira"}
    await set_up_cast(h, table, "uune", name="Dock nine", pcs=pcs, npc=("dock-thug", "Dock Thug"))
    text = await refused(await slash(h, player, "act", action="bond", detail="objection"))
    assert text == (
        "Mira Quell has no such bond (bonds: 1. motivation: Pay back the river guild that...; "
        "2. flaw: Cannot walk away from a wager, even a...)."
    ), text
    asked = await ok(await slash(h, player, "act", action="bond", detail="motivation"))
    assert "for acting on Bond 1 — Pay back the river guild" in asked.message.text()
    await ok(await slash(h, table.moderator, "gm undo"))
    asked = await ok(await slash(h, player, "act", action="bond", detail="flaw: cannot walk"))
    assert "for acting on Bond 2 — Cannot walk away" in asked.message.text()


async def test_a_uune_forms_several_level_problems_read_apart(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """The third player filled in the Uune form with one shtick at level 5, one bond and one
    experience, and read "shtick points spent: 5; at level 1 exactly 2; bonds: 1; at level 1
    exactly 2; experiences: 1; at level 1 at least 2" — each problem's own "; " ran into the
    "; " between them, so "exactly 2; bonds: 1" read as one pair. Each problem now keeps
    what is allowed in brackets."""
    h, player = discord_harness, table.bystander
    opened = await h.slash(player, h.channel, "character create", ruleset="uune")
    await opened.response()
    form = {
        "name": "Ilka",
        "shticks": "Quickblade 5",
        "bonds": "motivation: gold",
        "experiences": "Sailor",
        "items": "Rope",
    }
    ephemeral, text, _ = await answer(
        await h.submit_modal(player, h.channel, "sheet:create:character:uune", form)
    )
    assert ephemeral and text.startswith("That sheet was not created"), text
    assert (
        "shtick points spent: 5 (at level 1: exactly 2); bonds: 1 (at level 1: exactly 2); "
        "experiences: 1 (at level 1: at least 2)"
    ) in text, text


async def test_begin_refuses_an_initiative_the_system_does_not_take(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """`/help topic:encounter begin` offers `initiative:` — "Order by Agility (ties rolled) or
    roll Agility dice" — in every system; the GM began the Utopia fight with
    `initiative:Roll Agility dice` and the bot rolled its Speed tests without a word that the
    option was dropped (Uune and Untitled likewise ignored it), where `/gm settings
    initiative:` refuses it. It is now refused by name, saying how the system orders its
    fight, and nothing begins; UTTAS still takes it."""
    h, gm = discord_harness, table.moderator
    for system, how in (
        ("utopia", "Utopia always rolls its order (everyone's Speed test, highest first)"),
        ("untitled", "Untitled rolls no initiative (the Storyteller sets the order: `/gm order`"),
        ("uune", "Uune rolls no initiative (the PCs act first, in the order they choose, then"),
    ):
        pc, example, npc = ONE_ON_ONE[system]
        await set_up_cast(h, table, system, name="Ford", pcs={pc: example}, npc=npc, begin=False)
        before = await version(bot, h)
        text = await refused(await slash(h, gm, "encounter begin", initiative="roll"))
        assert text.startswith(how) and "`initiative:` is UTTAS's. Begin without it." in text, text
        assert await version(bot, h) == before, system
        await ok(await slash(h, gm, "encounter begin"))
        click = await end_encounter(h, table)
        await click.wait_for(lambda r: any("Encounter ended" in m.text() for m in r.followups))
    await set_up_fight(h, table, begin=False)
    begun = await ok(await slash(h, gm, "encounter begin", initiative="roll"))
    assert "The fight begins!" in begun.message.text()


async def test_help_on_a_condition_says_how_long_a_uune_effect_lasts(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """`/help topic:gm condition` read "`lasts` (optional): How long an added condition lasts
    (default: until removed)"; the GM gave Mira Bleeding without `lasts:` and it read "until
    the scene ends" — Uune's effects have "Default scope: Scene", and the bot reads "until
    removed" as it (`docs/rules/uune.md`). The option's description now says so."""
    h = discord_harness
    record = await h.slash(table.gm, h.channel, "help", {"topic": "gm condition"})
    await record.response()
    text = record.message.text()
    assert "(default: until removed; in Uune, until the scene ends)" in text, text
    pcs = {"Mira Quell": "mira"}
    await set_up_cast(h, table, "uune", name="Dock nine", pcs=pcs, npc=("dock-thug", "Dock Thug"))
    given = await ok(
        await slash(
            h,
            table.moderator,
            "gm condition",
            combatant="Mira Quell",
            action="add",
            name="Bleeding",
        )
    )
    assert "(by the Game Master, until the scene ends)" in given.message.text()


async def test_a_utopia_sheet_shows_the_innate_defenses_that_stop_a_hit(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Vesna's Longbow hit the bandit archer for 1 and the channel read "Bandit archer 1 does
    not defend and takes no damage"; the GM's `/npc show Bandit archer` had no defense line at
    all (and Brannoc's read "Defenses: physical +1", his sheet's share, while `/odds` said
    "after Brannoc's defense 4") — the innate defense of 1 against each damage type, which
    stopped the arrow, was nowhere on a sheet, though `sheet_text`'s docstring promised it.
    Each sheet now shows its defense per damage type before armor, and where it comes from."""
    h, gm, player = discord_harness, table.moderator, table.player
    await answered(await slash(h, gm, "npc import", example="bandit-archer"))
    _, text, _ = await answer(await slash(h, gm, "npc show", name="Bandit archer"))
    assert (
        "Defenses: physical 1, energy 1, heat 1, chill 1, psyche 1 (innate 1 each, worn armor "
        "adds more)"
    ) in text, text
    await answered(await slash(h, player, "character import", example="brannoc"))
    _, text, _ = await answer(await slash(h, player, "character show", name="Brannoc"))
    assert (
        "Defenses: physical 2, energy 1, heat 1, chill 1, psyche 1 (innate 1 each, the sheet's "
        "physical +1, worn armor adds more)"
    ) in text, text
