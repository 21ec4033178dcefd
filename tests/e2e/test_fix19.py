"""Defects left open after round 18, each driven through the real bot (slash command or button
→ service → SQLite → what the channel and the member see)."""

from __future__ import annotations

import json
from datetime import timedelta

from bot.client import CombatBot
from tests.clock import ManualClock
from tests.e2e.combat_helpers import (
    answered,
    coordinated_thugs,
    ok,
    pass_turns_until,
    refused,
    slash,
    thug_attacks_willow,
)
from tests.e2e.combat_helpers import set_up_fight as uttas_fight
from tests.e2e.conftest import Table
from tests.e2e.test_attack_systems import untitled_mill
from tests.harness.server import DiscordHarness


async def _order(bot: CombatBot, h: DiscordHarness) -> list[str]:
    live = await bot.services.encounters.live(h.channel.id)
    return [live.state.get(cid).name for cid in live.state.order]


async def test_the_gm_cannot_reorder_the_fight_while_a_shield_choice_waits(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Untitled: the Hill giant swung at Brask, whose shield choice waited — and `/gm order
    combatant:Wren position:3` was applied, while `/gm next` was refused "Waiting for Brask's
    defense … first". Every GM command that moves the fight on (the order, `/gm roll-order`,
    a turn's end, time passing) now waits for the decision the same way, saying how it is
    settled; the GM's corrections in the moment (a vital) still go through."""
    h = discord_harness
    gm = table.moderator
    await untitled_mill(h, table)
    await pass_turns_until(bot, h, table, "Hill giant 1")
    await ok(await slash(h, gm, "act", action="attack", target="Brask"))
    before = await _order(bot, h)
    for command, options in (
        ("gm order", {"combatant": "Wren", "position": 3}),
        ("gm roll-order", {}),
        ("gm skip", {"combatant": "Wren"}),
        ("gm time end-of", {"period": "scene"}),
    ):
        text = await refused(await slash(h, gm, command, **options))
        assert text.startswith("Waiting for Brask's defense against"), (command, text)
        assert "buttons on the attack's message decide it" in text, (command, text)
        assert "`/gm resolve` settles it: the attack is rolled with the" in text, (command, text)
    live = await bot.services.encounters.live(h.channel.id)
    assert await _order(bot, h) == before and live.state.decisions
    assert not live.state.find("Wren").skip_next_turn
    # A correction in the moment goes on: the decision resolves on the corrected numbers.
    await ok(await slash(h, gm, "gm vital", combatant="Wren", vital="health", amount="-1"))
    await ok(await slash(h, gm, "gm resolve"))
    await ok(await slash(h, gm, "gm order", combatant="Wren", position=3))
    assert (await _order(bot, h))[2] == "Wren"


async def test_uttas_gm_order_waits_for_a_reaction_too(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """UTTAS: while Willow decides on Thug 1's Cudgel, `/gm order` was applied too; it now
    says what it waits for and how the reaction is settled."""
    h = discord_harness
    await uttas_fight(h, table)
    await thug_attacks_willow(bot, h, table)
    text = await refused(
        await slash(h, table.moderator, "gm order", combatant="Willow", position=1)
    )
    assert text.startswith("Waiting for Willow to decide on Thug 1's Cudgel first."), text
    assert "`/gm resolve` settles it with no reaction" in text, text


async def test_an_encounter_a_newer_bot_saved_is_refused_by_name_not_a_field(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """A database written by a newer bot, opened by this one: the encounter's rules were frozen
    at a version this bot does not know and its state holds a field this bot's models do not.
    `/encounter status` and the GM's `/gm next` answered "Invalid saved encounter
    (chase_gap_history): Extra inputs are not permitted" — nothing said a newer bot wrote it
    or what to do. They now say so, for the GM and the host, and change nothing."""
    h = discord_harness
    await uttas_fight(h, table)
    live = await bot.services.encounters.live(h.channel.id)
    assert live.row.rules is not None
    newer = max(type(live.rules).known_versions) + 1
    rules = json.loads(live.row.rules) | {"version": newer}
    state = json.loads(live.state_json) | {"chase_gap_history": [3, 2]}
    async with bot.db.transaction() as conn:
        await conn.execute(
            "UPDATE encounters SET rules = ?, state = ?, version = version + 1 WHERE id = ?",
            (json.dumps(rules), json.dumps(state), live.id),
        )
    for member, command in ((table.player, "encounter status"), (table.moderator, "gm next")):
        text = await refused(await slash(h, member, command))
        assert text.startswith("This encounter was saved by a newer version of the bot"), text
        assert f"UTTAS rules version {newer}, which this version does not know" in text, text
        assert "Run the newer version of the bot" in text and "chase_gap_history" not in text


async def test_a_coordinated_attack_through_discord_and_a_striker_removed_from_it(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """UTTAS "Perform a readied action": a coordinated attack — "both the character readying an
    action and the person they're coordinating with perform their attacks at the exact same
    time". It could not be played through Discord: `/ready trigger:coordinated` took no attack
    or target (the engine refused "Name the attack and the target…") and `/attack` had no way
    to name the allies striking with it; so `/gm remove` of a striker in a coordinated attack
    — which cancelled the whole attack, the attacker's own strike with it — was never reached.
    Now `/ready` takes `attack:` and `target:`, `/attack` takes `together:`, and removing a
    striker takes only its own strike out: the attack waits on for Willow's reaction."""
    h = discord_harness
    gm = table.moderator
    first, second = await coordinated_thugs(bot, h, table)
    await ok(
        await slash(h, gm, "attack", target="Willow", with_="Cudgel", together=first, as_=second)
    )
    live = await bot.services.encounters.live(h.channel.id)
    (waiting,) = live.state.decisions
    assert list(waiting.joint.values()) == ["Cudgel"]
    assert live.state.get(next(iter(waiting.joint))).name == first
    removed = await ok(await slash(h, gm, "gm remove", combatant=first))
    said = removed.message.text()
    assert f"{first}'s coordinated Cudgel is called off: {first} left." in said, said
    assert f"{second}'s Cudgel still waits for Willow's reaction." in said, said
    live = await bot.services.encounters.live(h.channel.id)
    (waiting,) = live.state.decisions
    assert waiting.joint == {} and live.state.get(waiting.attacker).name == second
    resolved = await ok(await slash(h, gm, "gm resolve"))
    assert (
        first not in resolved.message.text()
        and not (await bot.services.encounters.live(h.channel.id)).state.decisions
    )


async def test_the_turn_ping_keeps_saying_when_the_deadline_passes(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table, clock: ManualClock
) -> None:
    """The ping for Willow's turn said "Turn deadline: in 12 hours". The GM paused 4 hours in
    and resumed a day later: the resume said the deadline passes in 8 hours, the ping still
    counted down to the old time (long past). A reaction that waited did the same (the turn's
    clock stands still meanwhile). The ping is now edited whenever its deadline moves: while
    paused it says the deadline is stopped, while a decision waits that it stands still, and
    after a resume it says the same time as the resume; once the turn is over it says none."""
    h, gm = discord_harness, table.moderator
    await uttas_fight(h, table, begin=False)
    await ok(await slash(h, gm, "gm settings", turn_deadline="12h", npcs_react=True))
    await ok(await slash(h, gm, "encounter begin"))
    for _ in range(10):  # to Willow's turn: its ping is the last endturn's message
        ping = (await ok(await slash(h, gm, "endturn"))).message
        if "it is **Willow**'s turn" in ping.content:
            break
    due = int((clock() + timedelta(hours=12)).timestamp())
    assert ping.content.endswith(f"Turn deadline: <t:{due}:R>."), ping.content
    clock.advance(4 * 3600)
    await answered(await slash(h, gm, "gm pause"))
    await h.wait_for(lambda: "stopped while the GM has paused" in h.message(ping.id).content)
    assert f"<t:{due}:R>" not in h.message(ping.id).content
    clock.advance(24 * 3600)
    resumed = await answered(await slash(h, gm, "gm resume"))
    due = int((clock() + timedelta(hours=8)).timestamp())
    assert f"turn deadline: <t:{due}:R>." in resumed.message.text(), resumed.message.text()
    await h.wait_for(lambda: h.message(ping.id).content.endswith(f"Turn deadline: <t:{due}:R>."))
    assert h.message(ping.id).components != []  # still the running turn's: its buttons stay
    assert "it is **Willow**'s turn" in h.message(ping.id).content  # the rest as it was
    # Willow's attack waits for the GM's choice for Thug 1: the clock stands still meanwhile.
    clock.advance(3600)
    await ok(await slash(h, table.player, "attack", target="Thug 1", with_="Club"))
    await h.wait_for(lambda: "stands still while a decision waits" in h.message(ping.id).content)
    clock.advance(5 * 3600)
    await ok(await slash(h, gm, "gm resolve"))
    # The attack was her turn's action: her turn is over, so the ping loses its buttons and
    # says no deadline any more (the next turn's ping says its own).
    await h.wait_for(lambda: h.message(ping.id).components == [])
    assert "Turn deadline" not in h.message(ping.id).content, h.message(ping.id).content


async def test_a_reminder_says_the_time_left_not_a_deadline_a_pause_moves(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table, clock: ManualClock
) -> None:
    """Half-way through a 12-hour turn the reminder said "(deadline in 6 hours)" as a live
    countdown; the GM paused and resumed a day later, and the reminder still counted down to
    the old time while the resume said another. A reminder is never edited, so it says how much
    time was left when it was sent; the ping (kept current) says when the deadline passes."""
    bot, h, gm = clocked_bot, discord_harness, table.moderator
    await uttas_fight(h, table)
    await ok(await slash(h, gm, "gm settings", turn_deadline="12h"))
    clock.advance(6 * 3600)
    assert len(await bot.send_reminders()) == 1
    await h.wait_for(lambda: any("⏳" in m.content for m in h.messages_in(h.channel)))
    [shown] = [m.content for m in h.messages_in(h.channel) if "⏳" in m.content]
    assert shown.endswith("'s turn (about 6 hours left on its clock)."), shown
    assert "<t:" not in shown, shown
