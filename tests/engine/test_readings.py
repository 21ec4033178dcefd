"""Guard: every rules-version gate in the engine is a named reading.

A later reading of a rules text is played from a rules version on, so an older fight's log
replays as it was played. Each is named in its system's ``Tx.READINGS`` (the core's in
``LATER_READINGS``) and asked for by name (``tx.reads``, ``Tx.reads_at``, ``tx.plays``); a bare
``version >= 5`` says nothing of what changed, and a misspelt name must fail, not play the old
reading. These checks read the engine's source (``ast``), so a new gate of either kind is
caught wherever it is written.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.engine.core.tx import CoreTx
from bot.engine.registry import REGISTRY

ENGINE = Path(__file__).resolve().parents[2] / "bot" / "engine"
CORE = ENGINE / "core"


def _modules(folder: Path) -> Iterator[tuple[Path, ast.Module]]:
    for path in sorted(folder.rglob("*.py")):
        yield path, ast.parse(path.read_text(encoding="utf-8"))


def _names_version(node: ast.expr) -> bool:
    return (isinstance(node, ast.Name) and node.id.endswith("version")) or (
        isinstance(node, ast.Attribute) and node.attr.endswith("version")
    )


def _int(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) is int


def test_no_gate_compares_a_version_with_a_number() -> None:
    found = []
    for path, tree in _modules(ENGINE):
        for node in ast.walk(tree):
            if not isinstance(node, ast.Compare):
                continue
            sides = [node.left, *node.comparators]
            if any(_names_version(s) for s in sides) and any(_int(s) for s in sides):
                found.append(f"{path.relative_to(ENGINE)}:{node.lineno}")
    assert not found, f"name the reading in the system's Tx.READINGS instead: {found}"


def _asked(tree: ast.Module, method: str) -> Iterator[tuple[int, str]]:
    """(line, reading) of each ``….method(…, "reading")`` call with a literal reading."""
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == method
            and node.args
            and isinstance(node.args[-1], ast.Constant)
            and isinstance(node.args[-1].value, str)
        ):
            yield node.lineno, node.args[-1].value


def _system_tx(system: str) -> type[CoreTx]:  # type: ignore[type-arg]
    module = __import__(f"bot.engine.{system}.core", fromlist=["Tx"])
    tx: type[CoreTx] = module.Tx  # type: ignore[type-arg]
    return tx


SYSTEMS = sorted(REGISTRY.implemented)


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_reading_asked_for_is_listed_used_and_explained(system: str) -> None:
    tx = _system_tx(system)
    asked: set[str] = set()
    for path, tree in _modules(ENGINE / system):
        for method in ("reads", "reads_at"):
            for line, reading in _asked(tree, method):
                assert reading in tx.READINGS, f"{path.name}:{line}: {reading!r} is not listed"
                asked.add(reading)
    assert set(tx.READINGS) == asked, f"listed but never asked for: {set(tx.READINGS) - asked}"
    explained = tx.__dict__.get("READINGS") and _docstring_after(tx, "READINGS")
    for reading in tx.READINGS:
        assert f'``"{reading}"``' in (explained or ""), f"{reading!r} is not explained"


@pytest.mark.parametrize("system", SYSTEMS)
def test_each_reading_begins_at_a_known_version_after_the_first(system: str) -> None:
    tx, ruleset = _system_tx(system), REGISTRY.get(system)
    for reading, first in {**tx.READINGS, **tx.LATER_READINGS}.items():
        assert first in ruleset.known_versions[1:], (reading, first)
        assert not tx.reads_at(first - 1, reading) if reading in tx.READINGS else True
        assert tx.reads_at(first, reading) if reading in tx.READINGS else True


def test_the_core_asks_only_for_core_readings() -> None:
    core_readings = {r for s in SYSTEMS for r in _system_tx(s).LATER_READINGS}
    for path, tree in _modules(CORE):
        for line, reading in _asked(tree, "plays"):
            assert reading in core_readings, f"{path.name}:{line}: {reading!r}"
        assert not [*_asked(tree, "reads")], f"{path.name}: the core plays LATER_READINGS"


def test_a_misspelt_reading_fails_loudly() -> None:
    tx = _system_tx("uttas")
    with pytest.raises(KeyError):
        tx.reads_at(5, "maintained_atacks")


def _docstring_after(cls: type, attribute: str) -> str:
    """The string literal that follows ``attribute``'s assignment in ``cls``'s source."""
    import inspect

    tree = ast.parse(inspect.getsource(inspect.getmodule(cls)))  # type: ignore[arg-type]
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == cls.__name__:
            body = node.body
            for i, stmt in enumerate(body[:-1]):
                target = getattr(stmt, "target", None)
                if isinstance(target, ast.Name) and target.id == attribute:
                    nxt = body[i + 1]
                    if isinstance(nxt, ast.Expr) and isinstance(nxt.value, ast.Constant):
                        return str(nxt.value.value)
    return ""
