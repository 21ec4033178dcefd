"""Defects left open after round 18, each driven through the real bot (slash command or button
→ service → SQLite → what the channel and the member see)."""

from __future__ import annotations

import json

from bot.client import CombatBot
from tests.e2e.combat_helpers import (
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
    await uttas_fight(h, table, thugs=2)
    live = await bot.services.encounters.live(h.channel.id)
    in_order = [live.state.get(cid).name for cid in live.state.order]
    thugs = [name for name in in_order if name.startswith("Thug")]
    first, second = thugs  # the first to act readies; the second attacks with it
    await pass_turns_until(bot, h, table, first)
    await ok(
        await slash(
            h,
            gm,
            "ready",
            trigger="coordinated",
            watch=second,
            action="strike with my partner",
            attack="Cudgel",
            target="Willow",
            as_=first,
        )
    )
    await pass_turns_until(bot, h, table, second)
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
