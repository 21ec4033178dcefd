"""QA attack (round 24): a fight saved by a newer bot, met by an older one — a rollback of the
bot after an upgrade. The encounter's rules were frozen at a version this bot does not know, and
either its stored state holds a field this bot's models do not (``unparsed``) or the stored state
parses but is behind its row, so reading it means replaying the newer bot's log with rules this
bot does not have (``behind``; the usual case: the row keeps a full state every 50 versions),
or the stored state parses and is current (``current``: after an undo or redo, a snapshot), so
the fight is shown through this version's rules — and `/odds` and `/rehearse` worked it out by
them (a rehearsal of 1,000 fights by rules that are not the fight's, odds that may not be its
odds): they now refuse, saying why.

Every command and every button must answer (never the unexpected-error reply), change nothing
and post nothing publicly — and the encounter must be endable: before, `/encounter end` and
`/server end` were refused ("Run that version, or end the encounter." — which it could not), so
the channel stayed blocked (no new encounter could start there, and the GM's live encounters
counted it) until the newer bot came back. Now they end it without reading its fight: the row
and its stored state are archived as the newer bot left them, the log's `end` row replays as
no change (the newer bot, run again, reads the archived fight as it was), and the prompt, the
answer and the channel say that there is no summary and that the characters' campaign records
and the campaign clock were not moved on (both need the fight read)."""

from __future__ import annotations

import json
import logging
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.services.encounters import EncounterService
from bot.store.db import Database
from bot.ui.replies import UNEXPECTED
from tests.clock import ManualClock
from tests.e2e.combat_helpers import (
    ONE_ON_ONE,
    answered,
    game_state,
    ok,
    set_up_cast,
    slash,
    thug_attacks_willow,
    work_done,
)
from tests.e2e.conftest import Table, _running_bot
from tests.e2e.registered import filled, slash_commands
from tests.e2e.test_turn_ping_recovery import restarted
from tests.harness.models import InteractionRecord
from tests.harness.server import DiscordHarness

ENDING = {"encounter end", "server end"}
"""They ask for a confirmation, pressed below (`test_a_newer_bots_fight_is_ended_unread`)."""
NOT_THE_FIGHTS = {
    "me delete",  # a member's erasure, tested with newer bots' fights in tests/services
    "server member-delete",
    "character create",  # these two open a modal (a public-looking answer, nothing posted)
    "npc create",
    "away",  # a member's away mark is the server's, said in public by design
    "back",
}

BY_THE_RULES = {"odds", "rehearse"}
"""Read-only commands that work the fight out by its rules: with rules a newer bot froze they
must refuse, not stand this version's in (``Encounter.rules`` does, so that the fight can
still be shown and ended)."""


def rows(path: Path) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """The encounters and their log, as stored."""
    with sqlite3.connect(path) as raw:
        return (
            raw.execute("SELECT * FROM encounters ORDER BY id").fetchall(),
            raw.execute("SELECT * FROM encounter_log ORDER BY encounter_id, version").fetchall(),
        )


def as_a_newer_bot_saved_it(path: Path, shape: str) -> tuple[str, str]:
    """The live encounter as a newer bot leaves it: its rules frozen at a version this bot does
    not know; ``unparsed``: its state holds a field this bot's models do not. Returns its rules
    and state texts as they were (as the newer bot reads them)."""
    with sqlite3.connect(path) as raw:
        encounter_id, rules, state, state_version = raw.execute(
            "SELECT id, rules, state, state_version FROM encounters WHERE status = 'live'"
        ).fetchone()
        # "current": the row keeps the state at its version (after a redo, a snapshot),
        # read without replaying; else it is behind, and reading it replays the log.
        assert (state_version is None) == (shape == "current"), state_version
        was = (rules, state)
        rules = json.loads(rules)
        rules["version"] += 1
        state = json.loads(state)
        if shape == "unparsed":
            state["chase_gap_history"] = [3, 2]
        raw.execute(
            "UPDATE encounters SET rules = ?, state = ? WHERE id = ?",
            (json.dumps(rules), json.dumps(state), encounter_id),
        )
    return was


def text_of(record: InteractionRecord) -> str:
    data = (
        record.followups[0].payload
        if record.deferred and record.followups
        else record.response_data
    )
    return str((data or {}).get("content") or "")


async def newer_fight(
    h: DiscordHarness, table: Table, path: Path, system: str, shape: str
) -> tuple[str, tuple[str, str]]:
    """A running fight of ``system`` (in UTTAS with an attack waiting on Willow's reaction),
    played by this bot, then saved as a newer bot leaves it. Returns its state as played, and
    its stored rules and state texts before (:func:`as_a_newer_bot_saved_it`)."""
    async for bot in _running_bot(h, path, None):
        pc, example, npc = ONE_ON_ONE[system]
        await set_up_cast(h, table, system, name="Newer", pcs={pc: example}, npc=npc)
        if system == "uttas":
            await thug_attacks_willow(bot, h, table)
        else:
            await ok(await slash(h, table.moderator, "gm next"))
        if shape == "current":
            await ok(await slash(h, table.moderator, "gm undo"))
            await ok(await slash(h, table.moderator, "gm redo"))
        await work_done()
        played = (await bot.services.encounters.live(h.channel.id)).state_json
    return played, as_a_newer_bot_saved_it(path, shape)


@pytest.mark.async_timeout(300)
@pytest.mark.timeout(300)
@pytest.mark.parametrize("shape", ["unparsed", "behind", "current"])
@pytest.mark.parametrize("system", list(ONE_ON_ONE))
async def test_every_command_and_button_refuses_a_newer_bots_fight_cleanly(
    discord_patched: DiscordHarness, table: Table, tmp_path: Path, system: str, shape: str
) -> None:
    h, path = discord_patched, tmp_path / "bot.sqlite3"
    await newer_fight(h, table, path, system, shape)
    before = rows(path)
    buttons = [
        (message, component["custom_id"])
        for message in h.messages_in(h.channel)
        for row in message.components
        for component in row.get("components", [])
        if component.get("custom_id")
    ]
    assert buttons
    posted = len(h.messages_in(h.channel))
    failures: list[str] = []
    async for _bot in restarted(h, path):
        for name, options in slash_commands(h):
            if name in ENDING | NOT_THE_FIGHTS:
                continue
            for member in (table.moderator, table.player):
                record = await answered(
                    await h.slash(member, h.channel, name, filled(h, table, options))
                )
                text = text_of(record)
                if UNEXPECTED in text or not record.ephemeral:
                    failures.append(f"/{name} ({member.name}): {text[:120]!r}")
                elif name in BY_THE_RULES and member is table.moderator and "newer" not in text:
                    failures.append(f"/{name} (the GM) did not refuse: {text[:120]!r}")
        for message, custom_id in buttons:
            for member in (table.moderator, table.player):
                click = await h.click(member, message, custom_id)
                await click.response()
                text = text_of(click)
                if UNEXPECTED in text or not click.ephemeral:
                    failures.append(f"button {custom_id} ({member.name}): {text[:120]!r}")
                elif "newer version of the bot" not in text and "newer bot" not in text:
                    failures.append(f"button {custom_id} ({member.name}) says {text[:120]!r}")
        await work_done()
    assert not failures, "\n".join(failures)
    assert rows(path) == before  # nothing half-applied
    assert len(h.messages_in(h.channel)) == posted  # nothing posted


@pytest.mark.parametrize(
    ("shape", "how"), [("unparsed", "encounter end"), ("behind", "server end")]
)
async def test_a_newer_bots_fight_is_ended_unread(
    discord_patched: DiscordHarness, table: Table, tmp_path: Path, shape: str, how: str
) -> None:
    h, path = discord_patched, tmp_path / "bot.sqlite3"
    played, (rules_before, state_before) = await newer_fight(h, table, path, "uttas", shape)
    (stored_before,), log_before = rows(path)
    async for bot in restarted(h, path):
        gm = table.moderator
        # A command of the fight says what to do, and what ending here does.
        said = text_of(await answered(await slash(h, gm, "endturn")))
        assert "`/encounter end` ends it here unread (no summary)" in said, said
        # The player may not end it.
        options = {"channel": h.channel} if how == "server end" else {}
        refused = await answered(await h.slash(table.player, h.channel, how, options))
        assert refused.ephemeral and "Only" in text_of(refused), text_of(refused)
        # A prompt to end it can be cancelled (its Cancel read the fight, and was refused).
        cancelled = await answered(await h.slash(gm, h.channel, how, options))
        no = cancelled.message.component(label="Cancel")["custom_id"]
        click = await h.click(gm, cancelled.message, no)
        await click.response()
        assert not click.ephemeral and "keeps running" in str(click.response_data), click
        prompt = await answered(await h.slash(gm, h.channel, how, options))
        asked = text_of(prompt)
        assert prompt.ephemeral and asked.startswith("End **Newer**"), asked
        assert "This version of the bot cannot read its fight" in asked, asked
        assert "campaign records and the campaign clock are not moved on" in asked, asked
        confirm = prompt.message.component(label="Confirm: end it")["custom_id"]
        click = await h.click(gm, prompt.message, confirm)
        await click.response()
        await work_done()
        shown = h.messages_in(h.channel)[-1].content
        assert shown.startswith("**Newer** has ended (<@"), shown
        assert "could not read the fight" in shown and "no summary" in shown, shown
        if how == "server end":
            answer = h.message(prompt.message).content
            assert "has ended, unread" in answer and "Its channel is told." in answer, answer
        # The reaction's prompt loses its buttons on the keeper's next pass, saying why.
        [prompt_of_reaction] = [m for m in h.messages_in(h.channel) if "reacts" in m.content]
        await bot.prompts.retry()
        await h.wait_for(lambda: h.message(prompt_of_reaction).components == [])  # noqa: B023
        said = h.message(prompt_of_reaction).content
        assert "The encounter ended before this was decided." in said, said
        # The channel is free again.
        await ok(await slash(h, gm, "encounter start", name="Next"))
        assert (await bot.services.encounters.live(h.channel.id)).row.name == "Next"
    # Archived as the newer bot left it: its state and rules as they were, one `end` row more.
    (stored, _), log = rows(path)
    columns = [d[1] for d in sqlite3.connect(path).execute("PRAGMA table_info(encounters)")]
    after, was = (
        dict(zip(columns, stored, strict=True)),
        dict(zip(columns, stored_before, strict=True)),
    )
    assert after["status"] == "archived" and after["version"] == was["version"] + 1
    for same in ("state", "rules", "state_version", "channel_id", "gm_id"):
        assert after[same] == was[same], same
    assert log[: len(log_before)] == log_before
    end = log[len(log_before)]
    assert end[:4] == (after["id"], after["version"], end[2], "end")
    # The newer bot, run again (its rules and models known), reads the archived fight as it
    # left it: the `end` row replays as no change.
    with sqlite3.connect(path) as raw:
        raw.execute(
            "UPDATE encounters SET rules = ?, state = ? WHERE id = ?",
            (rules_before, state_before, after["id"]),
        )
    database = await Database.open(path)
    try:
        ended = await EncounterService(database).get(after["id"])
    finally:
        await database.close()
    assert game_state(ended.state_json) == game_state(played)


async def test_the_background_passes_leave_a_newer_bots_fight_alone_quietly(
    discord_patched: DiscordHarness, table: Table, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The newer bot's fight waits on Willow's reaction; its window, its turn deadline and
    their reminders pass under the older bot. The expiry pass let its claim go each time the
    expiry was refused, so every pass (each second) tried again and logged "settled meanwhile
    (a click, another pass or process)" — untrue; the waiting prompt's re-render failed with a
    traceback logged on every pass, the channel kept as stale to try again. Now each is tried,
    refused and logged once, as what it is, without a traceback: nothing this bot can do with
    the fight changes until it is ended (or the newer bot runs)."""
    h, path, clock = discord_patched, tmp_path / "bot.sqlite3", ManualClock()
    async for bot in _running_bot(h, path, None, clock=clock):
        pc, example, npc = ONE_ON_ONE["uttas"]
        await set_up_cast(h, table, "uttas", name="Newer", pcs={pc: example}, npc=npc, begin=False)
        await ok(
            await slash(
                h,
                table.moderator,
                "gm settings",
                reaction_window="5m",
                turn_deadline="1h",
                reminders="10m",
            )
        )
        await ok(await slash(h, table.moderator, "encounter begin"))
        await thug_attacks_willow(bot, h, table)
        await work_done()
    as_a_newer_bot_saved_it(path, "behind")
    before = rows(path)
    caplog.set_level(logging.INFO, logger="bot")
    async for bot in _running_bot(h, path, None, clock=clock, expiry_interval=None):
        clock.advance(2 * 3600)
        caplog.clear()
        await bot.prompts.retry(grace=0)  # the start-up pass, then five passes of the loop
        for _ in range(5):
            await bot._expiry_pass()
        await work_done()
        about = [
            r
            for r in caplog.records
            if r.name.startswith("bot")
            and r.levelno >= logging.INFO
            and "newer" in (r.getMessage() + str(r.exc_info and r.exc_info[1]))
        ]
        tracebacks = [r.getMessage() for r in caplog.records if r.exc_info]
        assert not tracebacks, tracebacks
        assert 1 <= len(about) <= 3, [r.getMessage() for r in about]
        assert all(r.levelno == logging.WARNING for r in about), [r.getMessage() for r in about]
        assert not any("settled meanwhile" in r.getMessage() for r in caplog.records)
    assert rows(path) == before
