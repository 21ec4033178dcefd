"""Act from the ping (issue 17): the message that says it is a combatant's turn carries buttons
for the common moves — End turn, the system's breather (UTTAS Take a Breather), Attack… (the
combatant's usual attack, then a target select) — that only its controller or the GM may use,
that are refused once that turn is over, and that still work after a restart."""

from __future__ import annotations

from pathlib import Path

from bot.client import CombatBot
from tests.e2e.combat_helpers import (
    answered,
    button,
    current_name,
    ok,
    pass_turns_until,
    refused,
    set_up_fight,
    slash,
)
from tests.e2e.conftest import Table, _running_bot
from tests.harness.models import InteractionRecord, Member, StoredMessage
from tests.harness.server import DiscordHarness


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

    # A ping whose turn ended another way (a typed /endturn) keeps its buttons, refused now.
    next_ping = ended.message
    await ok(await slash(h, table.moderator, "endturn"))
    now = await current_name(bot, h)
    assert now != after
    text = await refused(
        await h.click(table.player, next_ping, button(next_ping, "End turn")["custom_id"])
    )
    assert text == f"That turn is over: it is now **{now}**'s turn."


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
    assert log[-1].command == "attack" and f'"attack": "{usual}"' in log[-1].result


async def test_a_breather_from_the_ping(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    ping = await willows_turn(bot, h, table)
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


async def test_a_utopia_ping_offers_deep_breath(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """The breather is the system's: Utopia's Deep Breath ("1 TA: 1 Stamina"), through
    ``/act``'s path."""
    h, gm, player = discord_harness, table.moderator, table.player
    await ok(await slash(h, gm, "encounter start", name="Reed ford", ruleset="utopia"))
    await answered(await slash(h, player, "character import", example="vesna"))
    await ok(await slash(h, player, "encounter join", character="Vesna"))
    await answered(await slash(h, gm, "npc import", example="bandit-archer"))
    await ok(await slash(h, gm, "gm add-npc", template="Bandit archer"))
    await ok(await slash(h, gm, "encounter begin"))
    await pass_turns_until(bot, h, table, "Vesna")
    [ping] = [m for m in h.messages_in(h.channel) if m.custom_ids()][-1:]
    labels = [c.get("label") for c in ping.all_components() if c.get("type") == 2]
    assert labels == ["End turn", "Deep Breath", "Attack…"], labels
    breath = await press(h, player, ping, "Deep Breath")
    assert not breath.ephemeral, breath.response_data
    log = await bot.services.encounters.log((await bot.services.encounters.live(h.channel.id)).id)
    assert log[-1].command == "breather" and '"kind": "deep_breath"' in log[-1].result
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
