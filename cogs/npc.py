"""``/npc``: the server's NPC templates, for GMs (Manage Server or Manage Channels) only.

Templates are added to encounters any number of times with ``/gm add-npc``. The service refuses
everyone else; these commands share their adapters with ``/character``.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.services.encounters import EncounterService
from bot.services.sheets import NPC_NAME_MAX, SheetService
from bot.store.sheets import SheetKind
from bot.ui.interaction import Choices, actor_of
from bot.ui.sheet_flows import (
    CREATE_RULESET_HELP,
    SHEET_RULESETS,
    ask_delete,
    example_choices,
    name_choices,
    open_create_form,
    run_export,
    run_import,
)
from bot.ui.sheets import sheet_embed, sheet_list
from bot.ui.sheets_views import guild_of


@app_commands.guild_only()
class NpcCog(commands.GroupCog, group_name="npc", group_description="NPC templates (server GMs)"):
    """The ``/npc`` command group."""

    kind: SheetKind = "npc"

    def __init__(self, service: SheetService, encounters: EncounterService | None = None) -> None:
        self.service = service
        self.encounters = encounters  # the channel's fight's system: the create form's default
        super().__init__()

    @app_commands.command(name="create", description="Create an NPC template (server GMs)")
    @app_commands.describe(ruleset=CREATE_RULESET_HELP)
    @app_commands.choices(ruleset=SHEET_RULESETS)
    async def create(
        self,
        interaction: discord.Interaction[Any],
        ruleset: app_commands.Choice[str] | None = None,
    ) -> None:
        await open_create_form(self.service, interaction, self.kind, ruleset, self.encounters)

    @app_commands.command(name="import", description="Import an NPC template (server GMs)")
    @app_commands.describe(
        file="A JSON sheet, e.g. one made with /npc export",
        example="Start from an example sheet instead of a file",
        name="Store it under this name instead of the one in the file",
        replace="Overwrite the template of the same name",
    )
    async def import_(
        self,
        interaction: discord.Interaction[Any],
        file: discord.Attachment | None = None,
        example: str | None = None,
        name: app_commands.Range[str, 1, NPC_NAME_MAX] | None = None,
        replace: bool = False,
    ) -> None:
        await run_import(self.service, interaction, self.kind, file, example, name, replace)

    @import_.autocomplete("example")
    async def import_example(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        return example_choices(self.service, current)

    @app_commands.command(
        name="export", description="Download an NPC template as JSON (server GMs)"
    )
    @app_commands.describe(name="The template's exact name")
    async def export(self, interaction: discord.Interaction[Any], name: str) -> None:
        await run_export(self.service, interaction, self.kind, name)

    @app_commands.command(name="list", description="List this server's NPC templates (server GMs)")
    async def list_(self, interaction: discord.Interaction[Any]) -> None:
        rows = await self.service.list_sheets(guild_of(interaction), actor_of(interaction), "npc")
        embed = sheet_list(
            rows, kind="npc", owner_id=None, limit=self.service.npcs_per_server, mine=False
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="show", description="Show an NPC template (server GMs)")
    @app_commands.describe(name="The template's exact name")
    async def show(self, interaction: discord.Interaction[Any], name: str) -> None:
        view = await self.service.show(guild_of(interaction), actor_of(interaction), "npc", name)
        await interaction.response.send_message(embed=sheet_embed(view), ephemeral=True)

    @app_commands.command(name="delete", description="Delete an NPC template (server GMs)")
    @app_commands.describe(name="The template's exact name")
    async def delete(self, interaction: discord.Interaction[Any], name: str) -> None:
        await ask_delete(self.service, interaction, self.kind, name)

    @export.autocomplete("name")
    @show.autocomplete("name")
    @delete.autocomplete("name")
    async def template_names(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        return await name_choices(self.service, interaction, self.kind, current)
