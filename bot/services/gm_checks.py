"""Who may do what to an encounter, as the refusals say it: the GM's tools, and a sheet that
fits the encounter's game system. Shared by the encounter, roster, combat and moderation
services."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from bot import names
from bot.engine.core.contract import Ruleset
from bot.errors import InvalidInput, NotAllowed
from bot.services.actor import Actor
from bot.services.encounter import Encounter, UnreadEncounter, row_gm
from bot.store.encounters import EncounterRow


def ensure_sheet_fits(rules: Ruleset[Any], sheet: BaseModel, name: str) -> None:
    if not isinstance(sheet, rules.sheet_model | rules.sheet_model_for("npc")):
        raise InvalidInput(
            f"**{names.escaped(name)}** is not a {rules.title} sheet; this encounter uses "
            f"{rules.title}."
        )


def ensure_gm(encounter: Encounter | UnreadEncounter, actor: Actor, action: str) -> None:
    if not encounter.is_gm(actor):
        raise NotAllowed(not_gm_message(encounter, action))


def ensure_row_gm(row: EncounterRow, actor: Actor, action: str) -> None:
    """:func:`ensure_gm` asked of encounter ``row`` alone, its fight not read: so a member
    who is not its GM is refused as such before anything the fight would refuse them for (a
    newer bot's fight, which only its GM can do anything about)."""
    if not row_gm(row, actor):
        raise NotAllowed(not_gm_text(row, action))


def not_gm_message(encounter: Encounter | UnreadEncounter, action: str) -> str:
    """The refusal "Only the GM can …", naming who the GMs of ``encounter`` are."""
    return not_gm_text(encounter.row, action)


def not_gm_text(row: EncounterRow, action: str) -> str:
    """The refusal "Only the GM can …", naming who the GMs of encounter ``row`` are."""
    role = f", a member with <@&{row.gm_role_id}>" if row.gm_role_id else ""
    return (
        f"Only the GM can {action}: <@{row.gm_id}>{role} or a member with "
        "Manage Server or Manage Channels."
    )
