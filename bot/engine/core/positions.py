"""Positions (issue 10, decision E): declared distances between combatants and engagement
groups (who is in melee with whom), for the rules that say adjacent, within 1 m, in reach.

There is no map: the table declares what matters. The Game Master sets a distance or an
engagement (``/gm place``); a ruleset's moves change them (a combatant that moves leaves its
engagement and its distances become unknown, unless the move says where to); rules read them
(:meth:`Positions.distance`; UTTAS's attack range when none is given). Plain, frozen data on the
state: every change returns a new :class:`Positions`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from bot.engine.core.scale import METERS, Scale

ENGAGED_M = 1.0
"""The distance between two engaged combatants, in meters ("within 1 m")."""
MAX_M = 10_000.0
Meters = Annotated[float, Field(ge=0, le=MAX_M)]


def _pair(a: str, b: str) -> str:
    return f"{a}|{b}" if a < b else f"{b}|{a}"


class Positions(BaseModel):
    """``distances``: meters between two combatants, by ``"a|b"`` (ids in order), where
    declared; ``engaged``: groups of combatant ids in melee with each other (disjoint, two or
    more each, ids in order)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    distances: dict[str, Meters] = Field(default_factory=dict)
    engaged: tuple[tuple[str, ...], ...] = ()

    def group_of(self, cid: str) -> tuple[str, ...]:
        """The engagement group ``cid`` is in (empty when it is in none)."""
        for group in self.engaged:
            if cid in group:
                return group
        return ()

    def are_engaged(self, a: str, b: str) -> bool:
        return a != b and b in self.group_of(a)

    def distance(self, a: str, b: str) -> float | None:
        """Meters between ``a`` and ``b``: :data:`ENGAGED_M` when engaged, the declared
        distance otherwise, None when nobody declared one."""
        if self.are_engaged(a, b):
            return ENGAGED_M
        return self.distances.get(_pair(a, b))

    def with_distance(self, a: str, b: str, meters: float) -> Positions:
        """``a`` and ``b`` are ``meters`` apart: engaged when that is within :data:`ENGAGED_M`,
        no longer engaged with each other when it is more."""
        distances = {**self.distances, _pair(a, b): meters}
        moved = self.model_copy(update={"distances": distances})
        if meters <= ENGAGED_M:
            return moved.engage(a, b)
        return moved._split(a, b)

    def engage(self, a: str, b: str) -> Positions:
        """``a`` and ``b`` are in melee: their groups merge (so is everyone already engaged
        with either)."""
        merged = set(self.group_of(a)) | set(self.group_of(b)) | {a, b}
        kept = [g for g in self.engaged if not merged & set(g)]
        distances = {k: v for k, v in self.distances.items() if not set(k.split("|")) <= merged}
        return self.model_copy(
            update={"engaged": _ordered([*kept, tuple(merged)]), "distances": distances}
        )

    def disengage(self, cid: str) -> Positions:
        """``cid`` leaves its engagement (the others stay engaged with each other)."""
        groups = [tuple(x for x in g if x != cid) for g in self.engaged]
        return self.model_copy(update={"engaged": _ordered(g for g in groups if len(g) >= 2)})

    def moved(self, cid: str) -> Positions:
        """``cid`` moved somewhere nobody declared: it leaves its engagement and its declared
        distances are no longer known."""
        distances = {k: v for k, v in self.distances.items() if cid not in k.split("|")}
        return self.disengage(cid).model_copy(update={"distances": distances})

    def forget(self, cid: str) -> Positions:
        """``cid`` left the encounter."""
        return self.moved(cid)

    def _split(self, a: str, b: str) -> Positions:
        """``a`` and ``b`` are apart: ``a`` leaves a group they shared."""
        return self.disengage(a) if self.are_engaged(a, b) else self

    def lines(self, name: dict[str, str], scale: Scale = METERS) -> list[str]:
        """The positions in words ("Willow ⚔ Thug 1", "Willow ↔ Thug 2: 12 m"), by ``name``,
        distances as ``scale`` shows them (a feet board: "30 ft")."""
        out = [" ⚔ ".join(name.get(c, c) for c in g) for g in self.engaged]
        for key, meters in sorted(self.distances.items()):
            a, b = key.split("|")
            out.append(f"{name.get(a, a)} ↔ {name.get(b, b)}: {scale.show(meters)}")
        return out


def _natural(cid: str) -> tuple[int, str]:
    """Ids in the order they were given ("c9" before "c10")."""
    return (len(cid), cid)


def _ordered(groups: Iterable[tuple[str, ...]]) -> tuple[tuple[str, ...], ...]:
    return tuple(
        sorted((tuple(sorted(g, key=_natural)) for g in groups), key=lambda g: _natural(g[0]))
    )
