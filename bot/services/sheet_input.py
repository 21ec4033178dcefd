"""Turning untrusted input (an uploaded file, a typed value) into data a sheet model may see, and
pydantic's complaints into one message a member can act on.

Everything here is pure: no database, no Discord. The checks run in the order that keeps a
hostile file cheapest to refuse: size (before download), encoding, nesting depth (a linear scan,
before the parser can recurse), then the parser with hooks that refuse absurd numbers, ``NaN``
and duplicate keys.
"""

from __future__ import annotations

import json
import math
import types
import typing
from collections.abc import Iterable, Sequence
from typing import Any

from pydantic import BaseModel, ValidationError

from bot import names
from bot.engine import REGISTRY, get_ruleset
from bot.engine.core.contract import ForeignSheet
from bot.engine.core.json_words import JSON_TYPES
from bot.errors import InvalidInput

FILE_MAX_BYTES = 64 * 1024
"""A stored sheet, at most (its JSON as the bot keeps it)."""
UPLOAD_MAX_BYTES = 512 * 1024
"""An uploaded file, at most: another tool's export (a Foundry VTT actor with its item
descriptions) is larger than the sheet the bot keeps of it."""
JSON_DEPTH_MAX = 8
"""Nesting of JSON typed in a command, at most."""
UPLOAD_DEPTH_MAX = 16
"""Nesting of an uploaded file, at most (a Foundry export nests items' features ~10 deep)."""
INT_DIGITS_MAX = 12
FLOAT_ABS_MAX = 1e12
MESSAGE_MAX = 1900  # below Discord's 2000 so a prefix still fits
VALUE_PREVIEW = 40
NONE_WORDS = frozenset({"-", "none", "null", "delete", "remove"})


def check_upload(size: int, filename: str, content_type: str | None) -> None:
    """Refuse an attachment before downloading it: too big, or not a JSON file."""
    if size > UPLOAD_MAX_BYTES:
        raise InvalidInput(
            f"`{filename[:60]}` is {size:,} bytes; an uploaded sheet is at most "
            f"{UPLOAD_MAX_BYTES:,} bytes ({UPLOAD_MAX_BYTES // 1024} KiB). Nothing was imported."
        )
    is_json_name = filename.lower().endswith(".json")
    is_json_type = content_type is not None and "json" in content_type.lower()
    if not (is_json_name or is_json_type):
        raise InvalidInput(
            f"`{filename[:60]}` is not a JSON file. Attach a `.json` sheet, for example one made "
            "with `/character export`. Nothing was imported."
        )


def _depth(text: str, limit: int) -> int:
    """The deepest nesting of ``{``/``[`` outside strings (a linear scan, no recursion),
    stopping as soon as it passes ``limit``."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "{[":
            depth += 1
            deepest = max(deepest, depth)
            if deepest > limit:
                return deepest
        elif char in "}]":
            depth -= 1
    return deepest


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > INT_DIGITS_MAX:
        raise InvalidInput(
            f"The number `{text[:20]}…` is absurdly large; sheet numbers have at most "
            f"{INT_DIGITS_MAX} digits."
        )
    return int(text)


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value) or abs(value) > FLOAT_ABS_MAX:
        raise InvalidInput(f"The number {names.code(text[:20])} is absurdly large.")
    return value


def _parse_constant(text: str) -> Any:
    raise InvalidInput(f"{names.code(text)} is not a number a sheet can hold.")


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise InvalidInput(f"The key {names.code(key[:40])} appears twice in one object.")
        result[key] = value
    return result


def loads(text: str, *, suffix: str = "", depth: int = JSON_DEPTH_MAX) -> Any:
    """Parse JSON text with the limits: nesting ``depth`` checked by a linear scan first, then
    the parser with hooks that refuse absurd numbers, ``NaN``/``Infinity`` and duplicate keys."""
    if _depth(text, depth) > depth:
        raise InvalidInput(
            f"That JSON is nested more than {depth} levels deep; a sheet never needs that.{suffix}"
        )
    try:
        return json.loads(
            text,
            parse_int=_parse_int,
            parse_float=_parse_float,
            parse_constant=_parse_constant,
            object_pairs_hook=_no_duplicates,
        )
    except json.JSONDecodeError as error:
        shown = text[:40].replace("`", "'")
        raise InvalidInput(
            f"{names.code(shown)} is not valid JSON ({error.msg} at line {error.lineno}, "
            f"column {error.colno}).{suffix}"
        ) from None
    except RecursionError:  # pragma: no cover - the depth scan runs first
        raise InvalidInput(f"That JSON is nested too deeply.{suffix}") from None


def parse_json(content: bytes) -> dict[str, Any]:
    """Decode and parse an uploaded sheet. Raises :class:`InvalidInput` for anything that is too
    big (over :data:`UPLOAD_MAX_BYTES`), not UTF-8, not JSON, nested deeper than
    :data:`UPLOAD_DEPTH_MAX`, not an object, or holds absurd numbers or duplicate keys."""
    if len(content) > UPLOAD_MAX_BYTES:
        raise InvalidInput(
            f"That file is {len(content):,} bytes; an uploaded sheet is at most "
            f"{UPLOAD_MAX_BYTES:,} bytes."
        )
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InvalidInput(
            "That file is not UTF-8 text, so it cannot be a JSON sheet. Nothing was imported."
        ) from None
    data = loads(text, suffix=" Nothing was imported.", depth=UPLOAD_DEPTH_MAX)
    if not isinstance(data, dict):
        raise InvalidInput(
            f"A sheet is a JSON object (`{{ ... }}`), not a {type(data).__name__}. "
            "Nothing was imported."
        )
    return data


# --- pydantic errors → one message ------------------------------------------------------------


def unwrap_model(annotation: Any) -> Any:
    """The model class a field's annotation leads to (through Optional, tuple, list, dict)."""
    seen = 0
    while seen < 5:
        seen += 1
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            return annotation
        origin = typing.get_origin(annotation)
        args = [a for a in typing.get_args(annotation) if a is not Ellipsis and a is not type(None)]
        wrappers = (typing.Annotated, tuple, list, typing.Union, types.UnionType)
        if origin in wrappers and args:
            annotation = args[0]
        elif origin is dict and len(args) == 2:
            annotation = args[1]
        else:
            return None
    return None


def model_at(model: type[BaseModel], loc: Sequence[int | str]) -> type[BaseModel] | None:
    """The model class that owns the field at ``loc`` (``loc`` without its last part)."""
    current: type[BaseModel] | None = model
    for part in loc:
        if current is None:
            return None
        if isinstance(part, int):
            continue
        field = current.model_fields.get(part)
        if field is None:
            return current if part == loc[-1] else None
        current = unwrap_model(field.annotation)
    return current


def _where(data: Any, loc: Sequence[int | str]) -> str:
    """``weapons[Club].damage_dice``: list items with a ``name`` are shown by name."""
    text = ""
    current = data
    for part in loc:
        if isinstance(part, int):
            item = (
                current[part]
                if isinstance(current, list | tuple) and -len(current) <= part < len(current)
                else None
            )
            label = item.get("name") if isinstance(item, dict) else None
            text += f"[{label}]" if isinstance(label, str) and label else f"[{part}]"
            current = item
        else:
            text += f".{part}" if text else str(part)
            current = current.get(part) if isinstance(current, dict) else None
    return text or "(the sheet)"


def _preview(value: Any) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        text = repr(value)
    text = names.printable(text.replace("`", "'"))
    return text if len(text) <= VALUE_PREVIEW else text[: VALUE_PREVIEW - 1] + "…"


def _field_model(model: type[BaseModel], loc: Sequence[int | str]) -> type[BaseModel] | None:
    """The model a field's value (or each of its items) is, when it is one."""
    found = model_at(model, loc)
    return found if found is not None and found is not model else None


def _wrong_type(model: type[BaseModel], loc: Sequence[int | str], kind: str, value: Any) -> str:
    """What a value of the wrong JSON type should be (:data:`JSON_TYPES`), with the fields an
    object takes — and, for a list of named objects written as one object keyed by name (as
    ``/character edit`` paths read, ``weapons.Club``), how the list is written."""
    wanted = JSON_TYPES[kind]
    inner = _field_model(model, loc)
    if inner is None:
        return f"should be {wanted}"
    fields = ", ".join(inner.model_fields)
    if kind in {"dict_type", "model_type"}:
        return f"should be {wanted} with the fields {fields}"
    if "name" in inner.model_fields and isinstance(value, dict) and value:
        first = names.printable(str(next(iter(value))).replace("`", "'"))[:VALUE_PREVIEW]
        return (
            f"should be {wanted} of objects, each with its own `name` "
            f'(`[{{"name": "{first}", …}}]`; fields: {fields})'
        )
    return f"should be {wanted} of objects (fields: {fields})"


def _problem(model: type[BaseModel], data: Any, error: Any) -> str:
    loc: tuple[int | str, ...] = tuple(error["loc"])
    where = _where(data, loc)
    kind = error["type"]
    message = str(error["msg"]).removeprefix("Value error, ")
    if kind == "extra_forbidden":
        owner = model_at(model, loc[:-1])
        allowed = ", ".join(owner.model_fields) if owner else ""
        return f"{names.code(where)} is not a known field" + (
            f"; allowed: {allowed}" if allowed else ""
        )
    if kind == "missing":
        return f"{names.code(where)} is required but missing"
    if kind == "too_long" and isinstance(error.get("input"), list | tuple | dict):
        most = (error.get("ctx") or {}).get("max_length")
        have = len(error["input"])
        return f"{names.code(where)} has {have}; at most {most} items are allowed"
    if kind == "too_short" and isinstance(error.get("input"), list | tuple | dict):
        least = (error.get("ctx") or {}).get("min_length")
        return f"{names.code(where)} needs at least {least} items"
    if not loc:
        return message
    shown = _preview(error.get("input"))
    if kind in JSON_TYPES:
        wanted = _wrong_type(model, loc, kind, error.get("input"))
        return f"{names.code(where)} = `{shown}`: {wanted}"
    return f"{names.code(where)} = `{shown}`: {message.lower()[:1]}{message[1:]}"


def describe_errors(
    exc: ValidationError,
    model: type[BaseModel],
    data: Any,
    *,
    heading: str,
    unknown_note: str | None = None,
) -> str:
    """One message naming each invalid field, its value and what is allowed, within Discord's
    message limit (the rest counted as "… and N more"). ``unknown_note``: a line said under the
    heading when a top-level field is unknown (why the sheet was read by this model)."""
    errors = exc.errors()
    problems = [_problem(model, data, error) for error in errors]
    unknown = any(e["type"] == "extra_forbidden" and len(e["loc"]) == 1 for e in errors)
    return fit_problems(heading, problems, note=unknown_note if unknown else None)


def fit_problems(heading: str, problems: Iterable[str], *, note: str | None = None) -> str:
    items = list(problems)
    count = len(items)
    head = heading + (f" ({count} problems)" if count > 1 else "") + ":"
    lines = [head]
    if note:
        lines.append(note)
    used = sum(len(line) + 1 for line in lines) - 1
    for index, line in enumerate(items):
        line = "• " + (line if len(line) <= 300 else line[:299] + "…")
        more = f"… and {count - index} more."
        if used + 1 + len(line) + 1 + len(more) > MESSAGE_MAX and index < count - 1:
            lines.append(more)
            break
        lines.append(line)
        used += 1 + len(line)
    return "\n".join(lines)[:MESSAGE_MAX]


def is_none_word(value: str) -> bool:
    return value.strip().casefold() in NONE_WORDS


def foreign_sheet(data: dict[str, Any]) -> tuple[str, ForeignSheet] | None:
    """The first registered ruleset that reads ``data`` as another tool's sheet
    (:meth:`~bot.engine.core.contract.Ruleset.foreign_sheet`), with its translation; None when
    none does. Raises :class:`InvalidInput` for such a sheet that is malformed."""
    for key in REGISTRY.implemented:
        found = get_ruleset(key).foreign_sheet(data)
        if found is not None:
            return key, found
    return None
