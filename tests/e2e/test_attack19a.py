"""Attack 19a: hostile or careless members trying to act for another's character, to use GM
commands, to read an NPC's hidden numbers or to ping through a name — in all four systems.
Each test is a defect found so, and states what a member should see."""

from __future__ import annotations

from typing import Any

import pytest

from bot.client import CombatBot
from tests.clock import ManualClock
from tests.e2e.combat_helpers import (
    ONE_ON_ONE,
    answered,
    button,
    ok,
    one_on_one,
    pass_turns_until,
    slash,
    winded,
    work_done,
)
from tests.e2e.conftest import Table
from tests.e2e.test_member_data import export_of
from tests.harness.models import Member
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
        await winded(h, table, "Thug 1")  # a breather at full Stamina is refused
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


# The class guards: every command and every button, used by members who may not act -------

NAMED = frozenset({"combatant", "as", "a", "b", "target", "quarry", "pursuer", "watch", "toward"})
"""Options that name a combatant (to act as, or to act on)."""
OWN_DATA = frozenset({"help", "roll", "character", "npc", "me", "tables", "server", "campaign"})
"""Command groups about a member's own data or the server, not the channel's fight."""
OTHERS = frozenset({"away", "back", "encounter start", "encounter join", "encounter status"})
"""A member's own presence, or what anyone may read (refusals of these are tested elsewhere)."""


def leaf_commands(h: DiscordHarness) -> list[tuple[str, list[dict[str, Any]]]]:
    """Every registered slash command down to its subcommands, with its options."""
    found: list[tuple[str, list[dict[str, Any]]]] = []

    def walk(path: str, options: list[dict[str, Any]]) -> None:
        subs = [o for o in options if o["type"] in (1, 2)]
        if not subs:
            found.append((path, options))
        for sub in subs:
            walk(f"{path} {sub['name']}", sub.get("options") or [])

    for command in h.registered_commands(h.guild) or h.registered_commands(None):
        walk(command["name"], command.get("options") or [])
    return found


def options_naming(options: list[dict[str, Any]], name: str, member: Member) -> dict[str, Any]:
    """Values for a command's options: ``name`` in each option naming a combatant, the first
    choice where there are choices, and something of the right type for the rest required."""
    given: dict[str, Any] = {}
    for option in options:
        kind, key = option["type"], option["name"]
        if option.get("choices"):
            given[key] = option["choices"][0]["value"]
        elif kind == 3 and key in NAMED:
            given[key] = name
        elif not option.get("required"):
            continue
        elif kind == 3:
            given[key] = "1"
        elif kind in (4, 10):
            given[key] = max(1, option.get("min_value") or 1)
        elif kind == 5:
            given[key] = True
        elif kind == 6:
            given[key] = member
    return given


async def every_command_changes_nothing(
    bot: CombatBot, h: DiscordHarness, member: Member, names: list[str]
) -> list[str]:
    """Run every fight command as ``member`` naming each of ``names``: what changed the
    encounter or was answered in public (empty when nothing did)."""
    wrong: list[str] = []
    for path, options in leaf_commands(h):
        if path.split()[0] in OWN_DATA or path in OTHERS:
            continue
        if any(o["type"] == 11 and o.get("required") for o in options):
            continue
        for name in names:
            before = await bot.services.encounters.live(h.channel.id)
            record = await answered(
                await h.slash(member, h.channel, path, options_naming(options, name, member))
            )
            after = await bot.services.encounters.live(h.channel.id)
            if (after.version, after.row.gm_id) != (before.version, before.row.gm_id):
                wrong.append(f"/{path} ({name}) changed the encounter")
            if not record.ephemeral:
                wrong.append(f"/{path} ({name}) answered in public: {record.response_data}")
    return wrong


@pytest.mark.parametrize("system", sorted(ONE_ON_ONE))
async def test_every_command_by_a_member_who_may_not_act_changes_nothing(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table, system: str
) -> None:
    """Every slash command of a fight, naming the player's character or the NPC in each option
    that names a combatant (`as:`, `target:`, `combatant:`…), is refused privately and changes
    nothing when run by a bystander, by another player, and by a GM who handed the seat on
    with `/gm seat transfer` — on the player's turn, in every system. (A guard for the class:
    a new command that forgets to ask who may act fails here.)"""
    h = discord_harness
    pc, _, (_, template) = ONE_ON_ONE[system]
    await ok(await slash(h, table.gm, "encounter start", name="Guard", ruleset=system))
    await answered(await slash(h, table.player, "character import", example=ONE_ON_ONE[system][1]))
    await answered(await slash(h, table.player, "encounter join", character=pc))
    await answered(await slash(h, table.moderator, "npc import", example=ONE_ON_ONE[system][2][0]))
    await ok(await slash(h, table.gm, "gm add-npc", template=template))
    await ok(await slash(h, table.gm, "encounter begin"))
    await pass_turns_until_as(bot, h, table.gm, pc)
    names = [pc, f"{template} 1"]
    wrong = await every_command_changes_nothing(bot, h, table.bystander, names)
    wrong += await every_command_changes_nothing(bot, h, table.other_player, names)
    await ok(await h.slash(table.gm, h.channel, "gm seat transfer", {"member": table.moderator}))
    wrong += await every_command_changes_nothing(bot, h, table.gm, names)
    assert not wrong, "\n".join(wrong)


async def pass_turns_until_as(bot: CombatBot, h: DiscordHarness, gm: Member, name: str) -> None:
    """``/gm next`` as ``gm`` until it is ``name``'s turn."""
    for _ in range(6):
        live = await bot.services.encounters.live(h.channel.id)
        if live.state.current is not None and live.state.current.name == name:
            return
        await ok(await slash(h, gm, "gm next"))
    raise AssertionError(f"never reached {name}'s turn")


async def every_button_changes_nothing(
    bot: CombatBot, h: DiscordHarness, member: Member
) -> list[str]:
    """Press every button on every message of the channel as ``member``: the presses that
    changed the encounter or were answered in public (empty when none was)."""
    wrong: list[str] = []
    for message in h.messages_in(h.channel):
        for component in h.message(message).all_components():
            if component.get("type") != 2 or "custom_id" not in component:
                continue
            # the last command's edits (a finished turn's ping losing its buttons) are done
            # first: under CI load one retired a button between this check and the press
            await work_done()
            if component["custom_id"] not in h.message(message).custom_ids():
                continue  # gone meanwhile (a retired ping)
            before = await bot.services.encounters.live(h.channel.id)
            record = await h.click(member, message, component["custom_id"])
            await record.response()
            after = await bot.services.encounters.live(h.channel.id)
            label = component.get("label")
            if (after.version, after.row.pending_version) != (
                before.version,
                before.row.pending_version,
            ):
                wrong.append(f"{label!r} changed the encounter")
            if not record.ephemeral:
                wrong.append(f"{label!r} answered in public: {record.response_data}")
    return wrong


@pytest.mark.parametrize("system", sorted(ONE_ON_ONE))
async def test_every_button_by_a_member_who_may_not_act_changes_nothing(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table, system: str
) -> None:
    """Every button the channel shows — turn pings (End turn, the breather, Attack…), the
    NPC's attack waiting on the player's character's reaction or defense, the GM's own — is
    refused privately and changes nothing when pressed by a bystander, by another player, by
    a delegate after the player is back, and by a GM who handed the seat on; in every
    system. (A guard for the class: a new button that forgets to ask who may act fails.)"""
    h, gm = discord_harness, table.gm
    pc, _, (_, template) = ONE_ON_ONE[system]
    npc = f"{template} 1"
    await ok(await slash(h, gm, "encounter start", name="Guard", ruleset=system))
    await answered(await slash(h, table.player, "character import", example=ONE_ON_ONE[system][1]))
    await answered(await slash(h, table.player, "encounter join", character=pc))
    await answered(await slash(h, table.moderator, "npc import", example=ONE_ON_ONE[system][2][0]))
    await ok(await slash(h, gm, "gm add-npc", template=template))
    await ok(await slash(h, gm, "encounter begin"))
    await ok(await slash(h, table.player, "away", delegate=table.other_player))
    await ok(await slash(h, table.player, "back"))
    await pass_turns_until_as(bot, h, gm, pc)
    await pass_turns_until_as(bot, h, gm, npc)
    [ping] = [m for m in h.messages_in(h.channel) if f"**{npc}**'s turn" in m.content][-1:]
    asked = await h.click(gm, ping, button(ping, "Attack…")["custom_id"])
    await asked.response()
    [select] = [c for c in asked.message.all_components() if c.get("type") == 3]
    target = next(o["value"] for o in select["options"] if pc in o["label"])
    attacked = await h.select(gm, asked.message, select["custom_id"], [target])
    await attacked.response()
    assert not attacked.ephemeral, attacked.response_data
    wrong = []
    for member in (table.bystander, table.other_player):
        wrong += await every_button_changes_nothing(bot, h, member)
    await ok(await h.slash(gm, h.channel, "gm seat transfer", {"member": table.moderator}))
    wrong += await every_button_changes_nothing(bot, h, gm)
    assert not wrong, "\n".join(wrong)


def public_pings(h: DiscordHarness, victim: Member) -> list[str]:
    """Every message the bot posted or edited in public whose content would notify ``victim``
    or everyone: it holds ``<@victim>`` (or ``@everyone``/``@here``) unescaped and its allowed
    mentions let it through (none given: the client's default, which lets users through)."""
    found: list[str] = []
    requests = h.requests_to("POST", r"/(interactions/.*/callback|channels/.*/messages|webhooks/)")
    requests += h.requests_to("PATCH", r"/(channels/.*/messages|webhooks/)")
    for request in requests:
        body = request.json if isinstance(request.json, dict) else {}
        data = body.get("data", body) if isinstance(body.get("data", body), dict) else {}
        content = str(data.get("content") or "")
        if (data.get("flags") or 0) & 64:
            continue  # ephemeral: only the member who asked sees it
        allowed = data.get("allowed_mentions")
        parse = ["users"] if allowed is None else (allowed.get("parse") or [])
        users = [] if allowed is None else [str(u) for u in allowed.get("users") or []]
        for mention in (f"<@{victim.id}>", f"<@!{victim.id}>"):
            if mention in content and ("users" in parse or str(victim.id) in users):
                found.append(content)
        if ("@everyone" in content or "@here" in content) and "everyone" in parse:
            found.append(content)
    return found


@pytest.mark.parametrize("system", sorted(ONE_ON_ONE))
async def test_no_text_a_member_types_pings_anyone(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table, system: str
) -> None:
    """Names of the encounter, the character and the NPCs are `<@victim>…`, and every free-text
    option of every fight command, run by the player and by the GM, is `<@victim> @everyone`:
    no public message the bot posts or edits pings the victim or everyone (each message's
    allowed mentions name only whom it asks; names and typed text are escaped)."""
    h, gm, victim = discord_harness, table.moderator, table.bystander
    evil = f"<@{victim.id}>"
    _, example, (npc_example, _) = ONE_ON_ONE[system]
    await ok(await slash(h, gm, "encounter start", name=evil, ruleset=system))
    await answered(
        await slash(h, table.player, "character import", example=example, name=f"{evil}x")
    )
    await ok(await slash(h, table.player, "encounter join", character=f"{evil}x"))
    await answered(await slash(h, gm, "npc import", example=npc_example, name=f"{evil}n"))
    await ok(await slash(h, gm, "gm add-npc", template=f"{evil}n", count=2))
    await ok(await slash(h, gm, "encounter begin"))
    live = await bot.services.encounters.live(h.channel.id)
    mine, theirs = live.state.combatants[0].name, live.state.combatants[-1].name
    typed = f"{evil} @everyone"
    for member in (table.player, gm):
        for path, options in leaf_commands(h):
            if path.split()[0] in OWN_DATA or path in {"encounter start", "encounter end"}:
                continue
            if path in {"back", "gm seat transfer"}:
                continue
            given: dict[str, Any] = {}
            for option in options:
                kind, key = option["type"], option["name"]
                if option.get("choices"):
                    given[key] = option["choices"][0]["value"]
                elif kind == 3 and key in {"as", "character", "b", "pursuer"}:
                    given[key] = mine
                elif kind == 3 and key in NAMED:
                    given[key] = theirs
                elif kind == 3:
                    given[key] = typed[: option.get("max_length", 100)]
                elif option.get("required") and kind in (4, 10):
                    given[key] = max(1, option.get("min_value") or 1)
                elif option.get("required") and kind == 5:
                    given[key] = True
                elif option.get("required") and kind == 6:
                    given[key] = table.other_player
            if any(o.get("required") and o["name"] not in given for o in options):
                continue
            await answered(await h.slash(member, h.channel, path, given))
    assert not public_pings(h, victim), public_pings(h, victim)


async def test_healing_a_hidden_npc_to_its_daily_limit_names_no_number_of_it(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Willow healed Thug 1 (whose numbers the channel hides) with her Heal power until it
    had what a day allows, and the refusal told her "Thug 1 has reached today's limit of
    Health from Heal powers (7)" — half its Health, which the GM keeps. A refusal about a
    combatant whose numbers the acting member may not see names none of them."""
    h, gm, player = discord_harness, table.moderator, table.player
    await one_on_one(h, table, "uttas", name="Mercy")
    await ok(await slash(h, gm, "gm hp", combatant="Thug 1", health="1"))
    said = ""
    for _ in range(8):
        await pass_turns_until(bot, h, table, "Willow")
        healed = await answered(await slash(h, player, "power", name="Heal", target="Thug 1"))
        if healed.ephemeral:
            said = str(healed.response_data.get("content"))
            break
    assert "reached today's limit of Health from Heal powers" in said, said
    assert said == (
        "Thug 1 has reached today's limit of Health from Heal powers; the next day gives it back."
    ), said
    # The GM, acting for Willow, is told the limit.
    await pass_turns_until(bot, h, table, "Willow")
    exact = await answered(await slash(h, gm, "power", name="Heal", target="Thug 1"))
    assert "(7)" in str(exact.response_data.get("content")), exact.response_data
