"""Embeds for character sheets and NPC templates. Pure presentation: no I/O, no rules (a sheet's
text, derived values included, is its ruleset's: ``Ruleset.sheet_sections``).

Every builder keeps within Discord's limits: title 256, field value 1024, ≤ 25 fields and 6000
characters per embed (:func:`fit_total` trims the longest fields when a big sheet would exceed it).
"""

from __future__ import annotations

from datetime import datetime

import discord
from pydantic import BaseModel

from bot.engine import get_ruleset
from bot.errors import DomainError
from bot.services.sheets import SheetView, ruleset_title
from bot.store.sheets import SheetKind, SheetRow
from bot.ui.embeds import FIELD_MAX, fit_lines
from bot.ui.text import shown_name

EMBED_TOTAL_MAX = 5900  # below Discord's 6000 for one message's embeds
DESCRIPTION_MAX = 4096


def _num(value: float) -> str:
    return f"{value:g}"


def _owner_line(row: SheetRow) -> str:
    if row.kind == "npc":
        return f"NPC template · {ruleset_title(row.ruleset)}"
    return f"Character of <@{row.owner_id}> · {ruleset_title(row.ruleset)}"


def fit_total(embed: discord.Embed, limit: int = EMBED_TOTAL_MAX) -> discord.Embed:
    """Shorten the longest field values until the embed's total length is within ``limit``."""
    while len(embed) > limit and embed.fields:
        index, field = max(enumerate(embed.fields), key=lambda pair: len(pair[1].value or ""))
        value = field.value or ""
        excess = len(embed) - limit
        keep = max(1, len(value) - excess - 2)
        lines = value[:keep].split("\n")
        shortened = "\n".join(lines[:-1]) + "\n…" if len(lines) > 1 else value[:keep] + "…"
        if len(shortened) >= len(value):
            shortened = value[: max(1, len(value) // 2)] + "…"
        embed.set_field_at(index, name=field.name, value=shortened, inline=field.inline)
    return embed


def generic(model: BaseModel, row: SheetRow, full: bool) -> discord.Embed:
    """Fallback for a ruleset without its own layout: the name, and (owner) the raw fields."""
    embed = discord.Embed(title=shown_name(row.name)[:256], description=_owner_line(row))
    if full:
        lines = [f"{key}: {value}" for key, value in model.model_dump(mode="json").items()]
        embed.add_field(name="Sheet", value=fit_lines(lines, FIELD_MAX), inline=False)
    embed.set_footer(text=_footer(row))
    return fit_total(embed)


def _footer(row: SheetRow) -> str:
    return f"Sheet {row.id} · updated {row.updated_at:%Y-%m-%d %H:%M} UTC"


def sheet_embed(view: SheetView) -> discord.Embed:
    """The embed for ``/character show`` and ``/npc show``: the sheet's sections as its ruleset,
    with the server's rules tables (:attr:`SheetView.overrides`), writes them
    (``Ruleset.sheet_sections``), one field each."""
    sheet, row = view.sheet.model, view.sheet.row
    try:
        rules = get_ruleset(row.ruleset, view.overrides)
    except DomainError:
        return generic(sheet, row, view.full)
    embed = discord.Embed(
        title=shown_name(row.name)[:256],
        description=_owner_line(row),
        colour=discord.Colour.green() if view.full else discord.Colour.blurple(),
    )
    for section in rules.sheet_sections(sheet, full=view.full, name=shown_name):
        embed.add_field(
            name=section.title[:256],
            value=fit_lines(section.lines, FIELD_MAX, empty="None"),
            inline=section.inline,
        )
    if view.full:
        embed.set_footer(text=_footer(row))
    else:
        embed.set_footer(text="You see what a player would see of another player's character.")
    return fit_total(embed)


def _when(moment: datetime) -> str:
    return f"<t:{int(moment.timestamp())}:R>"


def sheet_list(
    rows: list[SheetRow], *, kind: SheetKind, owner_id: int | None, limit: int, mine: bool
) -> discord.Embed:
    """``/character list`` and ``/npc list``: names, rulesets, when each was last changed."""
    if kind == "npc":
        title = f"NPC templates ({len(rows)}/{limit})"
        empty = "No NPC templates yet. Add one with `/npc create` or `/npc import`."
    elif mine:
        title = f"Your characters ({len(rows)}/{limit})"
        empty = "No characters yet. Start with `/character create` or `/character import`."
    else:
        title = f"Characters ({len(rows)}/{limit})"
        empty = "No characters."
    lines = [
        f"**{shown_name(row.name)}** · {ruleset_title(row.ruleset)} · "
        f"updated {_when(row.updated_at)}"
        for row in rows
    ]
    description = fit_lines(lines, DESCRIPTION_MAX, empty=empty)
    if owner_id is not None and not mine and kind == "character":
        description = f"Characters of <@{owner_id}>\n" + description
    return discord.Embed(title=title, description=description[:DESCRIPTION_MAX])
