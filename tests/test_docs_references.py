"""What the documents name exists: the docs say what the code does.

The README, ``docs/``, ``docs/rules/`` and the ``/help`` guides (``data/help/``) cite files,
tests, modules and slash commands. Each kind of citation is checked against the code, so a
rename or a removal that leaves a document pointing at nothing fails here:

* every backticked path of the repository (``bot/store/pg.py``, ``tests/e2e/test_away.py``)
  exists (a ``*`` in it must match something);
* every ``path::test_name`` and every bare backticked ``test_…`` name is a test that exists;
* every backticked dotted name under ``bot.`` or ``cogs.`` resolves (a module, then
  attributes; a pydantic field or an annotated attribute counts);
* every slash command a document writes (``/gm hp``, ``/attack target:Thug with:Club``, a
  signature ``/attack target: with: [range]``) is one the cogs register, with each ``option:``
  or ``[option]`` it gives one of that command's options;
* every command the cogs register is in the README;
* every qualified cross-reference in a docstring of ``bot/`` or ``cogs/``
  (``:data:`bot.engine.utopia.verbs.ACTIONS```) resolves;
* the code ``docs/rules/<system>.md`` and its rule table name by module
  (``core.Tx.turn_taken_up``) exists in that system's package or the core.
* ``docs/architecture.md``'s tree of ``bot/engine`` names every module of the engine, each
  under its package, and no module that is not there.
* a backticked ``Class.attribute`` of a class of the bot is one the class has;
* ``docs/member-data.md`` has a row for each of the member data sources, in their order;
* a rules version named with its system (``Utopia 7``, "Uune · rules v7") is one the system
  plays; ``docs/rules/<system>.md`` says new fights play by the system's newest version and
  names each of its versions, and no document of the system names one past the newest.

Files outside the repository (the rules texts in the team's ``shared/rules/`` folder, the
audit in ``shared/audits/``) are cited by bare name or under ``shared/`` and not checked.
"""

from __future__ import annotations

import ast
import asyncio
import importlib
import json
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any
from unittest.mock import MagicMock

import discord
import pytest
from discord.ext import commands

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted(
    [
        ROOT / "README.md",
        *(ROOT / "docs").glob("*.md"),
        *(ROOT / "docs" / "rules").glob("*.md"),
        *(ROOT / "data" / "help").glob("*.md"),
    ]
)
TICKED = re.compile(r"`([^`\n]+)`")
PATH = re.compile(r"^[\w.*-]+(?:/[\w.*-]+)+\.(?:py|md|json|toml|sql|png|txt|ya?ml)$")
OUTSIDE = ("shared/",)  # the team's folder beside the repository
BARE_TEST = re.compile(r"^test_\w+$")
DOTTED = re.compile(r"^(?:bot|cogs)(?:\.\w+)+$")
# A command as written in a document: `/gm place distance a:Vesna b:Brannoc meters:3`.
COMMAND = re.compile(
    r"(?<![\w/.<>-])/([a-z][a-z-]*(?![\w:-])(?: [a-z][a-z-]*(?![\w:-]))*)"
    r'((?: [a-z_]+:(?:"[^"]*"|\S*))*)'
)
FILESYSTEM = re.compile(r"^/(?:tmp|proc|dev|sys|var|etc|usr|home|root)\b")  # a file, not a command
OPTION = re.compile(r"(?:^| )([a-z_]+):")
BRACKETED = re.compile(r"\[([a-z_]+)\b")


def _relative(doc: Path) -> str:
    return str(doc.relative_to(ROOT))


def _ticked() -> list[tuple[str, int, str]]:
    """Every backticked span of every document: (document, line, text)."""
    found = []
    for doc in DOCS:
        for number, line in enumerate(doc.read_text("utf-8").splitlines(), 1):
            for match in TICKED.finditer(line):
                found.append((_relative(doc), number, match.group(1).strip()))
    return found


@cache
def _tests() -> dict[str, str]:
    """Each test file's text, by its path under the repository."""
    return {
        str(path.relative_to(ROOT)): path.read_text("utf-8")
        for path in (ROOT / "tests").rglob("test_*.py")
    }


def _defines(text: str, name: str) -> bool:
    return re.search(rf"^\s*(?:async )?def {re.escape(name)}\(", text, re.M) is not None


def test_every_cited_path_and_test_exists() -> None:
    missing = []
    for doc, line, text in _ticked():
        path, _, test = text.partition("::")
        if not PATH.match(path) or path.startswith(OUTSIDE):
            continue
        matches = list(ROOT.glob(path)) if "*" in path else [ROOT / path]
        if not any(m.exists() for m in matches):
            missing.append(f"{doc}:{line}: no file {path}")
        elif test and not _defines(matches[0].read_text("utf-8"), test.split("[")[0]):
            missing.append(f"{doc}:{line}: no test {test} in {path}")
    assert not missing, "\n".join(missing)


def test_every_bare_test_name_is_a_test() -> None:
    tests = "\n".join(_tests().values())
    missing = [
        f"{doc}:{line}: no test {text}"
        for doc, line, text in _ticked()
        if BARE_TEST.match(text) and not _defines(tests, text)
    ]
    assert not missing, "\n".join(missing)


def _resolve(name: str) -> bool:
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: Any = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        return _resolve_in(found, parts[cut:])
    return False


def test_every_dotted_name_resolves() -> None:
    missing = [
        f"{doc}:{line}: {text} does not resolve"
        for doc, line, text in _ticked()
        if DOTTED.match(text) and not _resolve(text)
    ]
    assert not missing, "\n".join(missing)


@cache
def _command_options() -> dict[str, set[str]]:
    """Every slash command the cogs register (``gm place distance``), with its options' names,
    from the cogs the bot adds (:meth:`bot.client.CombatBot.setup_hook`; their services are
    not used to build the commands)."""
    from bot.ui.help import commands_of
    from cogs.act import ActCog
    from cogs.away import AwayCog
    from cogs.campaign import CampaignCog
    from cogs.character import CharacterCog
    from cogs.combat import CombatCog
    from cogs.dice import DiceCog
    from cogs.encounter import EncounterCog
    from cogs.gm import GmCog
    from cogs.help import HelpCog
    from cogs.me import MeCog
    from cogs.npc import NpcCog
    from cogs.odds import OddsCog
    from cogs.reactions import ReactionsCog
    from cogs.rehearse import RehearseCog
    from cogs.server import ServerCog
    from cogs.tables import TablesCog

    async def tree() -> dict[str, set[str]]:
        bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
        any_ = MagicMock
        cogs: list[commands.Cog] = [
            EncounterCog(any_(), any_(), any_()),
            CharacterCog(any_()),
            NpcCog(any_()),
            GmCog(any_(), any_(), any_(), any_()),
            CombatCog(any_(), any_()),
            ActCog(any_(), any_()),
            OddsCog(any_(), any_()),
            RehearseCog(any_()),
            ReactionsCog(any_()),
            DiceCog(),
            HelpCog(),
            TablesCog(any_(), any_()),
            ServerCog(any_(), any_()),
            MeCog(any_(), any_(), any_()),
            CampaignCog(any_()),
            AwayCog(any_(), any_()),
        ]
        for cog in cogs:
            await bot.add_cog(cog)
        return {
            c.qualified_name: {p.display_name for p in c.parameters} for c in commands_of(bot.tree)
        }

    return asyncio.run(tree())


def test_the_cogs_list_matches_the_bots_setup() -> None:
    """The cogs above are the ones :meth:`CombatBot.setup_hook` adds (a new cog fails here
    until it is added above, so its commands are checked too)."""
    from bot import client

    source = Path(client.__file__).read_text("utf-8")
    setup = source[source.index("async def setup_hook") :]
    setup = setup[: setup.index("self.add_dynamic_items")]
    added = set(re.findall(r"add_cog\(\s*(\w+)\(", setup))
    here = set(re.findall(r"^            (\w+Cog)\(", Path(__file__).read_text("utf-8"), re.M))
    assert added == here


def _spans() -> Iterator[tuple[Path, int, str, bool]]:
    """Each backticked span of each document, and each line of its ```` ```text ```` blocks:
    (document, line number, text, whether it is a fenced line)."""
    for doc in DOCS:
        fenced = False
        for number, line in enumerate(doc.read_text("utf-8").splitlines(), 1):
            if line.lstrip().startswith("```"):
                fenced = not fenced and line.strip() == "```text"
                continue
            for span in [line] if fenced else [m.group(1) for m in TICKED.finditer(line)]:
                yield doc, number, span, fenced


def _commands_written() -> list[tuple[str, int, str, list[str]]]:
    """Each slash command a document writes: in a backticked span that starts with ``/``, or
    on a line of a ```` ```text ```` block (not a file such as ``/tmp/x``). (document, line,
    words, options given)."""
    found = []
    for doc, number, span, fenced in _spans():
        if not fenced and (not span.startswith("/") or FILESYSTEM.match(span)):
            continue
        for match in COMMAND.finditer(span):
            options = OPTION.findall(re.sub(r'"[^"]*"', "", match.group(2)))
            if not fenced:  # a signature: `/attack target: with: [range] [as]`
                options += BRACKETED.findall(span[match.end() :])
            found.append((_relative(doc), number, match.group(1), options))
    return found


def test_every_command_written_is_registered_with_its_options() -> None:
    registered = _command_options()
    known = {" ".join(name.split(" ")[:n]) for name in registered for n in (1, 2, 3)}
    wrong = []
    for doc, line, words, options in _commands_written():
        prefixes = [" ".join(words.split(" ")[:n]) for n in range(words.count(" ") + 1, 0, -1)]
        name = next((p for p in prefixes if p in known), None)
        if name is None:
            wrong.append(f"{doc}:{line}: no command /{words}")
        elif name not in registered and options:
            wrong.append(f"{doc}:{line}: /{name} is a group: options go to one of its commands")
        elif name in registered:
            wrong.extend(
                f"{doc}:{line}: /{name} has no option {option}:"
                for option in options
                if option not in registered[name]
            )
    assert not wrong, "\n".join(wrong)


def test_every_registered_command_is_in_the_readme() -> None:
    """The README's "Commands" lists every command: ``/gm hp``, or a group's row naming its
    subcommands (``/npc create``, ``import``, …)."""
    lines = (ROOT / "README.md").read_text("utf-8").splitlines()
    missing = []
    for name in _command_options():
        if " " not in name:
            if not any(f"`/{name}" in line for line in lines):
                missing.append(name)
            continue
        group, sub = name.rsplit(" ", 1)
        if not any(
            f"/{name}" in line or (f"`/{group} " in line and f"`{sub}`" in line) for line in lines
        ):
            missing.append(name)
    assert not missing, "\n".join(missing)


def test_the_guides_checked_here_are_the_ones_help_shows() -> None:
    from bot.ui import help as help_texts

    shown = {help_texts.HELP_DIR / name for name in help_texts.GUIDES.values()}
    assert shown <= set(DOCS)


XREF = re.compile(r":(?:data|func|class|meth|mod|attr|exc|obj|const):`~?([^`<>]+?)`")


def _docstrings() -> list[tuple[str, int, str, str]]:
    """Every docstring of ``bot/`` and ``cogs/``: (file, line, its module's name, text)."""
    found = []
    for path in sorted([*(ROOT / "bot").rglob("*.py"), *(ROOT / "cogs").rglob("*.py")]):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        module = module.removesuffix(".__init__")
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                text = ast.get_docstring(node, clean=False)
                if text:
                    line = getattr(node, "lineno", 1)
                    found.append((_relative(path), line, package, text))
    return found


def test_every_qualified_cross_reference_in_a_docstring_resolves() -> None:
    """A docstring's ``:data:`bot.engine.utopia.verbs.PLANNED``` or ``:func:`.verbs.act```
    (a name qualified from ``bot.``, ``cogs.`` or relative to its package) names something
    that exists: a renamed or removed name leaves no docstring pointing at nothing."""
    missing = []
    for where, line, package, text in _docstrings():
        for match in XREF.finditer(text):
            target = re.sub(r"\s+", "", match.group(1)).removesuffix("()")
            if target.startswith("."):
                target = package + target
            elif not target.startswith(("bot.", "cogs.")):
                continue
            if not _resolve(target):
                missing.append(f"{where}:{line}: {match.group(0)}")
    assert not missing, "\n".join(missing)


SYSTEMS = ("uttas", "utopia", "untitled", "uune")
SHORT = re.compile(r"^([a-z_]\w*)((?:\.\w+)+)$")


def _in_module(module: ModuleType, attributes: list[str]) -> bool:
    """Whether ``module`` has ``a.b…`` — or one of its classes has it (``ruleset.apply``: a
    method of the module's ruleset class)."""
    owners = [module, *(v for v in vars(module).values() if isinstance(v, type))]
    return any(_resolve_in(owner, attributes) for owner in owners)


def _resolve_in(found: Any, attributes: list[str]) -> bool:
    for attribute in attributes:
        if not hasattr(found, attribute):
            fields = getattr(found, "model_fields", None) or {}
            annotated = getattr(found, "__annotations__", {}) if isinstance(found, type) else {}
            return attribute in fields or attribute in annotated
        found = getattr(found, attribute)
    return True


def _table_entries(tables: Any, prefix: str = "") -> set[str]:
    """Every entry path of a system's tables (``reactions.block.dodge_bonus``)."""
    if not isinstance(tables, dict):
        return set()
    found = set()
    for key, value in tables.items():
        path = f"{prefix}.{key}" if prefix else key
        found |= {path, *_table_entries(value, path)}
    return found


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_code_a_rules_document_names_exists(system: str) -> None:
    """``docs/rules/<system>.md`` and its rule table name code by its module in the system's
    package or the core (``hits.accuracy_odds``, ``core.Tx.turn_taken_up``,
    ``interleave.delay``): where that module exists, the name is in it."""
    tables = ROOT / "data" / system / "tables.json"
    entries = _table_entries(json.loads(tables.read_text("utf-8")))
    missing = []
    for doc in (f"{system}.md", f"{system}-rule-table.md"):
        path = ROOT / "docs" / "rules" / doc
        for number, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            for ticked in TICKED.finditer(line):
                match = SHORT.match(ticked.group(1).strip().removesuffix("()"))
                if match is None or match.group(2) in (".py", ".md", ".json", ".txt"):
                    continue
                if match.group(0) in entries:  # a table entry (`items.reach_m`), not code
                    continue
                modules = []
                for base in (f"bot.engine.{system}", "bot.engine.core"):
                    try:
                        modules.append(importlib.import_module(f"{base}.{match.group(1)}"))
                    except ModuleNotFoundError:
                        continue
                attributes = match.group(2).lstrip(".").split(".")
                if modules and not any(_in_module(m, attributes) for m in modules):
                    missing.append(f"docs/rules/{doc}:{number}: {ticked.group(1)}")
    assert not missing, "\n".join(missing)


ACT = re.compile(r"/act (?:action:([A-Za-z][a-z-]*)|([a-z][a-z-]*)(?![\w:-]))")


def test_every_act_action_written_is_an_action_of_a_system() -> None:
    """``/act action:delay`` (or the short ``/act stealth``) names an action one of the game
    systems offers, by its key or its label's first word (``/act action:put away``)."""
    known = set()
    for system in SYSTEMS:
        for spec in importlib.import_module(f"bot.engine.{system}.verbs").ACTIONS:
            known |= {spec.key, spec.label.casefold(), spec.label.casefold().split(" ")[0]}
    wrong = [
        f"{doc}:{line}: no action {action!r}"
        for doc, line, action in _acts_written()
        if action.casefold() not in known
    ]
    assert not wrong, "\n".join(wrong)


def _acts_written() -> list[tuple[str, int, str]]:
    """The action of each ``/act`` a document writes, in a backticked span or on a line of a
    ```` ```text ```` block: (document, line, action)."""
    found = []
    for doc, number, span, _ in _spans():
        for match in ACT.finditer(span):
            found.append((_relative(doc), number, match.group(1) or match.group(2)))
    return found


def _engine_tree() -> dict[str, set[str]]:
    """The modules ``docs/architecture.md``'s engine tree names, by package ("" for
    ``bot/engine`` itself): every ``name.py`` written on a package's lines."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    block = text.split("```\n", 2)[1]
    named: dict[str, set[str]] = {}
    package = ""
    for line in block.splitlines():
        opens = re.match(r"^  (\w+)/", line)
        if opens:
            package = opens.group(1)
        elif re.match(r"^\S", line):
            package = ""
        named.setdefault(package, set()).update(re.findall(r"\b(\w+)\.py\b", line))
    return named


def test_the_engine_tree_names_every_module_of_the_engine_and_no_other() -> None:
    named = _engine_tree()
    engine = ROOT / "bot" / "engine"
    modules: dict[str, set[str]] = {}
    for path in engine.rglob("*.py"):
        parts = path.relative_to(engine).parts
        package = parts[0] if len(parts) > 1 else ""
        if not (package and path.stem == "__init__"):
            modules.setdefault(package, set()).add(path.stem)
    missing = {p: sorted(m - named.get(p, set())) for p, m in modules.items()}
    assert not {p: m for p, m in missing.items() if m}, "not in docs/architecture.md's tree"
    made_up = {p: sorted(n - modules.get(p, set())) for p, n in named.items()}
    assert not {p: n for p, n in made_up.items() if n}, "in the tree, not in bot/engine"


TITLED_VERSION = re.compile(
    r"\b(UTTAS|Utopia|Untitled|Uune)(?: · rules v| rules version | version | )(\d+)\b"
)
"""A rules version named after its system: "Utopia 7", "UTTAS rules version 4", "Uune · rules
v7" (the tracker's words)."""
NEWEST = re.compile(r"New fights play by version (\d+)")
ANY_VERSION = re.compile(r"\bversions? (\d+)\b", re.IGNORECASE)


def _rules_of(title: str) -> Any:
    from bot.engine import get_ruleset

    return get_ruleset({"UTTAS": "uttas"}.get(title, title.lower()))


def test_every_rules_version_named_with_its_system_is_one_the_bot_plays() -> None:
    """``UTTAS 5, Utopia 7, Untitled 5 or Uune 6`` (README, ``/gm time end-of``) or the
    tracker's "Uune · rules v7": each is a version of that system's ``known_versions``. (The
    README once called versions each system's newest after newer ones shipped.)"""
    wrong = []
    for doc in DOCS:
        for number, line in enumerate(doc.read_text("utf-8").splitlines(), 1):
            for match in TITLED_VERSION.finditer(line):
                known = _rules_of(match.group(1)).known_versions
                if int(match.group(2)) not in known:
                    wrong.append(f"{_relative(doc)}:{number}: {match.group(0)} (known: {known})")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_rules_document_says_every_version_up_to_the_newest(system: str) -> None:
    """``docs/rules/<system>.md`` says which version new fights play by — the ruleset's
    ``rules_version`` — and says what each of its ``known_versions`` changed (each is named in
    it); no version past the newest is named there, in its rule table or its ``/help`` guide."""
    from bot.engine import get_ruleset

    rules = get_ruleset(system)
    doc = (ROOT / "docs" / "rules" / f"{system}.md").read_text("utf-8")
    said = [int(n) for n in NEWEST.findall(doc)]
    assert said == [rules.rules_version], (
        f"docs/rules/{system}.md says new fights play by {said}; the ruleset's newest is "
        f"{rules.rules_version}"
    )
    texts = [doc, (ROOT / "docs" / "rules" / f"{system}-rule-table.md").read_text("utf-8")]
    guide = ROOT / "data" / "help" / f"{system}.md"
    if guide.exists():
        texts.append(guide.read_text("utf-8"))
    named = {int(n) for text in texts for n in ANY_VERSION.findall(text)}
    assert named <= set(rules.known_versions), (
        f"unknown versions: {named - set(rules.known_versions)}"
    )
    unsaid = set(rules.known_versions) - {int(n) for n in ANY_VERSION.findall(doc)}
    assert not unsaid, f"docs/rules/{system}.md never names version(s) {sorted(unsaid)}"


CLASS_ATTRIBUTE = re.compile(r"`([A-Z][A-Za-z0-9]+)\.([A-Za-z_][A-Za-z0-9_]*)(?:\(\))?`")
"""A backticked ``Class.attribute`` (``EncounterService.confirm_end``, ``Encounter.rules``)."""


@cache
def _class_attributes() -> dict[str, set[str]]:
    """Every class of ``bot/`` and ``cogs/`` by name (classes of one name in several modules,
    such as each system's ``Tx``, merged): what its body defines, what its methods assign to
    ``self``, and what its bases (found here by name) have."""
    own: dict[str, set[str]] = {}
    bases: dict[str, set[str]] = {}
    for path in sorted([*(ROOT / "bot").rglob("*.py"), *(ROOT / "cogs").rglob("*.py")]):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if not isinstance(node, ast.ClassDef):
                continue
            names = own.setdefault(node.name, set())
            bases.setdefault(node.name, set()).update(
                base.id if isinstance(base, ast.Name) else base.attr
                for base in node.bases
                if isinstance(base, (ast.Name, ast.Attribute))
            )
            for statement in node.body:  # its methods, nested classes and class attributes
                if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    names.add(statement.name)
                elif isinstance(statement, (ast.Assign, ast.AnnAssign)):
                    targets = getattr(statement, "targets", [getattr(statement, "target", None)])
                    names.update(t.id for t in targets if isinstance(t, ast.Name))
            for item in ast.walk(node):
                if (
                    isinstance(item, ast.Attribute)
                    and isinstance(item.ctx, ast.Store)
                    and isinstance(item.value, ast.Name)
                    and item.value.id in ("self", "cls")
                ):
                    names.add(item.attr)

    def inherited(name: str, seen: frozenset[str] = frozenset()) -> set[str]:
        found = set(own.get(name, set()))
        for base in bases.get(name, set()) - seen - {name}:
            found |= inherited(base, seen | {name})
        return found

    return {name: inherited(name) for name in own}


def test_every_class_attribute_written_exists() -> None:
    """A backticked ``Class.attribute`` of a class of the bot names something the class (or
    one of its bases) has: a method, a field, a class attribute or one its methods set on
    ``self`` (architecture.md named ``TableService.resolve``, a function of the module).
    Classes that are not the bot's (``Random._randbelow``) are not checked."""
    classes = _class_attributes()
    missing = []
    for doc in DOCS:
        for number, line in enumerate(doc.read_text("utf-8").splitlines(), 1):
            for match in CLASS_ATTRIBUTE.finditer(line):
                name, attribute = match.groups()
                if name in classes and attribute not in classes[name]:
                    if _pydantic_or_builtin(attribute):
                        continue
                    missing.append(f"{_relative(doc)}:{number}: {match.group(0)}")
    assert not missing, "\n".join(missing)


def _pydantic_or_builtin(attribute: str) -> bool:
    """A method every pydantic model (``AttackResolved.model_copy``) or object has."""
    from pydantic import BaseModel

    return hasattr(BaseModel, attribute) or hasattr(object, attribute)


def test_the_member_data_document_lists_every_source_in_order() -> None:
    """``docs/member-data.md``'s table is the code's list of sources
    (``bot.services.member_sources.SOURCES``: what ``/me export`` sends under each key and
    what ``/me delete`` does with it): a source added without a row, or a row left for one
    removed, fails here."""
    from bot.services.member_sources import SOURCES

    text = (ROOT / "docs" / "member-data.md").read_text("utf-8")
    rows = re.findall(r"^\| `([a-z_]+)` \|", text, re.MULTILINE)
    assert rows == [source.key for source in SOURCES]
