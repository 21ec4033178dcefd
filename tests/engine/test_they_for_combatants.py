"""Guard: what the bot says of a combatant calls them "they", as every system's texts do.

Utopia's rules text speaks of "a creature" in general as "it" ("It rolls its Block Rating"),
and Utopia's texts said the same of a named PC ("Vesna cannot defend (it attacked with
interrupt actions: it cannot …)") where every other line about a PC says "they". From Utopia
8 they say "they" (``Tx.of_them``: versions 1 to 7 replay as they were said). Two sweeps
catch the class: the event texts of every system's newest recorded fights
(``tests/fixtures/golden``), and every string Utopia's engine writes (its source, read with
``ast``): an "it" or "its" there must be about a thing (listed below), or the old version's
word given to ``of_them``.
"""

from __future__ import annotations

import ast
import json
import re
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from bot.engine import REGISTRY, ScriptedRoller, get_ruleset

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "fixtures" / "golden"
UTOPIA = ROOT / "bot" / "engine" / "utopia"
IT = re.compile(r"\b(it|its|itself)\b", re.IGNORECASE)

ABOUT_THINGS = (
    "the GM changes it with `/gm order`",  # Untitled: the order
)
"""Phrases of the recorded fights' event texts where "it" is a thing, not a combatant."""


def _newest(key: str) -> Path:
    rules = get_ruleset(key)
    return GOLDEN / f"{key}-v{rules.version}.json"


def _event_texts(path: Path) -> list[str]:
    recorded: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    rules = get_ruleset(recorded["system"], frozen=recorded["rules"])
    now = datetime.fromisoformat(recorded["at"])
    texts: list[str] = []
    for fight in recorded["fights"]:
        state = rules.load_state(fight["start"])
        for step in fight["steps"]:
            command = rules.parse_command(step["command"])
            out = rules.apply(state, command, ScriptedRoller(step["dice"]), now)
            state = out.state
            for event in out.events:
                texts += [t for t in (event.text, getattr(event, "public", None)) if t]
    return texts


@pytest.mark.parametrize("key", sorted(REGISTRY.implemented))
def test_the_newest_recorded_fights_call_no_combatant_it(key: str) -> None:
    texts = _event_texts(_newest(key))
    assert texts
    found = set()
    for text in texts:
        rest = text
        for phrase in ABOUT_THINGS:
            rest = rest.replace(phrase, "")
        if IT.search(rest):
            found.add(text)
    assert not found, sorted(found)


UTOPIA_THINGS = frozenset(
    {
        # A thing, an action, a decision, a system — never a combatant.
        " IA are spent as 1 TA when an action needs it: take the action itself (the bot pays "
        "it with interrupt actions).",
        " or less (or leave it out), and Travel again for the rest.",
        ", or leave it out to ",
        "; its conditions: ",
        " defenses stop it)",
        "Utopia always rolls its order (everyone's Speed test, highest first)",
        " The buttons on the attack's message decide it (the GM chooses for an NPC); `/gm "
        "resolve` settles it: the damage is taken with no defense.",
        " The Assist buttons give Assists, and the defender rolls when ready; `/gm resolve` "
        "settles it: the defense is rolled with the Assists given.",
        "): **Take it** settles it",
        "This is not a Foundry VTT actor export: it has no `system` object (export the actor "
        "with Foundry's Export Data).",
        ": its own ",
        " is not kept (a trait is its subtraits)",
        ": its features (damage, range, area) are references into the Foundry world; add them "
        "by hand",
        "only its Block and Dodge Ratings count",
        "It is ",
        "A multi-weapon attack is made with weapons: attack weaponless on its own.",
        "Utopia gives no natural healing over weeks: neither its text nor its Foundry system "
        "restores DHP with time. Set DHP with `/gm vital`, or give a number in the server's "
        "tables: `/tables set ruleset:utopia entry:rest.dhp_per_week value:2` (for encounters "
        "started from then on).",
        ' value:["shp", "dhp", "stamina"]` (the pools it restores; for encounters started from '
        "then on).",
        "spend your turn actions (TA) with `/act`: Attack, Aim, Travel, Leap, Stealth, Cast a "
        "spell, Grapple, Scale, Deep Breath, Hold… (`/act` lists each with its cost).",
        "block if I can afford it, else take it",
        " (UTTAS's); set its SHP and DHP afterwards with `/gm vital`, or create an NPC template "
        "with `/npc create ruleset:utopia`.",
        " deals damage: give its `target:`.",
        " did not see it coming and cannot defend.",
        "1 TA (free right before an attack with it)",
        " TA (free right before an attack with it)",
        "Assist needs `detail:` test (1 IA), leap (1 IA) or grapple (2 IA): what the aided "
        "creature does next. (Assist on a Block or Dodge is a button: it is offered to allies "
        "within 1 m when a creature blocks or dodges.)",
        ". It has: ",
    }
)
"""Utopia's strings with an "it" or "its" about a thing; a new one is read and, when it is
about a combatant, says "they" (a log text under a new rules version, ``Tx.of_them``)."""


def _strings(tree: ast.Module) -> list[ast.Constant]:
    """The string constants of ``tree`` a player may read: not docstrings, not the old
    version's word given to ``of_them`` (its first argument)."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            skip.add(id(node.value))  # a docstring
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "of_them"
            and node.args
        ):
            skip.add(id(node.args[0]))
    return [
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in skip
    ]


def test_utopias_texts_say_it_only_of_things() -> None:
    found = []
    for path in sorted(UTOPIA.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in _strings(tree):
            if IT.search(node.value) and node.value not in UTOPIA_THINGS:
                found.append(f"{path.name}:{node.lineno}: {node.value!r}")
    assert not found, found
