"""Who may use a ``/gm`` command is asked before its options are read (``cogs.gm.groups.gm_first``):
a player's ``/gm hp`` with no amount was told "Give an amount for `health` or `stamina`", and
other ``/gm`` commands answered a player about an option of a command they may not use at all
(found by attack19a)."""

from __future__ import annotations

from typing import Any

from bot.client import CombatBot
from tests.e2e.combat_helpers import ok, refused, set_up_fight, slash
from tests.e2e.conftest import Table
from tests.harness.server import DiscordHarness

SUBCOMMAND, GROUP = 1, 2
STRING, INTEGER, USER, CHANNEL, NUMBER = 3, 4, 6, 7, 10


def gm_commands(h: DiscordHarness) -> list[tuple[str, list[dict[str, Any]]]]:
    """Every ``/gm`` subcommand as registered (``"gm time rest"``…) with its options."""
    found: list[tuple[str, list[dict[str, Any]]]] = []

    def walk(path: str, options: list[dict[str, Any]]) -> None:
        subs = [o for o in options if o["type"] in (SUBCOMMAND, GROUP)]
        for sub in subs:
            walk(f"{path} {sub['name']}", sub.get("options") or [])
        if not subs:
            found.append((path, options))

    for command in h.registered_commands():
        if command["name"] == "gm":
            walk("gm", command.get("options") or [])
    return found


def required_only(h: DiscordHarness, table: Table, options: list[dict[str, Any]]) -> dict[str, Any]:
    """The command's required options, each with a plausible value; none of the optional
    ones (so ``/gm hp`` goes with no amount)."""
    values: dict[str, Any] = {}
    for option in options:
        if not option.get("required"):
            continue
        if option.get("choices"):
            values[option["name"]] = option["choices"][0]["value"]
        elif option["type"] == STRING:
            values[option["name"]] = "Thug 1"
        elif option["type"] in (INTEGER, NUMBER):
            values[option["name"]] = max(1, option.get("min_value") or 1)
        elif option["type"] == CHANNEL:
            values[option["name"]] = h.channel
        else:
            values[option["name"]] = table.player
    return values


async def test_a_player_is_refused_every_gm_command_by_who_they_are_not_by_an_option(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Every ``/gm`` command but ``/gm seat`` (a server setting, and a transfer that checks the
    seat itself), used by a player with only its required options: refused privately as not
    the GM, naming the command, and the fight unchanged. A new ``/gm`` command or group that
    reads its options before asking who may use it fails here."""
    h = discord_harness
    await set_up_fight(h, table)
    before = await bot.services.encounters.live(h.channel.id)
    wrong: list[str] = []
    commands = [(name, options) for name, options in gm_commands(h) if name != "gm seat role"]
    assert len(commands) > 25, [name for name, _ in commands]  # the walk found the groups
    for name, options in commands:
        if name.startswith("gm seat"):
            continue
        text = await refused(
            await h.slash(table.player, h.channel, name, required_only(h, table, options))
        )
        if not text.startswith(f"Only the GM can use `/{name}`"):
            wrong.append(f"/{name}: {text[:120]}")
    after = await bot.services.encounters.live(h.channel.id)
    assert (after.version, after.row.pending_version) == (
        before.version,
        before.row.pending_version,
    )
    assert not wrong, "\n".join(wrong)


async def test_a_players_gm_hp_with_no_amount_is_refused_as_not_the_gm(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """The example: the refusal names the GM and who else may, not the missing amount; the GM
    is still told the amount is missing, and a server GM (Manage Channels) may use it."""
    h = discord_harness
    await set_up_fight(h, table)
    text = await refused(await slash(h, table.player, "gm hp", combatant="Willow"))
    assert text.startswith("Only the GM can use `/gm hp`: <@")
    assert "Give an amount" not in text
    text = await refused(await slash(h, table.moderator, "gm hp", combatant="Willow"))
    assert "Give an amount for `health` or `stamina`" in text
    await ok(await slash(h, table.moderator, "gm hp", combatant="Willow", health="-1"))
