"""Attack 19a: hostile or careless members trying to act for another's character, to use GM
commands, to read an NPC's hidden numbers or to ping through a name — in all four systems.
Each test is a defect found so, and states what a member should see."""

from __future__ import annotations

from typing import Any

import pytest

from bot.client import CombatBot
from tests.clock import ManualClock
from tests.e2e.combat_helpers import ONE_ON_ONE, answered, ok, one_on_one, pass_turns_until, slash
from tests.e2e.conftest import Table
from tests.e2e.test_member_data import export_of
from tests.harness.server import DiscordHarness

NPC_ATTACKS: dict[str, dict[str, Any]] = {
    "untitled": {"action": "attack", "target": "Wren", "detail": "Tree-trunk club"},
    "utopia": {"action": "attack", "target": "Vesna", "detail": "Crushing bite"},
}
"""An attack by each system's NPC of :data:`ONE_ON_ONE` on the player's character, resolved
(or put to the player's defense) by ``/act`` at once."""


async def recap_lines(h: DiscordHarness, table: Table) -> str:
    """The player's ``/encounter recap since:1h``: its "Attacks on your combatants" part."""
    record = await answered(await slash(h, table.player, "encounter recap", since="1h"))
    assert record.ephemeral, record.response_data
    text = str(record.response_data["embeds"][0]["description"])
    return text.split("**Attacks on your combatants**", 1)[1].split("**Now**", 1)[0]


@pytest.mark.parametrize("system", sorted(NPC_ATTACKS))
async def test_a_removed_npc_keeps_its_numbers_hidden_in_a_players_recap(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table, system: str
) -> None:
    """The Hill giant's club hit Wren; the channel and Wren's player's recap showed the
    giant's dice only ("Tree-trunk club: [5, 7] against Combat Defense …"). The GM then took
    the giant out with `/gm remove`, and the same recap showed its skill, bonus and total and
    the odds it had ("Tree-trunk club (Journeyman): 2d8 [5] [7] + 9 = 21 … Odds: 97.0 % to
    hit"; Utopia: the Stone hound's "1d10 [9] + 2 = 11"): an event about a combatant no longer
    in the fight was rendered as if its numbers were public. Someone who left keeps them
    hidden."""
    h, gm = discord_harness, table.moderator
    template = ONE_ON_ONE[system][2][1]
    npc = f"{template} 1"
    await one_on_one(h, table, system, name="Gone")
    await pass_turns_until(bot, h, table, npc)
    await ok(await slash(h, gm, "act", as_=npc, **NPC_ATTACKS[system]))
    before = await recap_lines(h, table)
    assert npc in before, before
    await ok(await slash(h, gm, "gm remove", combatant=npc))
    after = await recap_lines(h, table)
    assert "Odds:" not in after, after
    assert after == before, (before, after)


async def test_a_players_data_export_keeps_npc_numbers_hidden(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Willow's player attacked Thug 1, whose numbers the channel hides ("… vs Thug 1's
    Dodge … Thug 1 looks **Hurt**"). Their `/me export` held the log entry of that attack
    whole: "Willow's Club hits Thug 1: Accuracy 24 beats Dodge 20 for 2 Health and 8 Stamina
    damage (Armor 1, Defense 2)", with `health_left: 12`, `stamina_left: 16` — every number
    of the Thug the GM keeps. An entry is exported as its member saw it: the lines the events
    render for them, not the engine's exact events, commands and dice (the GM's `/gm log`
    has those)."""
    h = discord_harness
    await one_on_one(h, table, "uttas", name="Export")
    await pass_turns_until(bot, h, table, "Willow")
    attacked = await ok(await slash(h, table.player, "attack", target="Thug 1", with_="Club"))
    shown = str(attacked.response_data["embeds"][0]["description"]).split("\n")
    document = await export_of(h, table.player)
    [entry] = [e for e in document["encounter_log"]["entries"] if e["command"] == "attack"]
    raw = str(entry)
    assert "beats Dodge" not in raw and "misses Dodge" not in raw, raw
    assert "health_left" not in raw and "target_number" not in raw, raw
    assert entry["result"]["shown"] == shown, (entry["result"], shown)
    # The GM of the fight exports its entries whole, as `/gm log` has them.
    run = await export_of(h, table.moderator)
    assert all("shown" not in e["result"] for e in run["encounter_log"]["entries"]), run


@pytest.mark.parametrize("system", sorted(ONE_ON_ONE))
async def test_every_system_exports_a_players_entries_as_they_saw_them(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table, system: str
) -> None:
    """The class: in every system, the player's own `/endturn` was exported with the NPC's
    turn as the engine logs it (UTTAS "Round 1: Thug 1's turn (4 actions left)": its Speed).
    Every entry of a fight the member does not GM is exported as the lines they were shown,
    never the engine's events, commands or dice."""
    h = discord_harness
    pc = await one_on_one(h, table, system, name="Export")
    await pass_turns_until(bot, h, table, pc)
    ended = await ok(await slash(h, table.player, "endturn"))
    shown = [
        line
        for line in str(ended.response_data["embeds"][0]["description"]).split("\n")
        if line.strip()
    ]
    document = await export_of(h, table.player)
    entries = document["encounter_log"]["entries"]
    assert entries, document
    for entry in entries:
        assert not {"events", "commands", "dice"} & set(entry["result"]), entry
    [turn] = [e for e in entries if e["command"] == "endturn"]
    assert turn["result"]["shown"] == shown, (turn["result"], shown)


async def test_a_hidden_npcs_default_action_refused_at_its_deadline_keeps_why_from_the_channel(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table, clock: ManualClock
) -> None:
    """Thug 1's default action at a passed turn deadline is a breather, and it had used its
    breathers: the channel read "Turn deadline passed: Thug 1's turn ends (Take a Breather was
    not possible: Thug 1 has no breathers left until a short rest.)" — its breather uses,
    which the GM keeps (`docs/audiences.md`). The rules' reason is the channel's only when it
    may see the combatant's numbers; the GM is told it."""
    bot, h, gm = clocked_bot, discord_harness, table.moderator
    await one_on_one(h, table, "uttas", name="Deadline")
    await ok(await slash(h, gm, "gm settings", turn_deadline="12h"))
    await ok(await slash(h, gm, "gm settings", deadline_action="default_action"))
    await answered(
        await slash(h, gm, "gm settings", combatant="Thug 1", default_action="Take a Breather")
    )
    for _ in range(10):  # the Thug breathes until it has no breather left
        await pass_turns_until(bot, h, table, "Thug 1")
        took = await answered(await slash(h, gm, "breather", as_="Thug 1"))
        if took.ephemeral:
            break
    assert "no breathers left" in str(took.response_data.get("content")), took.response_data
    await pass_turns_until(bot, h, table, "Thug 1")
    clock.advance(12 * 3600)
    [lapse] = await bot.fire_turn_deadlines()
    assert lapse.refused is not None and "no breathers left" in lapse.refused
    await h.wait_for(
        lambda: any("Turn deadline passed" in m.text() for m in h.messages_in(h.channel))
    )
    [shown] = [m for m in h.messages_in(h.channel) if "Turn deadline passed" in m.text()]
    assert "Turn deadline passed: Thug 1's turn ends (Take a Breather was not possible)" in (
        shown.text()
    ), shown.text()
    assert "breathers left" not in shown.text(), shown.text()
    # The GM reads why with their next command, privately.
    await answered(await slash(h, gm, "encounter status"))

    def told() -> list[str]:
        shown = h.messages_in(h.channel, include_ephemeral=True)
        return [m.text() for m in shown if m.ephemeral and "was not possible" in m.text()]

    await h.wait_for(lambda: any("Thug 1 has no breathers left" in m for m in told()))
