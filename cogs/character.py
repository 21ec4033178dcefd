"""``/character``: players keep their characters (and companions) in the bot, per server.

Thin adapter: options → one service call → embed/file → reply. Every reply is ephemeral (a sheet
is its owner's business); refusals come from the service as domain errors and the command tree
turns them into ephemeral messages. The helpers at the bottom are shared with ``/npc``.
"""

from __future__ import annotations

import io
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import InvalidInput
from bot.services.sheet_input import check_upload
from bot.services.sheets import NAME_MAX, Sheet, SheetService, SheetView, Stored
from bot.store.sheets import SheetKind
from bot.ui import text as ui_text
from bot.ui.encounter_end import actor_of
from bot.ui.replies import autocomplete_guard
from bot.ui.sheets import sheet_embed, sheet_list
from bot.ui.sheets_views import CREATE_MODALS, delete_prompt, guild_of

log = logging.getLogger(__name__)

SHEET_RULESETS = [
    app_commands.Choice(name="UTTAS (default)", value="uttas"),
    app_commands.Choice(name="Utopia", value="utopia"),
    app_commands.Choice(name="Untitled", value="untitled"),
    app_commands.Choice(name="Uune", value="uune"),
]
VALUE_MAX = 1000

Choices = list[app_commands.Choice[str]]


@app_commands.guild_only()
class CharacterCog(
    commands.GroupCog, group_name="character", group_description="Your characters in this server"
):
    """The ``/character`` command group."""

    kind: SheetKind = "character"

    def __init__(self, service: SheetService) -> None:
        self.service = service
        super().__init__()

    @app_commands.command(name="create", description="Create a character from its key numbers")
    @app_commands.describe(ruleset="The rule system of the sheet (UTTAS if you leave it out)")
    @app_commands.choices(ruleset=SHEET_RULESETS)
    async def create(
        self,
        interaction: discord.Interaction[Any],
        ruleset: app_commands.Choice[str] | None = None,
    ) -> None:
        await open_create_form(self.service, interaction, self.kind, ruleset)

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
        sheet = await self.service.edit(
            guild_of(interaction), actor_of(interaction), self.kind, name, field, value
        )
        await interaction.response.send_message(
            f"Updated {ui_text.inline_code(field.strip()[:100])} of "
            f"**{ui_text.shown_name(sheet.name)}**.",
            embed=sheet_embed(sheet_view(sheet)),
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


# --- shared with /npc -------------------------------------------------------------------------


def sheet_view(sheet: Sheet) -> SheetView:
    """The owner's (full) view of a sheet they just stored."""
    return SheetView(sheet=sheet, full=True)


async def open_create_form(
    service: SheetService,
    interaction: discord.Interaction[Any],
    kind: SheetKind,
    ruleset: app_commands.Choice[str] | None,
) -> None:
    key = ruleset.value if ruleset else "uttas"
    if interaction.guild_id is None:
        raise InvalidInput("Sheets belong to a server; use this in a server channel.")
    await service.require_may_write(interaction.guild_id, kind, actor_of(interaction))
    service.require_ruleset(key)
    modal = CREATE_MODALS.get(key)
    if modal is None:
        raise InvalidInput(f"There is no creation form for {key} yet; import a JSON sheet instead.")
    guild_of(interaction)
    await interaction.response.send_modal(modal(service, kind))


async def run_import(
    service: SheetService,
    interaction: discord.Interaction[Any],
    kind: SheetKind,
    file: discord.Attachment | None,
    example: str | None,
    name: str | None,
    replace: bool,
) -> None:
    guild_id, actor = guild_of(interaction), actor_of(interaction)
    command = "/npc" if kind == "npc" else "/character"
    if (file is None) == (example is None):
        raise InvalidInput(
            f"Give either `file:` (a JSON sheet) or `example:` to `{command} import`, not "
            f"{'both' if file else 'neither'}."
        )
    if file is not None:
        check_upload(file.size, file.filename, file.content_type)
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            content = await file.read()
        except discord.HTTPException:
            raise InvalidInput("I could not download that file; please try again.") from None
        stored = await service.import_file(
            guild_id, actor, kind, content, rename=name, replace=replace
        )
    else:
        assert example is not None
        stored = await service.import_example(
            guild_id, actor, kind, example, rename=name, replace=replace
        )
    await reply(interaction, imported_text(stored, command), stored)


def imported_text(stored: Stored, command: str) -> str:
    verb = "Replaced" if stored.replaced else "Imported"
    return f"{verb} **{ui_text.shown_name(stored.sheet.name)}**. See it with `{command} show`."


async def reply(interaction: discord.Interaction[Any], text: str, stored: Stored) -> None:
    embed = sheet_embed(sheet_view(stored.sheet))
    if interaction.response.is_done():
        await interaction.followup.send(text, embed=embed, ephemeral=True)
    else:
        await interaction.response.send_message(text, embed=embed, ephemeral=True)


async def run_export(
    service: SheetService, interaction: discord.Interaction[Any], kind: SheetKind, name: str
) -> None:
    filename, content = await service.export(
        guild_of(interaction), actor_of(interaction), kind, name
    )
    command = "/npc" if kind == "npc" else "/character"
    await interaction.response.send_message(
        f"Here is `{filename}`. Edit it and bring it back with `{command} import replace: True`.",
        file=discord.File(io.BytesIO(content), filename=filename),
        ephemeral=True,
    )


async def ask_delete(
    service: SheetService, interaction: discord.Interaction[Any], kind: SheetKind, name: str
) -> None:
    sheet, prompt_id = await service.open_delete(
        guild_of(interaction), interaction.channel_id, actor_of(interaction), kind, name
    )
    await interaction.response.send_message(
        f"Delete **{ui_text.shown_name(sheet.name)}**? This cannot be undone (encounters keep "
        "their own copy).",
        view=delete_prompt(prompt_id),
        ephemeral=True,
    )


async def name_choices(
    service: SheetService, interaction: discord.Interaction[Any], kind: SheetKind, current: str
) -> Choices:
    """Your own sheets only (GMs: the server's NPC templates); never more than 25."""
    if interaction.guild_id is None:
        return []
    with autocomplete_guard(interaction, "sheet names"):
        names = await service.name_choices(
            interaction.guild_id, actor_of(interaction), kind, current
        )
        return ui_text.name_choices(names, current)
    return []


async def field_choices(
    service: SheetService,
    interaction: discord.Interaction[Any],
    kind: SheetKind,
    name: str,
    current: str,
) -> Choices:
    if interaction.guild_id is None or not name:
        return []
    with autocomplete_guard(interaction, "sheet fields"):
        found = await service.field_choices(
            interaction.guild_id, actor_of(interaction), kind, name, current
        )
        return ui_text.labelled_choices(found)
    return []


def example_choices(service: SheetService, current: str) -> Choices:
    return ui_text.labelled_choices(service.example_choices(current))
