"""A character's UTTAS state between fights: its campaign record (issue 10, decision A;
``docs/architecture.md`` "Campaign records").

What a fight leaves on a character and the rules say lasts beyond it: Health (it heals at a
point a week, UTTAS "Natural Healing"), Stamina and Stamina damage (a rest recovers them),
disabled limbs (until their Health is healed, "Disabled Limb"), breather uses (until a short
rest, "Take a Breather"), when it last rested (twice a day, once per 24 hours — in campaign
time) and the conditions that outlast a fight: Dead, Unconscious, Disabled limb and effects of
a day, a quest, an arc or the campaign, the Health regained today from Heal powers and
First Aid (their daily limits, "Healing"), and the uses spent of limited items (issue 11,
"Items"). Everything else (the Speed pool, stance, grapples, Prone, Staggered, what the hands
hold…) belongs to one fight: each fight starts with the sheet's weapons in hand. The sheet
keeps only natural values.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from bot.engine.core.effects import Effect
from bot.engine.uttas import rules
from bot.engine.uttas.sheet import UttasSheet
from bot.engine.uttas.state import (
    DEAD,
    DISABLED,
    UNCONSCIOUS,
    Combatant,
    DisabledLimb,
    HealedToday,
)
from bot.engine.uttas.tables import UttasTables

LASTING = frozenset({DEAD, UNCONSCIOUS, DISABLED})
"""Conditions that outlast the fight whatever their scope."""
LONG_SCOPES = frozenset({"day", "quest", "arc", "campaign"})


class UttasRecord(BaseModel):
    """One character's UTTAS campaign record. ``health``/``stamina``: current values;
    ``short_rests_at``/``long_rest_at``: campaign time (seconds) of its rests."""

    model_config = ConfigDict(extra="forbid")

    health: int
    stamina: int
    stamina_damage: int = Field(default=0, ge=0)
    disabled_limbs: list[DisabledLimb] = Field(default_factory=list)
    breather_uses: int = Field(ge=0)
    short_rests_at: list[int] = Field(default_factory=list)
    long_rest_at: int | None = None
    effects: list[Effect] = Field(default_factory=list)
    healed: HealedToday = Field(default_factory=HealedToday)
    item_uses: dict[str, Annotated[int, Field(ge=0)]] = Field(default_factory=dict)
    """Uses spent of each limited item (item name → uses), for good: raising the item's
    ``uses`` on the sheet restocks it."""


def record_of(c: Combatant) -> UttasRecord:
    """What of ``c`` outlasts the fight (module docstring)."""
    return UttasRecord(
        health=c.health,
        stamina=c.stamina,  # held Stamina is spent: a maintained power ends with the fight
        stamina_damage=c.stamina_damage,
        disabled_limbs=[d for d in c.disabled_limbs if d.source == "injury"],
        breather_uses=c.breather_uses,
        short_rests_at=list(c.short_rests_at),
        long_rest_at=c.long_rest_at,
        effects=[e for e in c.effects if e.name in LASTING or e.scope in LONG_SCOPES],
        healed=c.healed.model_copy(),
        item_uses=dict(c.item_uses),
    )


def apply_record(c: Combatant, record: UttasRecord, tables: UttasTables) -> None:
    """Start ``c`` (fresh from its sheet) where its record left it. A sheet changed since is
    respected: Health and Stamina never above its maximums, breather uses never above its
    natural Body dice."""
    most = rules.dice_of(c, "body", tables, natural=True)
    c.health = min(record.health, c.sheet.health)
    c.stamina = min(record.stamina, c.sheet.stamina)
    c.stamina_damage = min(record.stamina_damage, max(0, c.sheet.stamina - c.stamina))
    c.disabled_limbs = [d.model_copy() for d in record.disabled_limbs]
    c.breather_uses = min(record.breather_uses, most)
    c.short_rests_at = list(record.short_rests_at)
    c.long_rest_at = record.long_rest_at
    c.effects = list(record.effects)
    c.healed = record.healed.model_copy()
    c.item_uses = dict(record.item_uses)
    c.holding = c.sheet.starting_hands({d.limb for d in c.disabled_limbs})


def record_lines(sheet: UttasSheet, record: UttasRecord | None, tables: UttasTables) -> list[str]:
    """The record in words for ``/campaign show``: Health, Stamina, breathers, limbs, lasting
    conditions; a fresh character (no record) is at its sheet's values."""
    override = sheet.characteristic_dice.get("body")  # breathers: natural Body dice
    breathers = override if override is not None else rules.characteristic_dice(sheet.body, tables)
    if record is None:
        return [
            f"Health {sheet.health}/{sheet.health} · Stamina {sheet.stamina}/{sheet.stamina}",
            f"Breathers left: {breathers} of {breathers}",
            "Fresh: no fight has left a mark yet.",
        ]
    lines = [
        f"Health {record.health}/{sheet.health} · Stamina {record.stamina}/{sheet.stamina}",
        f"Breathers left: {record.breather_uses} of {breathers}",
    ]
    if record.disabled_limbs:
        limbs = ", ".join(
            f"{d.limb} (until Health {d.restore_at_health})" if d.restore_at_health else d.limb
            for d in record.disabled_limbs
        )
        lines.append(f"Disabled: {limbs}")
    lasting = [
        e.name if e.scope == "until_removed" else f"{e.name} ({e.scope})" for e in record.effects
    ]
    if lasting:
        lines.append("Conditions: " + ", ".join(lasting))
    spent = [
        f"{i.name} {min(record.item_uses[i.name], i.uses)} of {i.uses}"
        for i in sheet.items
        if i.uses is not None and record.item_uses.get(i.name)
    ]
    if spent:
        lines.append("Item uses spent: " + ", ".join(spent))
    return lines
