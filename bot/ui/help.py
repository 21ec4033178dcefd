"""``/help``: the player's and GM's guides (``data/help/*.md``) and every command, described
from the command tree itself so it never goes out of date."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
from discord import app_commands

from bot import names
from bot.errors import NotFound

HELP_DIR = Path(__file__).resolve().parents[2] / "data" / "help"
GUIDES = {
    "player": "player.md",
    "gm": "gm.md",
    "utopia": "utopia.md",
    "untitled": "untitled.md",
    "uune": "uune.md",
}
DESCRIPTION_MAX = 4096
Tree = app_commands.CommandTree[Any]
SlashCommand = app_commands.Command[Any, ..., Any]
Entry = SlashCommand | app_commands.Group | app_commands.ContextMenu
EMBEDS_TOTAL_MAX = 6000


@dataclass(frozen=True)
class Topic:
    """One help topic: ``key`` as typed, ``title`` and its Markdown ``text``."""

    key: str
    title: str
    text: str


def guide(key: str) -> Topic:
    """A guide by key (``player``, ``gm``, ``utopia``, ``untitled``, ``uune``). Raises
    :class:`NotFound`."""
    path = HELP_DIR / GUIDES[key]
    lines = path.read_text("utf-8").strip().splitlines()
    title = lines[0].lstrip("# ").strip()
    return Topic(key, title, "\n".join(lines[1:]).strip())


def commands_of(tree: Tree) -> list[SlashCommand]:
    """Every slash command of the tree (subcommands of groups included), by name."""
    found: list[SlashCommand] = []
    stack: list[SlashCommand | app_commands.Group | app_commands.ContextMenu] = list(
        tree.get_commands()
    )
    while stack:
        item = stack.pop()
        if isinstance(item, app_commands.Group):
            stack.extend(item.commands)
        elif isinstance(item, app_commands.Command):
            found.append(item)
    return sorted(found, key=lambda c: c.qualified_name)


def command_topic(command: SlashCommand) -> Topic:
    """A command's help: its description and each option's."""
    lines = [command.description]
    for param in command.parameters:
        need = "" if param.required else " (optional)"
        lines.append(f"• `{param.display_name}`{need}: {param.description}")
    if not command.parameters:
        lines.append("No options.")
    return Topic(command.qualified_name, f"/{command.qualified_name}", "\n".join(lines))


def group_topic(key: str, members: list[SlashCommand]) -> Topic:
    """A command group's help (``/help topic:tables``): each of its commands with its one-line
    description, and how to see one command's options."""
    lines = [f"`/{c.qualified_name}` — {c.description}" for c in members]
    lines.append(f"One command's options: `/help topic:{members[0].qualified_name}`.")
    return Topic(key, f"/{key}", "\n".join(lines))


def overview(tree: Tree) -> Topic:
    """Every command with its one-line description."""
    lines = [f"`/{c.qualified_name}` — {c.description}" for c in commands_of(tree)]
    return Topic("commands", "Every command", "\n".join(lines))


SYSTEM_GUIDES = ("utopia", "untitled", "uune")
"""The game systems with a guide of their own: the player's guide is UTTAS's (newuser26)."""


def topic(tree: Tree, key: str | None, *, here: str | None = None) -> Topic:
    """The topic for ``key``: a guide, ``commands``, or a command (``attack``, ``/gm hp``).
    Without a key, the player's guide — or, where the channel's fight plays a system with a
    guide of its own (``here``, its ruleset key), that guide, saying so and where the player's
    guide is: the player's guide teaches UTTAS's turns and buttons, which a player of another
    system reads as their own. Raises :class:`NotFound` naming the topics."""
    if key is None and here in SYSTEM_GUIDES:
        own = guide(str(here))
        note = (
            f"**Everything else.** This channel's fight plays {own.title.removeprefix('Playing ')}"
            ", so `/help` shows its guide. The player's guide (`/help topic:player`) teaches "
            "UTTAS's turns and reaction buttons; what it says of standing reactions, turn "
            "deadlines, `/away` and `/encounter recap` holds here too."
        )
        return Topic(own.key, own.title, f"{own.text}\n\n{note}")
    wanted = names.key((key or "player").lstrip("/"))
    if wanted in GUIDES:
        return guide(wanted)
    if wanted == "commands":
        return overview(tree)
    for command in commands_of(tree):
        if names.key(command.qualified_name) == wanted:
            return command_topic(command)
    group = [c for c in commands_of(tree) if names.key(c.qualified_name).startswith(wanted + " ")]
    if group:
        return group_topic(wanted, group)
    raise NotFound(
        f"There is no help topic called {names.quoted(str(key))}. Try `player`, `gm`, `utopia`, "
        "`untitled`, `uune`, `commands` or a command's name (e.g. `attack`, `gm hp`)."
    )


def topic_choices(
    tree: Tree,
    current: str,
) -> list[tuple[str, str]]:
    """``(label, value)`` pairs for the topic autocomplete."""
    pairs = [
        ("Player's guide", "player"),
        ("GM's guide", "gm"),
        ("Playing Utopia", "utopia"),
        ("Playing Untitled", "untitled"),
        ("Playing Uune", "uune"),
        ("Every command", "commands"),
    ]
    pairs += [(f"/{c.qualified_name}", c.qualified_name) for c in commands_of(tree)]
    folded = names.key(current)
    return [(label, value) for label, value in pairs if folded in names.key(label)]


def embeds(item: Topic) -> list[discord.Embed]:
    """The topic as embeds within Discord's limits (4096 a description, 6000 in all): long
    text is split at line ends."""
    chunks: list[str] = []
    current = ""
    for line in item.text.splitlines():
        if len(current) + len(line) + 1 > DESCRIPTION_MAX - 100:
            chunks.append(current)
            current = ""
        current += line + "\n"
    chunks.append(current)
    out: list[discord.Embed] = []
    used = 0
    for index, chunk in enumerate(chunks):
        title = item.title if index == 0 else f"{item.title} (continued)"
        if used + len(title) + len(chunk) > EMBEDS_TOTAL_MAX:
            out[-1].set_footer(text="… more with /help topic:commands and each command's name")
            break
        out.append(discord.Embed(title=title[:256], description=chunk.strip()))
        used += len(title) + len(chunk)
    return out
