"""QA attack (round 26): undo and redo across every decision of a Uune conflict, a Utopia fight
and an Untitled fight — approvals, spends, help, Defend, Blocks with Assists, interrupt attacks,
shields, conditions, joins and leaves — walked back to the start with ``/gm undo`` and forward
with ``/gm redo``, in one run and with a restart between. Every state on the way must be the one
that stood at that version, the decisions open at the end the ones open before the walk, and
nothing rolled again (the scripted dice hold no more faces: a re-roll fails the test)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.client import CombatBot
from tests.e2e.combat_helpers import (
    answered,
    game_state,
    hound_pass,
    ok,
    pass_turns_until,
    press,
    slash,
    work_done,
)
from tests.e2e.conftest import DiceBox, Table, _running_bot
from tests.e2e.test_utopia_assist import newest_with
from tests.e2e.uune_steps import Docks
from tests.e2e.walks import Walk, now, redo_all, undo_all
from tests.harness.server import DiscordHarness

Step = Callable[[CombatBot, DiscordHarness, Table, DiceBox], Awaitable[None]]


async def uune_conflict(bot: CombatBot, h: DiscordHarness, table: Table, dice: DiceBox) -> None:
    """Approvals for the scene, a refusal, a vitality reroll, an NPC's forced reroll, help, a
    Defend, Bleeding added and staunched, a PC leaving, another joining."""
    u = Docks(bot, h, table, dice)
    gm, mira, tobin, wren = table.moderator, table.player, table.other_player, table.bystander
    await u.cast()
    await u.run(gm, "encounter begin")
    await u.run(wren, "act", action="next", target="Wren")
    await u.run(mira, "act", action="action", detail="leap: Lockpicks, Street fencing")
    await u.press(gm, "GM: difficulty 2 (Easy)")
    await u.run(tobin, "act", action="help", detail="Herbalist")
    await u.press(gm, "GM: refuse Lockpicks")
    await u.press(gm, "GM: approve all for the scene", [5, 2, 1])
    await u.press(mira, "Reroll die 2", [6])
    await u.press(gm, "Force a reroll of die 1", [2], on="GM: choose Dock Thug 1")
    await u.press(mira, "Keep the roll")
    await u.run(wren, "act", action="attack", target="Dock Thug 1", detail="Quickblade")
    await u.press(gm, "GM: approve all", [5, 6])
    await u.press(wren, "Keep the roll")
    await u.run(tobin, "endturn")
    await u.run(gm, "endturn")
    await u.run(gm, "act", action="npc-attack", target="Mira Quell", detail="Bone knife")
    await u.run(mira, "act", action="propose", detail="Street fencing, Twin short blades")
    await u.press(gm, "GM: approve Twin short blades", [5, 6, 2])
    await u.press(mira, "Keep the roll")
    await u.run(gm, "gm condition", combatant="Mira Quell", action="add", name="Bleeding")
    await u.run(gm, "gm remove", combatant="Wren")
    await u.run(mira, "act", action="staunch")
    await u.reply(table.gm, "character import", example="tobin", name="Late Tobin")
    await u.run(table.gm, "encounter join", character="Late Tobin")
    await u.run(tobin, "act", action="action", detail="climb: Herbalist", amount=2)


async def utopia_pass(bot: CombatBot, h: DiscordHarness, table: Table, dice: DiceBox) -> None:
    """A Block with two Assists, a Dodge, an attack paid with interrupt actions, a condition,
    turns and a round passing."""
    gm, vesna, brannoc = table.moderator, table.player, table.other_player
    await hound_pass(h, table, begin=False)
    dice.load([3, 3, 3] * 3)
    await ok(await slash(h, gm, "encounter begin"))
    await ok(await slash(h, gm, "gm place engage", a="Vesna", b="Brannoc"))
    dice.load([8])
    bite = await ok(
        await slash(h, gm, "act", action="attack", target="Vesna", detail="Crushing bite")
    )
    await press(h, vesna, bite.message, "Block (1 IA)")
    prompt = await newest_with(h, "Assist Vesna's Block")
    await press(h, brannoc, prompt, "Assist Vesna's Block")
    prompt = await newest_with(h, "Roll the Block now")
    dice.load([4, 2])
    await press(h, vesna, prompt, "Roll the Block now")
    await work_done()
    assert dice.empty, dice.faces
    await ok(await slash(h, gm, "endturn"))
    dice.load([4])
    await ok(await slash(h, vesna, "act", action="attack", target="Stone hound 1", detail="Knife"))
    await pass_turns_until(bot, h, table, "Stone hound 1")
    dice.load([5])
    bite = await ok(
        await slash(h, gm, "act", action="attack", target="Brannoc", detail="Crushing bite")
    )
    await press(h, brannoc, bite.message, "Dodge")
    prompt = await newest_with(h, "Roll the")
    dice.load([3] * 6)
    await press(h, brannoc, prompt, "Roll the")
    await work_done()
    dice.faces = []
    for _ in range(4):
        await ok(await slash(h, gm, "endturn"))
    await pass_turns_until(bot, h, table, "Stone hound 1")
    dice.load([6])
    await ok(await slash(h, gm, "act", action="attack", target="Vesna", detail="Crushing bite"))


async def untitled_mill(bot: CombatBot, h: DiscordHarness, table: Table, dice: DiceBox) -> None:
    """The giant swings at Brask (his shield raised) and at Wren (no reaction); Wren attacks;
    a condition; a round passes."""
    gm = table.moderator
    await ok(await slash(h, gm, "encounter start", name="Burnt mill", ruleset="untitled"))
    await answered(await slash(h, table.player, "character import", example="wren"))
    await answered(await slash(h, table.other_player, "character import", example="brask"))
    await ok(await slash(h, table.player, "encounter join", character="Wren"))
    await ok(await slash(h, table.other_player, "encounter join", character="Brask"))
    await answered(await slash(h, gm, "npc import", example="hill-giant"))
    await ok(await slash(h, gm, "gm add-npc", template="Hill giant"))
    await ok(await slash(h, gm, "encounter begin"))

    async def rolling(record: Any) -> None:
        dice.load([4] * 30)
        await ok(await record)
        await work_done()
        dice.faces = []

    knife = {"detail": "Hunting knife"}  # Wren has two weapons: one is named (play26)
    await rolling(slash(h, table.player, "act", action="attack", target="Hill giant 1", **knife))
    await pass_turns_until(bot, h, table, "Hill giant 1")
    swing = await ok(await slash(h, gm, "act", action="attack", target="Brask"))
    dice.load([4] * 30)
    await press(h, table.other_player, swing.message, "Raise")
    await work_done()
    dice.faces = []
    await rolling(slash(h, gm, "gm next"))
    await rolling(slash(h, table.player, "act", action="attack", target="Hill giant 1", **knife))
    await pass_turns_until(bot, h, table, "Hill giant 1")
    await ok(await slash(h, gm, "act", action="attack", target="Brask"))


async def all_states(bot: CombatBot, h: DiscordHarness) -> dict[int, dict[str, Any]]:
    """The state at every version of the live encounter, replayed from its log."""
    live = await bot.services.encounters.live(h.channel.id)
    found: dict[int, dict[str, Any]] = {}
    entries = await bot.services.encounters.log(live.id)
    async with bot.db.read() as conn:
        for entry in entries:
            state = await bot.services.encounters.state_at(conn, live, entry.version)
            found[entry.version] = game_state(state.model_dump_json())
    return found


async def redo_to_the_end(bot: CombatBot, h: DiscordHarness, table: Table, walk: Walk) -> None:
    """:func:`redo_all`, then the decisions open at the end are those that were."""
    await redo_all(bot, h, table.moderator, walk)
    live = await bot.services.encounters.live(h.channel.id)
    assert [d.model_copy(update={"marker": 0}) for d in live.state.decisions] == walk.decisions


WALKS: dict[str, Step] = {
    "uune": uune_conflict,
    "utopia": utopia_pass,
    "untitled": untitled_mill,
}


@pytest.mark.async_timeout(240)
@pytest.mark.timeout(240)
@pytest.mark.parametrize("restart", [False, True])
@pytest.mark.parametrize("system", sorted(WALKS))
async def test_undo_to_the_start_and_redo_to_the_end_restores_every_state(
    discord_patched: DiscordHarness,
    table: Table,
    tmp_path: Path,
    dice: DiceBox,
    system: str,
    restart: bool,
) -> None:
    h, path = discord_patched, tmp_path / "bot.sqlite3"
    walk = Walk()
    async for bot in _running_bot(h, path, dice):
        await WALKS[system](bot, h, table, dice)
        await work_done()
        assert dice.empty, dice.faces
        walk.states = await all_states(bot, h)
        walk.played_to, state = await now(bot, h)
        assert state == walk.states[walk.played_to]
        live = await bot.services.encounters.live(h.channel.id)
        walk.decisions = [d.model_copy(update={"marker": 0}) for d in live.state.decisions]
        assert walk.decisions, "the walk ends with a decision waiting"
        await undo_all(bot, h, table.moderator, walk)
        if not restart:
            await redo_to_the_end(bot, h, table, walk)
    if restart:
        async for bot in _running_bot(h, path, dice):
            await redo_to_the_end(bot, h, table, walk)
