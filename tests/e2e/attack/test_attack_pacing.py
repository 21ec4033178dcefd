"""QA attack on the play-by-chat and Uune features (away, recap, turn-ping buttons, standing
reactions, member settings, Uune odds and approvals) through the real bot, as hostile or
careless users: each answer must be a specific refusal or a proper result — never the
unexpected-error reply, a missing answer or a message over Discord's limits."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta

import pytest

from bot.client import CombatBot
from bot.services.actor import Actor
from bot.store import member_settings as member_settings_repo
from bot.ui.replies import UNEXPECTED
from tests.clock import ManualClock
from tests.e2e.combat_helpers import (
    answered,
    button,
    current_name,
    end_encounter,
    pass_turns_until,
    refused,
    set_up_fight,
    slash,
)
from tests.e2e.conftest import DiceBox, Table
from tests.e2e.test_turn_deadlines import DEADLINE, twelve_hour_fight
from tests.e2e.uune_steps import Docks
from tests.harness.models import StoredMessage
from tests.harness.server import DiscordHarness


def ping_for(h: DiscordHarness, name: str) -> StoredMessage:
    pings = [m for m in h.messages_in(h.channel) if f"it is **{name}**'s turn" in m.content]
    assert pings
    return pings[-1]


@pytest.mark.parametrize(
    "moment",
    ["0001-01-01T00:00+01:00", "9999-12-31T23:59-01:00", "0001-01-01", "2026-12-04T10:00+99:00"],
)
async def test_recap_and_away_with_an_iso_moment_at_the_calendars_edge(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table, moment: str
) -> None:
    h = discord_harness
    await set_up_fight(h, table)
    for command, option in (("encounter recap", "since"), ("away", "until")):
        record = await slash(h, table.player, command, **{option: moment})
        await answered(record)
        text = str(record.response_data.get("content") or "")
        assert text != UNEXPECTED, f"/{command} {option}:{moment} answered: {text}"
    assert "not marked away" in await refused(await slash(h, table.player, "back"))


@pytest.mark.parametrize("resources", ["²", "999999", "-1", ",".join(["x"] * 100), "0"])
async def test_uune_odds_with_absurd_resources(
    scripted_bot: CombatBot,
    discord_harness: DiscordHarness,
    table: Table,
    dice: DiceBox,
    resources: str,
) -> None:
    h = discord_harness
    u = Docks(scripted_bot, h, table, dice)
    await u.cast()
    record = await slash(
        h,
        table.moderator,
        "odds",
        target="Mira Quell",
        with_="Cudgel",
        as_="Dock Thug 1",
        resources=resources,
    )
    text = await refused(record)
    assert text and text != UNEXPECTED, f"resources:{resources!r} answered: {text}"


async def test_a_date_written_as_the_options_help_shows_it(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """``/away``'s help says ``until when (2026-12-24, 2026-12-24 18:00 UTC)``; that form,
    typed as shown, was refused as "not a date"."""
    h = discord_harness
    await set_up_fight(h, table)
    now = clocked_bot.services.encounters.now()
    day = (now + timedelta(days=2)).strftime("%Y-%m-%d")
    said = await answered(await slash(h, table.player, "away", until=f"{day} 18:00 UTC"))
    assert not said.ephemeral, said.response_data
    text = said.response_data["content"]
    moment = datetime.fromisoformat(f"{day}T18:00+00:00")
    assert f"is away until <t:{int(moment.timestamp())}:f>" in text, text
    back = (now - timedelta(hours=1)).strftime("%Y-%m-%d %H:%M")
    recap = await answered(await slash(h, table.player, "encounter recap", since=f"{back} utc"))
    assert recap.response_data.get("content") != UNEXPECTED
    mixed = await refused(
        await slash(h, table.player, "encounter recap", since=f"{back}+02:00 UTC")
    )
    assert "is not a date" in mixed, mixed


async def test_the_gm_lists_many_long_standing_reactions(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm = discord_harness, table.moderator
    await set_up_fight(h, table, thugs=12)
    rule = (
        "dodge if they could pay for it versus melee, otherwise block if they could pay for it "
        "versus ranged, otherwise move if they could pay for it versus melee, otherwise evade "
        "if they could pay for it"
    )
    live = await bot.services.encounters.live(h.channel.id)
    for c in live.state.combatants:
        await refused(await slash(h, gm, "me reactions", combatant=c.name, rule=rule))
    text = await refused(await slash(h, gm, "me reactions"))
    assert text != UNEXPECTED and len(text) <= 2000, text
    assert "**Thug 1**: “dodge if they" in text and "more\nSet one with `/me reactions" in text


async def test_a_time_zone_in_any_case_is_stored_as_the_tz_database_spells_it(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    text = await refused(await slash(h, table.player, "me settings", timezone=" america/new_york"))
    assert "Your time zone: **America/New\\_York**" in text or "America/New_York" in text, text


async def test_two_presses_of_end_turn_at_once_end_one_turn(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await set_up_fight(h, table)
    await pass_turns_until(bot, h, table, "Willow")
    ping = ping_for(h, "Willow")
    live = await bot.services.encounters.live(h.channel.id)
    seq = live.state.turn_seq
    custom_id = button(ping, "End turn")["custom_id"]
    clicks = await asyncio.gather(
        h.click(table.player, ping, custom_id), h.click(table.moderator, ping, custom_id)
    )
    await asyncio.gather(*(c.response() for c in clicks))
    public = [c for c in clicks if not c.ephemeral]
    assert len(public) == 1, [c.response_data for c in clicks]
    [other] = [c for c in clicks if c.ephemeral]
    assert other.response_data.get("content") != UNEXPECTED, other.response_data
    live = await bot.services.encounters.live(h.channel.id)
    assert live.state.turn_seq == seq + 1
    assert await current_name(bot, h) == "General Bearington"


async def test_ping_buttons_after_the_encounter_ended(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await set_up_fight(h, table)
    await pass_turns_until(bot, h, table, "Willow")
    ping = ping_for(h, "Willow")
    ids = {label: button(ping, label)["custom_id"] for label in ("End turn", "Take a Breather")}
    ids["Attack…"] = button(ping, "Attack…")["custom_id"]
    await end_encounter(h, table)
    # The ended fight's ping loses its buttons (bot/ui/turn_pings.py), after the change; a press
    # that comes before that is refused by name, never half-applied.
    for label, custom_id in ids.items():
        if any(c.get("custom_id") == custom_id for c in h.message(ping).all_components()):
            text = await refused(await h.click(table.player, ping, custom_id))
            assert text and text != UNEXPECTED, f"{label}: {text}"
    await h.wait_for(lambda: not h.message(ping).all_components())


@pytest.mark.parametrize(
    ("command", "options"),
    [
        ("encounter recap", {}),
        ("encounter recap", {"since": "2d"}),
        ("encounter status", {"chart": True}),
        ("me reactions", {}),
        ("me reactions", {"rule": "evade"}),
        ("odds", {"target": "X", "with_": "Y", "resources": "2"}),
        ("gm time minutes", {"count": 2}),
        ("act", {"action": "propose", "detail": "climb"}),
        ("act", {"action": "help"}),
        ("act", {"action": "stabilise", "target": "X"}),
        ("gm settings", {"reminders": "50%"}),
        ("gm settings", {"turn_deadline": "12h"}),
    ],
)
async def test_new_commands_in_a_channel_without_an_encounter(
    bot: CombatBot,
    discord_harness: DiscordHarness,
    table: Table,
    command: str,
    options: dict[str, object],
) -> None:
    text = await refused(await slash(discord_harness, table.moderator, command, **options))
    assert text and text != UNEXPECTED, f"/{command} {options}: {text}"


@pytest.mark.parametrize(
    ("command", "options"),
    [
        ("gm settings", {"reminders": "50%"}),
        ("gm settings", {"turn_deadline": "12h"}),
        ("gm settings", {"deadline_action": "end_turn"}),
        ("gm settings", {"combatant": "Willow", "default_action": "dodge"}),
    ],
)
async def test_a_player_using_the_new_gm_settings(
    bot: CombatBot,
    discord_harness: DiscordHarness,
    table: Table,
    command: str,
    options: dict[str, object],
) -> None:
    h = discord_harness
    await set_up_fight(h, table)
    text = await refused(await slash(h, table.player, command, **options))
    assert text and text != UNEXPECTED, f"/{command} {options}: {text}"


@pytest.mark.parametrize(
    ("options"),
    [
        {"reminders": "999%"},
        {"reminders": "0%"},
        {"reminders": "50%,50%,50%,50%,50%,50%"},
        {"reminders": ",,,"},
        {"reminders": "1%,2%,3%,4%,5%,6%"},
        {"reminders": "99999999999999999999999999999999d"},
        {"turn_deadline": "999999d"},
        {"turn_deadline": "0m"},
        {"turn_deadline": "-5h"},
        {"combatant": "Nobody", "default_action": "dodge"},
        {"combatant": "Willow", "default_action": "x" * 60},
        {"default_action": "dodge"},
    ],
)
async def test_absurd_gm_pacing_settings(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table, options: dict[str, object]
) -> None:
    h = discord_harness
    await set_up_fight(h, table)
    record = await slash(h, table.moderator, "gm settings", **options)
    await answered(record)
    text = str(record.response_data.get("content") or "")
    assert text != UNEXPECTED, f"{options}: {text}"


@pytest.mark.parametrize(
    ("options", "why"),
    [
        ({"quiet_hours": "25:00-08:00"}, "00:00"),
        ({"quiet_hours": "22:00"}, "22:00-08:00"),
        ({"quiet_hours": " "}, "22:00-08:00"),
        ({"quiet_hours": "22:00-22:00"}, "different"),
        ({"timezone": "Mars/Olympus"}, "not a time zone"),
        ({"timezone": "Europe/"}, "not a time zone"),
        ({"timezone": "../../etc/passwd"}, "not a time zone"),
        ({"timezone": "zone.tab"}, "not a time zone"),
        ({"timezone": " "}, "not a time zone"),
        ({"timezone": "localtime"}, "not a time zone"),
        ({"timezone": "posixrules"}, "not a time zone"),
        ({"timezone": "Europe/Berlin", "quiet_hours": "nonsense"}, "22:00-08:00"),
    ],
)
async def test_malformed_member_settings_are_refused_and_nothing_is_stored(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table, options: dict[str, str], why: str
) -> None:
    h = discord_harness
    text = await refused(await slash(h, table.player, "me settings", **options))
    assert why in text, text
    shown = await refused(await slash(h, table.player, "me settings"))
    assert "UTC (not set)" in shown and "Quiet hours: **none**" in shown, shown


async def test_a_stored_time_zone_this_host_cannot_read_still_gets_reminders(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table, clock: ManualClock
) -> None:
    """A time zone stored where it loaded (``localtime`` on the old host, or a name a later
    tz database dropped) that this host cannot read: the reminder pass raised for that member
    on every pass, so they were never reminded; now the zone counts as unset (UTC)."""
    bot, h = clocked_bot, discord_harness
    await twelve_hour_fight(bot, h, table)
    await pass_turns_until(bot, h, table, "Willow")
    guild = h.channel.guild_id
    # Quiet hours well after the reminder (the clock starts at the real time: fixed hours such
    # as 03:00-04:00 held the reminder back when the test ran around 21:00 UTC).
    quiet = (clock().hour + 9) % 24
    row = member_settings_repo.MemberSettingsRow(
        guild, table.player.id, "Mars/Olympus", quiet * 60, (quiet + 1) % 24 * 60
    )
    async with bot.db.transaction() as conn:
        await member_settings_repo.put(conn, row, clock())
    clock.advance(DEADLINE * 0.5)
    [reminder] = await bot.send_reminders()
    assert reminder.member_id == table.player.id
    shown = await refused(await slash(h, table.player, "me settings"))
    hours = f"{quiet:02d}:00-{(quiet + 1) % 24:02d}:00"
    assert "UTC (not set)" in shown and f"Quiet hours: **{hours}**" in shown, shown


async def test_a_delegate_lists_and_sets_standing_reactions_for_whom_they_stand_in(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """A delegate acts and reacts for the away player's combatants, but ``/me reactions`` told
    them "You control no combatant in this fight" and its autocomplete offered none: it asked
    who controls a combatant, not who may act for it."""
    h, player, delegate = discord_harness, table.player, table.bystander
    await set_up_fight(h, table)
    await answered(await slash(h, player, "away", delegate=delegate))
    listed = await refused(await slash(h, delegate, "me reactions"))
    assert "**Willow**: none" in listed and "**General Bearington**: none" in listed, listed
    ask = await refused(await slash(h, delegate, "me reactions", rule="evade"))
    assert "Name the combatant" in ask and "**Willow**" in ask, ask
    done = await refused(await slash(h, delegate, "me reactions", combatant="Willow", rule="evade"))
    assert "Standing reaction for **Willow**" in done, done
    standing = clocked_bot.services.combat.standing
    own = await standing.own_names(h.channel.id, Actor(user_id=delegate.id))
    assert own == ["Willow", "General Bearington"], own
    await answered(await slash(h, player, "back"))
    gone = await refused(await slash(h, delegate, "me reactions"))
    assert "You control no combatant" in gone, gone
