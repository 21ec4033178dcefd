"""Act from the ping (issue 17): the message that says it is a combatant's turn carries buttons
for the common moves — End turn, the system's breather (UTTAS Take a Breather), Attack… (the
combatant's usual attack, then a target select) — that only its controller or the GM may use,
that are refused once that turn is over and come off the ping when it is over (however it
ended), and that still work after a restart."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.client import CombatBot
from bot.errors import Conflict
from bot.services.actor import Actor
from bot.services.turn_moves import take_move
from tests.clock import ManualClock
from tests.e2e.combat_helpers import (
    answered,
    button,
    current_name,
    end_encounter,
    ok,
    pass_turns_until,
    refused,
    set_up_fight,
    slash,
    winded,
)
from tests.e2e.conftest import Table, _running_bot
from tests.harness.models import InteractionRecord, Member, StoredMessage
from tests.harness.server import DiscordHarness


def actor_of(member: Member) -> Actor:
    return Actor(user_id=member.id)


def ping_for(h: DiscordHarness, name: str) -> StoredMessage:
    """The latest message announcing ``name``'s turn."""
    pings = [m for m in h.messages_in(h.channel) if f"it is **{name}**'s turn" in m.content]
    assert pings, [m.content for m in h.messages_in(h.channel)]
    return pings[-1]


async def press(
    h: DiscordHarness, member: Member, message: StoredMessage, label: str
) -> InteractionRecord:
    record = await h.click(member, message, button(h.message(message), label)["custom_id"])
    await record.response()
    return record


async def willows_turn(bot: CombatBot, h: DiscordHarness, table: Table) -> StoredMessage:
    await set_up_fight(h, table)
    await pass_turns_until(bot, h, table, "Willow")
    return ping_for(h, "Willow")


async def test_the_turn_ping_offers_end_turn_a_breather_and_the_usual_attack(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    ping = await willows_turn(bot, h, table)
    labels = [c.get("label") for c in ping.all_components() if c.get("type") == 2]
    assert labels == ["End turn", "Take a Breather", "Attack…"], labels
    live = await bot.services.encounters.live(h.channel.id)
    assert all(f":{live.state.turn_seq}:" in cid for cid in ping.custom_ids())

    # A bystander is refused by name; nothing changes.
    text = await refused(
        await h.click(table.bystander, ping, button(ping, "End turn")["custom_id"])
    )
    assert text == "Only **Willow**'s controller or the GM can use these buttons."
    assert await current_name(bot, h) == "Willow"

    # Willow's player ends the turn from the ping: a public result that pings the next turn.
    ended = await press(h, table.player, ping, "End turn")
    assert not ended.ephemeral and "Willow ends the turn" in ended.message.text()
    after = await current_name(bot, h)
    assert after != "Willow" and f"it is **{after}**'s turn" in ended.message.content
    assert button(ended.message, "End turn")  # the next turn's ping has its own

    # The clicked ping loses its buttons (its turn is over).
    await h.wait_for(lambda: h.message(ping).components == [])


async def test_a_ping_loses_its_buttons_however_its_turn_ends(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """A typed ``/endturn`` and ``/gm next`` take the buttons off the ping of the turn they
    ended; the new turn's ping keeps its own. A press that still reaches an old turn's button
    (a client showing it before the edit) is refused by name."""
    h, gm = discord_harness, table.moderator
    ping = await willows_turn(bot, h, table)
    old_seq = (await bot.services.encounters.live(h.channel.id)).state.turn_seq
    typed = await ok(await slash(h, table.player, "endturn"))
    await h.wait_for(lambda: h.message(ping).components == [])
    after = await current_name(bot, h)
    assert button(h.message(typed.message), "End turn")  # the next turn's own ping
    assert f"it is **{after}**'s turn" in typed.message.content

    nexted = await ok(await slash(h, gm, "gm next"))
    await h.wait_for(lambda: h.message(typed.message).components == [])
    now = await current_name(bot, h)
    assert now != after and button(h.message(nexted.message), "End turn")

    encounter = await bot.services.encounters.live(h.channel.id)
    with pytest.raises(Conflict, match=rf"That turn is over: it is now \*\*{now}\*\*'s turn"):
        await take_move(bot.services.combat, encounter.id, old_seq, actor_of(table.player), "end")

    # The fight's end takes the last ping's buttons off too.
    await end_encounter(h, table)
    await h.wait_for(lambda: h.message(nexted.message).components == [])


async def test_an_undone_turn_end_takes_the_buttons_off_the_undone_turns_ping(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """``/gm undo`` takes back Willow's typed ``/endturn``: the ping of the turn that started
    then is for a turn that no longer runs, so it loses its buttons too."""
    h = discord_harness
    ping = await willows_turn(bot, h, table)
    ended = await ok(await slash(h, table.player, "endturn"))
    assert button(h.message(ended.message), "End turn")
    # Willow's ping lost its buttons when her turn ended (refreshed after the change, so wait:
    # an undo before that refresh finds her turn running again, and its buttons valid again)
    await h.wait_for(lambda: h.message(ping).components == [])
    await ok(await slash(h, table.moderator, "gm undo"))
    assert await current_name(bot, h) == "Willow"
    await h.wait_for(lambda: h.message(ended.message).components == [])
    assert h.message(ping).components == []


async def test_a_passed_deadline_takes_the_buttons_off_a_ping_posted_before_a_restart(
    discord_patched: DiscordHarness, table: Table, tmp_path: Path
) -> None:
    h, clock = discord_patched, ManualClock()
    database = tmp_path / "bot.sqlite3"
    async for bot in _running_bot(h, database, None, clock=clock, expiry_interval=None):
        ping = await willows_turn(bot, h, table)
        await ok(await slash(h, table.moderator, "gm settings", turn_deadline="12h"))
    clock.advance(13 * 3600)
    async for bot in _running_bot(h, database, None, clock=clock, expiry_interval=None):
        [lapse] = await bot.fire_turn_deadlines()
        assert lapse.name == "Willow"
        await h.wait_for(lambda: h.message(ping).components == [])
        posted = [m for m in h.messages_in(h.channel) if "Turn deadline passed" in m.text()]
        assert posted and button(h.message(posted[-1]), "End turn")  # the next turn's


async def test_attack_from_the_ping_opens_a_target_select_and_attacks(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    ping = await willows_turn(bot, h, table)
    live = await bot.services.encounters.live(h.channel.id)
    willow = live.state.find("Willow")
    usual = live.rules.attack_names(willow)[0]

    opened = await press(h, table.player, ping, "Attack…")
    assert opened.ephemeral, opened.response_data
    question = opened.message
    assert question.content.startswith(f"**Willow** attacks with **{usual}**: whom?")
    [select] = [c for c in question.all_components() if c.get("type") == 3]
    values = {o["label"]: o["value"] for o in select["options"]}
    assert "Thug 1" in values and "Willow" not in values
    assert next(iter(values)).startswith("Thug")  # other sides first

    # Only Willow's controller (or the GM) may pick the target either.
    record = await h.select(table.bystander, question, select["custom_id"], [values["Thug 1"]])
    assert "Only **Willow**'s controller" in await refused(record)

    record = await h.select(table.player, question, select["custom_id"], [values["Thug 1"]])
    await record.response()
    assert not record.ephemeral, record.response_data
    shown = record.message.text()
    assert "Willow attacks Thug 1" in shown, shown
    log = await bot.services.encounters.log(live.id)
    assert log[-1].command == "attack"
    assert usual in [c.get("attack") for c in json.loads(log[-1].result)["commands"]]


async def test_a_breather_from_the_ping(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    ping = await willows_turn(bot, h, table)
    await winded(h, table, "Willow")  # a breather at full Stamina is refused
    rested = await press(h, table.player, ping, "Take a Breather")
    assert not rested.ephemeral, rested.response_data
    assert "Willow takes a breather" in rested.message.text()
    log = await bot.services.encounters.log((await bot.services.encounters.live(h.channel.id)).id)
    assert any(e.command == "breather" for e in log)


async def test_the_gm_may_use_a_players_ping_and_buttons_survive_a_restart(
    discord_patched: DiscordHarness, table: Table, tmp_path: Path
) -> None:
    h = discord_patched
    database = tmp_path / "bot.sqlite3"
    async for bot in _running_bot(h, database, None, expiry_interval=None):
        ping = await willows_turn(bot, h, table)
    async for bot in _running_bot(h, database, None, expiry_interval=None):
        ended = await press(h, table.moderator, ping, "End turn")
        await ok(ended)
        assert await current_name(bot, h) != "Willow"


async def vesnas_ping(bot: CombatBot, h: DiscordHarness, table: Table) -> StoredMessage:
    """A Utopia fight at the ford (Vesna, played by ``table.player``, against a bandit archer)
    run to Vesna's turn: its ping."""
    gm, player = table.moderator, table.player
    await ok(await slash(h, gm, "encounter start", name="Reed ford", ruleset="utopia"))
    await answered(await slash(h, player, "character import", example="vesna"))
    await ok(await slash(h, player, "encounter join", character="Vesna"))
    await answered(await slash(h, gm, "npc import", example="bandit-archer"))
    await ok(await slash(h, gm, "gm add-npc", template="Bandit archer"))
    await ok(await slash(h, gm, "encounter begin"))
    await pass_turns_until(bot, h, table, "Vesna")
    [ping] = [m for m in h.messages_in(h.channel) if m.custom_ids()][-1:]
    return ping


async def test_a_utopia_ping_offers_deep_breath(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """The breather is the system's: Utopia's Deep Breath ("1 TA: 1 Stamina"), through
    ``/act``'s path."""
    h, player = discord_harness, table.player
    ping = await vesnas_ping(bot, h, table)
    labels = [c.get("label") for c in ping.all_components() if c.get("type") == 2]
    assert labels == ["End turn", "Deep Breath", "Attack…"], labels
    breath = await press(h, player, ping, "Deep Breath")
    assert not breath.ephemeral, breath.response_data
    log = await bot.services.encounters.log((await bot.services.encounters.live(h.channel.id)).id)
    assert log[-1].command == "deep breath"  # its own word (undo said "breather": session 16)
    assert "deep_breath" in [c["kind"] for c in json.loads(log[-1].result)["commands"]]
    assert "Vesna spends 1 TA to take a deep breath." in breath.message.text()


async def test_whoever_stands_in_for_an_away_player_may_use_the_ping(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, player, delegate = discord_harness, table.player, table.other_player
    ping = await willows_turn(bot, h, table)
    text = await refused(await h.click(delegate, ping, button(ping, "End turn")["custom_id"]))
    assert text == "Only **Willow**'s controller or the GM can use these buttons."
    await ok(await slash(h, player, "away", delegate=delegate))
    ended = await press(h, delegate, ping, "End turn")
    assert not ended.ephemeral, ended.response_data
    assert f"<@{delegate.id}> (for <@{player.id}>, away)" in ended.message.text()
    assert await current_name(bot, h) != "Willow"
