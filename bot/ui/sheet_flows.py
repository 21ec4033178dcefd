"""Sheet flows shared by ``/character`` and ``/npc``: the create form, import, export, delete
prompts and the sheet autocompletes. Presentation only: every rule and check is the sheet
service's."""

from __future__ import annotations

import io
from typing import Any

import discord
from discord import app_commands

from bot.engine import get_ruleset
from bot.errors import InvalidInput
from bot.services.encounters import EncounterService
from bot.services.sheet_input import check_upload
from bot.services.sheets import SheetService, Stored
from bot.store.sheets import SheetKind
from bot.ui import text as ui_text
from bot.ui.interaction import Choices, actor_of
from bot.ui.replies import autocomplete_guard
from bot.ui.sheets import sheet_embed
from bot.ui.sheets_views import SheetCreateModal, delete_prompt, guild_of

SHEET_RULESETS = [
    app_commands.Choice(name="UTTAS", value="uttas"),
    app_commands.Choice(name="Utopia", value="utopia"),
    app_commands.Choice(name="Untitled", value="untitled"),
    app_commands.Choice(name="Uune", value="uune"),
]


CREATE_RULESET_HELP = "The sheet's rule system (left out: this channel's fight's, else UTTAS)"
"""``ruleset:`` of ``/character create`` and ``/npc create``."""


async def open_create_form(
    service: SheetService,
    interaction: discord.Interaction[Any],
    kind: SheetKind,
    ruleset: app_commands.Choice[str] | None,
    encounters: EncounterService | None,
) -> None:
    """The creation form of ``ruleset``'s sheets; left out, of the game system of the
    channel's live encounter — the one a new player is about to join — else UTTAS's (as
    ``/tables`` reads it)."""
    key = ruleset.value if ruleset else None
    if key is None and encounters is not None and interaction.channel_id is not None:
        key = await encounters.live_ruleset(interaction.channel_id)
    key = key or "uttas"
    if interaction.guild_id is None:
        raise InvalidInput("Sheets belong to a server; use this in a server channel.")
    await service.require_may_write(interaction.guild_id, kind, actor_of(interaction))
    service.require_ruleset(key)
    rules = get_ruleset(key)
    form = rules.npc_form() if kind == "npc" else rules.sheet_form()
    if form is None:
        what = "NPC templates" if kind == "npc" else "sheets"
        raise InvalidInput(
            f"There is no creation form for {rules.title} {what}; import a JSON sheet instead."
        )
    guild_of(interaction)
    await interaction.response.send_modal(SheetCreateModal(service, kind, key, rules.title, form))


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
    await reply(service, interaction, imported_text(stored, command), stored)


REPLY_MAX = 2000
"""A message's content, at most (Discord)."""


def imported_text(stored: Stored, command: str) -> str:
    """What an import answers: the sheet stored and, for another tool's sheet (a Foundry VTT
    export), each thing it could not map, one per line — as many as fit in one message, then
    how many more (the count is exact)."""
    verb = "Replaced" if stored.replaced else "Imported"
    text = f"{verb} **{ui_text.shown_name(stored.sheet.name)}**. See it with `{command} show`."
    if stored.source is None:
        return text
    if not stored.unmapped:
        return f"{text}\nFrom a {stored.source}: everything was mapped."
    text += f"\nFrom a {stored.source}; not mapped ({len(stored.unmapped)}):"
    for shown, line in enumerate(stored.unmapped):
        more = f"\n…and {len(stored.unmapped) - shown} more."
        item = f"\n- {ui_text.shown_name(line[:300])}"
        if len(text) + len(item) + len(more) > REPLY_MAX:
            return text + more
        text += item
    return text


async def reply(
    service: SheetService, interaction: discord.Interaction[Any], text: str, stored: Stored
) -> None:
    """Answer an import with ``text`` and the sheet stored, as its owner sees it."""
    embed = sheet_embed(await service.owner_view(guild_of(interaction), stored.sheet))
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
