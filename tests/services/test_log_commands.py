"""Every label the bot logs a change under has words members know it by
(:mod:`bot.services.log_commands`): an undo once read "Undid **add\\_npcs**" for `/gm add-npc`.

The labels are found in the source, where each change is handed to the encounter log: the
label argument of the services' and cogs' runners (a string constant), the ``label`` or
``command`` keyword, a ``label`` parameter's default, and the turn ping's button labels. A new
command logged under a new label fails here until :mod:`bot.services.log_commands` names it."""

from __future__ import annotations

import ast
from pathlib import Path

from bot.services import log_commands

ROOT = Path(__file__).resolve().parents[2]

RUNNERS = {
    # callee name → the position of its log label among the positional arguments
    "_gm": 1,
    "gm": 1,
    "gm_command": 2,
    "_do": 2,
    "act": 3,
    "act_on_turn": 3,
    "_run": 2,
    "change": 2,
}
"""The calls a change's label goes through on its way to the log."""

KEYWORDED = ("append_log", "set_vitals")
"""Calls that take the label as a keyword (``command=``, ``label=``)."""

FILES = [
    *sorted((ROOT / "cogs").glob("*.py")),
    *sorted((ROOT / "cogs" / "gm").glob("*.py")),
    *(
        ROOT / "bot" / "services" / name
        for name in (
            "combat.py",
            "encounters.py",
            "member_data.py",
            "member_sources.py",
            "moderation.py",
            "roster.py",
            "turn_moves.py",
        )
    ),
]
"""Where encounter changes are handed to the log (`cogs/campaign.py`'s runner logs campaign
records, not an encounter's changes, and has no undo: left out below)."""


def _constant(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _labels(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            at = RUNNERS.get(name)
            if at is not None and len(node.args) > at:
                found.add(_constant(node.args[at]) or "")
            for keyword in node.keywords:
                if keyword.arg in ("label", "command") and name in (*RUNNERS, *KEYWORDED):
                    found.add(_constant(keyword.value) or "")
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            args = node.args
            for arg, default in zip(args.kwonlyargs, args.kw_defaults, strict=True):
                if arg.arg == "label" and default is not None:
                    found.add(_constant(default) or "")
        elif isinstance(node, ast.Dict) and path.name == "turn_moves.py":
            found.update(v for v in map(_constant, node.values) if v)
    found.discard("")
    return found


def test_every_logged_label_has_the_words_members_know_it_by() -> None:
    labels: set[str] = set()
    for path in FILES:
        if path.name == "campaign.py":
            continue
        labels |= _labels(path)
    known = {
        *log_commands.TYPED,
        *log_commands.PRESSED,
        *log_commands.BY_ITSELF,
        log_commands.DECIDED,
    }
    assert labels, "the scan found no label: the runners were renamed"
    assert {"add_npcs", "endturn", "react", "hp", "vital", "expire"} <= labels, sorted(labels)
    assert labels - known == set(), sorted(labels - known)


def test_a_label_is_shown_as_typed_pressed_or_done_by_the_bot() -> None:
    shown = log_commands.shown_command
    assert shown("add_npcs", {"template": "Thug", "count": 3}) == "/gm add-npc"
    assert shown("act", {"action": "attack", "target": "Thug 1"}) == "/act action:attack"
    assert shown("endturn", {}) == "/endturn"
    assert shown("endturn", {"turn": 4}) == "the turn's End turn button"
    assert shown("deadline", {"for_turn": 4}) == "a passed turn deadline"
    assert shown("react", {"pending_version": 7, "choice": "evade"}) == "a decision's button"
    pressed = {"pending_version": 7, "choice": "evade", "button": "Evade (1 action)"}
    assert shown("react", pressed) == "the “Evade (1 action)” button"
    assert shown("react", {"choice": "dodge"}) == "/dodge"
    assert shown("an old label", {}) == "an old label"


def test_only_a_typed_commands_options_are_shown() -> None:
    """An undo's GM copy once listed a passed deadline's ``for_turn`` and a button's ``turn``
    and ``choice`` as if a member had typed them: a button pressed and a change the bot made by
    itself show no options; a typed command shows its own, without bookkeeping."""
    logged = {"turn": 3, "target": "c2", "for_turn": 5, "pending_version": 9, "choice": "evade"}
    for label in log_commands.BY_ITSELF:
        assert log_commands.typed_options(label, logged) == {}, label
    for label in log_commands.PRESSED:
        assert log_commands.typed_options(label, logged) == {}, label
    assert log_commands.typed_options(log_commands.DECIDED, logged) == {}
    typed = {"target": "Thug 1", "with": "Club", "pending_version": 4, "dice_rolled": [1]}
    typed["range"] = None  # an option left out: "(…, range: None)" was shown
    assert log_commands.typed_options("attack", typed) == {"target": "Thug 1", "with": "Club"}
