"""QA attack (round 21, b): ``/odds``, ``/rehearse``, ``/me`` and the campaign records,
attacked through Discord in each game system."""

from __future__ import annotations

import re

import pytest

from bot.client import CombatBot
from tests.e2e.combat_helpers import (
    answered,
    end_encounter,
    ok,
    one_on_one,
    pass_turns_until,
    press,
    refused,
    set_up_fight,
    slash,
    thug_attacks_willow,
    work_done,
)
from tests.e2e.conftest import Table
from tests.e2e.test_member_data import click, delete_prompt, export_of, stored_anywhere
from tests.e2e.test_rehearse import rehearsal, stored
from tests.harness.server import DiscordHarness


async def test_a_fight_rehearsed_past_round_fifty_is_played_not_drawn(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """The 50-round cap counts the rounds a rehearsal plays from where the fight stands: a
    slow fight in its 51st round was rehearsed as 100 % draws with 50 expected rounds (the cap
    read the fight's own round number, so nothing was played), and one in round 45 only got
    six rounds before its fights were counted drawn."""
    h, gm = discord_harness, table.moderator
    await one_on_one(h, table, "uttas", name="Long night")
    first = await rehearsal(h, table, fights=40, seed=9)
    live = await bot.services.encounters.live(h.channel.id)
    while live.state.round < 51:  # Willow and the Thug trade nothing but ended turns
        await ok(await slash(h, gm, "endturn"))
        live = await bot.services.encounters.live(h.channel.id)
    before = await stored(bot, h)
    late = await rehearsal(h, table, fights=40, seed=9)
    assert late.startswith("**Rehearsal** of this fight from round 51: 40 fights"), late
    assert await stored(bot, h) == before

    def figures(text: str) -> list[str]:
        return re.findall(r"^- .*$|^Expected rounds: .*$", text, re.MULTILINE)

    # Nobody was hurt meanwhile: the same fight, the same seed, the same figures.
    assert figures(late) == figures(first), late
    assert "Draws (nobody left standing, or no side won within 50 rounds): 0 " in late, late


@pytest.mark.async_timeout(180)
async def test_rehearsals_asked_at_once_are_each_told_their_place_and_the_extra_one_refused(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Five ``/rehearse`` sent at once on one server: the first runs, the next three are each
    told behind how many they wait (1, 2, 3) and get their figures in the order asked, and the
    fifth is refused at once (nothing deferred, nothing queued). A rehearsal took its place
    in the queue only after its "thinking…" reply went out, so while the earlier ones were
    still replying the second was told nothing, the fourth was told it waited behind 2, and
    the fifth was first told it was queued and then refused."""
    h, gm = discord_harness, table.moderator
    await one_on_one(h, table, "uttas", name="Queue")
    asked = [
        await h.slash(gm, h.channel, "rehearse", {"fights": 1_000, "seed": seed})
        for seed in range(5)
    ]
    for record in asked:
        await record.response()
    *played, extra = asked
    assert not extra.deferred and extra.ephemeral, extra.response_data
    assert "3 rehearsals already wait on this server" in extra.response_data["content"]
    for seed, record in enumerate(played):
        assert record.deferred
        await record.wait_for(
            lambda r: any(m.content.startswith("**Rehearsal**") for m in r.followups),
            timeout=150,
        )
        said = [m.content for m in record.followups]
        assert all(m.ephemeral for m in record.followups)
        assert said[-1].startswith("**Rehearsal** of this fight from round 1: 1,000 fights")
        assert f"seed {seed}," in said[-1]
        behind = {1: "one rehearsal", 2: "2 rehearsals", 3: "3 rehearsals"}.get(seed)
        if behind is None:
            assert len(said) == 1, said
        else:
            assert len(said) == 2 and said[0].startswith(f"⏳ Queued behind {behind}"), said


async def test_a_stand_in_who_erases_their_data_hands_the_waiting_reaction_to_the_gm(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Willow's player is away and named Bear's player to react for her; a Thug's attack waits
    on Willow's reaction, its prompt addressed to the stand-in. The stand-in erases their data
    (``/me delete``): the GM stands in now, so the prompt asks the GM and pings them, and the
    tracker says so. The prompt kept asking the erased member and the tracker kept naming
    them: only fights where the member controlled a combatant were told (the away marks that
    named them changed with nobody shown)."""
    h, gm, player, stand_in = (
        discord_harness,
        table.moderator,
        table.player,
        table.other_player,
    )
    await set_up_fight(h, table, thugs=1)
    await ok(await h.slash(player, h.channel, "away", {"delegate": stand_in}))
    attack = await thug_attacks_willow(bot, h, table)
    assert h.message(attack).content.startswith(f"<@{stand_in.id}> (for <@{player.id}>, away)")
    [tracker] = [m for m in h.messages_in(h.channel) if "Away:" in m.text()]
    assert f"(<@{stand_in.id}> stands in)" in tracker.text()
    last = h.messages_in(h.channel)[-1].id

    prompt = await delete_prompt(h, stand_in)
    await click(h, stand_in, prompt, "Confirm")
    await h.wait_for(lambda: f"<@{stand_in.id}>" not in h.message(attack).content)
    assert h.message(attack).content.startswith(f"<@{gm.id}> (for <@{player.id}>, away)")
    await h.wait_for(lambda: "(the GM stands in)" in h.message(tracker).text())
    await h.wait_for(
        lambda: any(
            m.content.startswith(f"<@{gm.id}>") and m.id > last for m in h.messages_in(h.channel)
        )
    )
    assert await stored_anywhere(bot, str(stand_in.id)) == []
    # The GM's click decides it.
    await press(h, gm, attack, "Evade")
    assert "Willow reacts: Evade." in h.message(attack).text(), h.message(attack).text()


async def test_erasing_a_member_on_their_turn_leaves_no_trace_in_its_turn_ping(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """It is Willow's turn and her ping (with its buttons) names her player when the player
    erases their data: the ping's stored text — kept to reword its deadline — held the
    player's id afterwards (no source claimed it: the guard listed only integer columns)."""
    h, gm, player = discord_harness, table.moderator, table.player
    await one_on_one(h, table, "uttas", name="Turn")
    await pass_turns_until(bot, h, table, "Willow")
    await work_done()
    assert "turn_pings.content" in await stored_anywhere(bot, str(player.id))
    document = await export_of(h, player)
    [ping] = document["turn_pings"]
    assert ping["text"].startswith(f"<@{player.id}> it is **Willow**'s turn"), ping

    prompt = await delete_prompt(h, player)
    await click(h, player, prompt, "Confirm")
    await h.wait_for(lambda: "no longer has a player" in h.last_message(h.channel).content)
    assert await stored_anywhere(bot, str(player.id)) == []
    await ok(await slash(h, gm, "endturn"))  # the fight goes on, the ping loses its buttons


LOWERED = {
    "uttas": ("health", "10", "Health 10/10"),
    "utopia": ("shp", "10", "SHP 10/10"),
    "untitled": ("health", "10", "Health 10/10"),
    "uune": ("vitality", "40", "Vitality 40/40"),
}


@pytest.mark.parametrize("system", sorted(LOWERED))
async def test_campaign_show_reads_a_record_as_the_changed_sheet_takes_it_in(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table, system: str
) -> None:
    """A fight leaves the player's character at full Health; then its sheet's maximum is
    lowered. ``/campaign show`` showed the record raw ("Health 16/10", Uune "Vitality
    100/100") while the next fight takes the character in at the new maximum (10/10):
    joining passes the record through the sheet, the record's words did not."""
    h, gm, player = discord_harness, table.moderator, table.player
    pc = await one_on_one(h, table, system, name="Before")
    await end_encounter(h, table)
    field, value, shown = LOWERED[system]
    await answered(await slash(h, player, "character edit", name=pc, field=field, value=value))
    record = await refused(await slash(h, player, "campaign show", character=pc))
    assert shown in record, record
    # The next fight takes the character in as shown.
    await ok(await slash(h, gm, "encounter start", name="After", ruleset=system))
    await ok(await slash(h, player, "encounter join", character=pc))
    live = await bot.services.encounters.live(h.channel.id)
    line = live.rules.record_lines(
        live.state.find(pc).sheet, live.rules.record_of(live.state.find(pc))
    )
    assert line[0] in record, (line, record)
