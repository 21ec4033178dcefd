"""The slash commands as the bot registered them with the harness, for sweeps that must reach
commands and options added later without being listed (tests/e2e/attack/test_attack19b_options.py,
tests/e2e/test_gm_first.py)."""

from __future__ import annotations

from typing import Any

from tests.e2e.conftest import Table
from tests.harness.server import DiscordHarness

GOOD: dict[str, object] = {
    "target": "Thug 1",
    "with": "Club",
    "combatant": "Thug 1",
    "character": "Willow",
    "name": "Willow",
    "a": "Thug 1",
    "b": "Willow",
    "quarry": "Thug 1",
    "pursuer": "Willow",
    "field": "name",
    "skill": "Athletics",
    "watch": "Thug 1",
}
"""Values for the required options beside the one swept (any other string: ``x``)."""


def slash_commands(h: DiscordHarness) -> list[tuple[str, list[dict[str, Any]]]]:
    """Every slash command the bot registered (group and subcommand names joined: ``"gm time
    rest"``) with its options, as Discord holds them."""
    found: list[tuple[str, list[dict[str, Any]]]] = []

    def walk(path: str, options: list[dict[str, Any]]) -> None:
        subs = [o for o in options if o["type"] in (1, 2)]
        for sub in subs:
            walk(f"{path} {sub['name']}", sub.get("options") or [])
        if not subs:
            found.append((path, options))

    for command in h.registered_commands():
        if command.get("type", 1) == 1:
            walk(command["name"], command.get("options") or [])
    return found


def filled(h: DiscordHarness, table: Table, options: list[dict[str, Any]]) -> dict[str, Any]:
    """Good values for the required options."""
    values: dict[str, Any] = {}
    for option in options:
        if not option.get("required"):
            continue
        if option.get("choices"):
            values[option["name"]] = option["choices"][0]["value"]
        elif option["type"] == 3:
            values[option["name"]] = GOOD.get(option["name"], "x")
        elif option["type"] in (4, 10):
            values[option["name"]] = max(1, option.get("min_value") or 1)
        elif option["type"] == 7:
            values[option["name"]] = h.channel
        else:
            values[option["name"]] = table.player
    return values
