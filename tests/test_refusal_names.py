"""Class guard: a refusal never quotes a name raw.

A refusal (a :class:`~bot.errors.DomainError` raised by the engine, a service or a command) is
sent as an ephemeral reply as it is, and it is Markdown of its own (``**{name}**``, backticked
commands), so it cannot be escaped whole. Every name it quotes (a combatant's, a weapon's,
what a member typed…) goes through :func:`bot.names.escaped` (or :func:`bot.names.quoted` for
what a member typed) where the message is written; otherwise a character named ``*Wren*``
reads as an italic *Wren* (``||Sly||`` as a spoiler, a backtick as a code span).

This test reads the source (``ast``) of ``bot/`` and ``cogs/``: in every ``raise X(...)`` of a
``DomainError`` subclass, whatever text the message is built from — the f-strings, joins and
concatenations in the call, and the local variables they use, followed to their assignments in
the same function — may not use a ``.name`` attribute, or a variable called like a name
(:data:`NAME_VARIABLES`), outside an escaper (:data:`ESCAPERS`). Comparisons and lookups
(``names.same(w.name, typed)``, ``state.get(name)``) are not text and are allowed.
"""

from __future__ import annotations

import ast
import inspect
from collections.abc import Iterator
from pathlib import Path

import bot.errors

ROOT = Path(__file__).resolve().parent.parent
SOURCES = [ROOT / "bot", ROOT / "cogs"]

REFUSALS = {
    name
    for name, value in vars(bot.errors).items()
    if inspect.isclass(value) and issubclass(value, bot.errors.DomainError)
}
ESCAPERS = {
    "escaped",
    "quoted",
    "code",
    "inline_code",
    "shown_name",
    "shown_names",
    "escape_markdown",
    "_shown",
}
"""Calls whose result is a name made safe to show: :func:`bot.names.escaped`,
:func:`bot.names.quoted`, :func:`bot.names.code` (a code span: nothing escaped inside, a
backtick cannot end it) and :func:`bot.ui.text.inline_code`, :func:`bot.ui.text.shown_name` /
``shown_names``, discord.py's
``escape_markdown``, and the services' ``_shown`` helpers (which escape or defuse backticks)."""
NOT_TEXT = {
    "same",
    "key",
    "get",
    "view",
    "len",
    "blank",
    "clean",
    "clean_stored",
    "visible",
    "require",
    "isinstance",
    "sorted",
    "lower",
    "upper",
    "casefold",
}
"""Calls whose arguments are looked up or compared, not shown (their result is not the name)."""
NAME_ATTRIBUTES = {
    "name",
    "weapon",
    "source",
    "attack",
    "condition",
    "skill",
    "item",
    "thing",
    "power",
    "spell",
    "maneuver",
    "stances",
    "extra_conditions",
    "universal_stances",
}
"""Attributes that hold a name: a combatant's, a weapon's, … and the names a command carries
(``cmd.weapon``, ``p.attack``) — and the names a server's tables hold (``tables.stances``: a
server may name a stance ``**Bold**``, attack21c)."""
NAME_VARIABLES = {
    "name",
    "names_",
    "roller",
    "who",
    "wanted",
    "typed",
    "character",
    "combatant_name",
    "target_name",
    "attacker_name",
    "weapon_name",
    "item_name",
    "head_name",
    "reason",
}
"""Variables (and parameters) that hold a name as text, or plain text naming one (the
``reason`` an action is paid for, "attack Hill giant 1 with the Club", is written for the log,
where the view escapes it: quoted in a refusal it is escaped there)."""


Function = ast.FunctionDef | ast.AsyncFunctionDef


def _call_name(node: ast.Call) -> str | None:
    func = node.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _assignments(function: ast.AST | None, variable: str) -> list[ast.expr]:
    """The values ``variable`` is assigned in ``function``."""
    if function is None:
        return []
    found: list[ast.expr] = []
    for node in ast.walk(function):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name) and target.id == variable:
                    found.append(node.value)
                elif isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple):
                    for element, value in zip(target.elts, node.value.elts, strict=False):
                        if isinstance(element, ast.Name) and element.id == variable:
                            found.append(value)
        elif isinstance(node, ast.AnnAssign | ast.AugAssign):
            if isinstance(node.target, ast.Name) and node.target.id == variable and node.value:
                found.append(node.value)
        elif isinstance(node, ast.NamedExpr) and node.target.id == variable:
            found.append(node.value)
    return found


class Finder:
    """Finds the raw names in refusals; ``helpers`` are the functions (by name) whose returned
    text a refusal may quote (``why_no_reaction(c)``), followed like local variables."""

    def __init__(self, helpers: dict[str, list[tuple[str, Function]]], path: str) -> None:
        self.helpers = helpers
        self.path = path

    def _helpers_called(self, called: str) -> list[Function]:
        """The functions a call by that name may run: those of the file the refusal is in, if
        it defines one, else every function of that name."""
        found = self.helpers.get(called, [])
        here = [f for path, f in found if path == self.path]
        return here or [f for _, f in found]

    def raw(
        self, expr: ast.AST, function: ast.AST | None, seen: frozenset[str], depth: int = 0
    ) -> Iterator[tuple[ast.AST, ast.AST | None]]:
        """The nodes in ``expr`` that put a name into the text raw, each with its function."""
        if isinstance(expr, ast.Call):
            yield from self._call(expr, function, seen, depth)
            return
        if isinstance(expr, ast.Attribute):
            if expr.attr in NAME_ATTRIBUTES:
                yield expr, function
            return
        if isinstance(expr, ast.Name):
            assigned = _assignments(function, expr.id)
            if expr.id in NAME_VARIABLES and not assigned:
                yield expr, function  # a parameter holding a name
            elif expr.id not in seen and depth < 6:
                for value in assigned:
                    yield from self.raw(value, function, seen | {expr.id}, depth + 1)
            return
        if isinstance(expr, ast.Compare | ast.Lambda | ast.comprehension):
            return  # comparisons and the iteration and filters of a comprehension: lookups
        if isinstance(expr, ast.Subscript):
            yield from self.raw(expr.value, function, seen, depth)
            return
        if isinstance(expr, ast.GeneratorExp | ast.ListComp | ast.SetComp):
            yield from self.raw(expr.elt, function, seen, depth)
            return
        if isinstance(expr, ast.IfExp):
            yield from self.raw(expr.body, function, seen, depth)
            yield from self.raw(expr.orelse, function, seen, depth)
            return
        for child in ast.iter_child_nodes(expr):
            yield from self.raw(child, function, seen, depth)

    def _call(
        self, expr: ast.Call, function: ast.AST | None, seen: frozenset[str], depth: int
    ) -> Iterator[tuple[ast.AST, ast.AST | None]]:
        called = _call_name(expr)
        if called in ESCAPERS or called in NOT_TEXT:
            return
        arguments = [*expr.args, *(k.value for k in expr.keywords)]
        if called in REFUSALS or called in ("join", "str", "format"):
            for arg in arguments:
                yield from self.raw(arg, function, seen, depth)
            if isinstance(expr.func, ast.Attribute):  # "sep".join(...) / text.format(...)
                yield from self.raw(expr.func.value, function, seen, depth)
            return
        # Another call: text built in its arguments may be shown, and so may the text a
        # helper of ours returns.
        for arg in arguments:
            if isinstance(arg, ast.JoinedStr | ast.BinOp | ast.GeneratorExp | ast.ListComp):
                yield from self.raw(arg, function, seen, depth)
        key = f"()${called}"
        if called is not None and key not in seen and depth < 6:
            for helper in self._helpers_called(called):
                for node in ast.walk(helper):
                    if isinstance(node, ast.Return) and node.value is not None:
                        yield from self.raw(node.value, helper, seen | {key}, depth + 1)


def _refusals(
    expr: ast.AST | None,
    function: ast.AST | None,
    helpers: dict[str, list[tuple[str, Function]]],
    path: str,
    seen: frozenset[str] = frozenset(),
) -> Iterator[tuple[ast.Call, ast.AST | None]]:
    """The refusal constructors a ``raise`` may raise, each with its function: the call itself
    (``raise RuleViolation(...)``), either side of ``or`` / ``if``, a variable's assignments,
    and what a factory of ours returns (``raise refusal or RuleViolation(...)``,
    ``raise self._not_yours(c)``)."""
    if isinstance(expr, ast.Call):
        called = _call_name(expr)
        if called in REFUSALS:
            yield expr, function
            return
        key = f"()${called}"
        if called is None or key in seen or len(seen) > 6:
            return
        found = helpers.get(called, [])
        candidates = [f for p, f in found if p == path] or [f for _, f in found]
        for helper in candidates:
            for node in ast.walk(helper):
                if isinstance(node, ast.Return) and node.value is not None:
                    yield from _refusals(node.value, helper, helpers, path, seen | {key})
    elif isinstance(expr, ast.BoolOp):
        for value in expr.values:
            yield from _refusals(value, function, helpers, path, seen)
    elif isinstance(expr, ast.IfExp):
        yield from _refusals(expr.body, function, helpers, path, seen)
        yield from _refusals(expr.orelse, function, helpers, path, seen)
    elif isinstance(expr, ast.Name) and expr.id not in seen:
        for value in _assignments(function, expr.id):
            yield from _refusals(value, function, helpers, path, seen | {expr.id})


def _raises(tree: ast.AST) -> Iterator[tuple[ast.AST | None, ast.Raise]]:
    """Each ``raise`` with the innermost function around it."""

    def visit(
        node: ast.AST, function: ast.AST | None
    ) -> Iterator[tuple[ast.AST | None, ast.Raise]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Raise):
                yield function, child
            inner = child if isinstance(child, Function) else function
            yield from visit(child, inner)

    yield from visit(tree, None)


def _helpers(trees: dict[str, ast.Module]) -> dict[str, list[tuple[str, Function]]]:
    found: dict[str, list[tuple[str, Function]]] = {}
    for path, tree in trees.items():
        for node in ast.walk(tree):
            if isinstance(node, Function):
                found.setdefault(node.name, []).append((path, node))
    return found


def raw_names_in_refusals(sources: dict[str, str]) -> list[str]:
    """Where ``sources`` (path: text) raise a refusal quoting a name raw: ``path:line: expr``."""
    trees = {path: ast.parse(text) for path, text in sources.items()}
    helpers = _helpers(trees)
    where = {id(f): path for entries in helpers.values() for path, f in entries}
    found: list[str] = []
    for path, tree in trees.items():
        finder = Finder(helpers, path)
        for function, node in _raises(tree):
            for exc, inside_of in _refusals(node.exc, function, helpers, path):
                for raw, inside in finder.raw(exc, inside_of, frozenset()):
                    origin = where.get(id(inside), path) if inside is not None else path
                    line = f"{origin}:{getattr(raw, 'lineno', 0)}: {ast.unparse(raw)}"
                    if line not in found:
                        found.append(line)
    return found


def _sources() -> dict[str, str]:
    return {
        str(path.relative_to(ROOT)): path.read_text("utf-8")
        for source in SOURCES
        for path in sorted(source.rglob("*.py"))
    }


def test_no_refusal_quotes_a_name_raw() -> None:
    found = raw_names_in_refusals(_sources())
    assert not found, (
        "refusals quoting a name raw (wrap it in names.escaped, or names.quoted for what a "
        "member typed):\n" + "\n".join(found)
    )


def test_the_guard_sees_a_raw_name_and_lets_an_escaped_one_pass() -> None:
    raw = """
def f(c, name, typed):
    known = ", ".join(w.name for w in c.weapons)
    raise RuleViolation(f"{c.name} has no breathers left.")
    raise NotFound(f"No weapon called {name}: {known}.")
    message = f"**{c.name}** cannot."
    raise RuleViolation(message)
    raise RuleViolation(f"{c.name} cannot {typed}: " + c.sheet.name)
    refusal = _refusal(c) if c.odd else None
    raise refusal or NotAllowed(f"Not {c.name}.")


def _refusal(c):
    return RuleViolation(f"{c.name} is odd.")
"""
    assert [line.split(": ", 1)[1] for line in raw_names_in_refusals({"a.py": raw})] == [
        "c.name",
        "name",
        "w.name",
        "c.name",
        "c.name",
        "typed",
        "c.sheet.name",
        "c.name",  # in _refusal, which the raise of `refusal` returns
        "c.name",  # the other side of `or`
    ]
    safe = """
def f(c, name, state):
    known = ", ".join(names.escaped(w.name) for w in c.weapons if names.same(w.name, name))
    who = state.get(name)
    raise RuleViolation(f"{names.escaped(c.name)} has no breathers left.")
    raise NotFound(f"No weapon called {names.quoted(name)}: {known}.")
    raise NotFound(f"{names.escaped(who.name)} is {len(c.name)} long.")
"""
    assert raw_names_in_refusals({"a.py": safe}) == []
