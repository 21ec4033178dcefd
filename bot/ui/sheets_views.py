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

from bot import names
from bot.engine.core.contract import SheetForm
from bot.errors import InvalidInput
from bot.services.sheets import NAME_MAX, NPC_NAME_MAX, SheetService
from bot.store.sheets import SheetKind
from bot.ui.id_button import IdButton
from bot.ui.interaction import actor_of
from bot.ui.replies import guarded, report
from bot.ui.sheets import sheet_embed
from bot.ui.text import shown_name

_SEPARATORS = re.compile(r"[\s,;:=]+")
_WORD = re.compile(r"[A-Za-z]+")
_NUMBER = re.compile(r"-?[0-9]+")


def sheet_service(interaction: discord.Interaction[Any]) -> SheetService:
    service: SheetService = interaction.client.services.sheets
    return service


def guild_of(interaction: discord.Interaction[Any]) -> int:
    """Sheets belong to a server; refuse direct messages."""
    if interaction.guild_id is None:
        raise InvalidInput("Sheets live in a server; use this command in a server channel.")
    return interaction.guild_id


def parse_scores(text: str, order: tuple[str, ...], what: str) -> dict[str, str]:
    """Numbers typed in a form box: all of them in ``order`` (``"12 10 10"``), or each after its
    name (``"Agility 12, Str 14"``; a name may be cut to its first three letters) →
    ``{"agility": "12", ...}``. ``order`` holds the sheet's field names (``_`` reads as a space);
    ``what`` names the box in errors. The numbers are checked by the sheet model; this only pairs
    names with values. Raises :class:`InvalidInput` naming the problem: a part that is neither a
    name nor a whole number written with 0–9 (``6.5``, ``²10``, ``Agility12``), a name given
    twice, a wrong count, a name not in ``order``."""
    tokens = _tokens(text, what)
    if not tokens:
        return {}
    if all(not t.isalpha() for t in tokens):
        if len(tokens) != len(order):
            raise InvalidInput(
                f"{what}: give {len(order)} numbers in the order {_listing(order)} "
                f"(you gave {len(tokens)})."
            )
        return dict(zip(order, tokens, strict=True))
    return _named(tokens, order, what)


def _listing(order: tuple[str, ...]) -> str:
    return ", ".join(_shown(key) for key in order)


def _shown(key: str) -> str:
    return key.replace("_", " ").title()


def _tokens(text: str, what: str) -> list[str]:
    """The box's parts (split at spaces, commas, semicolons, colons, ``=``), each a name or a
    whole number. Raises :class:`InvalidInput` for any other part."""
    tokens = [t for t in _SEPARATORS.split(text.strip()) if t]
    for token in tokens:
        if not (_WORD.fullmatch(token) or _NUMBER.fullmatch(token)):
            raise InvalidInput(
                f"{what}: {names.code(token[:20])} is neither a name nor a whole number (write "
                "numbers with the digits 0-9, e.g. `6`)."
            )
    return tokens


def _named(tokens: list[str], order: tuple[str, ...], what: str) -> dict[str, str]:
    """``Name number`` pairs → ``{field: number}``. Raises :class:`InvalidInput`."""
    values: dict[str, str] = {}
    pending: str | None = None
    for token in tokens:
        if token.isalpha():
            matches = [k for k in order if k.startswith(token.casefold()[:3])]
            if len(token) < 3 or len(matches) != 1:
                raise InvalidInput(
                    f"{what}: {names.code(token[:20])} is not one of {_listing(order)}."
                )
            pending = matches[0]
            if pending in values:
                raise InvalidInput(f"{what}: {_shown(pending)} is given twice; give each once.")
        elif pending is None:
            raise InvalidInput(
                f"{what}: put each number after its name, e.g. `{_shown(order[0])} 12`."
            )
        else:
            values[pending] = token
            pending = None
    if pending is not None:
        raise InvalidInput(f"{what}: `{_shown(pending)}` has no number after it.")
    return values


async def create_from_form(
    service: SheetService,
    interaction: discord.Interaction[Any],
    kind: SheetKind,
    ruleset: str,
    fields: dict[str, Any],
    rest: str,
) -> None:
    """Store a sheet a create form gave (``fields``, checked by the ruleset's sheet model) and
    show it; ``rest`` names what the form leaves out (e.g. "weapons, powers")."""
    sheet = await service.create(
        guild_of(interaction), actor_of(interaction), kind, ruleset, fields
    )
    hint = (
        f" Fill in {rest} and the rest with `/character edit` or `/character import`."
        if kind == "character"
        else " Refine it by exporting, editing and re-importing with `replace: True`."
    )
    await interaction.response.send_message(
        f"Created **{shown_name(sheet.name)}**.{hint}",
        embed=sheet_embed(await service.owner_view(guild_of(interaction), sheet)),
        ephemeral=True,
    )


class SheetCreateModal(discord.ui.Modal):
    """A ruleset's sheet create form (its :class:`~bot.engine.core.contract.SheetForm`): the
    boxes it lists; everything else takes the sheet model's defaults and is set with
    ``/character edit`` or an import. The values are checked by the ruleset's sheet model."""

    def __init__(
        self, service: SheetService, kind: SheetKind, ruleset: str, title: str, form: SheetForm
    ) -> None:
        noun = "NPC template" if kind == "npc" else "character"
        super().__init__(
            title=f"New {title} {noun}"[:45], custom_id=f"sheet:create:{kind}:{ruleset}"
        )
        self.service, self.kind, self.ruleset, self.form = service, kind, ruleset, form
        self.boxes: dict[str, discord.ui.TextInput[Any]] = {}
        for box in form.boxes:
            limit = box.max_length
            if box.key == "name":
                limit = NPC_NAME_MAX if kind == "npc" else NAME_MAX
            text: discord.ui.TextInput[Any] = discord.ui.TextInput(
                label=box.label,
                custom_id=box.key,
                default=box.default or None,
                placeholder=box.placeholder or None,
                max_length=limit,
                required=box.required,
            )
            self.boxes[box.key] = text
            self.add_item(text)

    def fields(self) -> dict[str, Any]:
        """The sheet data the boxes give (numbers still text: the sheet model checks them).
        Raises :class:`InvalidInput` for a box of numbers that cannot be read."""
        values: dict[str, Any] = {}
        for box in self.form.boxes:
            typed = self.boxes[box.key].value.strip()
            if box.scores is None:
                if typed or box.required:
                    values[box.key] = typed.casefold() if box.lower else typed
                continue
            scores = parse_scores(typed, box.scores, box.label.split(" (")[0])
            if scores and box.into:
                values[box.into] = scores
            else:
                values.update(scores)
        return values

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        await create_from_form(
            self.service, interaction, self.kind, self.ruleset, self.fields(), self.form.rest
        )

    async def on_error(  # type: ignore[override]  # the Modal signature, not BaseView's
        self, interaction: discord.Interaction[Any], error: Exception, /
    ) -> None:
        await report(interaction, error)


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
