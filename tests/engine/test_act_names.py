"""Every action name the README's ``/act`` row gives a game system is one ``action:`` takes:
a name the README teaches that ``/act`` refuses ("Untitled has no action 'act now'") is a
member following the docs and being told they are wrong."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from bot.engine.core.verbs import ActInput, ActionSpec, require_options, spec_for
from bot.errors import InvalidInput

README = Path(__file__).resolve().parents[2] / "README.md"
SYSTEMS = {"UTTAS": "uttas", "Utopia": "utopia", "Untitled": "untitled", "Uune": "uune"}


def readme_action_names() -> dict[str, list[str]]:
    """The README's ``/act`` row: each system's action names, as it lists them."""
    row = next(line for line in README.read_text().splitlines() if line.startswith("| `/act "))
    listed = row.split('(held action)") (', 1)[1].split("); `detail:` is what", 1)[0]
    listed = re.sub(r" — .*? —", "", listed)  # the asides on what detail:/amount: mean
    listed = re.sub(r" \([^()]*\)", "", listed)  # (the GM, as the NPC), (the held action)
    found: dict[str, list[str]] = {}
    for part in listed.split("; "):
        system, _, words = part.partition(": ")
        if system not in SYSTEMS:
            continue  # "flourishes, special attacks and parry are refused by name"
        names = []
        for chunk in re.split(r", | and ", words):
            chunk = chunk.removeprefix("and ").removeprefix("declared ").removesuffix(" actions")
            names.extend(name.strip() for name in chunk.split("/"))
        found[SYSTEMS[system]] = names
    return found


def actions(system: str) -> list[ActionSpec]:
    """The system's ``/act`` actions (Utopia prices them per fight; names and keys are these)."""
    return list(importlib.import_module(f"bot.engine.{system}.verbs").ACTIONS)


def test_the_readme_lists_every_system() -> None:
    assert sorted(readme_action_names()) == sorted(SYSTEMS.values())


@pytest.mark.parametrize(
    ("system", "name"),
    [(system, name) for system, names in readme_action_names().items() for name in names],
)
def test_an_action_named_as_the_readme_names_it_is_taken(system: str, name: str) -> None:
    specs = actions(system)
    assert spec_for(specs, name) is not None, (system, name, [s.label for s in specs])
    assert spec_for(specs, name.upper()) is spec_for(specs, name)


def test_a_label_with_an_aside_is_taken_without_it_and_never_hides_a_key() -> None:
    specs = actions("uune")
    assert spec_for(specs, "move").key == "move"  # type: ignore[union-attr]
    assert spec_for(specs, "Move (same position)").key == "shift"  # type: ignore[union-attr]
    assert spec_for(specs, "staunch").key == "staunch"  # type: ignore[union-attr]
    untitled = actions("untitled")
    assert spec_for(untitled, "  Act   now ").key == "resume"  # type: ignore[union-attr]
    assert spec_for(untitled, "act") is None


@pytest.mark.parametrize("system", sorted(SYSTEMS.values()))
def test_every_option_an_action_does_not_take_is_refused_by_name(system: str) -> None:
    """For every action of every system, ``target:``, ``detail:`` or ``amount:`` given where
    its list entry takes none is refused naming it (``verbs.require_options``), and one it
    takes passes."""
    for spec in actions(system):
        given = {"target": "c2", "detail": "x", "amount": 1.0}
        takes = {
            "target": spec.target != "none",
            "detail": spec.detail is not None,
            "amount": spec.amount is not None,
        }
        for option, value in given.items():
            typed = ActInput(key=spec.key, **{option: value})
            if takes[option]:
                require_options(spec, typed)
            else:
                with pytest.raises(InvalidInput, match=f"takes no `{option}:`"):
                    require_options(spec, typed)
