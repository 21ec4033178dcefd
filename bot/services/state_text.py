"""An encounter state's JSON text, as ``state.model_dump_json()`` writes it, byte for byte — built
from texts kept with the parts that did not change (issue 15, "CPU diet").

Every change serialises the whole state (the versioned UPDATE writes it); pydantic spends most
of that on the combatants — each one's sheet above all — though a command changes one or two of
them. States, combatants and sheets are never changed in place (the engine clones what it
changes, :meth:`~bot.engine.core.state.CombatantBase.clone`; sheets are frozen and shared,
:mod:`bot.engine.core.shared`), so an object's text, once written, stays its text:

- each sheet's text is kept while the sheet lives (one per shared sheet);
- each combatant's text without its sheet is kept while the combatant lives, cut where the
  sheet goes;
- the state's text is written without its combatants and theirs are put back in place.

Texts are kept by object identity with a weak reference (an entry goes with its object; a
reused ``id`` never matches). A model laid out in a way this cannot rebuild exactly (a custom
serializer, aliases, an excluded field, a combatant or sheet of another type than the state
declares) is written by ``model_dump_json`` as before.
"""

from __future__ import annotations

import contextlib
import typing
import weakref
from typing import Any

from pydantic import BaseModel

from bot.engine.core.state import AnyState

_Kept = tuple["weakref.ReferenceType[Any]", tuple[str, ...]]
_TEXTS: dict[int, _Kept] = {}
"""``id(object)`` → (a weak reference to it, its text in pieces): combatants and sheets."""


class _Layout:
    """Where ``model_dump_json`` writes field ``name`` of a model class: after the fields before
    it, its key ``,"name":`` and its value, then ``,"following":`` (or the closing brace when
    it is the last field); ``kinds``: the classes its value may be written for exactly as on
    its own (the field's declared model classes)."""

    __slots__ = ("following", "key", "kinds", "name")

    def __init__(self, name: str, following: str | None, kinds: tuple[type, ...]) -> None:
        self.name = name
        self.key = f',"{name}":'
        self.following = None if following is None else f',"{following}":'
        self.kinds = kinds

    def split(self, without: str) -> tuple[str, str] | None:
        """The text of a model written without this field (``exclude``), cut where the field
        goes: (before it, from what follows it on); None when the place is not certain."""
        if self.following is None:
            if len(without) < 3 or not without.endswith("}"):
                return None  # no field before it: not a layout this rebuilds
            return without[:-1], "}"
        # The following field is always written, after a comma: when its key occurs once in
        # the text, that is the place. (Dictionary keys or nested fields of the same name
        # make it occur more often: then the text is written in full.)
        if without.count(self.following) != 1:
            return None
        at = without.index(self.following)
        return without[:at], without[at:]


_LAYOUTS: dict[tuple[type, str], _Layout | None] = {}


def _layout(cls: type[BaseModel], name: str) -> _Layout | None:
    """How ``cls`` writes its field ``name`` (None: not rebuilt, written in full)."""
    key = (cls, name)
    if key not in _LAYOUTS:
        _LAYOUTS[key] = _find_layout(cls, name)
    return _LAYOUTS[key]


def _find_layout(cls: type[BaseModel], name: str) -> _Layout | None:
    fields = list(cls.model_fields)
    if name not in fields or fields.index(name) == 0:
        return None
    decorators = cls.__pydantic_decorators__
    if decorators.model_serializers or decorators.field_serializers or cls.model_computed_fields:
        return None
    if cls.model_config.get("alias_generator") is not None:
        return None
    for info in cls.model_fields.values():
        if info.exclude or info.alias is not None or info.serialization_alias is not None:
            return None
    at = fields.index(name)
    following = fields[at + 1] if at + 1 < len(fields) else None
    declared = cls.model_fields[name].annotation
    if typing.get_origin(declared) is list:  # the combatants: a list of one model class
        declared = typing.get_args(declared)[0]
    kinds = tuple(_models(declared))
    if not kinds:
        return None
    return _Layout(name, following, kinds)


def _models(declared: Any) -> list[type]:
    """The model classes ``declared`` (a class, a union, an ``Annotated`` one) names; none when
    it names anything else too."""
    if isinstance(declared, type):
        return [declared] if issubclass(declared, BaseModel) else []
    origin = typing.get_origin(declared)
    if origin is typing.Annotated:
        return _models(typing.get_args(declared)[0])
    if origin in (typing.Union, _UnionType):
        found: list[type] = []
        for member in typing.get_args(declared):
            models = _models(member)
            if not models:
                return []
            found += models
        return found
    return []


_UnionType = type(int | str)


def _kept(obj: Any) -> tuple[str, ...] | None:
    entry = _TEXTS.get(id(obj))
    if entry is not None and entry[0]() is obj:
        return entry[1]
    return None


class _Ref(weakref.ref):  # type: ignore[type-arg]
    """A weak reference that knows its entry's key (no closure per entry)."""

    __slots__ = ("key",)
    key: int


def _gone(ref: _Ref) -> None:
    """Drop the entry of an object that is gone (unless its key names another one now)."""
    entry = _TEXTS.get(ref.key)
    if entry is not None and entry[0] is ref:
        del _TEXTS[ref.key]


def _keep(obj: Any, pieces: tuple[str, ...]) -> None:
    with contextlib.suppress(TypeError):  # a model with no weak references: not kept
        ref = _Ref(obj, _gone)
        ref.key = id(obj)
        _TEXTS[ref.key] = (ref, pieces)


def _sheet_text(sheet: BaseModel) -> str:
    pieces = _kept(sheet)
    if pieces is None:
        pieces = (sheet.model_dump_json(),)
        _keep(sheet, pieces)
    return pieces[0]


def _combatant_pieces(combatant: BaseModel) -> tuple[str, ...]:
    """The combatant's text in pieces: (its text) or (before the sheet with the sheet's key,
    after it), the sheet's text going between (:func:`_sheet_text`)."""
    pieces = _kept(combatant)
    if pieces is not None:
        return pieces
    layout = _layout(type(combatant), "sheet")
    sheet = getattr(combatant, "sheet", None)
    cut = None
    if layout is not None and type(sheet) in layout.kinds:
        cut = layout.split(combatant.model_dump_json(exclude={"sheet"}))
    pieces = (combatant.model_dump_json(),) if cut is None else (cut[0] + layout.key, cut[1])  # type: ignore[union-attr]
    _keep(combatant, pieces)
    return pieces


def state_text(state: AnyState) -> str:
    """``state.model_dump_json()``, byte for byte, rebuilt from the texts kept of its unchanged
    combatants and sheets (module docstring)."""
    layout = _layout(type(state), "combatants")
    if layout is None:
        return state.model_dump_json()
    parts: list[str] = []
    for n, combatant in enumerate(state.combatants):
        if type(combatant) not in layout.kinds:
            return state.model_dump_json()
        if n:
            parts.append(",")
        pieces = _combatant_pieces(combatant)
        if len(pieces) == 1:
            parts.append(pieces[0])
        else:
            parts += (pieces[0], _sheet_text(combatant.sheet), pieces[1])
    cut = layout.split(state.model_dump_json(exclude={"combatants"}))
    if cut is None:
        return state.model_dump_json()
    return "".join((cut[0], layout.key, "[", *parts, "]", cut[1]))


def kept_texts() -> int:
    """How many texts of combatants and sheets are kept now (tests, benchmarks)."""
    return len(_TEXTS)
