"""Who may use a ``/gm`` command is asked before its options are read (``cogs.gm.groups.gm_first``):
a player's ``/gm hp`` with no amount was told "Give an amount for `health` or `stamina`", and
other ``/gm`` commands answered a player about an option of a command they may not use at all
(found by attack19a)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.client import CombatBot
from tests.e2e.attack.test_attack24_newer import newer_fight, rows
from tests.e2e.combat_helpers import ok, refused, set_up_fight, slash, work_done
from tests.e2e.conftest import Table
from tests.e2e.registered import filled, slash_commands
from tests.e2e.test_turn_ping_recovery import restarted
from tests.harness.server import DiscordHarness


async def test_a_player_is_refused_every_gm_command_by_who_they_are_not_by_an_option(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Every ``/gm`` command but ``/gm seat`` (a server setting, and a transfer that checks the
    seat itself), used by a player with only its required options (so ``/gm hp`` has no
    amount): refused privately as not the GM, naming the command, and the fight unchanged. A
    new ``/gm`` command or group that reads its options before asking who may use it fails
    here."""
    h = discord_harness
    await set_up_fight(h, table)
    before = await bot.services.encounters.live(h.channel.id)
    wrong: list[str] = []
    commands = [(name, options) for name, options in slash_commands(h) if name.startswith("gm ")]
    assert len(commands) > 25, [name for name, _ in commands]  # the walk found the groups
    for name, options in commands:
        if name.startswith("gm seat"):
            continue
        text = await refused(
            await h.slash(table.player, h.channel, name, filled(h, table, options))
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


@pytest.mark.async_timeout(200)
@pytest.mark.timeout(200)
@pytest.mark.parametrize("shape", ["unparsed", "behind", "current"])
async def test_a_player_is_refused_every_gm_command_on_a_newer_bots_fight_as_not_the_gm(
    discord_patched: DiscordHarness, table: Table, tmp_path: Path, shape: str
) -> None:
    """A fight a newer bot saved (attack24's shapes): a player's ``/gm …`` — ``/gm seat
    transfer`` too, which checks the seat itself — was told "This encounter was saved by a
    newer version of the bot …" (and how to go on with it, which is the GM's to do) instead of
    "Only the GM can …": who may use it was asked after the fight was read. The GM is still
    told why the fight cannot be read."""
    h, path = discord_patched, tmp_path / "bot.sqlite3"
    await newer_fight(h, table, path, "uttas", shape)
    before = rows(path)
    wrong: list[str] = []
    async for _bot in restarted(h, path):
        commands = [(n, options) for n, options in slash_commands(h) if n.startswith("gm ")]
        for name, options in commands:
            if name == "gm seat role":  # a server setting: Manage Server, not the fight's GM
                continue
            text = await refused(
                await h.slash(table.player, h.channel, name, filled(h, table, options))
            )
            action = "hand the encounter to someone else" if name == "gm seat transfer" else ""
            expected = f"Only the GM can {action or f'use `/{name}`'}"
            if not text.startswith(expected):
                wrong.append(f"/{name}: {text[:120]}")
        gm_hp = await slash(h, table.moderator, "gm hp", combatant="Willow", health="-1")
        text = await refused(gm_hp)
        assert "newer" in text and "`/encounter end` ends it here unread" in text, text
        await work_done()
    assert rows(path) == before
    assert not wrong, "\n".join(wrong)
