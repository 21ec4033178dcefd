"""``/tables``: show and change this server's ruleset tables (the numbers the rules texts leave
open), for each ruleset that plays (``ruleset:``; left out, the system of the channel's live
fight, else UTTAS). Thin adapter over
:class:`bot.services.tables.TableService`."""

from __future__ import annotations

import json
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine import REGISTRY, get_ruleset
from bot.errors import InvalidInput
from bot.services.encounters import EncounterService
from bot.services.tables import TableService, leaf_paths
from bot.ui.interaction import actor_of
from bot.ui.replies import autocomplete_guard
from bot.ui.text import fit_text, inline_code, labelled_choices

Choices = list[app_commands.Choice[str]]
DEFAULT = "uttas"
RULESETS = [
    app_commands.Choice(name=get_ruleset(key).title, value=key) for key in REGISTRY.implemented
]
"""The rulesets whose tables a server may change: those that play."""
RULESET_HELP = "Whose tables (left out: this channel's fight's system, else UTTAS)"


def _guild(interaction: discord.Interaction[Any]) -> int:
    if interaction.guild_id is None:
        raise InvalidInput("Rule tables belong to a server; use this in a server channel.")
    return interaction.guild_id


def _code(value: Any, limit: int = 1800) -> str:
    """``value`` as JSON in a code block. A run of three backticks in a text value (a stance's
    description) would end the block early and show the rest as Markdown: a zero-width space
    goes between its backticks (the value is stored and used as typed)."""
    text = json.dumps(value, indent=1, ensure_ascii=False).replace("``", "`\u200b`")
    return f"```json\n{text[:limit]}\n```" + ("(cut short)" if len(text) > limit else "")


@app_commands.guild_only()
class TablesCog(
    commands.GroupCog, group_name="tables", group_description="This server's rule tables"
):
    """``/tables show|set|reset``."""

    def __init__(self, service: TableService, encounters: EncounterService) -> None:
        self.service = service
        self.encounters = encounters
        super().__init__()

    async def _key(
        self, interaction: discord.Interaction[Any], ruleset: str | None
    ) -> tuple[str, str]:
        """The ruleset's key and title: ``ruleset`` if given (and playable), else the system of
        the channel's live fight — a GM in a Utopia fight's channel means Utopia's tables —,
        else :data:`DEFAULT`."""
        key = ruleset if ruleset in REGISTRY.implemented else None
        if key is None and interaction.channel_id is not None:
            live = await self.encounters.live_ruleset(interaction.channel_id)
            key = live if live in REGISTRY.implemented else None
        key = key or DEFAULT
        return key, get_ruleset(key).title

    @app_commands.command(name="show", description="Show a table entry, or this server's changes")
    @app_commands.describe(
        entry="A table entry, e.g. reactions.block.dodge_bonus", ruleset=RULESET_HELP
    )
    @app_commands.choices(ruleset=RULESETS)
    async def show(
        self,
        interaction: discord.Interaction[Any],
        entry: app_commands.Range[str, 1, 120] | None = None,
        ruleset: app_commands.Choice[str] | None = None,
    ) -> None:
        guild_id = _guild(interaction)
        key, title = await self._key(interaction, ruleset.value if ruleset else None)
        if entry:
            value = await self.service.value(guild_id, key, entry)
            text = f"`{entry}` in this server's {title} tables:\n{_code(value)}"
        else:
            changes = (await self.service.overrides(guild_id)).get(key)
            text = (
                f"This server's changes to the {title} tables (the rest is the default, "
                f"`data/{key}/tables.json`; see `docs/rules/{key}.md`):\n" + _code(changes)
                if changes
                else f"This server uses the default {title} tables. `/tables show entry:` "
                "shows one."
            )
        await interaction.response.send_message(fit_text(text), ephemeral=True)

    @app_commands.command(name="set", description="Change a table entry (server GMs)")
    @app_commands.describe(
        entry="A table entry, e.g. reactions.block.dodge_bonus",
        value="The new value (a number, true/false, text or JSON); - undoes this server's change",
        ruleset=RULESET_HELP,
    )
    @app_commands.choices(ruleset=RULESETS)
    async def set_(
        self,
        interaction: discord.Interaction[Any],
        entry: app_commands.Range[str, 1, 120],
        value: app_commands.Range[str, 1, 1000],
        ruleset: app_commands.Choice[str] | None = None,
    ) -> None:
        guild_id = _guild(interaction)
        key, title = await self._key(interaction, ruleset.value if ruleset else None)
        await self.service.change(guild_id, actor_of(interaction), key, entry, value)
        now = await self.service.value(guild_id, key, entry) if value.strip() != "-" else None
        shown = f" is now {_code(now, 600)}" if now is not None else " is back to the default."
        entry = await self.service.entry(guild_id, key, entry)  # as the tables spell it
        await interaction.response.send_message(
            f"{title}: {inline_code(entry)}{shown}\nEncounters started from now on use it; "
            "running fights keep the tables they started with.",
            ephemeral=True,
        )

    @app_commands.command(name="reset", description="Undo every change to the tables (server GMs)")
    @app_commands.describe(ruleset=RULESET_HELP)
    @app_commands.choices(ruleset=RULESETS)
    async def reset(
        self, interaction: discord.Interaction[Any], ruleset: app_commands.Choice[str] | None = None
    ) -> None:
        key, title = await self._key(interaction, ruleset.value if ruleset else None)
        await self.service.reset(_guild(interaction), actor_of(interaction), key)
        await interaction.response.send_message(
            f"This server uses the default {title} tables again (for encounters started from now).",
            ephemeral=True,
        )

    @show.autocomplete("entry")
    @set_.autocomplete("entry")
    async def entries(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        if interaction.guild_id is None:
            return []
        with autocomplete_guard(interaction, "the server's tables"):
            key, _ = await self._key(interaction, getattr(interaction.namespace, "ruleset", None))
            tables = await self.service.effective(interaction.guild_id, key)
            folded = current.casefold()
            paths = [p for p in leaf_paths(tables) if folded in p.casefold() and len(p) <= 100]
            command = interaction.command
            if command is not None and command.name == "set":  # entries it would refuse
                paths = [p for p in paths if self.service.planned(key, p) is None]
            return labelled_choices((p, p) for p in paths)
        return []
