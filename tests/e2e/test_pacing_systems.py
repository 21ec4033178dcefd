"""Play-by-chat pacing in the other game systems, as a table plays it over days (issue 17):
a turn's clock stands still while a decision waits — an Untitled shield choice, across a
``/gm pause`` too, or the GM's choice of a Utopia NPC's defense — and runs on with the time it
had left once the decision is settled, so a reaction that took its whole window never ends the
turn it interrupted at once. Every die is scripted; the clock is the test's
(:class:`ManualClock`), moved past windows and deadlines.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.client import CombatBot
from tests.clock import ManualClock
from tests.e2e.combat_helpers import answered, ok, press, slash
from tests.e2e.conftest import DiceBox, Table
from tests.e2e.test_standing_reactions_systems import BANDIT, untitled_fight
from tests.e2e.test_turn_deadlines import DEADLINE, HOUR, deadline_of, passed
from tests.harness.server import DiscordHarness

DAY = 24 * HOUR
BANDIT_U = "Bandit archer 1"


@pytest.fixture
def bot(scripted_clocked_bot: CombatBot) -> CombatBot:
    """The real bot with the test's dice and clock, and no background expiry loop
    (``conftest.scripted_clocked_bot``)."""
    return scripted_clocked_bot


async def bandits_turn(bot: CombatBot, h: DiscordHarness, table: Table) -> int:
    """Untitled: Brask against the bandit with a 12-hour turn deadline and a day to react;
    Brask ends his turn, and the bandit's 12 hours begin. Returns the encounter id."""
    gm = table.moderator
    await untitled_fight(h, table)
    await ok(await slash(h, gm, "gm settings", turn_deadline="12h", reaction_window="1d"))
    await ok(await slash(h, table.other_player, "endturn"))
    return (await bot.services.encounters.live(h.channel.id)).id


async def cut(h: DiscordHarness, table: Table) -> None:
    """The bandit's Short sword at Brask, whose shield choice then waits."""
    await ok(
        await slash(
            h, table.moderator, "act", action="attack", target="Brask", detail="Short sword"
        )
    )


async def test_untitled_a_shield_choice_that_runs_out_leaves_the_bandit_the_turn_it_had_left(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox, clock: ManualClock
) -> None:
    """An hour into the bandit's turn it cuts at Brask, whose player does not answer: his
    shield choice runs out after a day and the shield is rolled (``untitled-combat.txt``).
    The bandit's turn is not ended then by a deadline that passed while it waited on Brask:
    its clock stood still, and it has the 11 hours it had left (before, the same expiry pass
    ended its turn at once)."""
    h = discord_harness
    encounter_id = await bandits_turn(bot, h, table)
    clock.advance(HOUR)
    await cut(h, table)
    live = await bot.services.encounters.live(h.channel.id)
    assert live.state.current is not None and live.state.current.name == BANDIT
    assert await deadline_of(bot, encounter_id) == (live.state.turn_seq, None)
    clock.advance(DAY)
    dice.load([1, 1, 3, 3, 2, 2])  # the cut, Combat Defense, the shield: a miss
    [expired] = await bot.expire_due()
    assert dice.empty and expired.expired
    after = await bot.services.encounters.live(h.channel.id)
    assert after.state.turn_seq == live.state.turn_seq  # still the bandit's turn
    assert await deadline_of(bot, encounter_id) == (
        live.state.turn_seq,
        clock() + timedelta(seconds=DEADLINE - HOUR),
    )
    assert passed(h) == []
    clock.advance(DEADLINE - HOUR - 1)
    assert await bot.fire_turn_deadlines() == []
    clock.advance(1)
    [lapse] = await bot.fire_turn_deadlines()
    assert lapse.name == BANDIT and lapse.action == "end_turn"
    await h.wait_for(lambda: len(passed(h)) == 1)


async def test_untitled_a_pause_while_the_shield_choice_waits_keeps_the_turns_clock_stopped(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox, clock: ManualClock
) -> None:
    """Four hours into the bandit's turn it cuts at Brask; the GM pauses the fight and resumes
    it two days later. Brask's window starts over (``/gm resume``), and the bandit's turn keeps
    its 8 hours stopped until Brask's choice is settled — not running from the resume."""
    h, gm = discord_harness, table.moderator
    encounter_id = await bandits_turn(bot, h, table)
    clock.advance(4 * HOUR)
    await cut(h, table)
    await ok(await slash(h, gm, "gm pause"))
    clock.advance(2 * DAY)
    resumed = await ok(await slash(h, gm, "gm resume"))
    said = resumed.message.text()
    assert "A waiting reaction has its whole window again." in said, said
    assert f"**{BANDIT}**'s turn deadline runs on once the decision is settled." in said, said
    live = await bot.services.encounters.live(h.channel.id)
    assert await deadline_of(bot, encounter_id) == (live.state.turn_seq, None)
    clock.advance(DAY)
    dice.load([1, 1, 3, 3, 2, 2])
    [expired] = await bot.expire_due()
    assert expired.expired and passed(h) == []
    assert await deadline_of(bot, encounter_id) == (
        live.state.turn_seq,
        clock() + timedelta(seconds=8 * HOUR),
    )


async def test_utopia_vesnas_turn_waits_for_the_gms_defense_and_keeps_its_last_hour(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox, clock: ManualClock
) -> None:
    """Utopia, the GM choosing the NPCs' defenses: eleven hours into Vesna's 12-hour turn she
    shoots the bandit, and the GM answers with a Block nine hours later. Her turn was waiting
    on the GM, not on her: she still has her last hour, and shoots again in it (before, the
    deadline that passed meanwhile ended her turn as soon as the GM had answered)."""
    h, gm, player = discord_harness, table.moderator, table.player
    await ok(await slash(h, gm, "encounter start", name="Reed ford", ruleset="utopia"))
    await answered(await slash(h, player, "character import", example="vesna"))
    await ok(await slash(h, player, "encounter join", character="Vesna"))
    await answered(await slash(h, gm, "npc import", example="bandit-archer"))
    await ok(await slash(h, gm, "gm add-npc", template="Bandit archer"))
    await ok(await slash(h, gm, "gm settings", npcs_react=True, reaction_window="1d"))
    await ok(await slash(h, gm, "gm settings", turn_deadline="12h"))
    dice.load([6, 6, 5, 1, 2, 1])  # Speed tests: Vesna first
    begun = await ok(await slash(h, gm, "encounter begin"))
    due = int((clock() + timedelta(seconds=DEADLINE)).timestamp())
    assert f"Turn deadline: <t:{due}:R>." in begun.message.content, begun.message.content
    clock.advance(11 * HOUR)
    dice.load([4, 4, 4, 4, 8])
    shot = (
        await ok(
            await slash(
                h, player, "act", action="attack", target=BANDIT_U, detail="Longbow", amount=10.0
            )
        )
    ).message
    clock.advance(9 * HOUR)
    assert await bot.fire_turn_deadlines() == []
    dice.load([3])
    await press(h, gm, shot, "Block")
    assert dice.empty
    assert await bot.fire_turn_deadlines() == []
    live = await bot.services.encounters.live(h.channel.id)
    assert live.state.current is not None and live.state.current.name == "Vesna"
    dice.load([1, 1, 1, 1])
    missed = await ok(
        await slash(
            h, player, "act", action="attack", target=BANDIT_U, detail="Longbow", amount=10.0
        )
    )
    assert "a miss" in missed.message.text()
    clock.advance(HOUR)
    [lapse] = await bot.fire_turn_deadlines()
    assert lapse.name == "Vesna" and lapse.action == "end_turn"


async def test_utopia_interleaved_a_default_action_at_the_deadline_passes_the_go_on(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox, clock: ManualClock
) -> None:
    """Utopia's interleaved order ("each creature goes after each action"): Vesna's default
    action at a passed deadline is one paid action, so her go passes on and her other TA wait
    for her next go — what the GM is told when setting it (before, "then the turn ends", which
    in this order means giving up the round's TA, as a passed deadline without one does)."""
    h, gm, player, other = discord_harness, table.moderator, table.player, table.other_player
    await ok(await slash(h, gm, "encounter start", name="Reed ford", ruleset="utopia"))
    await answered(await slash(h, player, "character import", example="vesna"))
    await ok(await slash(h, player, "encounter join", character="Vesna"))
    await answered(await slash(h, other, "character import", example="brannoc"))
    await answered(await slash(h, other, "encounter join", character="Brannoc"))
    await ok(await slash(h, gm, "gm settings", interleaved=True, turn_deadline="12h"))
    await ok(await slash(h, gm, "gm settings", deadline_action="default_action"))
    told = await answered(
        await slash(h, gm, "gm settings", combatant="Vesna", default_action="Deep Breath")
    )
    said = str(told.response_data["content"])
    assert "then its go passes on (interleaved order: its other TA wait for its next go)" in said
    assert "then the turn ends" not in said
    dice.load([6, 6, 5, 1, 1, 1])  # Speed tests: Vesna, then Brannoc
    await ok(await slash(h, gm, "encounter begin"))
    clock.advance(DEADLINE)
    [lapse] = await bot.fire_turn_deadlines()
    assert lapse.action == "default_action" and lapse.name == "Vesna"
    live = await bot.services.encounters.live(h.channel.id)
    assert live.state.current is not None and live.state.current.name == "Brannoc"
    assert live.state.find("Vesna").pools["turn"] == 5
