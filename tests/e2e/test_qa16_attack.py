"""QA attack, session 16: hostile and careless input through Discord in the newer systems —
the words the README gives for an action, a hold typed as people say it, … Each defect found
has its test here, written first and seen failing on the old code."""

from __future__ import annotations

import pytest

from bot.client import CombatBot
from tests.e2e.combat_helpers import (
    answered,
    button,
    hound_pass,
    ok,
    one_on_one,
    press,
    refused,
    slash,
    version,
)
from tests.e2e.conftest import DiceBox, Table
from tests.e2e.test_qa13_untitled import mill
from tests.e2e.test_restart_combat import lagging_click
from tests.e2e.test_utopia_assist import newest_with, utopia_fight
from tests.e2e.test_worked_example import Table5
from tests.e2e.uune_steps import Docks, labels, prompt_with
from tests.harness.server import DiscordHarness


async def test_untitled_actions_typed_as_the_readme_names_them(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """The README lists Untitled's actions as "put away" and "act now (the held action)":
    typed so, they were refused ("Untitled has no action 'act now'"), since ``action:`` took
    only an action's key (``stow``, ``resume``) or its whole label ("Put a weapon away",
    "Act now (held action)")."""
    h = discord_harness
    t = Table5(h, table, dice)
    await mill(h, table, t)
    put = await t.player("act", action="put away", detail="Hunting knife")
    assert "put away their Hunting knife" in put.text(), put.text()
    await t.player("endturn")
    other = table.other_player
    await ok(await slash(h, other, "act", action="hold", detail="the giant goes again"))
    resumed = (await ok(await slash(h, other, "act", action="act now"))).message
    assert "Brask will act as soon as the current turn ends." in resumed.text()


async def test_untitled_a_hold_typed_with_its_until_says_until_once(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """The rules text's own example of a hold is "until the giant goes again": a player who
    types ``detail:until the giant goes again`` read "Wren holds their action until until the
    giant goes again." — the note put its own "until" before the typed one."""
    h = discord_harness
    t = Table5(h, table, dice)
    await mill(h, table, t)
    held = await t.player("act", action="hold", detail="Until the giant goes again")
    assert "Wren holds their action until the giant goes again." in held.text(), held.text()
    live = await scripted_bot.services.encounters.live(h.channel.id)
    assert [hold.until for hold in live.state.holding.values()] == ["the giant goes again"]


async def test_untitled_a_declared_action_typed_with_its_to_says_to_once(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """The same for a declared action: its note reads "Wren spends 1 swift action to …", so
    ``detail:to nock a second arrow`` read "… swift action to to nock a second arrow."."""
    h = discord_harness
    t = Table5(h, table, dice)
    await mill(h, table, t)
    said = await t.player("act", action="swift", detail="To nock a second arrow")
    assert "Wren spends 1 swift action to nock a second arrow." in said.text(), said.text()
    assert "Wren (swift action): nock a second arrow" in said.text(), said.text()


async def test_a_batch_of_npcs_past_the_cap_says_how_many_still_fit(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """A Uune encounter holds 25 combatants. With Mira, Tobin and a Dock Thug in it, the GM
    adds 25 more Dock Thugs: the refusal said only "An encounter holds at most 25
    combatants.", leaving the GM to guess how many would fit. It now says how many the
    encounter has and how many more can join; nothing is added, and that many can be."""
    h, gm = discord_harness, table.moderator
    await ok(await slash(h, gm, "encounter start", name="Docks", ruleset="uune"))
    for member, example, name in (
        (table.player, "mira", "Mira Quell"),
        (table.other_player, "tobin", "Tobin Ash"),
    ):
        await answered(await slash(h, member, "character import", example=example))
        await ok(await slash(h, member, "encounter join", character=name))
    await answered(await slash(h, gm, "npc import", example="dock-thug"))
    await ok(await slash(h, gm, "gm add-npc", template="Dock Thug"))
    before = await version(bot, h)
    text = await refused(await slash(h, gm, "gm add-npc", template="Dock Thug", count=25))
    assert text == (
        "An encounter holds at most 25 combatants. This one has 3: add at most 22 more."
    ), text
    assert await version(bot, h) == before
    await ok(await slash(h, gm, "gm add-npc", template="Dock Thug", count=22))
    text = await refused(await slash(h, gm, "gm add-npc", template="Dock Thug"))
    assert text == "An encounter holds at most 25 combatants.", text


async def test_uune_one_resource_or_a_bond_has_no_second_refuse_button(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """Mira claims focus from Bond 1: the prompt asked the GM to "grant … or refuse it" and
    showed *GM: refuse all*, *GM: approve Bond 1 — …* and *GM: refuse Bond 1 — …* — two
    buttons doing the same and none saying "grant". A roll with one resource showed *GM: refuse
    all* beside *GM: refuse Lockpicks* too (approve all was left out for one resource; refuse
    all was not). One undecided resource now has one refuse button; a bond's say grant and
    refuse the focus."""
    h, gm = discord_harness, table.moderator
    u = Docks(scripted_bot, h, table, dice)
    await u.cast(wren=False)
    await u.run(gm, "encounter begin")
    await u.run(table.player, "act", action="bond", detail="1")
    bond = await prompt_with(h, "GM: grant")
    assert labels(bond) == ["GM: grant the focus", "GM: refuse the focus"], labels(bond)
    await u.press(gm, "GM: grant the focus")
    assert "Mira Quell acts on a bond and gains a point of focus" in h.message(bond).text()
    await u.run(table.player, "act", action="action", detail="pick the lock: Lockpicks", amount=3)
    roll = await prompt_with(h, "GM: approve Lockpicks")
    assert labels(roll) == [
        "GM: approve all for the scene",
        "GM: approve Lockpicks",
        "GM: refuse Lockpicks",
    ], labels(roll)
    await u.run(table.other_player, "act", action="help", detail="Herbalist")
    helped = await prompt_with(h, "GM: refuse all")
    assert "GM: approve all" in labels(helped), labels(helped)


async def test_utopia_an_action_costing_more_ta_than_are_left_says_how_many_are(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """Vesna has 2 of her 6 TA left and tries a Grapple (3 TA): the refusal said "Vesna cannot
    grapple Stone hound 1: no turn actions left this turn." while the tracker showed her 2 TA
    — the turn actions were paid one by one and the third one found none. It says what the
    action takes and how many are left; nothing is spent."""
    h, gm, player = discord_harness, table.moderator, table.player
    await utopia_fight(h, table, dice)
    await ok(await slash(h, gm, "endturn"))
    for _ in range(4):
        await ok(await slash(h, player, "act", action="exchange"))
    await ok(await slash(h, gm, "gm place engage", a="Vesna", b="Stone hound 1"))
    before = await version(scripted_bot, h)
    text = await refused(await slash(h, player, "act", action="grapple", target="Stone hound 1"))
    assert text == (
        "Vesna cannot grapple Stone hound 1: it takes 3 turn actions and 2 are left this turn."
    ), text
    assert await version(scripted_bot, h) == before


async def test_uune_long_words_of_a_roll_are_shortened_at_a_word(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """``detail:`` takes 300 characters, but a Uune luck check kept 60 of them and an action
    roll 100, cut mid-word with nothing to say so ("Luck check for Mira Quell's whether the
    rotten rope bridge across the gorge still held f with advantage"). They are shortened at a
    word, with "..."."""
    h = discord_harness
    u = Docks(scripted_bot, h, table, dice)
    await u.cast(wren=False)
    await u.run(table.moderator, "encounter begin")
    dice.load([3, 5])
    luck = "whether the rotten rope bridge across the gorge still held fast under three"
    said = (await u.run(table.player, "act", action="luck", detail=f"advantage: {luck}")).message
    assert (
        "Luck check for Mira Quell (whether the rotten rope bridge across the gorge still...)"
        in (said.text())
    ), said.text()
    attempt = "climb " + "the crumbling old watchtower wall " * 4
    said = (
        await u.run(table.player, "act", action="action", detail=f"{attempt}: Lockpicks", amount=3)
    ).message
    shown = (
        "climb the crumbling old watchtower wall the crumbling old watchtower wall the "
        "crumbling old..."
    )
    assert f"Mira Quell attempts {shown}, proposing Lockpicks." in said.text(), said.text()


async def test_a_button_of_a_decision_asked_again_says_so_not_that_it_ended(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """Vesna blocks the hound's bite; Brannoc assists, and the Block is asked again on a new
    prompt (with his +1d4). Vesna, still looking at the first prompt, presses *Roll the Block
    now* there (a lagging client, or a click sent as his landed): she was told "That decision
    is no longer pending (it was resolved, ran out of time or was undone by the GM)" — though
    her Block still waits, on the newer prompt (an Assist closes the decision and asks it
    anew). The refusal names that case too."""
    h, gm = discord_harness, table.moderator
    await utopia_fight(h, table, dice)
    dice.load([8])
    bite = await ok(
        await slash(h, gm, "act", action="attack", target="Vesna", detail="Crushing bite")
    )
    await press(h, table.player, bite.message, "Block (1 IA)")
    first = await newest_with(h, "Assist Vesna's Block")
    roll = button(first, "Roll the Block now")["custom_id"]
    await press(h, table.other_player, first, "Assist Vesna's Block")
    # A lagging client still shows the first prompt's buttons (as a click sent as Brannoc's
    # lands would): Vesna presses Roll there.
    text = await refused(await lagging_click(h, table.player, first, roll))
    assert text == (
        "That decision is no longer pending here (it was resolved, asked again on a newer "
        "prompt — after an Assist, say —, ran out of time or was undone by the GM); this button "
        "no longer does anything."
    ), text
    live = await scripted_bot.services.encounters.live(h.channel.id)
    assert [d.kind for d in live.state.decisions] == ["assist"]  # the Block still waits


@pytest.mark.parametrize(
    ("system", "example"),
    [
        ("utopia", "block if I can afford it, else take it"),
        ("untitled", "shield against melee, else combat defense"),
        ("uune", "reroll with focus if I can afford it, else keep"),
    ],
)
async def test_the_standing_reaction_example_is_in_the_fights_own_words(
    bot: CombatBot,
    discord_harness: DiscordHarness,
    table: Table,
    system: str,
    example: str,
) -> None:
    """``/me reactions`` in a Utopia, Untitled or Uune fight suggested "e.g. `evade if I can
    afford it, else take it`" — UTTAS's Evade, which the same reply's list of words does not
    have, so a player copying it was refused ("`evade` is not a standing choice here"). The
    example is the fight's own, and it is taken as written."""
    h = discord_harness
    name = await one_on_one(h, table, system, name="Example")
    listed = await refused(await slash(h, table.player, "me reactions", combatant=name))
    assert f"e.g. `{example}`" in listed and "evade" not in listed, listed
    blank = await refused(await slash(h, table.player, "me reactions", combatant=name, rule=" "))
    assert blank == f"Write the rule, e.g. `{example}`.", blank
    taken = await refused(
        await slash(h, table.player, "me reactions", combatant=name, rule=example)
    )
    assert taken.startswith(f"Standing reaction for **{name}**"), taken


async def test_utopias_deep_breath_button_is_not_called_a_breather(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """The turn ping's *Deep Breath* button in a Utopia fight answered "Brannoc takes a
    breather" — UTTAS's Take a Breather, a word Utopia does not have (its action is "Deep
    Breath"), and ``/gm undo`` said "The GM undoes breather". The title names the system's own
    action, as ``/act`` does, and the log keeps it as an ``/act``."""
    h = discord_harness
    await hound_pass(h, table)
    ping = (await ok(await slash(h, table.moderator, "endturn"))).message
    rested = await press(h, table.other_player, ping, "Deep Breath")
    shown = str(rested.response_data)
    assert "Brannoc acts: Deep Breath" in shown and "breather" not in shown, shown
    undone = await ok(await slash(h, table.moderator, "gm undo"))
    assert "breather" not in str(undone.response_data), undone.response_data


@pytest.mark.parametrize(
    ("system", "options", "refusal"),
    [
        ("utopia", {"action": "exchange", "amount": 99.0}, "**Exchange** takes no `amount:`."),
        ("utopia", {"action": "aim", "target": "Vesna"}, "**Aim** takes no `target:`."),
        (
            "utopia",
            {"action": "deep-breath", "detail": "twice"},
            "**Deep Breath** takes no `detail:`.",
        ),
        (
            "untitled",
            {"action": "draw", "detail": "Longbow", "amount": 3.0},
            "**Draw a weapon** takes no `amount:`.",
        ),
        ("uune", {"action": "center", "target": "Dock Thug 1"}, "**Center** takes no `target:`."),
        ("uune", {"action": "luck", "amount": 4.0}, "**Luck check** takes no `amount:`."),
    ],
)
async def test_an_option_the_action_does_not_take_is_refused_not_dropped(
    bot: CombatBot,
    discord_harness: DiscordHarness,
    table: Table,
    system: str,
    options: dict[str, object],
    refusal: str,
) -> None:
    """``/act action:exchange amount:99`` in Utopia exchanged one TA, as if 99 were never
    typed; ``/act action:center target:Dock Thug 1`` in Uune centered Mira, the target
    dropped. UTTAS refused such an option by name; the other systems took the action without
    it. Every system now refuses an option the action's list entry says it does not take."""
    h = discord_harness
    name = await one_on_one(h, table, system, name="Options")
    before = await version(bot, h)
    text = await refused(await slash(h, table.moderator, "act", as_=name, **options))
    assert text == refusal, text
    assert await version(bot, h) == before


async def test_uune_help_names_the_roller_it_helps_or_nobody(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """A Propose from the wrong player is told to help with ``/act action:help target:Mira
    Quell detail:…``: Help takes that ``target:`` (it names whose roll), and one naming
    anyone but the roller waiting is refused — it was dropped, the help joining Mira's roll
    whatever was typed."""
    h = discord_harness
    u = Docks(scripted_bot, h, table, dice)
    await u.cast(wren=False)
    await u.run(table.moderator, "encounter begin")
    await u.run(table.player, "act", action="action", detail="pick the lock: Lockpicks", amount=3)
    tobin = table.other_player
    text = await refused(
        await slash(h, tobin, "act", action="help", target="Dock Thug 1", detail="Herbalist")
    )
    assert text == (
        "The roll waiting for the GM is **Mira Quell**'s: help it with `target:` Mira Quell "
        "(or leave `target:` out)."
    ), text
    await u.run(tobin, "act", action="help", target="Mira Quell", detail="Herbalist")
    assert u.said("Tobin Ash helps Mira Quell, proposing Herbalist.")


async def test_uune_proposing_a_resource_again_names_it(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """Mira proposes Lockpicks for the roll that already has it: "Name resources not proposed
    yet." — which resource, and that it is already there, left to guess."""
    h = discord_harness
    u = Docks(scripted_bot, h, table, dice)
    await u.cast(wren=False)
    await u.run(table.moderator, "encounter begin")
    await u.run(table.player, "act", action="action", detail="pick the lock: Lockpicks", amount=3)
    text = await refused(await slash(h, table.player, "act", action="propose", detail="lockpicks"))
    assert text == (
        "Lockpicks is already proposed for this roll: name a resource not proposed yet."
    ), text
