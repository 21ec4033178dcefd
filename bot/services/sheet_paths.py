"""Editing one field of a sheet by a dotted path, for ``/character edit``.

Paths follow the sheet model's own field names, generically (any ruleset's pydantic sheet):

* ``agility``, ``speed``, ``name`` — a plain value;
* ``movement.fly`` — a field of a nested part;
* ``armor.fire`` — one entry of a mapping (``-`` removes it);
* ``stances`` — a list of words, comma-separated (``-`` empties it);
* ``weapons.Club`` — a whole item of a list, as a JSON object (``-`` removes it; a new name adds
  one); ``weapons.Club.damage_dice`` — one field of that item (items are found by exact,
  case-insensitive name).

The edited data is validated again by the sheet model in the service, so a value of the wrong
type or out of bounds is refused with the field named. Nothing here touches the database.
"""

from __future__ import annotations

import copy
import json
import types
import typing
from typing import Any, Literal

from pydantic import BaseModel

from bot import names
from bot.errors import InvalidInput, NotFound
from bot.services.sheet_input import is_none_word, loads, unwrap_model

Shape = Literal["scalar", "list", "dict", "model", "models"]
HIDDEN_FIELDS = frozenset({"system"})
CHOICE_MAX = 25
CHOICE_TEXT_MAX = 100


def shape_of(annotation: Any) -> Shape:
    """How a field is edited, from its annotation."""
    origin = typing.get_origin(annotation)
    args = [a for a in typing.get_args(annotation) if a is not Ellipsis and a is not type(None)]
    if origin is typing.Annotated:
        return shape_of(args[0])
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return "model"
    if origin is dict:
        return "dict"
    if origin in (tuple, list):
        return "models" if unwrap_model(annotation) is not None else "list"
    if origin in (typing.Union, types.UnionType):
        inner = args[0] if len(args) == 1 else None
        return shape_of(inner) if inner is not None and shape_of(inner) == "model" else "scalar"
    return "scalar"


def _optional(annotation: Any) -> bool:
    return type(None) in typing.get_args(annotation)


def parse_value(text: str) -> Any:
    """A typed value as JSON, with the same limits as an uploaded file."""
    return loads(text.strip())


def _looks_json(text: str) -> bool:
    return text.strip()[:1] in ("{", "[", '"')


def _convert(shape: Shape, annotation: Any, raw: str, path: str) -> Any:
    text = raw.strip()
    if shape == "scalar":
        if is_none_word(text) and _optional(annotation):
            return None
        return parse_value(text) if _looks_json(text) else text
    if shape == "list":
        if is_none_word(text):
            return []
        if text.startswith("["):
            return parse_value(text)
        return [part.strip() for part in text.split(",") if part.strip()]
    if is_none_word(text):
        return [] if shape == "models" else ({} if shape == "dict" else None)
    value = parse_value(text)
    expected: type = list if shape == "models" else dict
    if not isinstance(value, expected):
        noun = "a JSON list (`[ ... ]`)" if shape == "models" else "a JSON object (`{ ... }`)"
        raise InvalidInput(f"{names.code(path)} takes {noun}.")
    return value


def _field(model: type[BaseModel], name: str) -> str | None:
    folded = name.strip().casefold()
    return next(
        (f for f in model.model_fields if f.casefold() == folded and f not in HIDDEN_FIELDS), None
    )


def _unknown(model: type[BaseModel], name: str, where: str) -> InvalidInput:
    allowed = ", ".join(f for f in model.model_fields if f not in HIDDEN_FIELDS)
    return InvalidInput(
        f"{names.code(name[:60])} is not a field of {where}; the fields are: {allowed}."
    )


def _find_item(items: list[Any], rest: str) -> tuple[int | None, str, str]:
    """``(index, item name, sub-path)`` — the longest dotted prefix of ``rest`` naming an item."""
    pieces = rest.split(".")
    for cut in range(len(pieces), 0, -1):
        name = ".".join(pieces[:cut]).strip()
        folded = name.casefold()
        for index, item in enumerate(items):
            if isinstance(item, dict) and str(item.get("name", "")).casefold() == folded:
                return index, name, ".".join(pieces[cut:])
    return None, rest.strip(), ""


_Step = tuple[dict[str, Any], type[BaseModel], str, str]
"""Where an edit goes on: ``(container, its model, the path left, where it is in words)``."""


def apply_edit(model: type[BaseModel], data: dict[str, Any], path: str, raw: str) -> dict[str, Any]:
    """A copy of ``data`` with the field at ``path`` set from the typed ``raw`` value.

    Raises :class:`InvalidInput` for an unknown path or a malformed value and :class:`NotFound`
    for a list item that does not exist. The result still has to pass the sheet model.
    """
    result = copy.deepcopy(data)
    container: dict[str, Any] = result
    current: type[BaseModel] = model
    remaining = path.strip()
    where = "the sheet"
    if not remaining:
        raise InvalidInput(
            "Name the field to change, e.g. `agility` or `weapons.Club.damage_dice`."
        )
    for _ in range(6):
        head, _, rest = remaining.partition(".")
        name = _field(current, head)
        if name is None:
            raise _unknown(current, head, where)
        annotation = current.model_fields[name].annotation
        shape = shape_of(annotation)
        if not rest:
            container[name] = _convert(shape, annotation, raw, path)
            return result
        if shape == "dict":
            _edit_entry(container, name, rest, raw)
            return result
        if shape == "model":
            step: _Step | None = _into_part(container, name, annotation, rest, where)
        elif shape == "models":
            step = _edit_item(container, name, annotation, rest, raw)
        else:
            raise InvalidInput(
                f"{names.code(name)} has no parts; set it as a whole (path {names.code(name)})."
            )
        if step is None:
            return result
        container, current, remaining, where = step
    raise InvalidInput("That field path is too deep.")


def _into_part(
    container: dict[str, Any], name: str, annotation: Any, rest: str, where: str
) -> _Step:
    """``movement.fly``: go on into a nested part (made empty if it is missing)."""
    sub = unwrap_model(annotation)
    assert sub is not None
    child = container.get(name)
    container[name] = child if isinstance(child, dict) else {}
    label = f"{where} → {name}" if where != "the sheet" else name
    return container[name], sub, rest, label


def _edit_entry(container: dict[str, Any], name: str, key: str, raw: str) -> None:
    """``armor.fire``: set one entry of a mapping, or remove it with ``-``."""
    entries = container.get(name)
    entries = dict(entries) if isinstance(entries, dict) else {}
    key = key.strip()
    if is_none_word(raw):
        if key not in entries:
            raise NotFound(f"{names.code(name)} has no entry {names.code(key[:60])} to remove.")
        del entries[key]
    else:
        entries[key] = parse_value(raw) if _looks_json(raw) else raw.strip()
    container[name] = entries


def _edit_item(
    container: dict[str, Any], name: str, annotation: Any, rest: str, raw: str
) -> _Step | None:
    """``weapons.Club`` or ``weapons.Club.damage_dice``: go on into one field of the named item
    (the returned step), or replace, add or remove the whole item (``None``: done)."""
    sub = unwrap_model(annotation)
    assert sub is not None
    items = list(container.get(name) or [])
    index, item_name, sub_path = _find_item(items, rest)
    head_name, _, last = item_name.rpartition(".")
    if index is None and head_name and _field(sub, last) is not None:
        raise NotFound(
            f"There is no {names.code(head_name[:60])} in {names.code(name)}; add it first with "
            f"the path {names.code(f'{name}.{head_name[:60]}')} and a JSON object."
        )
    if sub_path:
        assert index is not None
        item = dict(items[index])
        items[index] = item
        container[name] = items
        return item, sub, sub_path, f"{name} → {item_name}"
    _set_item(items, index, name, item_name, raw)
    container[name] = items
    return None


def _set_item(items: list[Any], index: int | None, name: str, item_name: str, raw: str) -> None:
    """Replace the item at ``index`` (or add it when ``None``) with the JSON object ``raw``, or
    remove it with ``-``."""
    if is_none_word(raw):
        if index is None:
            raise NotFound(
                f"There is no {names.code(item_name[:60])} in {names.code(name)} to remove."
            )
        del items[index]
        return
    value = parse_value(raw)
    if not isinstance(value, dict):
        raise InvalidInput(
            f"{names.code(f'{name}.{item_name[:60]}')} takes a JSON object, e.g. "
            '`{"name": "Club", "damage_dice": 2}`.'
        )
    value.setdefault("name", item_name)
    if index is None:
        items.append(value)
    else:
        items[index] = value


def field_paths(model: type[BaseModel], data: dict[str, Any]) -> list[tuple[str, str]]:
    """Every editable path of this sheet as ``(path, current value preview)``."""
    found: list[tuple[str, str]] = []
    _walk(found, model, data, "")
    return found


def _preview(value: Any) -> str:
    if isinstance(value, dict | list):
        return f"{len(value)} entr{'y' if len(value) == 1 else 'ies'}"
    return json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else value


def _walk(
    found: list[tuple[str, str]], current: type[BaseModel], values: dict[str, Any], prefix: str
) -> None:
    """Add to ``found`` the paths of ``current``'s fields (``values``: their data), nested parts
    walked in place."""
    for name, info in current.model_fields.items():
        if name in HIDDEN_FIELDS:
            continue
        path = prefix + name
        value = values.get(name)
        shape = shape_of(info.annotation)
        if shape == "model":
            sub = unwrap_model(info.annotation)
            if sub is not None:
                _walk(found, sub, value if isinstance(value, dict) else {}, path + ".")
            continue
        found.append((path, _preview(value)))
        if shape == "dict":
            found += _entry_paths(path, value, info.annotation)
        elif shape == "models":
            found += _item_paths(path, value, info.annotation)


def _entry_paths(path: str, value: Any, annotation: Any) -> list[tuple[str, str]]:
    """A mapping's entries: those it has, then every key its ``Literal`` key type allows."""
    keys = list(value) if isinstance(value, dict) else []
    literal_keys = typing.get_args(typing.get_args(annotation)[0])
    if literal_keys and all(isinstance(k, str) for k in literal_keys):
        keys = list(dict.fromkeys([*keys, *literal_keys]))
    return [(f"{path}.{key}", _preview((value or {}).get(key, "—"))) for key in keys]


def _item_paths(path: str, value: Any, annotation: Any) -> list[tuple[str, str]]:
    """Each item of a list of parts, whole and field by field (``name`` aside)."""
    found: list[tuple[str, str]] = []
    sub = unwrap_model(annotation)
    for item in value if isinstance(value, list) else []:
        item_name = str(item.get("name", ""))
        found.append((f"{path}.{item_name}", "whole item (JSON)"))
        if sub is not None:
            for field_name in sub.model_fields:
                if field_name != "name":
                    found.append(
                        (f"{path}.{item_name}.{field_name}", _preview(item.get(field_name)))
                    )
    return found


def suggest(model: type[BaseModel], data: dict[str, Any], typed: str) -> list[tuple[str, str]]:
    """At most 25 ``(label, path)`` choices whose path contains ``typed`` (case-insensitive),
    prefix matches first. Labels show the current value; both fit Discord's 100 characters."""
    folded = typed.strip().casefold()
    paths = [(p, v) for p, v in field_paths(model, data) if len(p) <= CHOICE_TEXT_MAX]
    starts = [pv for pv in paths if pv[0].casefold().startswith(folded)]
    contains = [pv for pv in paths if folded in pv[0].casefold() and pv not in starts]
    choices: list[tuple[str, str]] = []
    for path, value in [*starts, *contains][:CHOICE_MAX]:
        label = f"{path} = {value}"
        if len(label) > CHOICE_TEXT_MAX:
            label = label[: CHOICE_TEXT_MAX - 1] + "…"
        choices.append((label, path))
    return choices
