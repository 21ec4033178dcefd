"""QA attack (round 19, b): absurd input in every option of every command, read from the
commands the bot registered (a new command or option is swept without being listed here), in a
running fight of each game system. Each answer must come (never "This interaction failed"),
never be the unexpected-error reply, stay within Discord's limits (the harness checks), and an
ephemeral answer — a refusal — must leave the fight as it was: nothing half-applied."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

import pytest

from bot.client import CombatBot
from bot.errors import DomainError
from bot.ui.replies import UNEXPECTED
from tests.e2e.combat_helpers import (
    ONE_ON_ONE,
    answered,
    set_up_cast,
    set_up_fight,
    work_done,
)
from tests.e2e.conftest import Table
from tests.e2e.registered import filled, slash_commands
from tests.harness.server import DiscordHarness

SKIPPED = {
    "rehearse",  # plays thousands of fights: its bounds are tested in tests/e2e/test_rehearse.py
    "encounter end",  # these four only ask for a confirmation
    "gm end-fight",
    "me delete",
    "server member-delete",
}
"""Commands left out of the sweep (why on each line)."""


def texts(limit: int) -> list[str]:
    """Absurd text, cut to the option's ``limit``: blank and invisible, direction overrides,
    emoji and combining marks at full length, dice and numbers out of range, control
    characters, mentions, Markdown, other scripts' digits."""
    values = [
        " ",
        "\u200b",
        "\u202eThug 1",
        "Thug 1\u200b",
        "\u2060Thug\ufeff 1\u200b",
        "Thug\u200d1 👨\u200d👩\u200d👧",
        "\ue000Thug\U000f0000",
        MARKDOWN,
        "> quoted\n# Heading",
        "😀" * (limit // 2),
        "e\u0301" * (limit // 2),
        "x" * limit,
        "\n" * limit,
        "999999d999999",
        "1d0",
        "0d6",
        "-999999999999",
        "9" * 40,
        "\x00",
        "@everyone <@1234>",
        "`" * 10,
        "１２",
        "nan",
        "1e308",
    ]
    return [value[:limit] for value in values]


MARKDOWN = "**Bold** __under__ ~~gone~~ ||secret||"
"""Typed Markdown: echoed, each piece must show as typed (escaped), never as formatting."""
RAW_MARKDOWN = ("**Bold**", "__under__", "~~gone~~", "||secret||")
RAW_LINE_MARKDOWN = re.compile(r"^(> quoted|# Heading)", re.MULTILINE)
_CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.DOTALL)
_EMOJI_JOINER = re.compile(r"(?<=[\U0001F000-\U0001FAFF\ufe0f])\u200d(?=[\U0001F000-\U0001FAFF])")
_BOTS_MENTION_BREAK = "@\u200b"  # discord.py's escape_mentions: "@everyone" shown, not sent


def unsafe(text: str) -> str:
    """The first thing in a reply that a member's text may have put there and that must not be
    echoed (:func:`bot.names.printable`, :func:`bot.names.escaped`): a control character but a
    line break (NUL, a tab, escape…), a format character (a direction override reorders what
    follows it on screen; a zero-width space, word joiner or byte-order mark hides in a name),
    a private-use or surrogate code point — any, but the zero-width space the bot itself puts
    after the ``@`` of a mention it shows and does not send, and a joiner between two emoji
    (one emoji of several, 👨‍👩‍👧) — or typed Markdown left unescaped
    outside a code span (it would format the reply instead of showing what was typed); "" when
    there is none."""
    text = _EMOJI_JOINER.sub("", text.replace(_BOTS_MENTION_BREAK, "@"))
    for char in text:
        if char != "\n" and unicodedata.category(char) in ("Cc", "Cf", "Co", "Cs"):
            return f"U+{ord(char):04X}"
    outside_code = _CODE_SPAN.sub("", text)
    for piece in RAW_MARKDOWN:
        if piece in outside_code:
            return f"unescaped Markdown {piece!r}"
    if line := RAW_LINE_MARKDOWN.search(outside_code):
        return f"unescaped Markdown {line.group(0)!r}"
    return ""


def embed_texts(data: dict[str, Any]) -> list[str]:
    """The Markdown texts of a reply's embeds: titles, descriptions, fields, footers."""
    found: list[str] = []
    for embed in data.get("embeds") or []:
        found += [str(embed.get(key) or "") for key in ("title", "description")]
        found += [str((embed.get("footer") or {}).get("text") or "")]
        for field in embed.get("fields") or []:
            found += [str(field.get("name") or ""), str(field.get("value") or "")]
    return found


def numbers(option: dict[str, Any]) -> list[int | float]:
    lo, hi = option.get("min_value"), option.get("max_value")
    if option["type"] == 4:
        return [-(2**53) if lo is None else lo, 2**53 if hi is None else hi]
    return [-1e308 if lo is None else lo, 1e308 if hi is None else hi]


async def fight_version(bot: CombatBot, h: DiscordHarness) -> tuple[int, int] | None:
    try:
        encounter = await bot.services.encounters.live(h.channel.id)
    except DomainError:
        return None
    return encounter.row.version, encounter.row.state_version


@pytest.mark.async_timeout(300)
@pytest.mark.timeout(300)
@pytest.mark.parametrize("system", list(ONE_ON_ONE))
async def test_absurd_input_in_every_option_is_refused_cleanly(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table, system: str
) -> None:
    h = discord_harness
    if system == "uttas":
        await set_up_fight(h, table)
    else:
        pc, example, npc = ONE_ON_ONE[system]
        await set_up_cast(h, table, system, name="Absurd", pcs={pc: example}, npc=npc)
    await work_done()  # the set-up's own tracker and ping edits are done
    failures: list[tuple[str, str, str, str, str]] = []
    for name, options in slash_commands(h):
        if name in SKIPPED:
            continue
        for option in options:
            if option.get("choices") or option["type"] not in (3, 4, 10):
                continue
            values: list[Any] = (
                [
                    v
                    for v in texts(option.get("max_length") or 6000)
                    if len(v) >= option.get("min_length", 0)
                ]
                if option["type"] == 3
                else numbers(option)
            )
            for value in values:
                sent = {**filled(h, table, options), option["name"]: value}
                for member in (table.moderator, table.player):
                    where = (name, option["name"], repr(value)[:40], member.name)
                    before = await fight_version(bot, h)
                    record = await answered(await h.slash(member, h.channel, name, sent))
                    data = (
                        record.followups[0].payload
                        if record.deferred and record.followups
                        else record.response_data
                    )
                    text = str((data or {}).get("content") or "")
                    shown = "\n".join([text, *embed_texts(data or {})])
                    if UNEXPECTED in text:
                        failures.append((*where, "the unexpected-error reply"))
                    if echoed := unsafe(shown):
                        failures.append((*where, f"echoes {echoed}: {text[:80]!r}"))
                    if record.ephemeral and await fight_version(bot, h) != before:
                        failures.append((*where, f"refused but changed the fight: {text[:80]}"))
                    if violations := h.pop_violations():
                        failures.append((*where, f"{violations[0].message[:120]}"))
    assert not failures, "\n".join(map(str, failures))
