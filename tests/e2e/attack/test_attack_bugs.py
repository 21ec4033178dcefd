"""QA attack: bugs found by driving the real bot through the harness like hostile or careless
users. Every test here FAILS on the code it was written against; each documents one bug."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from bot.client import CombatBot
from bot.ui.replies import UNEXPECTED
from tests.e2e.combat_helpers import (
    answered,
    button,
    ok,
    pass_turns_until,
    refused,
    set_up_fight,
    slash,
    thug_attacks_willow,
    work_done,
)
from tests.e2e.conftest import Table
from tests.harness.models import InteractionRecord, Member, StoredMessage
from tests.harness.server import DiscordHarness


def _lagging(h: DiscordHarness, message: StoredMessage) -> StoredMessage:
    """A member whose Discord client still shows the message's first version (clients lag):
    put its original buttons back so a click carries them."""
    latest = h.message(message)
    latest.payload["components"] = message.versions[0].get("components", [])
    return latest


async def _click(
    h: DiscordHarness, member: Member, message: StoredMessage, custom_id: str
) -> InteractionRecord:
    record = await h.click(member, message, custom_id)
    await record.response()
    return record


async def _names(bot: CombatBot, h: DiscordHarness) -> list[str]:
    async with bot.db.read() as conn:
        rows = await conn.fetch_all("SELECT name FROM sheets ORDER BY id")
    return [r["name"] for r in rows]


# 1 -------------------------------------------------------------------------------------------


async def test_stale_delete_prompt_deletes_a_different_newer_sheet(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Sheet ids are SQLite rowids without AUTOINCREMENT, so a deleted sheet's id is handed to
    the next sheet; an old delete prompt (routed by id alone) then deletes that new sheet."""
    h, player = discord_harness, table.player
    await answered(await slash(h, player, "character import", example="willow"))
    assert "Delete **Willow**?" in await refused(
        await slash(h, player, "character delete", name="Willow")
    )
    first_prompt = h.interactions[-1].message
    # A second prompt for the same sheet, confirmed: Willow is gone.
    await slash(h, player, "character delete", name="Willow")
    second = h.interactions[-1]
    await second.response()
    done = await _click(h, player, second.message, button(second.message, "Confirm")["custom_id"])
    assert "Deleted **Willow**" in done.response_data["content"]
    # The player makes a different character; it gets Willow's old id.
    await answered(await slash(h, player, "character import", example="general-bearington"))
    # The first prompt, still on screen asking "Delete **Willow**?", is confirmed.
    stale = await _click(h, player, first_prompt, button(first_prompt, "Confirm")["custom_id"])
    assert await _names(bot, h) == ["General Bearington"], (
        f"the stale 'Delete Willow?' prompt answered {stale.response_data!r} and deleted the "
        "unrelated General Bearington"
    )


# 2 -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "options"),
    [
        ("stance", {"name": "   "}),
        ("attack", {"target": "Willow", "with_": "   "}),
        ("gm condition", {"combatant": "Willow", "action": "add", "name": "   "}),
        ("gm condition", {"combatant": "Willow", "action": "add", "name": "Prone", "limb": " "}),
    ],
    ids=["stance-name", "attack-with", "condition-name", "condition-limb"],
)
async def test_whitespace_only_option_is_an_unexpected_error(
    bot: CombatBot,
    discord_harness: DiscordHarness,
    table: Table,
    command: str,
    options: dict[str, Any],
) -> None:
    """A whitespace-only option passes Discord's min_length=1 but fails the engine command's
    pydantic model (strip_whitespace + min_length) — a ValidationError, not a DomainError."""
    h = discord_harness
    await set_up_fight(h, table)
    await pass_turns_until(bot, h, table, "Thug 1")
    text = await refused(await slash(h, table.moderator, command, **options))
    assert text != UNEXPECTED, f"/{command} {options} answered: {text}"


async def test_dodge_with_whitespace_maneuver_is_an_unexpected_error(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await set_up_fight(h, table)
    await thug_attacks_willow(bot, h, table)
    text = await refused(await slash(h, table.player, "dodge", maneuver="   "))
    assert text != UNEXPECTED, f"/dodge maneuver:'   ' answered: {text}"


# 3 -------------------------------------------------------------------------------------------


async def test_character_named_as_a_mention_pings_that_member(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """A player names a character `<@someone>`; every turn announcement (and reaction prompt)
    puts the name in message content sent with allowed_mentions users=True: someone is pinged."""
    h, victim = discord_harness, table.bystander
    mention = f"<@{victim.id}>"
    await ok(await slash(h, table.gm, "encounter start", name="Pings"))
    await answered(await slash(h, table.player, "character import", example="willow", name=mention))
    await ok(await slash(h, table.player, "encounter join", character=mention))
    await ok(await slash(h, table.gm, "gm add-npc", name="Dummy", health=5, stamina=5))
    await ok(await slash(h, table.gm, "encounter begin"))
    await ok(await slash(h, table.gm, "gm next"))
    pinging = []
    for request in h.requests_to("POST", r"/(interactions/.*/callback|channels/.*/messages)"):
        body = request.json or {}
        data = body.get("data", body) or {}
        parse = (data.get("allowed_mentions") or {}).get("parse", [])
        if (
            mention in (data.get("content") or "")
            and "users" in parse
            and not ((data.get("flags") or 0) & 64)
        ):
            pinging.append(data["content"])
    assert not pinging, f"public messages that ping {victim.user.username}: {pinging}"


# 4 -------------------------------------------------------------------------------------------


async def test_dead_attackers_pending_attack_still_resolves(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """The GM kills Thug 1 (`/gm hp health:0`) while its Cudgel attack waits for Willow's
    reaction. The attack stays pending and resolves later — a dead Thug rolls Accuracy and can
    hit. (`/gm remove` cancels an attack involving the removed combatant; death does not.)"""
    h = discord_harness
    await set_up_fight(h, table)
    prompt = await thug_attacks_willow(bot, h, table)
    reply = await ok(await slash(h, table.moderator, "gm hp", combatant="Thug 1", health="0"))
    assert "Dead" in reply.response_data["embeds"][0]["description"]
    assert "Thug 1's Cudgel is cancelled: Thug 1 is dead." in reply.message.text()
    live = await bot.services.encounters.live(h.channel.id)
    assert live.state.pending is None, (
        f"Thug 1 is dead but its attack waits: {live.state.pending!r}"
    )
    await h.wait_for(lambda: not h.message(prompt).custom_ids())  # the old buttons go


# 5 -------------------------------------------------------------------------------------------


async def test_cancelled_sheet_delete_prompt_still_deletes(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Cancel only edits the prompt; the Confirm button stays valid, so a lagging client's
    click on it after Cancel deletes the sheet the member just decided to keep."""
    h, player = discord_harness, table.player
    await answered(await slash(h, player, "character import", example="willow"))
    await slash(h, player, "character delete", name="Willow")
    prompt = h.interactions[-1]
    await prompt.response()
    confirm = button(prompt.message, "Confirm")["custom_id"]
    cancel = await _click(h, player, prompt.message, button(prompt.message, "Cancel")["custom_id"])
    assert "was not deleted" in cancel.response_data["content"]
    late = await _click(h, player, _lagging(h, prompt.message), confirm)
    assert await _names(bot, h) == ["Willow"], (
        f"after Cancel, the old Confirm answered {late.response_data!r}"
    )


async def test_cancelled_end_prompt_still_ends_the_encounter(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm = discord_harness, table.moderator
    await set_up_fight(h, table)
    await slash(h, gm, "encounter end")
    prompt = h.interactions[-1]
    await prompt.response()
    confirm = button(prompt.message, "Confirm")["custom_id"]
    cancel = await _click(h, gm, prompt.message, button(prompt.message, "Cancel")["custom_id"])
    assert "keeps running" in cancel.response_data["content"]
    late = await _click(h, gm, _lagging(h, prompt.message), confirm)
    assert late.ephemeral, f"after Cancel, the old Confirm answered {late.response_data!r}"
    await bot.services.encounters.live(h.channel.id)  # raises NotFound once ended


# 6 -------------------------------------------------------------------------------------------


async def test_cancel_after_another_gm_ended_says_it_keeps_running(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Two GMs open the end prompt; one confirms; the other's Cancel then claims the (archived)
    encounter keeps running."""
    h = discord_harness
    await ok(await slash(h, table.gm, "encounter start", name="Two GMs"))  # gm holds the seat
    await slash(h, table.gm, "encounter end")
    mine = h.interactions[-1]
    await mine.response()
    await slash(h, table.moderator, "encounter end")
    theirs = h.interactions[-1]
    await theirs.response()
    await _click(h, table.moderator, theirs.message, button(theirs.message, "Confirm")["custom_id"])
    cancel = await _click(h, table.gm, mine.message, button(mine.message, "Cancel")["custom_id"])
    text = cancel.response_data.get("content") or ""
    assert "keeps running" not in text, f"Cancel on an ended encounter answered: {text!r}"


# 7 -------------------------------------------------------------------------------------------


async def test_reaction_button_after_encounter_ended_says_there_is_no_encounter(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """The GM ends the encounter while an attack waits; the prompt kept its buttons and a
    click answered "There is no encounter in this channel. Start one…" instead of saying the
    attack is no longer pending. Now the prompt loses its buttons when the encounter ends, and
    a click from a client that still shows them is refused as no longer pending."""
    h = discord_harness
    await set_up_fight(h, table)
    prompt = await thug_attacks_willow(bot, h, table)
    old_components = copy.deepcopy(h.message(prompt).components)
    evade = button(prompt, "Evade")["custom_id"]
    await slash(h, table.moderator, "encounter end")
    end = h.interactions[-1]
    await end.response()
    await _click(h, table.moderator, end.message, button(end.message, "Confirm")["custom_id"])
    await h.wait_for(lambda: h.message(prompt).components == [])
    h.message(prompt).payload["components"] = old_components  # a client that missed the edit
    click = await _click(h, table.player, h.message(prompt), evade)
    text = click.response_data.get("content") or ""
    assert "no longer pending" in text, f"stale reaction button answered: {text!r}"


# 8 -------------------------------------------------------------------------------------------


async def test_ready_with_a_blank_action_is_accepted(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """`/ready action:"   "` spends an action and posts "Willow readies:    " — the plan is
    stripped to an empty string (Text has no min_length) instead of being refused."""
    h = discord_harness
    await set_up_fight(h, table)
    await pass_turns_until(bot, h, table, "Willow")
    record = await slash(h, table.player, "ready", trigger="action", watch="Thug 1", action="   ")
    await record.response()
    assert record.ephemeral, f"a blank readied action was accepted: {record.response_data!r}"


# 9 -------------------------------------------------------------------------------------------


async def test_failed_tracker_edit_reports_nothing_changed_after_a_committed_command(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """After `/gm next` committed and was answered, editing the tracker message fails (403
    Missing Access, e.g. the bot lost access to that message). The exception escapes
    `respond()` -> `refresh_tracker()` and the member gets "Something went wrong on our side
    ... Nothing was changed." although the turn did move on."""
    h = discord_harness
    await set_up_fight(h, table)
    before = (await bot.services.encounters.live(h.channel.id)).version
    await work_done()  # the set-up's own edits are done: the fault meets /gm next's
    h.fail_next(
        "PATCH", r"/channels/\d+/messages/\d+", status=403, code=50001, message="Missing Access"
    )
    record = await ok(await slash(h, table.moderator, "gm next"))
    await work_done()  # its tracker edit and whatever it tells the GM after it
    assert any(r.method == "PATCH" and r.status == 403 for r in h.requests)
    after = (await bot.services.encounters.live(h.channel.id)).version
    assert after == before + 1  # the turn did move on
    said = [f.content for f in record.followups]
    assert UNEXPECTED not in said, f"after a committed change the GM was told: {said}"
