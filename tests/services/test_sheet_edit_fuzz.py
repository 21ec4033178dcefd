"""``/character edit`` and ``/npc edit`` as careless or hostile members use them, in every game
system: any field path (listed or typed) and any value (huge, negative, empty, JSON, dice
nonsense, Markdown) either is refused with a clear :class:`~bot.errors.DomainError` — which the
bot shows as an ephemeral message, nothing changed — or gives a sheet that the system plays: it
exports and imports back unchanged, joins a fight, the fight begins and runs some steps, with
every refusal along the way a DomainError too. Any other exception is an internal error a
member would hit (the class "a sheet the sheet model accepts but the engine cannot play").

Each example makes one to three edits in a row (each on the sheet the last one kept).
Examples: the Hypothesis profile's (50 under CI). Run with 5,000 single edits a system, then
3,000 examples of one to three edits a system, when written: none failed."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel

from bot.engine import get_ruleset
from bot.engine.core.dice import RandomRoller
from bot.errors import DomainError
from bot.services.sheet_paths import apply_edit, field_paths
from bot.services.sheets import SheetService, export_bytes, ruleset_sheet_model
from tests.engine.rehearsed import begun, rehearse

ROOT = Path(__file__).resolve().parents[2]
SYSTEMS = ("uttas", "utopia", "untitled", "uune")
STEPS = 25  # commands played with the edited sheet after the fight begins

# validate() uses neither the store nor the clock: the checks an edit goes through, no database.
CHECKS = SheetService(None, examples_dir=ROOT / "data" / "sheets")  # type: ignore[arg-type]


def _examples(key: str) -> list[tuple[str, str, dict[str, Any]]]:
    """``(stem, kind, data)`` of each example sheet of system ``key``: a character when its
    character model accepts it, else an NPC template."""
    found = []
    for path in sorted((ROOT / "data" / "sheets" / key).glob("*.json")):
        data = json.loads(path.read_text())
        kind = "character"
        try:
            ruleset_sheet_model(key, "character").model_validate(data)
        except ValueError:
            kind = "npc"
        found.append((path.stem, kind, data))
    return found


EXAMPLES = {key: _examples(key) for key in SYSTEMS}

VALUES = st.one_of(
    st.integers(-(10**12), 10**12).map(str),
    st.sampled_from(
        [
            "-",
            "0",
            "-1",
            "1",
            "2",
            "3",
            "99",
            "1e308",
            "NaN",
            "inf",
            "-0.5",
            "[]",
            "{}",
            "null",
            "true",
            "[1, 2]",
            '{"name": "x"}',
            '[{"name": "Zap", "damage": "1d4"}]',
            "999999d999999",
            "1d0",
            "0d6",
            "d",
            "2d6+1",
            "**bold**",
            "@everyone",
            "<@123>",
            "x" * 200,
            " ",
            "physical",
            "melee",
            "ranged",
        ]
    ),
    st.text(max_size=30),
)


DICE = st.builds(
    lambda n, sides, plus: f"{n}d{sides}" + (f"+{plus}" if plus else ""),
    st.integers(0, 60),
    st.integers(0, 1000),
    st.integers(-5, 50),
)
WHOLE = st.one_of(st.integers(0, 12), st.integers(-3, 40), st.integers(-(10**9), 10**9))


def _values_like(preview: str) -> st.SearchStrategy[str]:
    """Values a member might type for a field now showing ``preview`` (mostly of its kind,
    sometimes anything of :data:`VALUES`)."""
    if preview.lstrip("-").isdigit():
        like: st.SearchStrategy[str] = WHOLE.map(str)
    elif preview.replace(".", "", 1).lstrip("-").isdigit():
        like = st.floats(-10.0, 1e6, allow_nan=False).map(lambda x: f"{x:g}")
    elif preview in ("true", "false"):
        like = st.sampled_from(["true", "false"])
    elif "d" in preview and preview[0].isdigit():
        like = DICE
    elif preview in ("null", "—"):
        like = WHOLE.map(str) | DICE | st.sampled_from(["melee", "ranged", "power", "1"])
    else:
        like = VALUES
    return st.one_of(like, like, like, VALUES)


def _play(key: str, model: BaseModel, kind: str, seed: int) -> None:
    """The edited sheet in a fight: it joins (with an example on the other side), the fight
    begins, and up to :data:`STEPS` commands of the system's rehearsal policy run. Refusals
    are DomainErrors; anything else propagates and fails the test."""
    rules = get_ruleset(key)
    roller = RandomRoller(random.Random(seed))
    # The other side: an example of the other kind if the system has one (Uune's NPC sheets
    # are their own), else the first example, played by the other side's kind of member.
    other_kind, data = next(
        ((k, d) for _, k, d in EXAMPLES[key] if k != kind), EXAMPLES[key][0][1:]
    )
    other_npc = other_kind == "npc" if other_kind != kind else kind != "npc"
    cast = [
        ("Edited", rules.parse_sheet(model.model_dump(mode="json")), kind == "npc"),
        ("Other", rules.parse_sheet(data), other_npc),
    ]
    try:
        state = begun(rules, key, roller, seed=seed, cast=cast)
    except DomainError:
        return  # refused to join or to begin, clearly
    rehearse(rules, state, roller, STEPS)


@pytest.mark.parametrize("key", SYSTEMS)
@given(data=st.data())
def test_an_edit_is_refused_clearly_or_gives_a_sheet_the_system_plays(
    key: str, data: st.DataObject
) -> None:
    _, kind, raw = data.draw(st.sampled_from(EXAMPLES[key]), label="example")
    model_cls = ruleset_sheet_model(key, kind)  # type: ignore[arg-type]
    model = model_cls.model_validate(raw)
    edits = 0
    for _ in range(data.draw(st.integers(1, 3), label="edits")):  # each on the last sheet kept
        dumped = model.model_dump(mode="json")
        listed = field_paths(model_cls, dumped)
        typed = st.text(max_size=25).map(lambda text: (text, ""))
        path, preview = data.draw(st.one_of(*[st.sampled_from(listed)] * 9, typed), label="path")
        value = data.draw(_values_like(preview), label="value")
        try:
            edited = apply_edit(model_cls, dumped, path, value)
            model = CHECKS.validate(key, edited, kind=kind)  # type: ignore[arg-type]
        except DomainError as refusal:
            assert refusal.message.strip(), "an empty refusal"
            continue
        edits += 1
    if not edits:
        return
    again = CHECKS.validate(key, json.loads(export_bytes(model)), kind=kind)  # type: ignore[arg-type]
    assert again == model, "the edited sheet does not export and import back unchanged"
    _play(key, model, kind, data.draw(st.integers(0, 10**6), label="seed"))
