"""Character sheets and NPC templates: create, import, export, show, list, edit, delete.

A *character* belongs to a member in a server; an *NPC template* belongs to the server and only
its GMs (members with Manage Server or Manage Channels) may see or change it. Every sheet passes
through its ruleset's sheet model (``bot.engine.get_ruleset(key).sheet_model``) before it is
stored, so the database only ever holds valid sheets. Names are normalised by :mod:`bot.names`
(invisible characters removed, NFKC, whitespace collapsed; control characters and blank names
refused) and matched exactly on :func:`bot.names.key`, never by prefix or substring.

Writes run in one transaction that also checks the limits (sheets per member, templates per
server), so two racing imports cannot exceed them; the unique indexes settle name clashes.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from bot import names
from bot.engine import REGISTRY, get_ruleset
from bot.errors import Conflict, InvalidInput, NotAllowed, NotFound
from bot.services.actor import Actor
from bot.services.permissions import is_server_gm
from bot.services.sheet import Sheet as Sheet
from bot.services.sheet import SheetView as SheetView
from bot.services.sheet_deletion import GM_ONLY, SheetDeletion
from bot.services.sheet_examples import EXAMPLES_DIR, ExampleSheets, rank
from bot.services.sheet_examples import quoted as _shown
from bot.services.sheet_examples import ruleset_title as ruleset_title
from bot.services.sheet_input import FILE_MAX_BYTES, describe_errors, foreign_sheet, parse_json
from bot.services.sheet_paths import apply_edit, suggest
from bot.store import guild_settings
from bot.store import sheets as repo
from bot.store.base import Store
from bot.store.sheets import SheetKind, SheetRow

log = logging.getLogger(__name__)

_FIRST_EXAMPLE = {"uttas": "willow", "utopia": "vesna", "untitled": "wren", "uune": "mira"}
"""Each game system's first example character, for a player who has none yet (the README's)."""

CHARACTERS_PER_MEMBER = 25
NPCS_PER_SERVER = 200
NAME_MAX = 80  # a combatant's name, a button label
NPC_NAME_MAX = 72  # leaves room for the number of a copy ("Thug 12")


def utc_now() -> datetime:
    return datetime.now(UTC)


def ruleset_sheet_model(key: str, kind: SheetKind = "character") -> type[BaseModel]:
    """The model a ruleset's sheet of ``kind`` validates with (an NPC template may have its own,
    ``Ruleset.npc_sheet_model``); raises the engine's errors for unknown/planned rulesets."""
    return get_ruleset(key).sheet_model_for(kind)


def name_key(name: str) -> str:
    """The key names are matched on (:func:`bot.names.key`): the normal form, case-folded."""
    return names.key(name)


def _read_as(key: str) -> str:
    """Why a file that names no ``system`` was read by ``key``'s sheet (UTTAS, the default),
    said when it has a field that sheet does not know — a Utopia sheet typed without
    ``"system": "utopia"`` read "`shp` is not a known field; allowed: agility, body, …" with no
    word of which sheet the file was checked as."""
    others = [k for k in REGISTRY.implemented if k != key.casefold()]
    example = others[0] if others else key
    named = ", ".join(f"`{k}`" for k in others)
    return (
        f"It names no `system`, so it was read as a {ruleset_title(key)} sheet; a sheet of "
        f'another game system names it ({named}): `"system": "{example}"`, as an exported '
        "sheet does."
    )


def _noun(kind: SheetKind) -> str:
    return "NPC template" if kind == "npc" else "character"


@dataclass(frozen=True)
class Stored:
    """The result of a create or import: the sheet and whether it replaced an older one."""

    sheet: Sheet
    replaced: bool
    source: str | None = None
    unmapped: tuple[str, ...] = ()


class SheetService(ExampleSheets, SheetDeletion):
    """Use cases over the ``sheets`` table. ``sheet_model`` maps a ruleset key to its sheet
    model (the engine's registry by default); ``examples_dir`` holds the example sheets."""

    def __init__(
        self,
        db: Store,
        *,
        clock: Callable[[], datetime] = utc_now,
        sheet_model: Callable[[str, SheetKind], type[BaseModel]] = ruleset_sheet_model,
        examples_dir: Path = EXAMPLES_DIR,
        characters_per_member: int = CHARACTERS_PER_MEMBER,
        npcs_per_server: int = NPCS_PER_SERVER,
    ) -> None:
        self._db = db
        self._clock = clock
        self._sheet_model = sheet_model
        self._examples_dir = examples_dir
        self.characters_per_member = characters_per_member
        self.npcs_per_server = npcs_per_server

    # --- validation ----------------------------------------------------------------------------

    async def server_gm(self, guild_id: int, actor: Actor) -> bool:
        """Manage Server, Manage Channels (server-wide), or the server's GM role
        (``/gm seat role``)."""
        if actor.server_manager:
            return True
        async with self._db.read() as conn:
            return await is_server_gm(conn, guild_id, actor)

    async def require_may_write(self, guild_id: int, kind: SheetKind, actor: Actor) -> None:
        """Refuse a non-GM before a form opens for an NPC template (the write checks again)."""
        if kind == "npc" and not await self.server_gm(guild_id, actor):
            raise NotAllowed(GM_ONLY)

    def require_ruleset(self, ruleset: str) -> None:
        """Raise the engine's error for an unknown or not-yet-playable ruleset."""
        self._sheet_model(ruleset, "character")

    def validate(
        self,
        ruleset: str,
        data: Any,
        *,
        kind: SheetKind,
        heading: str = "That sheet is not valid",
        unknown_note: str | None = None,
    ) -> BaseModel:
        """Validate ``data`` with the ruleset's sheet model. Raises :class:`InvalidInput` with one
        message naming every invalid field, its value and what is allowed (and ``unknown_note``
        under the heading when a top-level field is unknown)."""
        model_cls = self._sheet_model(ruleset, kind)
        try:
            model = model_cls.model_validate(data)
        except ValidationError as exc:
            text = describe_errors(exc, model_cls, data, heading=heading, unknown_note=unknown_note)
            raise InvalidInput(text) from None
        _check_name(_name_of(model), kind)
        size = len(export_bytes(model))
        if size > FILE_MAX_BYTES:
            # Everything stored must export to a file that imports again.
            raise InvalidInput(
                f"That sheet would be {size:,} bytes as JSON; sheets are at most "
                f"{FILE_MAX_BYTES:,} bytes. Shorten some lists or descriptions."
            )
        return model

    def _load(self, row: SheetRow) -> Sheet:
        """A stored sheet; names stored before today's name rules are normalised, not refused."""
        model = self._sheet_model(row.ruleset, row.kind).model_validate_json(
            row.sheet_json, context=names.STORED
        )
        return Sheet(row=row, model=model)

    # --- writes -------------------------------------------------------------------------------

    async def create(
        self, guild_id: int, actor: Actor, kind: SheetKind, ruleset: str, fields: dict[str, Any]
    ) -> Sheet:
        """A new sheet from the key fields (the rest take the model's defaults)."""
        await self.require_may_write(guild_id, kind, actor)
        model = self.validate(ruleset, fields, kind=kind, heading="That sheet was not created")
        stored = await self._store(guild_id, actor, kind, ruleset, model, replace=False)
        return stored.sheet

    async def import_file(
        self,
        guild_id: int,
        actor: Actor,
        kind: SheetKind,
        content: bytes,
        *,
        rename: str | None = None,
        replace: bool = False,
        ruleset: str = "uttas",
    ) -> Stored:
        """Import a JSON sheet (an export, an edited export, an example). The sheet's own
        ``system`` field, when present, names its ruleset. A refused import changes nothing."""
        await self.require_may_write(guild_id, kind, actor)
        data = parse_json(content)
        return await self._import_data(guild_id, actor, kind, data, rename, replace, ruleset)

    async def import_example(
        self,
        guild_id: int,
        actor: Actor,
        kind: SheetKind,
        key: str,
        *,
        rename: str | None = None,
        replace: bool = False,
    ) -> Stored:
        """Import one of the shipped example sheets by key (e.g. ``willow``)."""
        await self.require_may_write(guild_id, kind, actor)
        example = self.example(key)
        data = parse_json(example.path.read_bytes())
        return await self._import_data(
            guild_id, actor, kind, data, rename, replace, example.ruleset
        )

    async def _import_data(
        self,
        guild_id: int,
        actor: Actor,
        kind: SheetKind,
        data: dict[str, Any],
        rename: str | None,
        replace: bool,
        ruleset: str,
    ) -> Stored:
        foreign = foreign_sheet(data)
        if foreign is not None:
            key, translated = foreign
            data = translated.data
        else:
            system = data.get("system")
            key = system if isinstance(system, str) and system else ruleset
        note = None if "system" in data else _read_as(key)
        if rename is not None:
            limit = NPC_NAME_MAX if kind == "npc" else NAME_MAX
            data = {**data, "name": names.require(rename, what="the name", max_length=limit)}
        model = self.validate(
            key, data, kind=kind, heading="That sheet was not imported", unknown_note=note
        )
        stored = await self._store(guild_id, actor, kind, key, model, replace=replace)
        if foreign is None:
            return stored
        return dataclasses.replace(stored, source=foreign[1].source, unmapped=foreign[1].unmapped)

    async def _store(
        self,
        guild_id: int,
        actor: Actor,
        kind: SheetKind,
        ruleset: str,
        model: BaseModel,
        *,
        replace: bool,
    ) -> Stored:
        name = _name_of(model)
        key = name_key(name)
        sheet_json = model.model_dump_json()
        now = self._clock()
        async with self._db.transaction() as conn:
            existing = await self._by_key(conn, guild_id, actor.user_id, kind, key)
            if existing is not None:
                if not replace:
                    where = "This server already has" if kind == "npc" else "You already have"
                    raise Conflict(
                        f"{where} a{'n' if kind == 'npc' else ''} {_noun(kind)} called "
                        f"**{_shown(existing.name)}**. Choose another name, or set "
                        "`replace: True` to overwrite it."
                    )
                row = await repo.update(
                    conn, existing, name=name, name_key=key, sheet_json=sheet_json, now=now
                )
                return Stored(Sheet(row=row, model=model), replaced=True)
            await self._ensure_room(conn, guild_id, actor.user_id, kind)
            row = await repo.insert(
                conn,
                guild_id=guild_id,
                owner_id=actor.user_id,
                kind=kind,
                ruleset=ruleset,
                name=name,
                name_key=key,
                sheet_json=sheet_json,
                now=now,
            )
        log.info("%s %s stored in guild %s by %s", kind, row.id, guild_id, actor.user_id)
        return Stored(Sheet(row=row, model=model), replaced=False)

    async def _ensure_room(self, conn: Any, guild_id: int, owner_id: int, kind: SheetKind) -> None:
        if kind == "npc":
            if await repo.count_npcs(conn, guild_id) >= self.npcs_per_server:
                raise Conflict(
                    f"This server already has {self.npcs_per_server} NPC templates, the limit. "
                    "Delete one with `/npc delete` first."
                )
        elif await repo.count_characters(conn, guild_id, owner_id) >= self.characters_per_member:
            raise Conflict(
                f"You already have {self.characters_per_member} characters in this server, the "
                "limit. Delete one with `/character delete` first."
            )

    @staticmethod
    async def _by_key(
        conn: Any, guild_id: int, owner_id: int, kind: SheetKind, key: str
    ) -> SheetRow | None:
        if kind == "npc":
            return await repo.npc_by_key(conn, guild_id, key)
        return await repo.character_by_key(conn, guild_id, owner_id, key)

    async def edit(
        self, guild_id: int, actor: Actor, kind: SheetKind, name: str, path: str, value: str
    ) -> Sheet:
        """Change one field (see :mod:`bot.services.sheet_paths`); the whole sheet is validated
        again and nothing changes when it fails."""
        sheet = await self.get_own(guild_id, actor, kind, name)
        model_cls = type(sheet.model)
        data = sheet.model.model_dump(mode="json")
        edited = apply_edit(model_cls, data, path, value)
        model = self.validate(
            sheet.ruleset, edited, kind=kind, heading=f"**{_shown(sheet.name)}** was not changed"
        )
        new_name = _name_of(model)
        async with self._db.transaction() as conn:
            current = await repo.by_id(conn, sheet.id)
            if current is None:
                raise NotFound(f"**{_shown(sheet.name)}** was deleted meanwhile.")
            row = await repo.update(
                conn,
                current,
                name=new_name,
                name_key=name_key(new_name),
                sheet_json=model.model_dump_json(),
                now=self._clock(),
            )
        return Sheet(row=row, model=model)

    # --- reads --------------------------------------------------------------------------------

    async def get_own(
        self, guild_id: int, actor: Actor, kind: SheetKind, name: str, ruleset: str | None = None
    ) -> Sheet:
        """A sheet ``actor`` may change, by exact name: their own character, or (GMs) an NPC
        template. Raises :class:`NotFound` / :class:`NotAllowed`."""
        await self.require_may_write(guild_id, kind, actor)
        _require_typed(kind, name)
        key = name_key(name)
        async with self._db.read() as conn:
            row = await self._by_key(conn, guild_id, actor.user_id, kind, key)
        if row is None:
            if kind == "character":
                async with self._db.read() as conn:
                    owned = await repo.count_characters(conn, guild_id, actor.user_id)
                if owned == 0:  # a new player: say how to get a first sheet
                    example = _FIRST_EXAMPLE.get(ruleset or "", "willow")
                    raise NotFound(
                        f"You have no character called **{_shown(name)}**, nor any other in "
                        f"this server yet: bring one in with `/character import "
                        f"example:{example}` or make one with `/character create`."
                    )
            where = "This server has no NPC template" if kind == "npc" else "You have no character"
            raise NotFound(
                f"{where} called **{_shown(name)}**. Names must match exactly; "
                f"see `/{'npc' if kind == 'npc' else 'character'} list`."
            )
        if ruleset is not None and row.ruleset != ruleset:
            example = _FIRST_EXAMPLE.get(ruleset, "willow")
            raise InvalidInput(
                f"**{_shown(row.name)}** is a {ruleset_title(row.ruleset)} sheet; this "
                f"encounter uses {ruleset_title(ruleset)}: bring in a {ruleset_title(ruleset)} "
                f"character with `/character import example:{example}` or `/character create` "
                "(here it makes one of this encounter's)."
            )
        return self._load(row)

    async def template(self, guild_id: int, name: str) -> Sheet:
        """An NPC template by exact name, for a caller that has already checked the member is
        the GM of the encounter it goes into (an encounter's starter may lack Manage Server)."""
        _require_typed("npc", name)
        async with self._db.read() as conn:
            row = await repo.npc_by_key(conn, guild_id, name_key(name))
        if row is None:
            raise NotFound(
                f"This server has no NPC template called **{_shown(name)}**. Names must match "
                "exactly (autocomplete lists the templates); a server GM (Manage Server, Manage "
                "Channels or the GM role) adds one with `/npc import` or `/npc create`, or add "
                "a one-off NPC with `/gm add-npc name:`."
            )
        return self._load(row)

    async def source_of(
        self, guild_id: int, *, is_npc: bool, controller_id: int | None, sheet_name: str
    ) -> Sheet:
        """The stored sheet a combatant was made from: its controller's character, or the NPC
        template, with the name its snapshot carries. For GMs refreshing a combatant."""
        if is_npc:
            return await self.template(guild_id, sheet_name)
        async with self._db.read() as conn:
            row = (
                await repo.character_by_key(conn, guild_id, controller_id, name_key(sheet_name))
                if controller_id is not None
                else None
            )
        if row is None:
            raise NotFound(
                f"The character sheet **{_shown(sheet_name)}** no longer exists (deleted or "
                "renamed), so there is nothing to refresh from."
            )
        return self._load(row)

    async def show(
        self,
        guild_id: int,
        actor: Actor,
        kind: SheetKind,
        name: str,
        owner_id: int | None = None,
    ) -> SheetView:
        """A sheet to look at, in the server's rules tables (:attr:`SheetView.overrides`).
        Characters: the owner and GMs see everything, other players a public view. NPC
        templates: GMs only."""
        if kind == "npc" or owner_id is None or owner_id == actor.user_id:
            sheet = await self.get_own(guild_id, actor, kind, name)
            return await self.owner_view(guild_id, sheet)
        _require_typed(kind, name)
        async with self._db.read() as conn:
            row = await repo.character_by_key(conn, guild_id, owner_id, name_key(name))
            overrides = await guild_settings.rules_overrides(conn, guild_id)
        if row is None:
            raise NotFound(f"<@{owner_id}> has no character called **{_shown(name)}**.")
        full = await self.server_gm(guild_id, actor)
        return SheetView(sheet=self._load(row), full=full, overrides=overrides)

    async def owner_view(self, guild_id: int, sheet: Sheet) -> SheetView:
        """``sheet`` as its owner sees it (in full), in the server's rules tables: what
        ``/character show``, a create, an import and an edit show."""
        async with self._db.read() as conn:
            overrides = await guild_settings.rules_overrides(conn, guild_id)
        return SheetView(sheet=sheet, full=True, overrides=overrides)

    async def list_sheets(
        self, guild_id: int, actor: Actor, kind: SheetKind, member_id: int | None = None
    ) -> list[SheetRow]:
        """Your characters; another member's (GMs only); or the server's NPC templates (GMs)."""
        if kind == "npc":
            await self.require_may_write(guild_id, kind, actor)
            async with self._db.read() as conn:
                return await repo.npcs_of(conn, guild_id)
        owner = member_id if member_id is not None else actor.user_id
        if owner != actor.user_id and not await self.server_gm(guild_id, actor):
            raise NotAllowed(
                "Only a GM (Manage Server or Manage Channels) can list another member's characters."
            )
        async with self._db.read() as conn:
            return await repo.characters_of(conn, guild_id, owner)

    async def export(
        self, guild_id: int, actor: Actor, kind: SheetKind, name: str
    ) -> tuple[str, bytes]:
        """``(filename, JSON bytes)`` of one of your sheets (or, for GMs, an NPC template)."""
        sheet = await self.get_own(guild_id, actor, kind, name)
        return export_filename(sheet.name), export_bytes(sheet.model)

    async def name_choices(
        self,
        guild_id: int,
        actor: Actor,
        kind: SheetKind,
        typed: str,
        ruleset: str | None = None,
    ) -> list[str]:
        """Autocomplete: at most 25 names of *your* characters (or, for GMs, NPC templates)
        containing ``typed``, prefix matches first. Never another member's sheets."""
        if kind == "npc" and not await self.server_gm(guild_id, actor):
            return []
        async with self._db.read() as conn:
            if kind == "npc":
                rows = await repo.npcs_of(conn, guild_id, ruleset)
            else:
                rows = await repo.characters_of(conn, guild_id, actor.user_id, ruleset)
        return rank([row.name for row in rows], typed)

    async def template_names(
        self, guild_id: int, typed: str, ruleset: str | None = None
    ) -> list[str]:
        """Autocomplete of NPC template names for an encounter's GM (checked by the caller)."""
        async with self._db.read() as conn:
            rows = await repo.npcs_of(conn, guild_id, ruleset)
        return rank([row.name for row in rows], typed)

    async def field_choices(
        self, guild_id: int, actor: Actor, kind: SheetKind, name: str, typed: str
    ) -> list[tuple[str, str]]:
        """Autocomplete of field paths of one of your sheets: ``(label, path)``, at most 25."""
        try:
            sheet = await self.get_own(guild_id, actor, kind, name)
        except (NotFound, NotAllowed):
            return []
        return suggest(type(sheet.model), sheet.model.model_dump(mode="json"), typed)


# --- helpers ----------------------------------------------------------------------------------


def export_bytes(model: BaseModel) -> bytes:
    """A sheet as pretty JSON (UTF-8), exactly what ``import`` reads back."""
    return (json.dumps(model.model_dump(mode="json"), indent=2, ensure_ascii=False) + "\n").encode()


def export_filename(name: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", name.casefold()).strip("-")[:60]
    return f"{slug or 'sheet'}.json"


def _name_of(model: BaseModel) -> str:
    name = getattr(model, "name", None)
    if not isinstance(name, str):
        raise InvalidInput("A sheet needs a `name`.")
    return name


def _check_name(name: str, kind: SheetKind) -> None:
    limit = NPC_NAME_MAX if kind == "npc" else NAME_MAX
    if len(name) > limit:
        raise InvalidInput(
            f"`name` = **{_shown(name)}** is {len(name)} characters long; "
            f"{_noun(kind)} names are at most {limit} characters."
        )


def _require_typed(kind: SheetKind, name: str) -> None:
    """Refuse a sheet name typed to look one up that shows as nothing (a space, a zero-width
    character): "no character called ****" would quote nothing."""
    if names.blank(name):
        listed = "`/npc list`" if kind == "npc" else "`/character list`"
        what = "NPC template" if kind == "npc" else "character"
        raise NotFound(f"The {what} name you typed {names.BLANK}; see {listed}.")
