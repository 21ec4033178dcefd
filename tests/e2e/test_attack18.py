"""Attack 18: this session's new behaviours driven as careless or hostile members would —
absurd amounts, undo and redo right after, a fight that ended and a new one. Each test is a
defect found so, and states what a member should see. Every die is scripted."""

from __future__ import annotations

from bot.client import CombatBot
from tests.e2e.combat_helpers import end_encounter, hound_pass, ok, refused, set_up_fight, slash
from tests.e2e.conftest import DiceBox, Table
from tests.e2e.uune_steps import Docks
from tests.harness.server import DiscordHarness


async def test_uune_wounds_past_the_trackers_count_are_refused_not_a_broken_record(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """`/gm vital vital:light wound amount:+99999` was quietly taken as +100, and one more
    wound after it was accepted too: Mira held 101 light wounds, more than a campaign record
    counts (at most 100 of a kind), so when the fight ended her record could no longer be
    read and she could not join the next fight ("campaign record cannot be read"). A count
    beyond the record's is now refused, naming the limit, and nothing is dealt."""
    h = discord_harness
    u = Docks(scripted_bot, h, table, dice)
    gm, mira = table.moderator, table.player
    await u.cast(wren=False, witch=False)
    too_many = await refused(
        await slash(h, gm, "gm vital", combatant="Mira Quell", vital="light wound", amount="+99999")
    )
    assert "at most 100" in too_many, too_many
    await u.run(gm, "gm vital", combatant="Mira Quell", vital="light wound", amount="+100")
    one_more = await refused(
        await slash(h, gm, "gm vital", combatant="Mira Quell", vital="light wound", amount="+1")
    )
    assert "Mira Quell has 100 light wounds" in one_more, one_more
    assert "at most 100" in one_more, one_more
    await end_encounter(h, table)
    await u.run(gm, "encounter start", name="Dock ten", ruleset="uune")
    joined = await u.run(mira, "encounter join", character="Mira Quell")
    assert "Wounds 0/0/100" in joined.message.text(), joined.message.text()


async def test_a_condition_for_the_campaign_is_shown_by_the_record_and_the_join(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """`/gm condition lasts:for the campaign` keeps the condition past the fight (the
    campaign record keeps it, and Mira is Impaired in the next fight), but `/campaign show`
    said only "Vitality 100/100 · Wounds 0/0/0 · Stress 0/0/0 · Focus 0" and her joining
    the next fight said nothing: no one could see the condition she carries until a roll
    suffered it. The record and the join now name it, with how long it lasts."""
    h = discord_harness
    u = Docks(scripted_bot, h, table, dice)
    gm, mira = table.moderator, table.player
    await u.cast(wren=False, witch=False)
    await u.run(
        gm, "gm condition", combatant="Mira Quell", action="add", name="Impaired", lasts="campaign"
    )
    await end_encounter(h, table)
    shown = await h.slash(mira, h.channel, "campaign show", {"character": "Mira Quell"})
    await shown.response()
    text = shown.response_data["content"]
    assert "Effects: Impaired (for the campaign)" in text, text
    await u.run(gm, "encounter start", name="Dock ten", ruleset="uune")
    joined = (await u.run(mira, "encounter join", character="Mira Quell")).message.text()
    assert "as their last fight left them (Effects: Impaired (for the campaign))" in joined, joined


async def test_a_fight_over_as_it_begins_pings_no_turn(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """The GM set the only Dock Thug's vitality to 0 before the conflict, then began it: the
    fight was over at once ("Winner: the party side"), yet the reply pinged Mira — "it is
    **Mira Quell**'s turn (round 1): take one action with `/act`" — for a turn that no longer
    runs (her `/act` was then refused). A result that ends the fight pings no turn."""
    h = discord_harness
    u = Docks(scripted_bot, h, table, dice)
    gm = table.moderator
    await u.cast(wren=False, witch=False)
    await u.run(gm, "gm vital", combatant="Dock Thug 1", vital="vitality", amount="0")
    began = await u.run(gm, "encounter begin")
    text = began.message.text()
    assert "The fight is over: only one side is left standing." in text, text
    assert "it is **Mira Quell**'s turn" not in text, text
    assert f"<@{table.player.user.id}>" not in began.response_data["content"], began.response_data
    allowed = (began.response_data.get("allowed_mentions") or {}).get("users") or []
    assert str(table.player.user.id) not in [str(u) for u in allowed], began.response_data


async def test_uttas_a_fight_over_as_it_begins_pings_no_turn(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Guard for the class (every system's turn ping reads one rule, ``turn_announcement``):
    in UTTAS too, a fight begun with its only Thug at 0 Health is over at once, and nobody
    is pinged for a turn."""
    h, gm = discord_harness, table.moderator
    await set_up_fight(h, table, thugs=1, begin=False)
    await ok(await slash(h, gm, "gm hp", combatant="Thug 1", health="0"))
    began = await ok(await slash(h, gm, "encounter begin"))
    text = began.message.text()
    assert "over" in text.lower(), text
    assert "'s turn (round 1)" not in began.response_data["content"], began.response_data


async def test_joining_a_running_uune_conflict_is_not_said_as_an_initiative_place(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """Uune rolls no initiative ("Conflict": each PC gets a turn, the players choosing who
    goes next, then the NPCs), and the bot says so to a GM who sets one. Yet Wren joining the
    running conflict was told "Wren takes place 3 in the initiative order", and a River Witch
    added by the GM "takes place 4 in the initiative order". The join says where a newcomer
    stands in the system's own order."""
    h = discord_harness
    u = Docks(scripted_bot, h, table, dice)
    gm = table.moderator
    await u.cast(wren=False, witch=False)
    await u.run(gm, "encounter begin")
    await u.reply(table.bystander, "character import", example="mira", name="Wren")
    joined = await u.reply(table.bystander, "encounter join", character="Wren")
    text = joined.response_data["content"]
    assert "initiative" not in text, text
    assert "Wren joins the player characters, who act first and choose who goes next" in text
    added = (await u.reply(gm, "gm add-npc", template="River Witch")).response_data["content"]
    assert "River Witch 1 takes place 5: after the player characters, with the NPCs." in added, (
        added
    )


async def test_uune_focus_never_passes_what_a_combatant_can_hold(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """A server's tables gave each level of Stimulated 20 focus (`focus.stimulated`, which
    the tables allow up to 20), and the GM made Mira Stimulated for the campaign 5 times: her
    Center gave her "her maximum focus" of 102 — more than a combatant or a campaign record
    holds (at most 100). The fight's stored state could no longer be read back (after a
    restart), nor her record when the fight ended: she could not join the next fight. A
    maximum past 100 is 100."""
    h = discord_harness
    u = Docks(scripted_bot, h, table, dice)
    gm, mira = table.moderator, table.player
    await (
        await slash(h, gm, "tables set", entry="focus.stimulated", value="20", ruleset="uune")
    ).response()
    await u.cast(wren=False, witch=False)
    for _ in range(5):
        await u.run(
            gm,
            "gm condition",
            combatant="Mira Quell",
            action="add",
            name="Stimulated",
            lasts="campaign",
        )
    await u.run(gm, "encounter begin")
    centered = (await u.run(mira, "act", action="center")).message.text()
    assert "Mira Quell centers and gains their maximum focus (100)." in centered, centered
    ended = await end_encounter(h, table)
    assert not ended.ephemeral, ended.response_data
    await u.run(gm, "encounter start", name="Dock ten", ruleset="uune")
    joined = (await u.run(mira, "encounter join", character="Mira Quell")).message.text()
    assert "Focus 100" in joined, joined


async def test_utopia_dhp_lowered_past_what_a_record_holds_stops_at_the_limit(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """`/gm vital combatant:Vesna vital:dhp amount:-99999`, twice: DHP may go negative in
    Utopia, and the bot took her to −199,984 — past the −100,000 a combatant and a campaign
    record hold. `/encounter end` then failed ("Something went wrong on our side"), building
    her record, and the fight could not be ended. DHP stops at −100,000."""
    h, gm = discord_harness, table.moderator
    await hound_pass(h, table, begin=False)
    for _ in range(2):
        await ok(await slash(h, gm, "gm vital", combatant="Vesna", vital="dhp", amount="-99999"))
    live = await bot.services.encounters.live(h.channel.id)
    assert next(c for c in live.state.combatants if c.name == "Vesna").dhp == -100_000
    ended = await end_encounter(h, table)
    assert not ended.ephemeral, ended.response_data
    await ok(await slash(h, gm, "encounter start", name="Pass again", ruleset="utopia"))
    joined = await ok(await slash(h, table.player, "encounter join", character="Vesna"))
    assert "DHP -100000/" in joined.message.text(), joined.message.text()


async def test_a_uune_approval_pings_the_gm_who_decides_it_not_the_player(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """Mira's Observe waits for the GM to approve her Lockpicks: every button is the GM's
    ("GM: approve Lockpicks"; a player pressing one is refused, "Only the GM can choose"),
    yet the prompt mentioned Mira's player — "<@player> GM: (difficulty 1: Very Easy)
    approve or refuse…" — and not the GM, and her /recap listed it as hers to answer. A
    decider whose choices are all the GM's asks the GM."""
    h = discord_harness
    u = Docks(scripted_bot, h, table, dice)
    gm, mira = table.moderator, table.player
    await u.cast(wren=False, witch=False)
    asked = await u.run(mira, "act", action="observe", detail="the crates: Lockpicks", amount=1)
    content = asked.response_data["content"]
    assert "approve or refuse Mira Quell's resources" in content, content
    assert content.startswith(f"<@{gm.user.id}> GM:"), content
    assert f"<@{mira.user.id}>" not in content, content
    mentioned = asked.response_data["allowed_mentions"]["users"]
    assert [str(gm.user.id)] == [str(u) for u in mentioned], mentioned
