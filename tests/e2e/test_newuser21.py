"""A brand-new GM and three players run an Untitled and a UTTAS campaign over a week of chat
from the README alone (issue 21's walkthrough): sheets from the forms and the examples, the
GM's NPCs with hidden numbers, conditions, turn deadlines and reminders, a player away for two
days with a stand-in, undo and redo, a late joiner, a second fight. Each test is a place where
what the bot said was wrong or left them guessing, and states what they should see."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from bot.client import CombatBot
from tests.clock import ManualClock
from tests.e2e.combat_helpers import (
    button,
    current_name,
    end_encounter,
    ok,
    pass_turns_until,
    press,
    refused,
    set_up_cast,
    set_up_fight,
    slash,
    thug_attacks_willow,
    version,
    work_done,
)
from tests.e2e.conftest import Table
from tests.harness.models import InteractionRecord
from tests.harness.server import DiscordHarness

HILL_GIANT = ("hill-giant", "Hill giant")


async def _undone(h: DiscordHarness, table: Table) -> str:
    """The GM's `/gm undo`: every text it posted (the channel's and the GM's exact copy)."""
    record: InteractionRecord = await ok(await slash(h, table.moderator, "gm undo"))
    await work_done()
    return "\n".join(m.text() for m in record.all_messages())


async def test_the_gms_undo_shows_only_options_someone_typed(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table, clock: ManualClock
) -> None:
    """Nobody acted on Willow's turn for 12 hours; the GM undid the passed deadline and their
    "Exact numbers (GM only)" copy read "Undid **a passed turn deadline** (for\\_turn: 5) by
    the bot" — the bot's own bookkeeping, as if someone had typed an option called for_turn.
    A turn ping's button carried its turn number the same way ("(turn: 3)"), a decision's
    button its code and bookkeeping ("(choice: evade, button: Evade (1 action))"). The GM's
    copy lists the options a member typed with a slash command (`/attack`'s target and
    weapon) and nothing for a button or for what the bot did by itself."""
    bot, h = clocked_bot, discord_harness
    await set_up_fight(h, table, thugs=1)
    await ok(await slash(h, table.moderator, "gm settings", turn_deadline="12h"))
    clock.advance(12 * 3600 + 1)
    await bot.expire_due()
    await work_done()
    undone = await _undone(h, table)
    assert "Undid **a passed turn deadline** by the bot" in undone, undone
    assert "for\\_turn" not in undone and "for_turn" not in undone, undone

    ping = h.last_message(h.channel)
    assert ping is not None
    click = await h.click(table.player, ping, button(ping, "End turn")["custom_id"])
    await click.response()
    undone = await _undone(h, table)
    assert "Undid **the turn's End turn button** by <@" in undone, undone
    assert "(turn:" not in undone, undone

    prompt = await thug_attacks_willow(bot, h, table)
    await press(h, table.player, prompt, "Evade")
    undone = await _undone(h, table)
    assert "Undid **the “Evade (1 action)” button** by <@" in undone, undone
    assert "choice" not in undone and "pending" not in undone, undone

    # A typed command's options are still the GM's to read.
    undone = await _undone(h, table)
    assert "Undid **/attack** (target: Willow, with: Cudgel" in undone, undone


async def test_a_hidden_change_does_not_read_nothing_happened(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """The Storyteller took 10 Health off the hill giant, whose numbers are hidden
    (`/gm vital combatant:Hill giant 1 vital:health amount:-10`): the channel read "The GM
    adjusts Hill giant 1's Health — Nothing happened." while its tracker turned the giant
    Hurt. Something did happen; only its numbers are the GM's. The channel is told that, and
    the GM's copy has the numbers."""
    h, gm = discord_harness, table.moderator
    await set_up_cast(h, table, "untitled", name="The mill", pcs={"Brask": "brask"}, npc=HILL_GIANT)
    assert (await bot.services.encounters.live(h.channel.id)).state.settings.hide_npc_numbers
    record = await ok(
        await slash(h, gm, "gm vital", combatant="Hill giant 1", vital="health", amount="-10")
    )
    await work_done()
    public, *private = [m.text() for m in record.all_messages()]
    assert "Nothing happened" not in public, public
    assert "only the GM sees" in public, public
    assert any("Health to 50" in text for text in private), private


async def test_a_condition_that_cannot_last_refuses_lasts(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """The Storyteller put Down on Wren "for some rounds", `rounds:1` (`/gm condition` offers
    `lasts:` in every system): the reply read "Wren is now Down (the Game Master's call)." and
    she stayed Down round after round — Untitled (and Utopia) dropped `lasts:` without a word:
    their only condition, Down, follows Health (DHP) and lasts until it rises or the GM removes
    it. The duration is now refused, naming why, and nothing changes; without it, Down is
    given as before."""
    h, gm = discord_harness, table.moderator
    for system, pc, npc, vital in (
        ("untitled", ("Wren", "wren"), HILL_GIANT, "Health"),
        ("utopia", ("Vesna", "vesna"), ("stone-hound", "Stone hound"), "DHP"),
    ):
        await set_up_cast(h, table, system, name="Mill", pcs={pc[0]: pc[1]}, npc=npc)
        before = await version(bot, h)
        for lasts in ("rounds", "scene", "campaign"):
            text = await refused(
                await slash(
                    h,
                    gm,
                    "gm condition",
                    combatant=pc[0],
                    action="add",
                    name="Down",
                    lasts=lasts,
                    **({"rounds": 1} if lasts == "rounds" else {}),
                )
            )
            assert "`lasts:`" in text and f"follows {vital}" in text, (system, text)
        unknown = await refused(
            await slash(h, gm, "gm condition", combatant=pc[0], action="add", name="Shaken")
        )
        # it read "Untitled has no condition 'Shaken': Down." — as if Shaken were Down
        assert "has no condition" in unknown and "; its conditions: Down." in unknown, unknown
        assert await version(bot, h) == before, system
        await ok(await slash(h, gm, "gm condition", combatant=pc[0], action="add", name="Down"))
        click = await end_encounter(h, table)
        await click.wait_for(lambda r: any("Encounter ended" in m.text() for m in r.followups))


async def test_a_new_order_mid_round_says_whose_turn_it_moves(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """On Brask's turn in round 1 the Storyteller put Wren first (`/gm order`, or a
    `/gm roll-order` that drew her first): the reply read "Order: 1. Wren, 2. Brask, 3. Hill
    giant 1" and the turn went on from Brask to the giant — Wren's player waited for a round-1
    turn that never came, and nothing said so. Moving someone who already acted to after the
    current turn gives them a second turn in the round, unsaid too. The turn still passes on
    in the new order (the bot's documented reading); the reply now says whom that moves."""
    h, gm = discord_harness, table.moderator
    await set_up_cast(
        h,
        table,
        "untitled",
        name="The mill",
        pcs={"Brask": "brask", "Wren": "wren"},
        npc=HILL_GIANT,
    )
    assert await current_name(bot, h) == "Brask"
    moved = await ok(await slash(h, gm, "gm order", combatant="Wren", position=1))
    text = moved.message.text()
    assert "Wren now comes before Brask's turn: their next turn is in round 2" in text, text
    await ok(await slash(h, gm, "endturn"))
    assert await current_name(bot, h) == "Hill giant 1"
    moved = await ok(await slash(h, gm, "gm order", combatant="Brask", position=3))
    text = moved.message.text()
    assert "Brask now comes after Hill giant 1's turn: they take a turn this round" in text
    # Wren, passed over, gets her round-1 turn back the same way.
    moved = await ok(await slash(h, gm, "gm order", combatant="Wren", position=2))
    text = moved.message.text()
    assert "Wren now comes after Hill giant 1's turn: they take a turn this round" in text
    # A move that changes nobody's turn this round says nothing more.
    moved = await ok(await slash(h, gm, "gm order", combatant="Brask", position=2))
    assert "this round" not in moved.message.text(), moved.message.text()


async def test_a_gm_commands_title_names_things_as_the_fight_does(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Names are matched ignoring case (README, "Names"), so the Storyteller typed
    `/gm condition combatant:hill giant 1 name:down`; the channel read "The GM gives down to
    hill giant 1" — the words as typed, not the fight's Hill giant 1 or the rules' Down. The
    titles of the GM's commands (and a player's attack's) now name combatants and conditions
    as the fight does."""
    h, gm = discord_harness, table.moderator
    await set_up_cast(
        h,
        table,
        "untitled",
        name="The mill",
        pcs={"Brask": "brask", "Wren": "wren"},
        npc=HILL_GIANT,
    )
    for command, options, title in (
        ("gm skip", {"combatant": "wren"}, "The GM skips Wren's turn"),
        ("gm hp", {"combatant": "brask", "health": "-1"}, "The GM adjusts Brask"),
        (
            "gm vital",
            {"combatant": "brask", "vital": "health", "amount": "+1"},
            "The GM adjusts Brask's Health",
        ),
        ("gm order", {"combatant": "hill giant 1", "position": 3}, "The GM moves Hill giant 1"),
        (
            "gm condition",
            {"combatant": "hill giant 1", "action": "add", "name": "down"},
            "The GM gives Down to Hill giant 1",
        ),
    ):
        record = await ok(await slash(h, gm, command, **options))
        assert record.message.embeds[0]["title"].startswith(title), (command, record.message.text())
    click = await end_encounter(h, table)
    await click.wait_for(lambda r: any("Encounter ended" in m.text() for m in r.followups))
    # A UTTAS attack's title too.
    await set_up_fight(h, table, thugs=1)
    await pass_turns_until(bot, h, table, "Willow")
    record = await ok(await slash(h, gm, "attack", target="thug 1", with_="Club"))
    title = record.message.embeds[0]["title"]
    assert title == "Willow attacks Thug 1 with Club", title


README = Path(__file__).resolve().parents[2] / "README.md"


def _readme_who() -> dict[str, str]:
    """The README's command table: each command (``npc import``) and who may run it."""
    who: dict[str, str] = {}
    for row in README.read_text(encoding="utf-8").splitlines():
        if not row.startswith("| `/"):
            continue
        first, runner = row.split(" | ")[:2]
        group: list[str] = []
        for typed in re.findall(r"`([^`]+)`", first):
            words = [w for w in typed.lstrip("/").split() if ":" not in w and "[" not in w]
            if typed.startswith("/"):
                group = words[:-1]
                who[" ".join(words)] = runner.strip()
            else:  # "`/npc create`, `import`": the group's next subcommand
                who[" ".join([*group, *words])] = runner.strip()
    return who


def _descriptions(h: DiscordHarness) -> dict[str, str]:
    found: dict[str, str] = {}

    def walk(path: str, node: dict[str, Any]) -> None:
        subs = [o for o in node.get("options") or [] if o["type"] in (1, 2)]
        for sub in subs:
            walk(f"{path} {sub['name']}", sub)
        if not subs:
            found[path] = node.get("description", "")

    for command in h.registered_commands():
        if command.get("type", 1) == 1:
            walk(command["name"], command)
    return found


async def test_a_commands_description_says_who_may_run_it_as_the_readme_does(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """The new GM started a fight and, as Discord's command list said, ran `/npc import` —
    "Import an NPC template (GM only)" — and was refused: NPC templates are the server GMs'
    (README: "server GM"). `/campaign end-of` said "(GMs)" for the same. And `/encounter
    begin` said "Roll initiative" in Untitled and Uune, where nobody rolls it. A description
    that names who may run a command now agrees with the README's table."""
    who = _readme_who()
    described = _descriptions(discord_harness)
    assert who["npc import"] == "server GM" and "gm undo" in who  # the table was read
    wrong = [
        (command, text)
        for command, text in described.items()
        if (who.get(command) == "server GM" and ("(GM only)" in text or "(GMs)" in text))
        or (who.get(command) == "GM" and "server GM" in text)
    ]
    assert wrong == [], wrong
    assert "initiative" not in described["encounter begin"].casefold(), described


async def test_untitleds_no_healing_names_how_health_comes_back(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Brask left the mill with Health 14/30; the server GM tried `/campaign heal weeks:1` and
    `/gm time rest` and read "The Untitled combat text has no healing: the GM sets Health
    instead." — with no word of how: there is no command that sets a record's Health between
    fights. The refusal now names `/gm vital` in a fight (its record keeps it at the end) and
    `/campaign reset` for full Health."""
    h, gm = discord_harness, table.moderator
    await set_up_cast(h, table, "untitled", name="The mill", pcs={"Brask": "brask"}, npc=HILL_GIANT)
    await ok(await slash(h, gm, "gm end-fight"))
    rest = await refused(await slash(h, gm, "gm time rest", kind="short"))
    click = await end_encounter(h, table)
    await click.wait_for(lambda r: any("Encounter ended" in m.text() for m in r.followups))
    heal = await refused(await slash(h, gm, "campaign heal", weeks=1))
    for text in (rest, heal):
        assert "`/gm vital vital:health`" in text and "`/campaign reset`" in text, text


async def test_a_setting_given_its_current_value_is_no_change(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """`/gm settings hide_npc_numbers:True` when they are already hidden read "Settings
    changed: hide NPC numbers: on" and logged an undoable change. A value the setting already
    has is no change: alone it is refused privately (nothing stored, nothing posted); beside a
    real change it is left out of what the channel is told."""
    h, gm = discord_harness, table.moderator
    await set_up_fight(h, table)
    await work_done()
    before, posts = await version(bot, h), len(h.messages_in(h.channel))
    for options, words in (
        ({"hide_npc_numbers": True}, "hide NPC numbers: on"),
        ({"reminders": "50%", "show_odds": False}, "reminders: 50%, show odds: off"),
        ({"turn_deadline": "off"}, "turn deadline: off"),
    ):
        text = await refused(await slash(h, gm, "gm settings", **options))
        assert text.startswith(f"Nothing to change: {words} already."), text
    await work_done()
    assert await version(bot, h) == before and len(h.messages_in(h.channel)) == posts
    record = await ok(await slash(h, gm, "gm settings", hide_npc_numbers=True, npcs_react=True))
    said = record.all_messages()[0].text()
    assert "NPCs react: on" in said and "hide NPC numbers" not in said, said
    assert await version(bot, h) == before + 1
