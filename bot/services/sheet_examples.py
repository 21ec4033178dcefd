"""The example sheets shipped in ``data/sheets/<ruleset>/<key>.json`` (``/character import
example:``), and the ranking autocomplete uses for names. A part of
:class:`bot.services.sheets.SheetService` (its base), kept apart so each module stays small."""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from pathlib import Path

from bot import names
from bot.engine import REGISTRY, get_ruleset
from bot.errors import DomainError, NotFound

log = logging.getLogger(__name__)

EXAMPLES_DIR = Path(__file__).resolve().parents[2] / "data" / "sheets"
CHOICES_MAX = 25


@dataclass(frozen=True)
class Example:
    """An example sheet shipped in ``data/sheets/<ruleset>/<key>.json``."""

    key: str
    ruleset: str
    name: str
    path: Path


class ExampleSheets:
    """The example-sheet methods of :class:`~bot.services.sheets.SheetService` (which sets
    ``_examples_dir``)."""

    _examples_dir: Path

    def examples(self) -> list[Example]:
        """The shipped example sheets, by ruleset then name (read from disk each time: small).
        Only rulesets that can start a fight are offered: a planned ruleset's examples
        appear once it is registered, so nobody imports a sheet no encounter can use yet."""
        found: list[Example] = []
        if not self._examples_dir.is_dir():
            return found
        playable = set(REGISTRY.implemented)
        folders = (p for p in self._examples_dir.iterdir() if p.is_dir())
        for folder in sorted(f for f in folders if f.name.casefold() in playable):
            for path in sorted(folder.glob("*.json")):
                try:
                    data = json.loads(path.read_text("utf-8"))
                    name = str(data.get("name") or path.stem)
                except (OSError, ValueError, AttributeError):
                    log.warning("example sheet %s is unreadable; skipped", path)
                    continue
                found.append(Example(key=path.stem, ruleset=folder.name, name=name, path=path))
        return found

    def example(self, key: str) -> Example:
        folded = key.strip().casefold()
        for example in self.examples():
            if folded in (example.key.casefold(), example.name.casefold()):
                return example
        known = ", ".join(f"`{e.key}`" for e in self.examples()) or "none"
        if names.blank(key):
            raise NotFound(f"Name an example sheet: {known}.")
        raise NotFound(f"There is no example sheet **{quoted(key)}**. Examples: {known}.")

    def example_choices(self, typed: str) -> list[tuple[str, str]]:
        """Autocomplete: ``(label, key)`` of the examples matching ``typed``, at most 25."""
        examples = {e.key: e for e in self.examples()}
        labels = {f"{e.name} ({ruleset_title(e.ruleset)})": key for key, e in examples.items()}
        return [(label, labels[label]) for label in rank(list(labels), typed)]


def rank(candidates: list[str], typed: str) -> list[str]:
    """Names containing ``typed`` (compared by :func:`bot.names.key`), prefix matches first, each
    name once (two that differ only by case or invisible characters are one), at most 25."""
    folded = names.key(typed)
    distinct = names.unique(candidates)
    starts = [n for n in distinct if names.key(n).startswith(folded)]
    contains = [n for n in distinct if folded in names.key(n) and n not in starts]
    return [n[:100] for n in [*starts, *contains][:CHOICES_MAX]]


def quoted(text: str) -> str:
    """A name (stored or typed) quoted inside the bold of a message: one line, at most 80
    characters, Markdown and mentions escaped (:func:`bot.names.escaped`)."""
    flat = " ".join(text.split())
    return names.escaped(flat if len(flat) <= 80 else flat[:79] + "…")


def ruleset_title(ruleset: str) -> str:
    """A ruleset's display name, also for planned rulesets that cannot run yet."""
    try:
        return str(get_ruleset(ruleset).title)
    except DomainError:  # planned (RulesetNotImplemented) or unknown (InvalidInput)
        return ruleset.upper() if len(ruleset) <= 5 else ruleset.title()
