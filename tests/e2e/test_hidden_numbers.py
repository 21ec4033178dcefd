"""The GM's secrets stay secret through Discord: with ``hide_npc_numbers`` on (the default),
public messages and the tracker never show an NPC's Health, Stamina, Body, actions or the
exact damage it took; the GM gets an exact copy only when it says more."""

from __future__ import annotations

import asyncio
import re

from bot.client import CombatBot
from tests.e2e.combat_helpers import (
    answered,
    button,
    ok,
    pass_turns_until,
    press,
    set_up_fight,
    slash,
    tracker_reading,
)
from tests.e2e.conftest import DiceBox, Table
from tests.e2e.test_decision_prompts import prompt_recorded
from tests.harness.server import DiscordHarness


async def test_an_npc_knocked_about_shows_conditions_not_numbers(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    h, gm, player = discord_harness, table.moderator, table.player
    await set_up_fight(h, table, thugs=2, begin=False)
    await ok(await slash(h, gm, "gm settings", npcs_react=True))
    dice.load([2, 3, 5, 5, 6, 6, 1, 1])  # Agility ties (thugs 10, Willow and the bear 12)
    await ok(await slash(h, gm, "encounter begin"))
    await pass_turns_until(scripted_bot, h, table, "General Bearington")

    prompt = (await ok(await slash(h, player, "attack", target="Thug 1", with_="Claws"))).message
    dice.load([6, 6, 6, 3, 3, 3, 3, 3])  # 15 damage − Defense 2 = 13 Stamina: above Body 12
    await press(h, gm, prompt, "Take it")
    seen = h.message(prompt).text()
    assert "Thug 1 is now Stunned (a blow heavier than their Body)" in seen
    assert "Body 12" not in seen and "13 Stamina" not in seen and "11/24" not in seen

    await pass_turns_until(scripted_bot, h, table, "General Bearington")
    prompt = (await ok(await slash(h, player, "attack", target="Thug 1", with_="Claws"))).message
    dice.load([6, 6, 6, 6, 6, 6, 6, 6])  # 28 Stamina damage: down to -17
    await press(h, gm, prompt, "Take it")
    seen = h.message(prompt).text()
    assert "Thug 1 is now Unconscious (Stamina ran out)" in seen
    assert "-17" not in seen and "Stamina reduced" not in seen
    assert "Thug 1 looks **Down**" in seen
    # Nothing anyone saw in the channel carries those numbers either.
    for message in h.messages_in(h.channel):
        text = message.text()
        assert not re.search(r"Stamina reduced|exceeds Body|Thug 1: Health", text), text


async def test_the_gm_killing_an_npc_says_so_without_its_health(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm = discord_harness, table.moderator
    await set_up_fight(h, table, thugs=1)
    await ok(await slash(h, gm, "gm add-npc", name="Brute", health=50, stamina=60))
    record = await ok(await slash(h, gm, "gm hp", combatant="Brute", health="-57"))
    public = re.sub(r"<@\d+>", "", record.message.text())
    assert "Brute is now Dead (by the GM)" in public
    assert "-7" not in public and "50" not in public
    assert "The GM adjusts Brute, who looks **Dead**" in public
    exact = await record.followup(0)  # the GM alone gets the numbers
    assert exact.ephemeral and "Health set to -7 by the GM" in exact.text()


async def test_an_npc_that_only_spent_stamina_looks_unhurt(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm = discord_harness, table.moderator
    await set_up_fight(h, table, thugs=2)
    await pass_turns_until(bot, h, table, "Thug 2")
    await ok(await slash(h, gm, "sprint", meters=10.0))  # costs Stamina, takes no damage
    live = await bot.services.encounters.live(h.channel.id)
    thug = next(c for c in live.state.combatants if c.name == "Thug 2")
    assert thug.stamina < thug.sheet.stamina
    tracker = await tracker_reading(h, "Thug 2** · Neutral · Unhurt")
    assert "actions" not in tracker.text().split("Thug 2**")[1].split("\n")[0]


async def test_the_gm_gets_no_copy_that_says_nothing_more(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm = discord_harness, table.moderator
    await set_up_fight(h, table, thugs=1)
    await pass_turns_until(bot, h, table, "Thug 1")
    for command, options in (("stance", {"name": "Bracing"}), ("move", {"meters": 4.0})):
        record = await answered(await slash(h, gm, command, **options))
        await h.wait_for(lambda r=record: r.responded)
        assert record.followups == [], (command, record.followups)


async def test_undo_and_redo_take_back_without_revealing_an_npcs_numbers(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Undoing a one-off NPC's creation once posted its stats; undoing a GM's Health change
    described the NPC with its wound level after the undo. Now the public post names the
    command, strikes through what was taken back as the channel saw it then, and keeps the
    typed options for the GM's copy."""
    h, gm = discord_harness, table.moderator
    await set_up_fight(h, table, thugs=1)
    await ok(await slash(h, gm, "gm add-npc", name="Brute", health=777, stamina=888, agility=47))
    undo = await ok(await slash(h, gm, "gm undo"))
    public = undo.message.text()
    assert "Undid **/gm add-npc**" in public and "Taken back:" in public
    without_ids = re.sub(r"<@\d+>", "", public)
    for secret in ("777", "888", "47"):
        assert secret not in without_ids
    exact = await undo.followup(0)
    assert exact.ephemeral and "health: 777" in exact.text()
    redo = await ok(await slash(h, gm, "gm redo"))
    redone = re.sub(r"<@\d+>", "", redo.message.text())
    assert "Redid **/gm add-npc**" in redone and "777" not in redone

    await ok(await slash(h, gm, "gm hp", combatant="Brute", stamina="-900"))
    undo = await ok(await slash(h, gm, "gm undo"))
    public = undo.message.text()
    # As the channel saw it then: knocked out, looking Down (not how Brute looks now).
    assert "~~The GM adjusts Brute, who looks **Down**.~~" in public
    without_ids = re.sub(r"<@\d+>", "", public)
    assert "-900" not in without_ids and "888" not in without_ids


async def test_the_npc_the_gm_chooses_is_the_one_that_takes_the_hit(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Two hidden NPC allies may take the hit for Thug 1: the GM opens Mook's options and
    presses "Take the hit" — Mook, not the first ally in the list, throws themselves in."""
    h, gm, player = discord_harness, table.moderator, table.player
    await set_up_fight(h, table, thugs=2, begin=False)
    await ok(await slash(h, gm, "gm add-npc", name="Mook"))
    await ok(await slash(h, gm, "gm settings", npcs_react=True))
    await ok(await slash(h, gm, "encounter begin"))
    await pass_turns_until(bot, h, table, "General Bearington")
    prompt = (await ok(await slash(h, player, "attack", target="Thug 1", with_="Claws"))).message
    labels = [c["label"] for row in h.message(prompt).components for c in row["components"]]
    assert "GM: choose Thug 2's reaction" in labels and "GM: choose Mook's reaction" in labels
    opened = await h.click(
        gm, h.message(prompt), button(h.message(prompt), "GM: choose Mook")["custom_id"]
    )
    await opened.response()
    take = button(opened.message, "Take the hit for Thug 1")["custom_id"]
    assert take.endswith(f"@{(await _id_of(bot, h, 'Mook'))}")
    click = await h.click(gm, opened.message, take)
    await click.response()
    await h.wait_for(lambda: h.message(prompt).components == [])
    assert "Mook throws themselves in front of Thug 1!" in h.message(prompt).text()


async def _id_of(bot: CombatBot, h: DiscordHarness, name: str) -> str:
    live = await bot.services.encounters.live(h.channel.id)
    return live.state.find(name).id


async def test_a_hidden_npc_ally_out_of_actions_looks_the_same_on_the_prompt(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Mook (Speed 1) spends its only action taking the first hit of a flurry; the second hit's
    prompt still offers "GM: choose Mook's reaction" as before — whether it can afford a choice
    is its secret — and the GM's click says privately that it has none."""
    h, gm, player = discord_harness, table.moderator, table.player
    await set_up_fight(h, table, thugs=1, begin=False)
    await ok(await slash(h, gm, "gm add-npc", name="Mook", speed=1))
    await ok(await slash(h, gm, "gm settings", npcs_react=True))
    await ok(await slash(h, gm, "encounter begin"))
    await pass_turns_until(bot, h, table, "General Bearington")
    await ok(await slash(h, player, "attack", target="Thug 1", with_="Claws", hits=2))
    first = h.message(await prompt_recorded(bot, h))
    assert "the GM may have **Mook** take the hit for **Thug 1**" in first.content
    opened = await h.click(gm, first, button(first, "GM: choose Mook")["custom_id"])
    await opened.response()
    take = await h.click(gm, opened.message, button(opened.message, "Take the hit")["custom_id"])
    await take.response()
    mook = (await bot.services.encounters.live(h.channel.id)).state.find("Mook")
    assert mook.actions_left == 0  # type: ignore[attr-defined]

    async def second_prompt() -> int | None:
        live = await bot.services.encounters.live(h.channel.id)
        pid = live.row.prompt_message_id
        return pid if pid not in (None, first.id) else None

    for _ in range(200):
        if await second_prompt():
            break
        await asyncio.sleep(0.01)
    second = h.message((await second_prompt()) or 0)
    assert "the GM may have **Mook** take the hit for **Thug 1**" in second.content
    labels = [c["label"] for row in second.components for c in row["components"]]
    assert "GM: choose Mook's reaction" in labels
    opened = await h.click(gm, second, button(second, "GM: choose Mook")["custom_id"])
    await opened.response()
    assert opened.ephemeral
    assert (
        "**Mook** has no choice it can make on this attack right now"
        in (opened.response_data["content"])
    )
