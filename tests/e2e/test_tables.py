"""A server's GM changes the numbers the rules text leaves open (here: what a Block adds);
encounters started afterwards use them, a running fight keeps its own, players cannot."""

from __future__ import annotations

import pytest

from bot.client import CombatBot
from bot.engine.core import tables
from bot.engine.utopia.tables import Hold as UtopiaHold
from tests.e2e.combat_helpers import (
    button,
    ok,
    pass_turns_until,
    refused,
    set_up_cast,
    slash,
)
from tests.e2e.conftest import Table
from tests.harness.server import DiscordHarness


async def test_server_table_changes(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm = discord_harness, table.moderator
    shown = await slash(h, table.player, "tables show", entry="reactions.block.dodge_bonus")
    await shown.response()
    assert shown.ephemeral and "```json\n3\n```" in shown.response_data["content"]

    await ok(await slash(h, gm, "encounter start", name="Before"))
    text = await refused(
        await slash(h, table.player, "tables set", entry="reactions.block.dodge_bonus", value="9")
    )
    assert "Only a GM of this server" in text
    text = await refused(
        await slash(h, gm, "tables set", entry="reactions.block.dodge_bonus", value="lots")
    )
    assert "reactions.block.dodge_bonus" in text and "should be a whole number" in text
    text = await refused(
        await slash(h, gm, "tables set", entry="reactions.blok.dodge_bonus", value="3")
    )
    assert "blok" in text
    assert (await bot.services.tables.overrides(h.guild.id)) == {}

    done = await slash(h, gm, "tables set", entry="reactions.block.dodge_bonus", value="4")
    await done.response()
    assert done.ephemeral and "is now" in done.response_data["content"]

    running = await bot.services.encounters.live(h.channel.id)
    assert running.rules.tables.reactions["block"].dodge_bonus == 3  # type: ignore[attr-defined]
    prompt = await slash(h, gm, "encounter end")
    await prompt.response()
    confirm = await h.click(gm, prompt.message, button(prompt.message, "Confirm")["custom_id"])
    await confirm.response()
    await ok(await slash(h, gm, "encounter start", name="After"))
    fresh = await bot.services.encounters.live(h.channel.id)
    assert fresh.rules.tables.reactions["block"].dodge_bonus == 4  # type: ignore[attr-defined]

    await (
        await slash(h, gm, "tables set", entry="reactions.block.dodge_bonus", value="-")
    ).response()
    assert (await bot.services.tables.overrides(h.guild.id)) == {}


async def test_a_gm_chooses_the_speed_reading_for_new_fights(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """UTTAS "Actions and Speed" (issue 11): rules version 2 refills the Speed pool at the
    start of the own turn; a server's GM may choose version 1's reading (refill at the end of
    the own turn) with ``speed_refill``, for encounters started afterwards."""
    h, gm = discord_harness, table.moderator
    await ok(await slash(h, gm, "encounter start", name="Before"))
    running = await bot.services.encounters.live(h.channel.id)
    assert running.rules.economy.refill == "turn_start"  # type: ignore[attr-defined]
    text = await refused(await slash(h, gm, "tables set", entry="speed_refill", value="sometimes"))
    assert "speed_refill" in text
    done = await slash(h, gm, "tables set", entry="speed_refill", value="turn_end")
    await done.response()
    assert done.ephemeral and "is now" in done.response_data["content"]
    running = await bot.services.encounters.live(h.channel.id)
    assert running.rules.economy.refill == "turn_start"  # type: ignore[attr-defined]
    prompt = await slash(h, gm, "encounter end")
    await prompt.response()
    confirm = await h.click(gm, prompt.message, button(prompt.message, "Confirm")["custom_id"])
    await confirm.response()
    await ok(await slash(h, gm, "encounter start", name="After"))
    fresh = await bot.services.encounters.live(h.channel.id)
    assert fresh.rules.economy.refill == "turn_end"  # type: ignore[attr-defined]


async def test_an_entry_no_rule_reads_yet_is_refused_not_stored(
    bot: CombatBot,
    discord_harness: DiscordHarness,
    table: Table,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An entry the tables keep but no rule reads yet is marked planned
    (:func:`bot.engine.core.tables.planned`): a GM who sets it is told so and nothing is
    stored, instead of a change that does nothing; an entry that is read is still set, and
    set's suggestions leave the refused ones out. (Every shipped entry is read now; the mark is
    put on one here.)"""
    h, gm = discord_harness, table.moderator
    field = UtopiaHold.model_fields["turn_actions"]
    monkeypatch.setattr(field, "json_schema_extra", tables.planned("the text's 2 TA are used"))
    text = await refused(
        await slash(h, gm, "tables set", ruleset="utopia", entry="hold.turn_actions", value="3")
    )
    assert "`hold.turn_actions` is not read by the bot yet (planned): the text's 2 TA" in text
    assert "Nothing was changed" in text
    assert (await bot.services.tables.overrides(h.guild.id)) == {}
    shown = await slash(h, gm, "tables show", ruleset="utopia", entry="hold.turn_actions")
    await shown.response()
    assert "```json\n2\n```" in shown.response_data["content"]

    done = await slash(
        h, gm, "tables set", ruleset="utopia", entry="hold.interrupt_actions", value="1"
    )
    await done.response()
    assert "is now" in done.response_data["content"]
    assert (await bot.services.tables.overrides(h.guild.id)) == {
        "utopia": {"hold": {"interrupt_actions": 1}}
    }

    def values(choices: list[dict[str, object]]) -> set[object]:
        return {c["value"] for c in choices}

    offered = values(
        await h.autocomplete(
            gm, h.channel, "tables set", focused="entry", value="hold", ruleset="utopia"
        )
    )
    assert "hold.interrupt_actions" in offered and "hold.turn_actions" not in offered
    listed = values(
        await h.autocomplete(
            gm, h.channel, "tables show", focused="entry", value="hold", ruleset="utopia"
        )
    )
    assert {"hold.interrupt_actions", "hold.turn_actions"} <= listed


async def test_utopias_exchange_rates_and_held_action_cost_are_a_servers_to_set(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Utopia's "Interchanging Actions" and "Hold Action" numbers were refused as planned: a
    server's GM now sets them and a new Utopia fight plays by them (1 IA for 2 TA on the own
    turn, each held IA for 3 TA)."""
    h, gm, player = discord_harness, table.moderator, table.player
    for entry, value in (
        ("actions.turn_per_interrupt_action", "2"),
        ("actions.interrupt_per_turn_action", "3"),
        ("hold.turn_actions", "3"),
    ):
        done = await slash(h, gm, "tables set", ruleset="utopia", entry=entry, value=value)
        await done.response()
        assert "is now" in done.response_data["content"], done.response_data
    await set_up_cast(
        h,
        table,
        "utopia",
        name="House rules",
        pcs={"Vesna": "vesna"},
        npc=("stone-hound", "Stone hound"),
    )
    await pass_turns_until(bot, h, table, "Vesna")
    text = (await ok(await slash(h, player, "act", action="exchange"))).message.text()
    assert "Vesna turns 2 TA into 1 IA." in text, text
    await ok(await slash(h, player, "act", action="hold"))
    live = await bot.services.encounters.live(h.channel.id)
    vesna = live.state.find("Vesna")
    assert vesna.pools["turn"] == vesna.sheet.turn_actions_max(live.rules.tables) - 2 - 3


async def test_without_ruleset_the_tables_are_the_channels_fights_system(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """A GM in a Utopia fight's channel typed `/tables set entry:hold.interrupt_actions` and
    was refused: without `ruleset:` the tables were always UTTAS's, and the entries suggested
    were UTTAS's too. Left out, `ruleset:` is now the channel's live fight's system (UTTAS where
    no fight runs); the reply names the system it changed."""
    h, gm = discord_harness, table.moderator
    outside = await h.autocomplete(gm, h.channel, "tables show", focused="entry", value="hold")
    assert not [c for c in outside if str(c["value"]).startswith("hold.")]  # UTTAS has none

    await ok(await slash(h, gm, "encounter start", name="Pass", ruleset="utopia"))
    suggested = await h.autocomplete(gm, h.channel, "tables set", focused="entry", value="hold")
    assert "hold.interrupt_actions" in {c["value"] for c in suggested}
    done = await slash(h, gm, "tables set", entry="hold.interrupt_actions", value="1")
    await done.response()
    assert done.response_data["content"].startswith("Utopia: `hold.interrupt_actions` is now")
    assert (await bot.services.tables.overrides(h.guild.id)) == {
        "utopia": {"hold": {"interrupt_actions": 1}}
    }
    shown = await slash(h, gm, "tables show", entry="hold.interrupt_actions")
    await shown.response()
    assert "this server's Utopia tables" in shown.response_data["content"]
    # `ruleset:` still chooses: UTTAS's Block from the Utopia channel
    shown = await slash(h, gm, "tables show", entry="reactions.block.dodge_bonus", ruleset="uttas")
    await shown.response()
    assert "UTTAS tables" in shown.response_data["content"]
    reset = await slash(h, gm, "tables reset")
    await reset.response()
    assert "default Utopia tables again" in reset.response_data["content"]
    assert (await bot.services.tables.overrides(h.guild.id)) == {}
