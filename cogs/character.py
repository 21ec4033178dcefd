"""``/character``: players keep their characters (and companions) in the bot, per server.

Thin adapter: options → one service call → embed/file → reply. Every reply is ephemeral (a sheet
is its owner's business); refusals come from the service as domain errors and the command tree
turns them into ephemeral messages. The helpers at the bottom are shared with ``/npc``.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.services.encounters import EncounterService
from bot.services.sheets import NAME_MAX, SheetService
from bot.store.sheets import SheetKind
from bot.ui import text as ui_text
from bot.ui.interaction import Choices, actor_of
from bot.ui.sheet_flows import (
    CREATE_RULESET_HELP,
    SHEET_RULESETS,
    ask_delete,
    example_choices,
    field_choices,
    name_choices,
    open_create_form,
    run_export,
    run_import,
)
from bot.ui.sheets import sheet_embed, sheet_list
from bot.ui.sheets_views import guild_of

log = logging.getLogger(__name__)

VALUE_MAX = 1000


@app_commands.guild_only()
class CharacterCog(
    commands.GroupCog, group_name="character", group_description="Your characters in this server"
):
    """The ``/character`` command group."""

    kind: SheetKind = "character"

    def __init__(self, service: SheetService, encounters: EncounterService | None = None) -> None:
        self.service = service
        self.encounters = encounters  # the channel's fight's system: the create form's default
        super().__init__()

    @app_commands.command(name="create", description="Create a character from its key numbers")
    @app_commands.describe(ruleset=CREATE_RULESET_HELP)
    @app_commands.choices(ruleset=SHEET_RULESETS)
    async def create(
        self,
        interaction: discord.Interaction[Any],
        ruleset: app_commands.Choice[str] | None = None,
    ) -> None:
        await open_create_form(self.service, interaction, self.kind, ruleset, self.encounters)

    @app_commands.command(
        name="import", description="Import a character from a JSON file or example"
    )
    @app_commands.describe(
        file="A JSON sheet, e.g. one made with /character export",
        example="Start from an example sheet instead of a file",
        name="Store it under this name instead of the one in the file",
        replace="Overwrite your character of the same name",
    )
    async def import_(
        self,
        interaction: discord.Interaction[Any],
        file: discord.Attachment | None = None,
        example: str | None = None,
        name: app_commands.Range[str, 1, NAME_MAX] | None = None,
        replace: bool = False,
    ) -> None:
        await run_import(self.service, interaction, self.kind, file, example, name, replace)

    @import_.autocomplete("example")
    async def import_example(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        return example_choices(self.service, current)

    @app_commands.command(name="export", description="Download one of your characters as JSON")
    @app_commands.describe(name="Your character's exact name")
    async def export(self, interaction: discord.Interaction[Any], name: str) -> None:
        await run_export(self.service, interaction, self.kind, name)

    @app_commands.command(name="show", description="Show a character sheet")
    @app_commands.describe(
        name="The character's exact name",
        member="Whose character (yourself if you leave it out)",
    )
    async def show(
        self,
        interaction: discord.Interaction[Any],
        name: str,
        member: discord.Member | None = None,
    ) -> None:
        view = await self.service.show(
            guild_of(interaction),
            actor_of(interaction),
            self.kind,
            name,
            owner_id=member.id if member is not None else None,
        )
        await interaction.response.send_message(embed=sheet_embed(view), ephemeral=True)

    @app_commands.command(name="list", description="List your characters (GMs: anyone's)")
    @app_commands.describe(member="GM only: whose characters to list")
    async def list_(
        self, interaction: discord.Interaction[Any], member: discord.Member | None = None
    ) -> None:
        actor = actor_of(interaction)
        owner = member.id if member is not None else actor.user_id
        rows = await self.service.list_sheets(
            guild_of(interaction), actor, self.kind, member_id=owner
        )
        embed = sheet_list(
            rows,
            kind=self.kind,
            owner_id=owner,
            limit=self.service.characters_per_member,
            mine=owner == actor.user_id,
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="edit", description="Change one field of your character")
    @app_commands.describe(
        name="Your character's exact name",
        field="The field, e.g. agility, movement.run, armor.fire, weapons.Club.damage_dice",
        value="The new value (- removes an entry; list items take JSON)",
    )
    async def edit(
        self,
        interaction: discord.Interaction[Any],
        name: str,
        field: app_commands.Range[str, 1, 200],
        value: app_commands.Range[str, 1, VALUE_MAX],
    ) -> None:
        guild_id = guild_of(interaction)
        sheet = await self.service.edit(
            guild_id, actor_of(interaction), self.kind, name, field, value
        )
        await interaction.response.send_message(
            f"Updated {ui_text.inline_code(field.strip()[:100])} of "
            f"**{ui_text.shown_name(sheet.name)}**.",
            embed=sheet_embed(await self.service.owner_view(guild_id, sheet)),
            ephemeral=True,
        )

    @edit.autocomplete("field")
    async def edit_field(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        name = str(getattr(interaction.namespace, "name", "") or "")
        return await field_choices(self.service, interaction, self.kind, name, current)

    @app_commands.command(name="delete", description="Delete one of your characters")
    @app_commands.describe(name="Your character's exact name")
    async def delete(self, interaction: discord.Interaction[Any], name: str) -> None:
        await ask_delete(self.service, interaction, self.kind, name)

    @export.autocomplete("name")
    @show.autocomplete("name")
    @edit.autocomplete("name")
    @delete.autocomplete("name")
    async def own_names(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        return await name_choices(self.service, interaction, self.kind, current)
