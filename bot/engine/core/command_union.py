"""A ruleset's command parser: the core's commands, the turn-order moves its order allows and
its own, as one union discriminated by ``kind`` (:func:`command_adapter`), and the kinds and
classes that union accepts (read by :class:`~bot.engine.core.contract.Ruleset`)."""

from __future__ import annotations

from typing import Annotated, Any, Union

from pydantic import Field, TypeAdapter

from bot.engine.core.commands import CORE_COMMANDS, ORDER_COMMANDS, CommandBase
from bot.engine.core.order import TurnOrder


def command_adapter(
    own: tuple[type[CommandBase], ...], order: TurnOrder
) -> TypeAdapter[CommandBase]:
    """The parser of a ruleset's commands: the core's (:data:`CORE_COMMANDS`), the turn-order
    moves its ``order`` allows (:data:`ORDER_COMMANDS`) and its ``own``, discriminated by
    ``kind`` — so a command the core adds reaches every ruleset, and a ruleset adds its own in
    its package only. Raises ``ValueError`` when two share a kind."""
    allowed = {"delay": order.allows_delay, "hold": order.allows_hold, "resume": order.allows_hold}
    types = [*CORE_COMMANDS, *(t for t in ORDER_COMMANDS if allowed[kind_of(t)]), *own]
    kinds = [kind_of(t) for t in types]
    clash = {k for k in kinds if kinds.count(k) > 1}
    if clash:
        raise ValueError(f"two commands share the kind(s) {sorted(clash)}")
    union: Any = Union[tuple(types)]  # noqa: UP007 - built at run time from the ruleset's list
    adapter: TypeAdapter[CommandBase] = TypeAdapter(Annotated[union, Field(discriminator="kind")])
    return adapter


def discriminated_kinds(schema: Any) -> dict[str, Any]:
    """The ``kind`` → schema mapping of a discriminated union's core schema."""
    while schema.get("type") in ("definitions", "nullable", "default"):
        schema = schema["schema"]
    if schema.get("type") != "tagged-union":
        raise TypeError("a ruleset's commands must be a union discriminated by kind")
    choices: dict[str, Any] = schema["choices"]
    return choices


def model_class(schema: Any) -> type:
    """The model class a union member's core schema validates to (through validators)."""
    while schema.get("type") != "model":
        schema = schema["schema"]
    cls: type = schema["cls"]
    return cls


def kind_of(t: type[CommandBase]) -> str:
    kind: str = t.model_fields["kind"].default
    return kind
