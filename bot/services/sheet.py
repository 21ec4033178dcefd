"""A stored sheet as the services hand it around: its row with its validated model, and how
one member may see it."""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel

from bot.store.sheets import SheetKind, SheetRow


@dataclass(frozen=True)
class Sheet:
    """A stored sheet with its validated model."""

    row: SheetRow
    model: BaseModel

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def name(self) -> str:
        return self.row.name

    @property
    def kind(self) -> SheetKind:
        return self.row.kind

    @property
    def ruleset(self) -> str:
        return self.row.ruleset


@dataclass(frozen=True)
class SheetView:
    """A sheet as one member may see it: ``full`` is False when the viewer is another player
    (they see what a player would see of someone else's character: no exact numbers)."""

    sheet: Sheet
    full: bool
    overrides: str | None = None
    """The server's rules tables (``/tables set``, JSON keyed by ruleset, as
    :func:`bot.engine.get_ruleset` takes them), so the sheet reads in the server's terms (its
    board's distances); ``None``: the rules texts' own tables."""
