"""Compact parsed states (issue 15, "Memory"): what a state parsed from its stored JSON holds
that is the same in every encounter is shared instead of repeated per combatant.

Measured with ``benchmarks/memory_breakdown.py`` (five-combatant UTTAS fights): a parsed state
took ~33 KB, half of it pydantic's per-instance ``__pydantic_fields_set__`` — a 43-name set per
combatant, the same names in every one, since a stored state lists every field — and much of
the rest empty lists and dicts and repeated short strings. :func:`compact` (run by
``Ruleset.load_state`` on every state it parses) changes, in place and before anyone else holds
the state:

- a model whose fields set names every field gets the class's one shared :class:`AllFields`
  (adding a name it has is a no-op, as for a set; nothing else may change it);
- an empty list or dict becomes the shared :data:`EMPTY_LIST` / :data:`EMPTY_DICT`, which
  raise ``TypeError`` when changed in place (states are never changed in place: the engine
  clones what it changes, ``CombatantBase.clone``);
- strings (names, ids, sides, dict keys) are interned (:func:`sys.intern`), so one text is one
  object however many encounters name it.

Values compare, serialise and copy as before: ``EMPTY_LIST == []``, pydantic dumps them as a
list and a dict, and ``copy``/``list(...)``/``[*x]`` give ordinary, changeable containers.
Models already compact (their fields set is an :class:`AllFields`) are not walked again, so a
sheet shared between combatants (:mod:`bot.engine.core.shared`) is compacted once.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import Any, NoReturn, TypeVar

from pydantic import BaseModel

IMMUTABLE = "a stored state is never changed in place: clone what you change"
INTERN_MAX = 200
"""Strings up to this many characters are interned (longer ones are rarely repeated)."""


def _refuse(*_args: Any, **_kwargs: Any) -> NoReturn:
    raise TypeError(IMMUTABLE)


class AllFields(set[str]):
    """The names of every field of one model class: the ``__pydantic_fields_set__`` shared by
    all its instances that have every field set (e.g. parsed from a full dump). ``add`` and
    ``update`` accept names it already holds (a no-op, as for any set: pydantic adds the name
    of every field assigned) and raise ``TypeError`` for others; every other change raises
    ``TypeError``. Copies are itself (pydantic copies the fields set of every model copy)."""

    __slots__ = ()

    def add(self, name: str) -> None:
        if name not in self:
            _refuse()

    def update(self, *others: Iterable[Any]) -> None:
        for other in others:
            for name in other:
                self.add(name)

    def copy(self) -> AllFields:
        return self

    def __copy__(self) -> AllFields:
        return self

    def __deepcopy__(self, memo: Any) -> AllFields:
        return self

    discard = remove = pop = clear = _refuse
    difference_update = intersection_update = symmetric_difference_update = _refuse
    __ior__ = __iand__ = __isub__ = __ixor__ = _refuse


class _EmptyList(list[Any]):
    """The one shared empty list of compact states; it refuses every change in place."""

    __slots__ = ()

    def __copy__(self) -> list[Any]:
        return []

    def __deepcopy__(self, memo: Any) -> list[Any]:
        return []

    def __reduce__(self) -> Any:
        return (list, ())

    append = extend = insert = remove = pop = clear = sort = reverse = _refuse
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse


class _EmptyDict(dict[Any, Any]):
    """The one shared empty dict of compact states; it refuses every change in place."""

    __slots__ = ()

    def __copy__(self) -> dict[Any, Any]:
        return {}

    def __deepcopy__(self, memo: Any) -> dict[Any, Any]:
        return {}

    def __reduce__(self) -> Any:
        return (dict, ())

    pop = popitem = clear = update = setdefault = _refuse
    __setitem__ = __delitem__ = __ior__ = _refuse


EMPTY_LIST: list[Any] = _EmptyList()
EMPTY_DICT: dict[Any, Any] = _EmptyDict()

_ALL: dict[type, AllFields] = {}


def all_fields(cls: type[BaseModel]) -> AllFields:
    """The shared :class:`AllFields` of model class ``cls``."""
    found = _ALL.get(cls)
    if found is None:
        found = _ALL[cls] = AllFields(cls.__pydantic_fields__)
    return found


_PLAIN = frozenset({int, bool, float, type(None)})
_MODELS: dict[type, bool] = {}


M = TypeVar("M", bound=BaseModel)


def compact(model: M) -> M:
    """Compact ``model`` and every model, list, dict and string it holds, in place (see the
    module docstring); returns ``model``. Only for a model nobody else holds yet (just parsed):
    its containers are replaced, not copied."""
    _model(model)
    return model


def _model(model: BaseModel) -> None:
    fields = model.__pydantic_fields_set__
    if type(fields) is AllFields:
        return  # compact already (a shared sheet, or a model met earlier in this walk)
    every = all_fields(type(model))
    if len(fields) == len(every) and fields == every:
        object.__setattr__(model, "__pydantic_fields_set__", every)
    values = model.__dict__
    plain = _PLAIN
    for key, value in values.items():
        if type(value) in plain:  # most fields: no call
            continue
        new = _value(value)
        if new is not value:
            values[key] = new


def _value(value: Any) -> Any:
    kind = type(value)
    if kind in _PLAIN:
        return value
    if kind is str:
        return sys.intern(value) if len(value) <= INTERN_MAX else value
    if kind is list or kind is dict or kind is tuple:
        return _container(value)
    is_model = _MODELS.get(kind)
    if is_model is None:
        is_model = _MODELS[kind] = issubclass(kind, BaseModel)
    if is_model:
        _model(value)
    return value


def _container(value: list[Any] | dict[Any, Any] | tuple[Any, ...]) -> Any:
    if isinstance(value, tuple):
        for item in value:
            _value(item)  # models inside are compacted in place; the tuple stays
        return value
    if not value:
        return EMPTY_LIST if isinstance(value, list) else EMPTY_DICT
    if isinstance(value, dict):
        return {_value(k): _value(v) for k, v in value.items()}
    for i, item in enumerate(value):
        new = _value(item)
        if new is not item:
            value[i] = new
    return value
