"""Defects found on 2026-12-06 and left open (fix20a): each test states what a member should
see, through the real bot against the local Discord-compatible server."""

from __future__ import annotations

from bot.client import CombatBot
from tests.clock import ManualClock
from tests.e2e.combat_helpers import (
    answered,
    ok,
    one_on_one,
    pass_turns_until,
    refused,
    set_up_fight,
    slash,
    thug_attacks_willow,
    window_ran_out,
)
from tests.e2e.conftest import DiceBox, Table
from tests.e2e.test_reaction_expiry import WINDOW, waiting_for_willow
from tests.e2e.test_reaction_expiry import window_over as reaction_windows_over
from tests.e2e.uune_steps import Docks, prompt_with
from tests.harness.server import DiscordHarness

# ---- a decision that is no reaction runs out: its post says what it was -----------------------


async def test_a_uune_approval_that_runs_out_is_titled_as_an_approval(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """Mira's Attack waited on the GM's approval; its window ran out and the post was titled
    "Reaction window over" — nobody reacted to anything. It is titled by the decision's own
    words now: "Approval window over"."""
    h = discord_harness
    u = Docks(scripted_bot, h, table, dice)
    await u.cast(wren=False)
    await u.run(table.moderator, "encounter begin")
    await u.run(table.player, "act", action="attack", target="Dock Thug 1", detail="Street fencing")
    await prompt_with(h, "GM: approve all")
    dice.load([5] * 12)  # the lapse refuses what is unanswered and rolls
    await window_ran_out(scripted_bot, h)

    def over() -> list[str]:
        return [
            e.get("title", "")
            for m in h.messages_in(h.channel)
            for e in m.embeds
            if "window over" in e.get("title", "")
        ]

    await h.wait_for(lambda: bool(over()), what="the expiry's post")
    assert over() == ["Approval window over"], over()


# ---- a refusal about a hidden NPC says nothing of its pools ----------------------------------


async def test_healing_an_unhurt_hidden_npc_says_nothing_of_its_pools(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Willow's Heal on Thug 1 (whose numbers the channel hides), hurt only in Stamina, was
    refused with "Thug 1 has no Health damage to heal." — telling her its Health is full and
    whatever hurt it was Stamina. The player is told nothing of its pools; the GM, acting for
    Willow, is told why."""
    h, gm, player = discord_harness, table.moderator, table.player
    await one_on_one(h, table, "uttas", name="Mercy")
    await ok(await slash(h, gm, "gm hp", combatant="Thug 1", stamina="-1"))
    await pass_turns_until(bot, h, table, "Willow")
    refused = await answered(await slash(h, player, "power", name="Heal", target="Thug 1"))
    said = str(refused.response_data.get("content"))
    assert refused.ephemeral, said
    assert said == "Thug 1 has nothing this can heal now; nothing was spent.", said
    exact = await answered(await slash(h, gm, "power", name="Heal", target="Thug 1"))
    assert "Thug 1 has no Health damage to heal." in str(exact.response_data.get("content"))


# ---- /away and /back: a bystander is answered privately; /back says what waits -------------


async def test_a_bystanders_away_is_answered_privately(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """The bystander, who has nothing in the channel's fight, said `/away` and the whole table
    read "💤 … is away": it is theirs alone now, as is their `/back`; the player, whose
    Willow fights here, is still announced to the table."""
    h = discord_harness
    await set_up_fight(h, table)
    away = await refused(await slash(h, table.bystander, "away", until="2d"))
    assert f"<@{table.bystander.id}> is away until" in away, away
    assert "Only you see this" in away, away
    back = await refused(await slash(h, table.bystander, "back"))
    assert "is back" in back and "Only you see this" in back, back
    posted = [m.text() for m in h.messages_in(h.channel) if f"<@{table.bystander.id}>" in m.text()]
    assert not posted, posted
    said = await ok(await slash(h, table.player, "away"))
    assert "Only you see this" not in str(said.response_data.get("content"))


async def test_back_says_what_waited_on_the_player_while_the_gm_stood_in(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Willow's player went away; Thug 1 attacked Willow, and the reaction asked the GM, who
    stood in. The player came back and `/back` said only "is back": the attack waiting on
    them now was left for them to find. `/back` says what waits on them."""
    h, player = discord_harness, table.player
    await set_up_fight(h, table)
    await ok(await slash(h, player, "away"))
    await thug_attacks_willow(bot, h, table)
    back = await ok(await slash(h, player, "back"))
    said = str(back.response_data.get("content"))
    assert "is back" in said, said
    assert (
        f"⏳ Waiting on you in <#{h.channel.id}>: **Thug 1** attacks **Willow** with **Cudgel** "
        "(decide <t:" in said
    ), said
    live = await bot.services.encounters.live(h.channel.id)
    assert len(live.row.decisions) == 1  # still waiting: nothing settled it


# ---- a stand-in's standing reaction: who set it is said, and it ends with the stand-in ------


async def my_reactions(h: DiscordHarness, member: object, **options: object) -> str:
    record = await answered(await slash(h, member, "me reactions", **options))
    assert record.ephemeral, record.response_data
    return str(record.response_data["content"])


async def test_a_delegates_standing_reaction_says_who_set_it_and_ends_with_the_stand_in(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table, clock: ManualClock
) -> None:
    """The delegate standing in for Willow's away player set her standing reaction "evade";
    the player came back, and Willow kept evading by a rule she never chose — and `/me
    reactions` did not say who set it. Now the result that applies it says who set it; once
    the player is back it no longer applies (her window lapses as usual), and `/me reactions`
    lists it as set by the delegate, no longer applying."""
    bot, h, player, delegate = clocked_bot, discord_harness, table.player, table.other_player
    await set_up_fight(h, table)
    await ok(await slash(h, player, "away", delegate=delegate))
    set_reply = await my_reactions(h, delegate, combatant="Willow", rule="evade")
    assert f"It applies while you stand in for <@{player.id}>" in set_reply, set_reply
    listed = await my_reactions(h, delegate, combatant="Willow")
    assert f"**Willow**: “evade” (set by <@{delegate.id}>)" in listed, listed
    assert "does not apply" not in listed, listed
    # While the delegate stands in, it applies, and the result says who set it.
    await waiting_for_willow(bot, h, table, set_up=False)
    clock.advance(WINDOW)
    [result] = await bot.expire_due()
    assert [use.label for use in result.standing] == ["Evade"]
    [notice] = reaction_windows_over(h)
    assert f"Standing reaction set by <@{delegate.id}> for **Willow**: Evade" in notice.text()
    # The player is back: the delegate's rule no longer applies, and the list says why.
    await ok(await slash(h, player, "back"))
    listed = await my_reactions(h, player, combatant="Willow")
    assert f"“evade” (set by <@{delegate.id}>) — does not apply now" in listed, listed
    await pass_turns_until(bot, h, table, "Thug 2")
    await ok(await slash(h, table.moderator, "attack", target="Willow", with_="Cudgel"))
    clock.advance(WINDOW)
    [lapsed] = await bot.expire_due()
    assert lapsed.standing == (), lapsed.standing


async def test_a_gms_standing_reaction_for_a_stand_in_ends_when_they_hand_the_seat_on(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table, clock: ManualClock
) -> None:
    """The GM, standing in for Willow's away player, set her standing reaction, then handed
    the GM seat on: it kept applying for a member who no longer acts for her. It ends with the
    seat; the new GM's `/me reactions` lists it as set by the former GM, not applying."""
    bot, h, gm, player = clocked_bot, discord_harness, table.gm, table.player
    await ok(await slash(h, gm, "encounter start", name="Firewood"))
    await answered(await slash(h, table.moderator, "npc import", example="thug"))
    await ok(await slash(h, gm, "gm add-npc", template="Thug", count=3))
    await answered(await slash(h, player, "character import", example="willow"))
    await ok(await slash(h, player, "encounter join", character="Willow"))
    await ok(await slash(h, gm, "encounter begin"))
    await ok(await slash(h, player, "away"))
    set_reply = await my_reactions(h, gm, combatant="Willow", rule="evade")
    assert "It applies while you stand in for" in set_reply, set_reply
    await ok(await h.slash(gm, h.channel, "gm seat transfer", {"member": table.moderator}))
    listed = await my_reactions(h, table.moderator, combatant="Willow")
    assert f"“evade” (set by <@{gm.id}>) — does not apply now" in listed, listed
    await waiting_for_willow(bot, h, table, set_up=False)
    clock.advance(WINDOW)
    [lapsed] = await bot.expire_due()
    assert lapsed.standing == (), lapsed.standing
