"""Modals and buttons for sheets: the create form and the restart-proof delete prompt.

The delete buttons are :class:`discord.ui.DynamicItem` s routed by ``custom_id`` alone
(``sheet:delp:yes:<id>`` / ``sheet:delp:no:<id>``, the id of the prompt recorded by
``SheetService.open_delete``), so a prompt still works after a restart; the service checks again
at click time that the clicking member may delete that sheet, and answers the prompt once.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.errors import InvalidInput
from bot.services.sheets import NAME_MAX, NPC_NAME_MAX, SheetService, SheetView
from bot.store.sheets import SheetKind
from bot.ui.id_button import IdButton
from bot.ui.interaction import actor_of
from bot.ui.replies import guarded, report
from bot.ui.sheets import sheet_embed
from bot.ui.text import shown_name

CHARACTERISTIC_ORDER = (
    "agility",
    "body",
    "charisma",
    "dexterity",
    "ego",
    "intelligence",
    "strength",
)
_TOKEN = re.compile(r"[A-Za-z]+|-?\d+")


def sheet_service(interaction: discord.Interaction[Any]) -> SheetService:
    service: SheetService = interaction.client.services.sheets
    return service


def guild_of(interaction: discord.Interaction[Any]) -> int:
    """Sheets belong to a server; refuse direct messages."""
    if interaction.guild_id is None:
        raise InvalidInput("Sheets live in a server; use this command in a server channel.")
    return interaction.guild_id


def parse_characteristics(text: str) -> dict[str, str]:
    """``"12 10 10 10 10 10 10"`` (Agility, Body, Charisma, Dexterity, Ego, Intelligence,
    Strength) or ``"Agility 12, Str 14"`` → ``{"agility": "12", ...}``. The numbers are checked
    by the sheet model; this only pairs names with values."""
    tokens = _TOKEN.findall(text)
    if not tokens:
        return {}
    if all(not t.isalpha() for t in tokens):
        if len(tokens) != len(CHARACTERISTIC_ORDER):
            raise InvalidInput(
                f"Characteristics: give {len(CHARACTERISTIC_ORDER)} numbers in the order Agility, "
                f"Body, Charisma, Dexterity, Ego, Intelligence, Strength (you gave {len(tokens)})."
            )
        return dict(zip(CHARACTERISTIC_ORDER, tokens, strict=True))
    values: dict[str, str] = {}
    pending: str | None = None
    for token in tokens:
        if token.isalpha():
            matches = [c for c in CHARACTERISTIC_ORDER if c.startswith(token.casefold()[:3])]
            if len(token) < 3 or len(matches) != 1:
                raise InvalidInput(
                    f"Characteristics: `{token[:20]}` is not one of Agility, Body, Charisma, "
                    "Dexterity, Ego, Intelligence, Strength."
                )
            pending = matches[0]
        elif pending is None:
            raise InvalidInput(
                "Characteristics: put each number after its name, e.g. `Agility 12`."
            )
        else:
            values[pending] = token
            pending = None
    if pending is not None:
        raise InvalidInput(f"Characteristics: `{pending}` has no number after it.")
    return values


class UttasCreateModal(discord.ui.Modal):
    """The key fields of an UTTAS sheet; everything else takes the model's defaults and is set
    with ``/character edit`` or an import."""

    def __init__(self, service: SheetService, kind: SheetKind) -> None:
        noun = "NPC template" if kind == "npc" else "character"
        super().__init__(title=f"New UTTAS {noun}", custom_id=f"sheet:create:{kind}:uttas")
        self.service = service
        self.kind = kind
        self.name: discord.ui.TextInput[Any] = discord.ui.TextInput(
            label="Name",
            custom_id="name",
            max_length=NPC_NAME_MAX if kind == "npc" else NAME_MAX,
            placeholder="e.g. Willow",
        )
        self.characteristics: discord.ui.TextInput[Any] = discord.ui.TextInput(
            label="Agility Body Charisma Dexterity Ego Int Str",
            custom_id="characteristics",
            default="10 10 10 10 10 10 10",
            max_length=200,
            required=False,
            placeholder="7 numbers in that order, or e.g. Agility 12, Strength 14",
        )
        self.speed: discord.ui.TextInput[Any] = discord.ui.TextInput(
            label="Speed (actions per round)", custom_id="speed", default="4", max_length=3
        )
        self.health: discord.ui.TextInput[Any] = discord.ui.TextInput(
            label="Health (maximum)", custom_id="health", default="10", max_length=6
        )
        self.stamina: discord.ui.TextInput[Any] = discord.ui.TextInput(
            label="Stamina (maximum)", custom_id="stamina", default="20", max_length=6
        )
        for item in (self.name, self.characteristics, self.speed, self.health, self.stamina):
            self.add_item(item)

    def fields(self) -> dict[str, Any]:
        values: dict[str, Any] = {"name": self.name.value.strip()}
        values.update(parse_characteristics(self.characteristics.value))
        for key, box in (("speed", self.speed), ("health", self.health), ("stamina", self.stamina)):
            values[key] = box.value.strip()
        return values

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        sheet = await self.service.create(
            guild_of(interaction), actor_of(interaction), self.kind, "uttas", self.fields()
        )
        hint = (
            " Fill in weapons, powers and the rest with `/character edit` or `/character import`."
            if self.kind == "character"
            else " Refine it by exporting, editing and re-importing with `replace: True`."
        )
        await interaction.response.send_message(
            f"Created **{shown_name(sheet.name)}**.{hint}",
            embed=sheet_embed(SheetView(sheet=sheet, full=True)),
            ephemeral=True,
        )

    async def on_error(  # type: ignore[override]  # the Modal signature, not BaseView's
        self, interaction: discord.Interaction[Any], error: Exception, /
    ) -> None:
        await report(interaction, error)


CREATE_MODALS = {"uttas": UttasCreateModal}


class SheetDeleteConfirm(IdButton, template=r"sheet:delp:yes:(?P<id>\d{1,19})"):
    """Answers a delete prompt: deletes its sheet; the owner (or, for an NPC template, a GM)
    only, checked at click time. A prompt already answered deletes nothing."""

    PREFIX = "sheet:delp:yes:"
    LABEL = "Confirm: delete it"
    STYLE = discord.ButtonStyle.danger

    @guarded
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        row = await sheet_service(interaction).confirm_delete(
            guild_of(interaction), actor_of(interaction), self.item_id
        )
        await interaction.response.edit_message(
            content=f"Deleted **{shown_name(row.name)}**.", view=None
        )


class SheetDeleteCancel(IdButton, template=r"sheet:delp:no:(?P<id>\d{1,19})"):
    """Answers a delete prompt with no: the sheet stays and the prompt's Confirm no longer
    deletes it. Only its owner (or a GM) may answer."""

    PREFIX = "sheet:delp:no:"
    LABEL = "Cancel"

    @guarded
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        row = await sheet_service(interaction).cancel_delete(
            guild_of(interaction), actor_of(interaction), self.item_id
        )
        await interaction.response.edit_message(
            content=f"Cancelled: **{shown_name(row.name)}** was not deleted.", view=None
        )


def delete_prompt(prompt_id: int) -> discord.ui.View:
    """The Confirm / Cancel view of one delete prompt (no timeout: routed by custom_id)."""
    view = discord.ui.View(timeout=None)
    view.add_item(SheetDeleteConfirm(prompt_id))
    view.add_item(SheetDeleteCancel(prompt_id))
    return view
