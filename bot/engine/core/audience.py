"""Who reads what: audiences and the view an event renders itself for.

Every event renders for an :class:`Audience` through a :class:`View` of the encounter state
(:meth:`bot.engine.core.events.Event.render`). Whether numbers about a combatant may be shown is
decided here, once (:meth:`View.reveals`):

* the **GM** sees every number;
* the **public** (everyone in the channel) sees every number of player characters, and of NPCs
  only while the encounter's ``hide_npc_numbers`` setting is off;
* the **controller** of a combatant sees what the public sees plus that combatant's numbers.

What players may see of an NPC whose numbers are hidden is what a player at a physical table
would see: its name, hit or miss, the dice rolled against them, its wound level
(:meth:`bot.engine.core.contract.Ruleset.wound_level`) and its named conditions and stance. Hidden:
Health, Stamina, characteristics (Body, Agility…), Dodge, Discipline, Armor, Defense, bonuses,
actions and Speed, breather uses, and exact damage after Armor and Defense. ``docs/audiences.md``
lists it for players and GMs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from bot.engine.core.state import AnyState

AudienceKind = Literal["public", "gm", "controller"]


@dataclass(frozen=True, slots=True)
class Audience:
    """The readers of one rendering: ``public`` (the channel), ``gm``, or the ``controller``
    whose Discord user id is ``member_id``."""

    kind: AudienceKind
    member_id: int | None = None


PUBLIC = Audience("public")
GM = Audience("gm")


def controller(member_id: int) -> Audience:
    """The audience of one member reading about the combatants they control."""
    return Audience("controller", member_id)


def _plain(text: str) -> str:
    return text


class View:
    """One audience's view of one encounter state.

    ``escape`` makes a name safe for the medium (the Discord layer escapes Markdown and
    mentions; the engine passes plain text through). ``wound_level`` describes a combatant whose
    numbers are hidden (the ruleset's :meth:`~bot.engine.core.contract.Ruleset.wound_level`).
    """

    def __init__(
        self,
        state: AnyState,
        audience: Audience,
        *,
        wound_level: Callable[[Any], str],
        escape: Callable[[str], str] = _plain,
    ) -> None:
        self.state = state
        self.audience = audience
        self.wound_level = wound_level
        self.escape = escape
        self._by_id = {c.id: c for c in state.combatants}

    def combatant(self, cid: str | None) -> Any:
        """The combatant with this id, or ``None`` (gone from the encounter, or no id)."""
        return self._by_id.get(cid) if cid else None

    def reveals(self, cid: str | None) -> bool:
        """Whether this audience may see the numbers of combatant ``cid`` (see the module
        docstring). Numbers about nobody in particular (``cid`` None) are not hidden. Numbers
        of a combatant the state no longer holds (it left with ``/gm remove``; an event logged
        before, rendered again for a recap) are the GM's only while the encounter hides NPC
        numbers: the state cannot tell whether it was an NPC, nor whose."""
        if self.audience.kind == "gm":
            return True
        if not cid:
            return True
        c = self.combatant(cid)
        if not self.state.settings.hide_npc_numbers:
            return True
        if c is None:
            return False
        if not c.is_npc:
            return True
        return self.audience.kind == "controller" and c.controller_id == self.audience.member_id

    def shows_odds(self, attacker: str | None, target: str | None) -> bool:
        """Whether this audience may read the chance an attack had (issue 18, the attack's
        result): the GM always; anyone else when they may see the attacker's numbers and the
        target's — or the target's are hidden but the GM lets players see the odds against
        such NPCs (``show_odds``, as for ``/odds``). The odds follow from the attacker's bonus
        and the target's defense, so they are hidden exactly when those are."""
        if self.audience.kind == "gm":
            return True
        if not self.reveals(attacker):
            return False
        return self.reveals(target) or self.state.settings.show_odds

    def name(self, cid: str | None, fallback: str = "someone") -> str:
        """A combatant's name, escaped for the medium."""
        c = self.combatant(cid)
        return self.escape(c.name) if c else self.escape(fallback)

    def looks(self, cid: str | None) -> str:
        """How a combatant looks (its wound level), e.g. ``Bloodied``."""
        c = self.combatant(cid)
        return self.wound_level(c) if c else "gone"

    def text(self, raw: str) -> str:
        """Engine text made safe for the medium, whole: the engine writes plain sentences, so
        everything in them — names, weapons, stances, a readied plan — is shown as typed and
        formats or pings nothing."""
        return self.escape(raw)
