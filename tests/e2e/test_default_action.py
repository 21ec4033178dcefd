"""A GM-defined default action at a passed turn deadline (issue 17) through Discord, on the
services' injected clock: ``/gm settings deadline_action:default_action`` and, per combatant,
``/gm settings combatant: default_action:`` (one of the ruleset's ``deadline_actions``: UTTAS's
Take a Breather). The deadline makes the combatant take it, then the turn ends — once; one
without a default (or whose default the rules refuse then) just ends its turn; a system that has
none (Untitled) says so."""

from __future__ import annotations

from bot.client import CombatBot
from tests.clock import ManualClock
from tests.e2e.combat_helpers import (
    answered,
    ok,
    pass_turns_until,
    refused,
    set_up_fight,
    slash,
)
from tests.e2e.conftest import Table
from tests.harness.models import StoredMessage
from tests.harness.server import DiscordHarness

DEADLINE = 12 * 3600


def passed(h: DiscordHarness) -> list[StoredMessage]:
    return [m for m in h.messages_in(h.channel) if "Turn deadline passed" in m.text()]


async def defaults_fight(
    bot: CombatBot, h: DiscordHarness, table: Table, *, winded: bool = True
) -> None:
    """The Firewood fight with turn deadlines whose default is Willow's breather; ``winded``:
    she has lost Stamina, so a breather has something to recover (at full it is refused)."""
    gm = table.moderator
    await set_up_fight(h, table)
    if winded:
        await ok(await slash(h, gm, "gm vital", combatant="Willow", vital="Stamina", amount="-5"))
    await ok(await slash(h, gm, "gm settings", turn_deadline="12h"))
    await ok(await slash(h, gm, "gm settings", deadline_action="default_action"))
    said = await refused(
        await slash(h, gm, "gm settings", combatant="Willow", default_action="Take a Breather")
    )
    assert said == (
        "When **Willow**'s turn deadline passes, Willow takes **Take a Breather** (1 action; ends"
        " the turn), then the turn ends."
    )


async def test_the_default_action_is_taken_once_and_the_turn_ends(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table, clock: ManualClock
) -> None:
    bot, h, gm = clocked_bot, discord_harness, table.moderator
    await defaults_fight(bot, h, table)
    shown = await answered(await slash(h, gm, "gm settings"))
    text = shown.response_data["content"]
    assert "- turn deadline: 12h (then the combatant's default action, and the turn ends)" in text
    assert "- default actions at a passed deadline: Willow: Take a Breather" in text
    await pass_turns_until(bot, h, table, "Willow")
    before = await bot.services.encounters.live(h.channel.id)
    clock.advance(DEADLINE)
    [lapse] = await bot.fire_turn_deadlines()
    assert lapse.action == "default_action" and lapse.default == "Take a Breather"
    assert await bot.fire_turn_deadlines() == []
    after = await bot.services.encounters.live(h.channel.id)
    assert after.state.turn_seq == before.state.turn_seq + 1
    willow = next(c for c in after.state.combatants if c.name == "Willow")
    assert getattr(willow, "breathing", False) is True
    await h.wait_for(lambda: len(passed(h)) == 1)
    [message] = passed(h)
    seen = message.text()
    assert "Turn deadline passed: Willow takes their default action, Take a Breather" in seen
    assert "Willow takes a breather" in seen


async def test_without_a_default_or_when_the_rules_refuse_it_the_turn_just_ends(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table, clock: ManualClock
) -> None:
    bot, h, gm, player = clocked_bot, discord_harness, table.moderator, table.player
    await defaults_fight(bot, h, table)
    await pass_turns_until(bot, h, table, "Willow")
    await ok(await slash(h, player, "move", meters=2))  # a breather needs a turn without moving
    clock.advance(DEADLINE)
    [lapse] = await bot.fire_turn_deadlines()
    assert lapse.action == "end_turn" and lapse.refused is not None
    await h.wait_for(lambda: len(passed(h)) == 1)
    assert (
        "Turn deadline passed: Willow's turn ends (Take a Breather was not possible: Willow moved"
        " this turn and cannot take a breather.)" in passed(h)[0].text()
    )
    # The next combatant has no default: its turn ends as with `end_turn`.
    live = await bot.services.encounters.live(h.channel.id)
    assert live.state.current is not None
    name = live.state.current.name
    clock.advance(DEADLINE)
    [lapse] = await bot.fire_turn_deadlines()
    assert lapse.action == "end_turn" and lapse.default is None
    await h.wait_for(lambda: len(passed(h)) == 2)
    assert f"Turn deadline passed: {name}'s turn ends" in passed(h)[1].text()
    # Cleared with `none`.
    said = await refused(
        await slash(h, gm, "gm settings", combatant="Willow", default_action="none")
    )
    assert "has no default action now" in said


async def test_default_action_refusals(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm, player = discord_harness, table.moderator, table.player
    await set_up_fight(h, table)
    assert "Only the GM" in await refused(
        await slash(h, player, "gm settings", combatant="Willow", default_action="breather")
    )
    said = await refused(
        await slash(h, gm, "gm settings", combatant="Willow", default_action="Total Defense")
    )
    assert said == (
        "Willow cannot default to `Total Defense`: in UTTAS the default action is"
        " `Take a Breather` (or `none` for no default)."
    )
    # what was typed is quoted in a code span a backtick in it cannot end
    said = await refused(
        await slash(h, gm, "gm settings", combatant="Willow", default_action="Total`Defense")
    )
    assert said.startswith("Willow cannot default to ``Total`Defense``: in UTTAS the default")
    assert "Say whose default action" in await refused(
        await slash(h, gm, "gm settings", default_action="breather")
    )
    assert "on its own" in await refused(
        await slash(
            h, gm, "gm settings", combatant="Willow", default_action="breather", show_odds=True
        )
    )
    assert "no combatant called **Nobody**" in await refused(
        await slash(h, gm, "gm settings", combatant="Nobody", default_action="breather")
    )


async def test_a_system_without_a_default_action_says_so(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm, player = discord_harness, table.moderator, table.player
    await ok(await slash(h, gm, "encounter start", name="Reed ford", ruleset="untitled"))
    await answered(await slash(h, player, "character import", example="wren"))
    await answered(await slash(h, player, "encounter join", character="Wren"))
    said = await refused(
        await slash(h, gm, "gm settings", combatant="Wren", default_action="Total Defense")
    )
    untitled = (
        "Untitled has no action a turn can default to when its deadline passes: set "
        "`deadline_action:` to End the turn or Only tell the GM."
    )
    assert said == untitled
    assert untitled == await refused(
        await slash(h, gm, "gm settings", deadline_action="default_action")
    )


async def test_a_refused_default_shows_markdown_in_the_name_once_escaped(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table, clock: ManualClock
) -> None:
    """The rules' refusal of a default action, quoted in the deadline's title, shows a name
    with Markdown in it as typed: the refusal escapes its names where it is written, so the
    title quotes it as it is (escaping it again showed ``\\*Wren\\*`` with its backslashes)."""
    bot, h, gm, player = clocked_bot, discord_harness, table.moderator, table.player
    await ok(await slash(h, gm, "encounter start", name="Firewood"))
    await answered(await slash(h, gm, "npc import", example="thug"))
    await ok(await slash(h, gm, "gm add-npc", template="Thug"))
    await answered(await slash(h, player, "character import", example="willow", name="*Wren*"))
    await ok(await slash(h, player, "encounter join", character="*Wren*"))
    await ok(await slash(h, gm, "encounter begin"))
    await ok(await slash(h, gm, "gm settings", turn_deadline="12h"))
    await ok(await slash(h, gm, "gm settings", deadline_action="default_action"))
    await answered(
        await slash(h, gm, "gm settings", combatant="*Wren*", default_action="Take a Breather")
    )
    await pass_turns_until(bot, h, table, "*Wren*")
    await ok(await slash(h, player, "move", meters=2))  # a breather needs a turn without moving
    clock.advance(DEADLINE)
    [lapse] = await bot.fire_turn_deadlines()
    assert lapse.action == "end_turn" and lapse.refused is not None
    await h.wait_for(lambda: len(passed(h)) == 1)
    seen = passed(h)[0].text()
    assert (
        "Turn deadline passed: \\*Wren\\*'s turn ends (Take a Breather was not possible: "
        "\\*Wren\\* moved this turn and cannot take a breather.)" in seen
    ), seen


async def test_a_default_breather_at_full_stamina_is_refused_and_the_turn_ends(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table, clock: ManualClock
) -> None:
    """play26, defect 4: a breather at full Stamina would spend the turn's action and one of
    Willow's breathers for nothing; her default action is refused, and the turn just ends."""
    bot, h = clocked_bot, discord_harness
    await defaults_fight(bot, h, table, winded=False)
    await pass_turns_until(bot, h, table, "Willow")
    clock.advance(DEADLINE)
    [lapse] = await bot.fire_turn_deadlines()
    assert lapse.action == "end_turn" and lapse.refused is not None
    await h.wait_for(lambda: len(passed(h)) == 1)
    assert (
        "Turn deadline passed: Willow's turn ends (Take a Breather was not possible: Willow's "
        "Stamina is full" in passed(h)[0].text()
    ), passed(h)[0].text()
    live = await bot.services.encounters.live(h.channel.id)
    assert getattr(live.state.find("Willow"), "breathing", True) is False
