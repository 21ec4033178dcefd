"""Models the engine builds from values it made itself, without pydantic's validation.

Every command builds a handful of small models — its events, dice rolls
(:class:`~bot.engine.core.dice.Roll`), a waiting attack — from values the engine already holds
with their exact types: names read from validated sheets, numbers it computed, ids of its own
combatants. Validating them again costs more than building them (1–4 µs each, ~10 per attack
and reaction: ``benchmarks/engine_attack.py``; ``model_construct`` is slower still in pydantic
2.14). :func:`built` makes the instance as validation would — every field in declaration order,
defaults (as declared) and default factories for those not given, an ``int`` given for a
float field turned into a ``float``, the fields given as the fields set — so it dumps, compares
and copies as a validated one does.

It trusts its caller: the values must already be what validation would keep (a clean name, a
tuple where a tuple is declared…). With :data:`CHECKED` on (the test suite turns it on:
``tests/conftest.py``) each build is also validated and compared — its fields, their types and
its JSON — and a difference raises :class:`AssertionError`, so a call that passes a value
validation would change fails the tests instead of changing the stored JSON. A model with its own
validators (``@model_validator``, ``@field_validator``), private attributes or extra fields is
always validated.
"""

from __future__ import annotations

import copy
import types
import typing
from typing import Any, TypeVar

from pydantic import BaseModel

M = TypeVar("M", bound=BaseModel)

CHECKED = False
"""Validate each build too and compare (the test suite; see the module docstring)."""

_IMMUTABLE = (str, int, float, bool, bytes, tuple, frozenset, type(None))


class _Plan:
    """How to build one model class: its fields in order with their defaults (``template``),
    the default factories, and the fields that hold a float."""

    __slots__ = ("factories", "floats", "template")

    def __init__(self, cls: type[BaseModel]) -> None:
        self.template: dict[str, Any] = {}
        self.factories: list[tuple[str, Any]] = []
        self.floats: tuple[str, ...] = ()
        floats = []
        for name, field in cls.model_fields.items():
            if field.default_factory is not None:
                self.template[name] = None
                self.factories.append((name, field.default_factory))
            elif field.is_required():
                self.template[name] = None  # always given (the check says so)
            elif isinstance(field.default, _IMMUTABLE):
                self.template[name] = field.default
            else:  # a mutable default: a copy each time, as pydantic makes
                self.template[name] = None
                self.factories.append((name, _copier(field.default)))
            if _holds_float(field.annotation):
                floats.append(name)
        self.floats = tuple(floats)


def _copier(default: Any) -> Any:
    return lambda: copy.deepcopy(default)


def _holds_float(annotation: Any) -> bool:
    """Whether a field is ``float`` or ``float | None`` (pydantic makes an int given a float)."""
    if annotation is float:
        return True
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        return float in typing.get_args(annotation)
    return False


_PLANS: dict[type[BaseModel], _Plan | None] = {}
_UNKNOWN = object()


def _plan(cls: type[BaseModel]) -> _Plan | None:
    """The class's plan, or None when it must be validated (validators of its own, private
    attributes, extra fields allowed)."""
    if cls not in _PLANS:
        decorators = cls.__pydantic_decorators__
        own_logic = (
            decorators.model_validators
            or decorators.field_validators
            or decorators.root_validators
            or decorators.validators
        )
        trusted = not own_logic and not cls.__private_attributes__
        trusted = trusted and cls.model_config.get("extra") != "allow"
        _PLANS[cls] = _Plan(cls) if trusted else None
    return _PLANS[cls]


# A model's four slots, set through their descriptors: what ``object.__setattr__`` does, without
# looking each one up (an instance is made this way for every event: the hot path).
_new = object.__new__
set_dict = BaseModel.__dict__["__dict__"].__set__
set_fields_set = BaseModel.__dict__["__pydantic_fields_set__"].__set__
set_extra = BaseModel.__dict__["__pydantic_extra__"].__set__
set_private = BaseModel.__dict__["__pydantic_private__"].__set__


def built(cls: type[M], /, **values: Any) -> M:
    """``cls(**values)`` without validating ``values`` (see the module docstring)."""
    plan: Any = _PLANS.get(cls, _UNKNOWN)
    if plan is _UNKNOWN:
        plan = _plan(cls)
    if plan is None:
        return cls(**values)
    fields = {**plan.template, **values}  # the template's keys: the fields, in order
    if plan.factories:
        for name, factory in plan.factories:
            if name not in values:
                fields[name] = factory()
    if plan.floats:
        for name in plan.floats:  # a default stays as declared (``range_m: float = 2``)
            if name in values and type(values[name]) is int:
                fields[name] = float(values[name])
    model = _new(cls)
    set_dict(model, fields)
    set_fields_set(model, set(values))
    set_extra(model, None)
    set_private(model, None)
    if CHECKED:
        _check(cls, values, model)
    return model


def _check(cls: type[BaseModel], values: dict[str, Any], model: BaseModel) -> None:
    """Raise :class:`AssertionError` unless ``model`` is what validating ``values`` makes."""
    validated = cls(**values)
    mine, theirs = model.__dict__, validated.__dict__
    assert list(mine) == list(theirs), f"{cls.__name__}: fields {list(mine)} != {list(theirs)}"
    for name, value in theirs.items():
        assert type(mine[name]) is type(value) and mine[name] == value, (
            f"{cls.__name__}.{name}: built {mine[name]!r} but validation makes {value!r}"
        )
    assert model.__pydantic_fields_set__ == validated.__pydantic_fields_set__, cls.__name__
    assert model.model_dump_json() == validated.model_dump_json(), cls.__name__
