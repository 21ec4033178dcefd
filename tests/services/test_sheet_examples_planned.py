"""Example sheets of a ruleset that cannot play (a planned one; every shipped system plays now,
so a folder the registry does not know stands for it) are not offered: the
listing, the lookup and the autocomplete of ``/character import example:`` show only rulesets
that can start a fight, so nobody imports a sheet no encounter can use yet."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.engine import REGISTRY
from bot.errors import NotFound
from bot.services.actor import Actor
from bot.services.sheets import SheetService
from bot.store.db import Database

SHIPPED = Path(__file__).resolve().parents[2] / "data" / "sheets"


@pytest.fixture
def examples(tmp_path: Path) -> Path:
    for ruleset, key, name in (("uttas", "thug", "Thug"), ("zeta", "vesna", "Vesna")):
        folder = tmp_path / "examples" / ruleset
        folder.mkdir(parents=True)
        (folder / f"{key}.json").write_text(json.dumps({"name": name}))
    return tmp_path / "examples"


async def test_a_planned_rulesets_examples_are_not_offered(db: Database, examples: Path) -> None:
    assert "zeta" not in REGISTRY.implemented
    service = SheetService(db, examples_dir=examples)
    assert [(e.ruleset, e.key) for e in service.examples()] == [("uttas", "thug")]
    assert service.example_choices("ves") == []
    with pytest.raises(NotFound, match=r"no example sheet \*\*vesna\*\*. Examples: `thug`"):
        await service.import_example(100, Actor(user_id=1), "character", "vesna")


def test_the_shipped_examples_of_every_registered_ruleset_are_listed(db: Database) -> None:
    assert len(list((SHIPPED / "utopia").glob("*.json"))) == 4
    listed = {e.ruleset for e in SheetService(db).examples()}
    assert listed == set(REGISTRY.implemented) == {"uttas", "utopia", "untitled", "uune"}
