"""Request-body validation for the harness.

Two layers:

* :class:`ApiSchema` validates a JSON body against Discord's own OpenAPI 3.1 description
  (vendored in ``tests/harness/discord-api/openapi.json`` with its MIT licence; set
  ``DISCORD_OPENAPI_PATH`` to use another copy). The spec is loaded once per process, and one
  ``jsonschema`` validator is built per schema and cached. :func:`spec_problem` says in one line
  why the spec cannot be used (missing, unreadable, not JSON, not an OpenAPI description).
* :func:`check_limits` adds the limits the spec cannot express (6000 characters across a
  message's embeds, ≤5 action rows, ≤5 buttons per row, unique ``custom_id`` per message, modal
  text-input counts, …).

Both return plain lists of human-readable problem strings; an empty list means "valid".
"""

from __future__ import annotations

import functools
import json
import os
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

# Vendored beside this module (see discord-api/README.md for its source and version).
DEFAULT_SPEC_PATH = Path(__file__).resolve().parent / "discord-api" / "openapi.json"
SPEC_ENV = "DISCORD_OPENAPI_PATH"
SPEC_URI = "urn:discord-openapi"

# Interaction callback request schemas, keyed by callback ``type``. The spec's request body is an
# ``anyOf`` over all of them, which gives useless error messages; dispatching on ``type`` first
# reports the actual problem ("data.embeds[0].title is too long").
CALLBACK_SCHEMAS: dict[int, str] = {
    1: "PongInteractionCallbackRequest",
    4: "CreateMessageInteractionCallbackRequest",
    5: "CreateMessageInteractionCallbackRequest",
    6: "UpdateMessageInteractionCallbackRequest",
    7: "UpdateMessageInteractionCallbackRequest",
    8: "ApplicationCommandAutocompleteCallbackRequest",
    9: "ModalInteractionCallbackRequest",
    12: "LaunchActivityInteractionCallbackRequest",
}

CALLBACK_PATH = "/interactions/{interaction_id}/{interaction_token}/callback"

# Discord numbers that matter below.
MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
MAX_ACTION_ROWS = 5
MAX_BUTTONS_PER_ROW = 5
MAX_V2_COMPONENTS = 40
CUSTOM_ID_MAX = 100
BUTTON_LABEL_MAX = 80
MAX_CHOICES = 25
MODAL_TITLE_MAX = 45
MODAL_MAX_INPUTS = 5
FLAG_IS_COMPONENTS_V2 = 1 << 15

_SELECT_TYPES = {3, 5, 6, 7, 8}
_INPUT_TYPES = {3, 4, 5, 6, 7, 8, 19, 21, 22, 23}  # things a user fills in inside a modal


def _snowflake_aware_type(
    validator: Any, types: Any, instance: Any, schema: dict[str, Any]
) -> Iterator[ValidationError]:
    """``type`` that lets an integer stand for a snowflake string, as Discord does.

    discord.py sends e.g. ``attachments[].id`` (the upload index), ``allowed_mentions.users`` and
    ``message_reference.message_id`` as JSON integers; Discord coerces them, the spec says string.
    """
    if (
        schema.get("format") == "snowflake"
        and isinstance(instance, int)
        and not isinstance(instance, bool)
        and instance >= 0
    ):
        return
    yield from _BASE_TYPE(validator, types, instance, schema)


_BASE_TYPE = Draft202012Validator.VALIDATORS["type"]
DiscordValidator = validators.extend(Draft202012Validator, {"type": _snowflake_aware_type})


def spec_path() -> Path:
    """``DISCORD_OPENAPI_PATH`` if set (and not empty), else the vendored copy."""
    return Path(os.environ.get(SPEC_ENV) or DEFAULT_SPEC_PATH)


@functools.cache
def load_spec(path: str | None = None) -> dict[str, Any]:
    with open(path or spec_path(), encoding="utf-8") as fh:
        spec: dict[str, Any] = json.load(fh)
    return spec


@functools.cache
def spec_problem() -> str | None:
    """One line saying why the spec at :func:`spec_path` cannot be used, or ``None`` when it
    loads and looks like an OpenAPI description with paths and component schemas. Checked once
    per process (cached): the harness fixture fails every test that needs it with this line."""
    path = spec_path()
    where = f"{path} (from {SPEC_ENV})" if os.environ.get(SPEC_ENV) else str(path)
    try:
        spec = load_spec(str(path))
    except OSError as error:
        return f"cannot read Discord's OpenAPI description at {where}: {error.strerror or error}"
    except ValueError as error:
        return f"Discord's OpenAPI description at {where} is not valid JSON: {error}"
    components = spec.get("components") if isinstance(spec, dict) else None
    if not (
        isinstance(spec, dict)
        and isinstance(spec.get("paths"), dict)
        and isinstance(components, dict)
        and isinstance(components.get("schemas"), dict)
    ):
        return f"{where} is not an OpenAPI description (no 'paths' or 'components.schemas')"
    return None


def _template_regex(template: str) -> re.Pattern[str]:
    parts = re.split(r"(\{[^}]+\})", template)
    rx = "".join("[^/]+" if p.startswith("{") else re.escape(p) for p in parts)
    return re.compile(f"^{rx}/?$")


class ApiSchema:
    """Discord's OpenAPI description with cached validators. Use :func:`get_schema`."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = spec
        resource = Resource(contents=spec, specification=DRAFT202012)
        self.registry: Registry[Any] = Registry().with_resource(SPEC_URI, resource)
        self._validators: dict[str, Any] = {}
        # Literal paths ("/messages/@original") must win over templated ones ("/{message_id}").
        self._routes: list[tuple[re.Pattern[str], str]] = sorted(
            ((_template_regex(t), t) for t in spec["paths"]),
            key=lambda item: (item[1].count("{"), -len(item[1])),
        )

    # -- lookup -------------------------------------------------------------------------------
    def match_path(self, path: str) -> str | None:
        """The spec's path template for a concrete request path (without ``/api/v10``)."""
        for rx, template in self._routes:
            if rx.match(path):
                return template
        return None

    def operation(self, method: str, template: str) -> dict[str, Any] | None:
        return self.spec["paths"].get(template, {}).get(method.lower())

    def validator(self, pointer: str) -> Any:
        """A cached validator for the schema at JSON pointer ``pointer`` inside the spec."""
        v = self._validators.get(pointer)
        if v is None:
            ref = f"{SPEC_URI}#{quote(pointer, safe='/~')}"
            v = DiscordValidator({"$ref": ref}, registry=self.registry)
            self._validators[pointer] = v
        return v

    def component(self, name: str) -> Any:
        return self.validator(f"/components/schemas/{name}")

    def body_pointer(self, method: str, template: str) -> str | None:
        op = self.operation(method, template)
        if not op or "requestBody" not in op:
            return None
        content = op["requestBody"].get("content", {})
        for ctype in ("application/json", "multipart/form-data"):
            if ctype in content:
                esc_path = template.replace("~", "~0").replace("/", "~1")
                esc_ctype = ctype.replace("/", "~1")
                return f"/paths/{esc_path}/{method.lower()}/requestBody/content/{esc_ctype}/schema"
        return None

    # -- validation ---------------------------------------------------------------------------
    def validate_component(self, name: str, body: Any) -> list[str]:
        return _errors(self.component(name), body)

    def validate_request(self, method: str, path: str, body: Any) -> list[str]:
        """Validate ``body`` sent as ``method path``. Unknown routes and bodiless routes pass."""
        template = self.match_path(path)
        if template is None:
            return []
        if template == CALLBACK_PATH and method.upper() == "POST":
            if not isinstance(body, dict) or not isinstance(body.get("type"), int):
                return ["interaction callback: body must be an object with an integer 'type'"]
            name = CALLBACK_SCHEMAS.get(body["type"])
            if name is None:
                return [f"interaction callback: unknown callback type {body['type']}"]
            return self.validate_component(name, body)
        pointer = self.body_pointer(method, template)
        if pointer is None:
            return []
        return _errors(self.validator(pointer), body)


@functools.cache
def get_schema() -> ApiSchema:
    return ApiSchema(load_spec(str(spec_path())))


def _fmt_path(parts: Iterable[Any]) -> str:
    out = ""
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "<body>"


def _short(value: Any, limit: int = 120) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _describe(err: ValidationError) -> str:
    where = _fmt_path(err.absolute_path)
    if err.validator in ("maxLength", "minLength") and isinstance(err.instance, str):
        return f"{where}: length {len(err.instance)} violates {err.validator} {err.validator_value}"
    if err.validator in ("maxItems", "minItems") and isinstance(err.instance, list):
        return f"{where}: {len(err.instance)} items violates {err.validator} {err.validator_value}"
    if err.validator == "enum":
        return f"{where}: {_short(err.instance)} is not one of {err.validator_value}"
    if err.validator in ("oneOf", "anyOf") and not err.context:
        return f"{where}: {_short(err.instance)} matches none of the allowed schemas"
    msg = err.message
    if len(msg) > 300:
        msg = msg[:297] + "..."
    return f"{where}: {msg}"


def _is_mismatch(err: ValidationError) -> bool:
    """An error saying "this is not the right union branch at all" (wrong JSON type or tag)."""
    rel = list(err.relative_path)
    if err.validator in ("type", "const") and not rel:
        return True
    return err.validator in ("enum", "const") and rel == ["type"]


def _leaf_errors(err: ValidationError) -> Iterator[ValidationError]:
    """For a failed union, the errors of the branch that matched best; else the error itself.

    Branches whose JSON type or ``type`` tag does not match are discarded; of the rest the one
    with the fewest errors wins.
    """
    if not err.context:
        yield err
        return
    branches: dict[Any, list[ValidationError]] = {}
    for sub in err.context:
        if sub.parent is err and sub.relative_schema_path:
            branches.setdefault(sub.relative_schema_path[0], []).append(sub)
    candidates = [errs for errs in branches.values() if not any(map(_is_mismatch, errs))]
    if not candidates:
        yield err
        return
    for sub in min(candidates, key=len):
        yield from _leaf_errors(sub)


def _errors(validator: Any, body: Any) -> list[str]:
    out: list[str] = []
    for err in validator.iter_errors(body):
        for leaf in _leaf_errors(err):
            text = _describe(leaf)
            if text not in out:
                out.append(text)
    return out


# ---------------------------------------------------------------------------------------------
# Limits the OpenAPI description cannot express
# ---------------------------------------------------------------------------------------------


def embed_length(embed: dict[str, Any]) -> int:
    """Characters Discord counts toward the 6000 total for one embed."""
    total = len(embed.get("title") or "") + len(embed.get("description") or "")
    for field in embed.get("fields") or []:
        total += len(field.get("name") or "") + len(field.get("value") or "")
    total += len((embed.get("footer") or {}).get("text") or "")
    total += len((embed.get("author") or {}).get("name") or "")
    return total


def walk_components(components: Iterable[dict[str, Any]] | None) -> Iterator[dict[str, Any]]:
    """Every component in a (possibly nested v2 / modal) component tree, depth first."""
    for comp in components or []:
        if not isinstance(comp, dict):
            continue
        yield comp
        yield from walk_components(comp.get("components"))
        if isinstance(comp.get("component"), dict):  # label (18)
            yield from walk_components([comp["component"]])
        if isinstance(comp.get("accessory"), dict):  # section (9)
            yield from walk_components([comp["accessory"]])


def check_message_limits(body: dict[str, Any], where: str = "") -> list[str]:
    """Limits on a message-like body (create, edit, webhook, callback ``data``)."""
    p = f"{where}." if where else ""
    problems: list[str] = []
    content = body.get("content")
    if isinstance(content, str) and len(content) > MAX_CONTENT:
        problems.append(f"{p}content: {len(content)} characters, limit {MAX_CONTENT}")
    embeds = body.get("embeds") or []
    if isinstance(embeds, list):
        if len(embeds) > MAX_EMBEDS:
            problems.append(f"{p}embeds: {len(embeds)} embeds, limit {MAX_EMBEDS}")
        total = sum(embed_length(e) for e in embeds if isinstance(e, dict))
        if total > MAX_EMBED_TOTAL:
            problems.append(
                f"{p}embeds: {total} characters across all embeds, limit {MAX_EMBED_TOTAL}"
            )
    components = body.get("components") or []
    if isinstance(components, list):
        problems.extend(_check_components(components, body.get("flags") or 0, p))
    return problems


def _check_components(components: list[Any], flags: int, p: str) -> list[str]:
    problems: list[str] = []
    v2 = bool(flags & FLAG_IS_COMPONENTS_V2)
    if v2:
        count = sum(1 for _ in walk_components(components))
        if count > MAX_V2_COMPONENTS:
            problems.append(f"{p}components: {count} components, limit {MAX_V2_COMPONENTS}")
    elif len(components) > MAX_ACTION_ROWS:
        problems.append(f"{p}components: {len(components)} action rows, limit {MAX_ACTION_ROWS}")
    for i, row in enumerate(components):
        if not isinstance(row, dict):
            continue
        if not v2 and row.get("type") != 1:
            problems.append(f"{p}components[{i}]: top-level component must be an action row")
        if row.get("type") == 1:
            children = [c for c in row.get("components") or [] if isinstance(c, dict)]
            buttons = [c for c in children if c.get("type") == 2]
            selects = [c for c in children if c.get("type") in _SELECT_TYPES]
            if len(buttons) > MAX_BUTTONS_PER_ROW:
                problems.append(
                    f"{p}components[{i}]: {len(buttons)} buttons, limit {MAX_BUTTONS_PER_ROW}"
                )
            if selects and len(children) > 1:
                problems.append(f"{p}components[{i}]: a select menu must be alone in its row")
    seen: set[str] = set()
    for comp in walk_components(components):
        cid = comp.get("custom_id")
        ctype = comp.get("type")
        if ctype == 2:
            label = comp.get("label")
            if isinstance(label, str) and len(label) > BUTTON_LABEL_MAX:
                problems.append(f"{p}button {cid!r}: label {len(label)} chars, limit 80")
            style = comp.get("style")
            if style == 5 and (not comp.get("url") or cid is not None):
                problems.append(f"{p}link button needs a url and no custom_id")
            if style == 6 and not comp.get("sku_id"):
                problems.append(f"{p}premium button needs a sku_id")
            if style in (1, 2, 3, 4) and cid is None:
                problems.append(f"{p}button {comp.get('label')!r} has no custom_id")
        if (ctype in _SELECT_TYPES or ctype == 4) and cid is None:
            problems.append(f"{p}component of type {ctype} has no custom_id")
        if cid is None:
            continue
        if not isinstance(cid, str) or not 1 <= len(cid) <= CUSTOM_ID_MAX:
            problems.append(f"{p}custom_id {_short(cid)}: must be 1-{CUSTOM_ID_MAX} characters")
        elif cid in seen:
            problems.append(f"{p}custom_id {cid!r} is used twice in one message")
        seen.add(cid) if isinstance(cid, str) else None
    return problems


def check_modal(data: dict[str, Any]) -> list[str]:
    problems: list[str] = []
    title = data.get("title") or ""
    if len(title) > MODAL_TITLE_MAX:
        problems.append(f"modal title: {len(title)} characters, limit {MODAL_TITLE_MAX}")
    comps = data.get("components") or []
    if not 1 <= len(comps) <= MODAL_MAX_INPUTS:
        problems.append(f"modal: {len(comps)} top-level components, must be 1-{MODAL_MAX_INPUTS}")
    inputs = [c for c in walk_components(comps) if c.get("type") in _INPUT_TYPES]
    text_inputs = [c for c in inputs if c.get("type") == 4]
    if not inputs:
        problems.append("modal: has no input component")
    if len(text_inputs) > MODAL_MAX_INPUTS:
        problems.append(f"modal: {len(text_inputs)} text inputs, limit {MODAL_MAX_INPUTS}")
    seen: set[str] = set()
    for c in inputs:
        cid = c.get("custom_id")
        if isinstance(cid, str):
            if cid in seen:
                problems.append(f"modal: custom_id {cid!r} is used twice")
            seen.add(cid)
    for c in walk_components(comps):
        if c.get("type") == 1 and len(c.get("components") or []) != 1:
            problems.append("modal: an action row must hold exactly one input")
    return problems


def check_autocomplete(data: dict[str, Any]) -> list[str]:
    choices = data.get("choices") or []
    problems: list[str] = []
    if len(choices) > MAX_CHOICES:
        problems.append(f"autocomplete: {len(choices)} choices, limit {MAX_CHOICES}")
    for ch in choices:
        if not isinstance(ch, dict):
            continue
        name = ch.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            problems.append(f"autocomplete choice name {_short(name)} must be 1-100 characters")
        value = ch.get("value")
        if isinstance(value, str) and len(value) > 100:
            problems.append(f"autocomplete choice value {_short(value)} over 100 characters")
    return problems


_NAME_RX = re.compile(r"^[-_\w]{1,32}$")


def check_commands(commands: list[Any]) -> list[str]:
    """Rules of the bulk-overwrite endpoints the spec leaves implicit."""
    problems: list[str] = []
    seen: set[tuple[int, str]] = set()
    for cmd in commands or []:
        if not isinstance(cmd, dict):
            continue
        ctype = cmd.get("type") or 1
        name = cmd.get("name", "")
        key = (ctype, name)
        if key in seen:
            problems.append(f"command {name!r} registered twice")
        seen.add(key)
        if ctype == 1 and (not _NAME_RX.match(name) or name != name.lower()):
            problems.append(f"/{name}: command name must be 1-32 lowercase characters")
        if ctype == 1:
            problems.extend(_check_options(cmd.get("options") or [], f"/{name}"))
            if not cmd.get("description"):
                problems.append(f"/{name}: chat-input command needs a description")
    per_type: dict[int, int] = {}
    for ctype, _ in seen:
        per_type[ctype] = per_type.get(ctype, 0) + 1
    if per_type.get(1, 0) > 100:
        problems.append(f"{per_type[1]} chat-input commands, limit 100")
    return problems


def _check_options(options: list[Any], where: str) -> list[str]:
    problems: list[str] = []
    names: set[str] = set()
    optional_seen = False
    for opt in options:
        if not isinstance(opt, dict):
            continue
        name = opt.get("name", "")
        label = f"{where} {name}"
        if not _NAME_RX.match(name) or name != name.lower():
            problems.append(f"{label}: option name must be 1-32 lowercase characters")
        if name in names:
            problems.append(f"{label}: option name used twice")
        names.add(name)
        if not 1 <= len(opt.get("description") or "") <= 100:
            problems.append(f"{label}: description must be 1-100 characters")
        if opt.get("type") in (1, 2):
            problems.extend(_check_options(opt.get("options") or [], label))
            continue
        if opt.get("required"):
            if optional_seen:
                problems.append(f"{label}: required option after an optional one")
        else:
            optional_seen = True
        if len(opt.get("choices") or []) > MAX_CHOICES:
            problems.append(f"{label}: more than {MAX_CHOICES} choices")
        if opt.get("choices") and opt.get("autocomplete"):
            problems.append(f"{label}: choices and autocomplete are exclusive")
    return problems


_COMMANDS_RX = re.compile(r"^/applications/[^/]+(/guilds/[^/]+)?/commands/?$")
_MESSAGE_ROUTES = [
    re.compile(r"^/channels/[^/]+/messages/?$"),
    re.compile(r"^/channels/[^/]+/messages/[^/]+/?$"),
    re.compile(r"^/webhooks/[^/]+/[^/]+/?$"),
    re.compile(r"^/webhooks/[^/]+/[^/]+/messages/[^/]+/?$"),
]


def check_limits(method: str, path: str, body: Any) -> list[str]:
    """Discord's unexpressed limits for a request body sent as ``method path``."""
    method = method.upper()
    if not isinstance(body, (dict, list)):
        return []
    if method == "PUT" and _COMMANDS_RX.match(path) and isinstance(body, list):
        return check_commands(body)
    if method == "POST" and re.match(r"^/interactions/[^/]+/[^/]+/callback/?$", path):
        if not isinstance(body, dict):
            return []
        data = body.get("data") or {}
        if not isinstance(data, dict):
            return []
        ctype = body.get("type")
        if ctype in (4, 5, 7):
            return check_message_limits(data, "data")
        if ctype == 8:
            return check_autocomplete(data)
        if ctype == 9:
            return check_modal(data)
        return []
    if (
        method in ("POST", "PATCH")
        and isinstance(body, dict)
        and any(rx.match(path) for rx in _MESSAGE_ROUTES)
    ):
        return check_message_limits(body)
    return []


def validate(method: str, path: str, body: Any) -> list[str]:
    """OpenAPI validation plus :func:`check_limits` — the full verdict on one request body."""
    return get_schema().validate_request(method, path, body) + check_limits(method, path, body)
