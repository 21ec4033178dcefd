"""Table entries are names (attack21c): every entry of every playable ruleset's tables, typed
in another letter case, reaches that entry — never a second entry beside it that lookups by
name would not find (``stances.aggressive`` beside ``Aggressive``)."""

from __future__ import annotations

import pytest

from bot.engine import REGISTRY, get_ruleset
from bot.services.tables import leaf_paths, resolve


@pytest.mark.parametrize("ruleset", REGISTRY.implemented)
def test_every_entry_typed_in_another_case_resolves_to_itself(ruleset: str) -> None:
    tables = get_ruleset(ruleset).tables.model_dump(mode="json")
    paths = leaf_paths(tables)
    assert paths
    wrong = [
        path
        for path in paths
        if resolve(tables, [part.swapcase() for part in path.split(".")]) != path.split(".")
    ]
    assert not wrong, wrong


def test_a_new_name_is_kept_in_normal_form() -> None:
    tables = get_ruleset("uttas").tables.model_dump(mode="json")
    assert resolve(tables, ["stances", "Ｗｉｌｄ", "dodge_bonus"]) == [
        "stances",
        "Wild",
        "dodge_bonus",
    ]
    assert resolve(tables, ["stances", "\u0410ggressive"]) == ["stances", "Aggressive"]
