"""Audit 17 of Uune against its rules text (``uune-srd.txt``), played through Discord: each
test is a rule the bot did not apply as the text says, and states what a player should see.
Every die is scripted."""

from __future__ import annotations

from bot.client import CombatBot
from tests.e2e.combat_helpers import end_encounter, refused, slash
from tests.e2e.conftest import DiceBox, Table
from tests.e2e.uune_steps import Docks, labels, prompt_with
from tests.harness.server import DiscordHarness


async def test_an_observe_that_meets_its_difficulty_can_spend_for_a_second_sense(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """ "Observe": "Meet: One sense. 1 over: Two senses. 2 over: Three senses." Mira's Observe
    met its difficulty (a 5 and a 4: one hit of one) and was final at once with one sense,
    though bumping the 4 to a hit (10 vitality, "Vitality") would have noticed with two: a
    success counted as the best a roll can be. The roll now waits for her spends."""
    h = discord_harness
    u = Docks(scripted_bot, h, table, dice)
    gm, mira = table.moderator, table.player
    await u.cast(wren=False, witch=False)  # outside a conflict
    await u.run(mira, "act", action="observe", detail="the crates: Lockpicks", amount=1)
    rolled = await u.press(gm, "GM: approve Lockpicks", [5, 4])
    assert "= 1 hit vs 1 needed: success" in rolled.text(), rolled.text()
    spends = await prompt_with(h, "Keep the roll")
    assert "Bump die 2 by 1 (10 vitality)" in labels(spends), labels(spends)
    assert not u.said("something odd with one sense")
    await u.press(mira, "Bump die 2 by 1")
    await h.wait_for(lambda: u.said("Mira Quell observes the crates: something odd with 2 senses"))
    assert u.said("Mira Quell bumps a die by 1 (10 vitality)")


async def test_a_pc_bleeding_when_the_conflict_begins_bleeds_as_round_1_begins(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """ "Effect: Bleeding": "You take lose 10 vitality at the start of each round." Mira was
    cut before the fight (the GM's Bleeding, outside a conflict); when the GM began the
    conflict round 1 started and she lost nothing — her first 10 went at round 2, so a
    bleeder who staunched on her first turn never bled in the conflict at all. Round 1's
    start now takes its toll, as every later round's does."""
    h = discord_harness
    u = Docks(scripted_bot, h, table, dice)
    gm = table.moderator
    await u.cast(wren=False, witch=False)
    await u.run(gm, "gm condition", combatant="Mira Quell", action="add", name="Bleeding")
    began = (await u.run(gm, "encounter begin")).message.text()
    assert "Round 1 begins" in began, began
    assert "Mira Quell bleeds: 10 vitality lost (vitality 90/100)." in began, began
    assert began.index("Round 1 begins") < began.index("Mira Quell bleeds")
    assert began.index("Mira Quell bleeds") < began.index("Round 1: Mira Quell's turn")


async def test_a_second_level_of_intoxicated_rerolls_a_rerolled_6_again(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """ "Effects": "Certain effects can stack, and their mechanics will apply multiple times
    if you have more than 1 level of that effect"; "Effect: Intoxicated": "must reroll all
    6s". The GM gave Mira Intoxicated twice (the tracker: Intoxicated 2), yet her attack
    rerolled a 6 once and kept the 6 it rerolled to — level 2 played as level 1. Each level
    now rerolls the 6s once: the rerolled 6 is rerolled again, and /odds says so."""
    h = discord_harness
    u = Docks(scripted_bot, h, table, dice)
    gm, mira = table.moderator, table.player
    await u.cast(wren=False, witch=False)
    for _ in range(2):
        await u.run(gm, "gm condition", combatant="Mira Quell", action="add", name="Intoxicated")
    assert u.said("Mira Quell is now Intoxicated 2")
    odds = await refused(
        await slash(
            h, gm, "odds", target="Dock Thug 1", with_="Attack", as_="Mira Quell", resources="1"
        )
    )
    assert "Intoxicated: every 6 rerolled twice (Mira Quell)" in odds, odds
    await u.run(gm, "encounter begin")
    await u.run(mira, "act", action="attack", target="Dock Thug 1", detail="Street fencing")
    # The base die: 6, rerolled (level 1) to 6, rerolled again (level 2) to 3; Street fencing 2.
    rolled = await u.press(gm, "GM: approve Street fencing", [6, 2, 6, 3])
    assert "[6→6→3] [2] = 0 hits vs 3 needed: failure" in rolled.text(), rolled.text()


async def test_a_lethal_wound_mends_with_downtime_once_stabilised(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """ "Wounds": "Lethal wounds reduce your max vitality by 100 … Lethal and heavy wounds will
    need to be stabilized by a medic or healer before they will mend. After a day and a
    successful downtime action … A lethal wound will turn into a heavy wound." Mira's Defend
    rolled no hits: a lethal wound, vitality 0/0, Incapacitated. Tobin stabilised her after
    the fight, and her Downtime was refused: "Mira Quell is incapacitated and cannot act." —
    the one way the text mends a lethal wound could never be taken, and no GM tool raises a
    maximum of 0. She now rests like anyone: the wound turns heavy and 50 vitality return."""
    h = discord_harness
    u = Docks(scripted_bot, h, table, dice)
    gm, mira, tobin = table.moderator, table.player, table.other_player
    await u.thug_swings_at_mira()
    await u.press(mira, "Roll now", [1])  # no hits: "catastrophically fail"
    await u.press(mira, "Keep the roll")
    await h.wait_for(lambda: u.said("gives Mira Quell a lethal wound (vitality 0/0"))
    assert u.said("Mira Quell is now Incapacitated")
    await u.run(gm, "gm end-fight")
    await u.run(
        tobin, "act", action="stabilise", target="Mira Quell", detail="Field medic", amount=2
    )
    await u.press(gm, "GM: approve Field medic", [5, 6])
    await h.wait_for(lambda: u.said("Tobin Ash stabilises Mira Quell's wounds"))
    await u.run(mira, "act", action="downtime", detail="luxurious: River guild runner")
    await u.press(gm, "GM: approve River guild runner", [5, 6])
    await h.wait_for(lambda: u.said("the heaviest wound heals a step (lethal→heavy)"))
    assert u.said("Mira Quell is no longer Incapacitated")
    assert u.said("(vitality 50/50, wounds: 1 heavy)")


async def test_an_action_roll_and_an_npcs_attack_outside_a_conflict(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """ "Actions": "When your character takes a notable action, your facilitator will ask you
    to roll for it" — a conflict is how the facilitator slows the game "when there's a lot
    going on", and "Defend" "does not use your turn action while in conflict". Before the GM
    began the conflict Mira could Observe, sneak or rest, but `/act action:action` (and an
    Attack, and the GM's NPC attack) answered "The fight has not begun yet". They are now
    taken outside a conflict as the special actions are: no turn, nothing spent."""
    h = discord_harness
    u = Docks(scripted_bot, h, table, dice)
    gm, mira = table.moderator, table.player
    await u.cast(wren=False, witch=False)  # not begun
    await u.run(mira, "act", action="action", detail="climb the crane: Lockpicks", amount=2)
    rolled = await u.press(gm, "GM: approve Lockpicks", [5, 6])
    assert "= 2 hits vs 2 needed: success" in rolled.text(), rolled.text()
    await u.press(mira, "Keep the roll")  # the thug could still force a reroll of a hit
    await h.wait_for(lambda: u.said("Mira Quell's climb the crane succeeds (2 of 2 hits)."))
    await u.run(
        gm, "act", action="npc-attack", target="Mira Quell", detail="Cudgel", as_="Dock Thug 1"
    )
    await u.press(mira, "Roll now", [5])  # one hit of three: failed by two
    await u.press(mira, "Keep the roll")
    await h.wait_for(lambda: u.said("Dock Thug 1's Cudgel gives Mira Quell a heavy wound"))
    moved = await u.run(mira, "act", action="move", detail="behind the crane")
    assert "Mira Quell moves to a new position (behind the crane)." in moved.message.text()


async def test_the_gm_gives_an_effect_for_the_campaign(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """ "Scopes and Scoped Mechanics": "Campaign — The entire rest of the story", the first of
    the text's scopes. `/gm condition lasts:` offered a turn, rounds, a scene, a day, a quest
    or an arc — and Uune reads "until removed" as the effects' "Default scope: Scene" — so no
    effect could be given for the campaign: the longest, an arc, ended with `/gm time end-of
    period:arc`. "for the campaign" is now a choice, and no period ends it."""
    h = discord_harness
    u = Docks(scripted_bot, h, table, dice)
    gm = table.moderator
    await u.cast(wren=False, witch=False)
    given = await u.run(
        gm, "gm condition", combatant="Mira Quell", action="add", name="Impaired", lasts="campaign"
    )
    assert (
        "Mira Quell is now Impaired (by the Game Master, for the campaign)" in given.message.text()
    )
    ended = await u.run(gm, "gm time end-of", period="arc")
    assert "Impaired" not in ended.message.text(), ended.message.text()
    live = await scripted_bot.services.encounters.live(h.channel.id)
    assert live.state.get("c1").effect("Impaired") is not None


async def test_the_campaign_record_shows_the_maximum_a_wound_left_and_the_wounds(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """ "Wounds": "Heavy wounds reduce your max vitality by 50." Mira left the docks with a
    heavy wound (vitality 50/50 on the board); `/campaign show` said "Vitality 50/100" — the
    sheet's 100, a maximum she no longer has — and nothing of the wound, which lasts until
    it heals. The record now reads as the board does: vitality of the maximum left, the
    wounds and stress worst first, focus; and she rejoins "as her last fight left" her."""
    h = discord_harness
    u = Docks(scripted_bot, h, table, dice)
    gm, mira = table.moderator, table.player
    await u.thug_swings_at_mira()
    await u.press(mira, "Roll now", [5])  # one hit of three: a heavy wound
    await u.press(mira, "Keep the roll")
    await h.wait_for(lambda: u.said("gives Mira Quell a heavy wound (vitality 50/50"))
    await end_encounter(h, table)
    shown = await h.slash(mira, h.channel, "campaign show", {"character": "Mira Quell"})
    await shown.response()
    text = shown.response_data["content"]
    assert "Vitality 50/50 · Wounds 0/1/0 · Stress 0/0/0 · Focus 0" in text, text
    await u.run(gm, "encounter start", name="Dock ten", ruleset="uune")
    joined = await u.run(mira, "encounter join", character="Mira Quell")
    assert "as their last fight left them (Vitality 50/50 · Wounds 0/1/0" in joined.message.text()


async def test_the_gm_gives_a_wound_or_stress_the_story_deals(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """ "Stress": "When your character takes a substantial amount of mental or emotional
    strain, they will gain stress" (traumatic, heavy or light); "Wounds": "When your
    character takes substantial injury, they will take a wound". Only an NPC's attack could
    wound a PC, and nothing at all could give one stress: the rule table's stress rows
    (−50 off maximum and current for a heavy stress; Downtime heals it a step) could never
    happen in play. `/gm vital vital:heavy stress amount:+1` (or a wound of any kind) now
    deals it, and Downtime heals it as the text says."""
    h = discord_harness
    u = Docks(scripted_bot, h, table, dice)
    gm, mira = table.moderator, table.player
    await u.cast(wren=False, witch=False)
    strained = await u.run(
        gm, "gm vital", combatant="Mira Quell", vital="heavy stress", amount="+1"
    )
    assert "Mira Quell takes a heavy stress (vitality 50/50, stress: 1 heavy)." in (
        strained.message.text()
    ), strained.message.text()
    fell = await u.run(gm, "gm vital", combatant="Mira Quell", vital="light wound", amount="+1")
    assert "Mira Quell takes a light wound (vitality 40/40, wounds: 1 light" in fell.message.text()
    refused_text = await refused(
        await slash(h, gm, "gm vital", combatant="Mira Quell", vital="heavy stress", amount="0")
    )
    assert "Downtime" in refused_text, refused_text
    await u.run(mira, "act", action="downtime", detail="luxurious: River guild runner")
    await u.press(gm, "GM: approve River guild runner", [5, 6])
    await h.wait_for(lambda: u.said("the heaviest stress heals a step (heavy→light)"))
    assert u.said("(vitality 60/60, stress: 4 light)")
