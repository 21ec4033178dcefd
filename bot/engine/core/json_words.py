"""Pydantic's complaints in JSON's words: its messages name Python's types ("input should be a
valid tuple", "a valid dictionary or instance of Shield", "unable to parse string as an
integer"), which nobody writing a JSON sheet, a table value or an export meets (newuser26).
Every message a member reads from a :class:`pydantic.ValidationError` goes through
:func:`said` (or, for a sheet, ``bot.services.sheet_input``, which adds the fields an object
takes)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

JSON_TYPES: dict[str, str] = {
    "list_type": "a list (`[…]`)",
    "tuple_type": "a list (`[…]`)",
    "set_type": "a list (`[…]`)",
    "dict_type": "an object (`{…}`)",
    "model_type": "an object (`{…}`)",
    "int_type": "a whole number",
    "int_parsing": "a whole number",
    "int_from_float": "a whole number",
    "float_type": "a number",
    "float_parsing": "a number",
    "bool_type": "`true` or `false`",
    "bool_parsing": "`true` or `false`",
    "string_type": 'text in double quotes (`"…"`)',
}
"""What a value of the wrong type should have been, by pydantic's error type."""


def said(error: Mapping[str, Any]) -> str:
    """One pydantic error's message as a member reads it: a wrong type in JSON's words
    ("should be a whole number"), any other message as pydantic says it, without its
    "Value error, " prefix."""
    wanted = JSON_TYPES.get(str(error.get("type")))
    if wanted is not None:
        return f"should be {wanted}"
    return str(error.get("msg", "")).removeprefix("Value error, ")
