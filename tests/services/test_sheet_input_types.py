"""A sheet's wrong-typed value is refused in JSON's words (newuser26): pydantic's own messages
name Python's types — "input should be a valid tuple", "a valid dictionary or instance of
Shield", "unable to parse string as an integer" — which nobody writing a JSON sheet meets. This
guard feeds a value of every JSON type to every field of every game system's sheet models (and
to every field of the objects their lists hold) and reads each refusal."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from bot.engine import REGISTRY, get_ruleset
from bot.errors import InvalidInput
from bot.services.sheet_input import describe_errors, model_at

PYTHON_WORDS = ("tuple", "dictionary", "instance of", "parse string", "valid int", "valid str")
WRONG: tuple[Any, ...] = ("x", 2.5, {"k": 1}, [1], True, -1)


def _models() -> list[type[BaseModel]]:
    found: list[type[BaseModel]] = []
    for key in REGISTRY.implemented:
        ruleset = get_ruleset(key)
        for model in (ruleset.sheet_model, ruleset.npc_sheet_model):
            if model is not None and model not in found:
                found.append(model)
    return found


def _refusals(model: type[BaseModel], data: dict[str, Any]) -> list[str]:
    try:
        model.model_validate(data)
    except ValidationError as exc:
        return describe_errors(exc, model, data, heading="H").splitlines()[1:]
    return []


@pytest.mark.parametrize("model", _models(), ids=lambda m: m.__name__)
def test_a_wrong_typed_value_is_refused_in_jsons_words(model: type[BaseModel]) -> None:
    lines: list[str] = []
    for field in model.model_fields:
        inner = model_at(model, (field,))
        for value in WRONG:
            lines += _refusals(model, {"name": "Probe", field: value})
            if inner is not None and inner is not model:
                for sub in inner.model_fields:
                    item = {"name": "Probe item", sub: value}
                    lines += _refusals(model, {"name": "Probe", field: [item]})
    assert lines, "nothing was refused: the probe did not reach the model"
    python = [line for line in lines if any(word in line for word in PYTHON_WORDS)]
    assert python == [], python[:10]


@pytest.mark.parametrize("key", REGISTRY.implemented)
def test_a_wrong_typed_table_value_is_refused_in_jsons_words(key: str) -> None:
    """`/tables set entry: value:` goes through the same words: every top-level table entry
    given each wrong JSON type."""
    ruleset = get_ruleset(key)
    lines: list[str] = []
    for entry in ruleset.configured(None).tables_data():
        for value in WRONG:
            try:
                ruleset.configured({entry: value})
            except InvalidInput as refusal:
                lines.append(str(refusal))
    assert lines, "nothing was refused: the probe did not reach the tables"
    python = [line for line in lines if any(word in line for word in PYTHON_WORDS)]
    assert python == [], python[:10]
