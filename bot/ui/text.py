"""Showing text people typed (names, labels) inside the bot's own Markdown, and autocomplete
choices built from names.

Names are stored in their normal form (:mod:`bot.names`) but may still hold Markdown (``**``,
backticks, ``||spoilers||``, ``> quotes``) or something that reads as a mention
(``@everyone``). Wherever a name is put into a message, embed or Markdown file, it goes through
:func:`shown_name`, so it shows exactly as typed and never formats or pings anything around it.
"""

from __future__ import annotations

from collections.abc import Iterable

import discord
from discord import app_commands

from bot import names

CHOICES_MAX = 25  # autocomplete choices Discord accepts
CHOICE_TEXT_MAX = 100  # characters of a choice's name and value


def shown_name(name: str) -> str:
    """``name`` in its normal form (:func:`bot.names.visible`: a stored name is unchanged,
    typed text loses its invisible characters) with Markdown and mentions escaped, to put inside
    the bot's own Markdown (``f"**{shown_name(c.name)}** joins"``). Also for other plain text
    shown inside Markdown (a roll's label, an engine sentence in the log file)."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(names.visible(name)))


def shown_names(items: Iterable[str], separator: str = ", ") -> str:
    """Several names, each escaped by :func:`shown_name`, joined by ``separator``."""
    return separator.join(shown_name(item) for item in items)


def standing_in_for(controller_id: int) -> str:
    """ " (for <@Y>, away)": said after the mention of whoever stands in for ``controller_id``,
    a member who is ``/away`` (the mention of Y is shown, not pinged: each message's allowed
    mentions name only whom it asks)."""
    return f" (for <@{controller_id}>, away)"


def inline_code(text: str) -> str:
    """``text`` as Markdown inline code, whatever backticks it holds (:func:`bot.names.code`)."""
    return names.code(text)


def name_choices(candidates: Iterable[str], typed: str) -> list[app_commands.Choice[str]]:
    """Autocomplete choices from names: those containing ``typed`` (compared by
    :func:`bot.names.key`), prefix matches first, then alphabetically; each name once — two
    names that differ only by case or invisible characters are one choice, the first given —
    at most 25."""
    folded = names.key(typed)
    distinct = names.unique(candidates)
    matching = [n for n in distinct if folded in names.key(n)]
    matching.sort(key=lambda n: (not names.key(n).startswith(folded), names.key(n)))
    return [
        app_commands.Choice(name=n[:CHOICE_TEXT_MAX], value=n[:CHOICE_TEXT_MAX])
        for n in matching[:CHOICES_MAX]
    ]


def labelled_choices(pairs: Iterable[tuple[str, str]]) -> list[app_commands.Choice[str]]:
    """Autocomplete choices from ``(label, value)`` pairs in order, each label once (compared
    by :func:`bot.names.key`), at most 25, label and value cut to 100 characters."""
    seen: set[str] = set()
    result: list[app_commands.Choice[str]] = []
    for label, value in pairs:
        folded = names.key(label)
        if not folded or folded in seen:
            continue
        seen.add(folded)
        result.append(
            app_commands.Choice(name=label[:CHOICE_TEXT_MAX], value=value[:CHOICE_TEXT_MAX])
        )
        if len(result) == CHOICES_MAX:
            break
    return result


MESSAGE_MAX = 2000  # characters of a message's content
_FENCE = "```"


def fit_text(text: str, limit: int = MESSAGE_MAX) -> str:
    """``text`` within ``limit`` characters (a message's 2,000 unless given): when longer, whole
    lines are kept from the head (a line is cut only when the first one alone is too long), a
    code block left open is closed, and a last line "…" says something was left out — never a
    mention, a name or a code fence cut in the middle."""
    if len(text) <= limit:
        return text
    tail = "\n…"
    room = limit - len(tail) - len("\n" + _FENCE)
    head = text[:room]
    cut = head.rfind("\n")
    if cut > 0:
        head = head[:cut]
    if head.count(_FENCE) % 2:
        head += "\n" + _FENCE
    return head + tail
