"""``/tables``: show and change this server's ruleset tables (the numbers the rules texts leave
open). Thin adapter over :class:`bot.services.tables.TableService`."""

from __future__ import annotations

import json
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import InvalidInput
from bot.services.tables import TableService, leaf_paths
from bot.ui.interaction import actor_of
from bot.ui.replies import autocomplete_guard
from bot.ui.text import labelled_choices

Choices = list[app_commands.Choice[str]]
RULESET = "uttas"  # the only ruleset that runs today


def _guild(interaction: discord.Interaction[Any]) -> int:
    if interaction.guild_id is None:
        raise InvalidInput("Rule tables belong to a server; use this in a server channel.")
    return interaction.guild_id


def _code(value: Any, limit: int = 1800) -> str:
    text = json.dumps(value, indent=1, ensure_ascii=False)
    return f"```json\n{text[:limit]}\n```" + ("(cut short)" if len(text) > limit else "")


@app_commands.guild_only()
class TablesCog(
    commands.GroupCog, group_name="tables", group_description="This server's rule tables"
):
    """``/tables show|set|reset``."""

    def __init__(self, service: TableService) -> None:
        self.service = service
        super().__init__()

    @app_commands.command(name="show", description="Show a table entry, or this server's changes")
    @app_commands.describe(entry="A table entry, e.g. reactions.block.dodge_bonus")
    async def show(
        self,
        interaction: discord.Interaction[Any],
        entry: app_commands.Range[str, 1, 120] | None = None,
    ) -> None:
        guild_id = _guild(interaction)
        if entry:
            value = await self.service.value(guild_id, RULESET, entry)
            text = f"`{entry}` in this server's UTTAS tables:\n{_code(value)}"
        else:
            changes = (await self.service.overrides(guild_id)).get(RULESET)
            text = (
                "This server's changes to the UTTAS tables (the rest is the default, "
                "`data/uttas/tables.json`; see `docs/rules/uttas.md`):\n" + _code(changes)
                if changes
                else "This server uses the default UTTAS tables. `/tables show entry:` shows one."
            )
        await interaction.response.send_message(text[:2000], ephemeral=True)

    @app_commands.command(name="set", description="Change a table entry (server GMs)")
    @app_commands.describe(
        entry="A table entry, e.g. reactions.block.dodge_bonus",
        value="The new value (a number, true/false, text or JSON); - undoes this server's change",
    )
    async def set_(
        self,
        interaction: discord.Interaction[Any],
        entry: app_commands.Range[str, 1, 120],
        value: app_commands.Range[str, 1, 1000],
    ) -> None:
        guild_id = _guild(interaction)
        await self.service.change(guild_id, actor_of(interaction), RULESET, entry, value)
        now = await self.service.value(guild_id, RULESET, entry) if value.strip() != "-" else None
        shown = f" is now {_code(now, 600)}" if now is not None else " is back to the default."
        await interaction.response.send_message(
            f"`{entry}`{shown}\nEncounters started from now on use it; running fights keep "
            "the tables they started with.",
            ephemeral=True,
        )

    @app_commands.command(name="reset", description="Undo every change to the tables (server GMs)")
    async def reset(self, interaction: discord.Interaction[Any]) -> None:
        await self.service.reset(_guild(interaction), actor_of(interaction), RULESET)
        await interaction.response.send_message(
            "This server uses the default UTTAS tables again (for encounters started from now).",
            ephemeral=True,
        )

    @show.autocomplete("entry")
    @set_.autocomplete("entry")
    async def entries(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        if interaction.guild_id is None:
            return []
        with autocomplete_guard(interaction, "the server's tables"):
            tables = await self.service.effective(interaction.guild_id, RULESET)
            folded = current.casefold()
            paths = [p for p in leaf_paths(tables) if folded in p.casefold() and len(p) <= 100]
            return labelled_choices((p, p) for p in paths)
        return []
