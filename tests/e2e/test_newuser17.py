"""A brand-new GM and two players run a first fight in each game system from the README alone,
through the parts the earlier walkthroughs skipped — the GM's moderation (`/gm undo`, `/gm redo`,
`/gm skip`, `/gm remove`, `/gm resolve`) and what a player is told while the fight waits. Each
test is a place where a reply left them stuck or guessing, and states what they should see."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from bot.client import CombatBot
from bot.services import log_commands
from tests.clock import ManualClock
from tests.e2e.combat_helpers import (
    ONE_ON_ONE,
    answered,
    button,
    end_encounter,
    ok,
    one_on_one,
    pass_turns_until,
    press,
    refused,
    set_up_cast,
    set_up_fight,
    slash,
    thug_attacks_willow,
)
from tests.e2e.conftest import Table
from tests.e2e.test_attack_systems import untitled_mill
from tests.harness.models import Member
from tests.harness.server import DiscordHarness

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")


async def reed_ford_npcs_react(bot: CombatBot, h: DiscordHarness, table: Table) -> None:
    """The README's Reed Ford (Utopia) with ``npcs_react:True``: the GM chooses the Bandit
    archer's defense. Vesna is engaged with it; run to Vesna's turn."""
    gm = table.moderator
    await set_up_cast(
        h,
        table,
        "utopia",
        name="Reed Ford",
        pcs={"Vesna": "vesna"},
        npc=("bandit-archer", "Bandit archer"),
        begin=False,
    )
    await ok(await slash(h, gm, "gm settings", npcs_react=True))
    await ok(await slash(h, gm, "gm place engage", a="Vesna", b="Bandit archer 1"))
    await ok(await slash(h, gm, "encounter begin"))
    await pass_turns_until(bot, h, table, "Vesna")


async def test_a_command_refused_while_a_decision_waits_says_how_it_is_settled(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """In UTTAS a turn command sent while an attack waited on its reaction was refused "Waiting
    for Thug 1 to decide on Willow's Club first." with how it is decided (the buttons, `/gm
    resolve`). In the README's Utopia, Untitled and Uune fights the same refusal ended at
    "first." — "Waiting for Bandit archer 1's defense against Knife first.", "Waiting for the
    GM's approval of Mira Quell's roll first." — and a new GM (who had typed `/gm skip` or
    `/gm next`) was not told that the buttons decide it or that `/gm resolve` moves the fight on.
    Every game system's refusal now says both, in its own words."""
    h = discord_harness
    gm, player = table.moderator, table.player

    # UTTAS, the README's first fight: one Thug attacks Willow.
    await one_on_one(h, table, "uttas", name="Ambush")
    await thug_attacks_willow(bot, h, table)
    text = await refused(await slash(h, gm, "endturn"))
    assert text.startswith("Waiting for Willow to decide on Thug 1's Cudgel first."), text
    assert "`/gm resolve`" in text, text
    await _close(h, table)

    # Utopia, the README's Reed Ford: the GM chooses the archer's defense (npcs_react).
    await reed_ford_npcs_react(bot, h, table)
    await ok(
        await slash(h, player, "act", action="attack", target="Bandit archer 1", detail="Knife")
    )
    text = await refused(await slash(h, player, "endturn"))
    assert text.startswith("Waiting for Bandit archer 1's defense against Knife first."), text
    assert "buttons on the attack's message" in text and "the GM chooses for an NPC" in text
    assert "`/gm resolve` settles it: the damage is taken with no defense." in text, text
    await _close(h, table)

    # Untitled, the README's mill: the giant swings at Brask, who carries a shield.
    await untitled_mill(h, table)
    await pass_turns_until(bot, h, table, "Hill giant 1")
    await ok(await slash(h, gm, "act", action="attack", target="Brask"))
    text = await refused(await slash(h, gm, "gm next"))
    assert text.startswith("Waiting for Brask's defense against"), text
    assert "buttons on the attack's message" in text, text
    assert "`/gm resolve` settles it: the attack is rolled with the" in text, text
    await _close(h, table)

    # Uune, the README's Dock nine: Mira's attack waits for the GM's approval, then her roll.
    await one_on_one(h, table, "uune", name="Dock nine")
    await ok(
        await slash(
            h,
            player,
            "act",
            action="attack",
            target="Dock Thug 1",
            detail="Twin short blades, Street fencing",
        )
    )
    text = await refused(await slash(h, gm, "gm skip", combatant="Mira Quell"))
    assert text.startswith("Waiting for the GM's approval of Mira Quell's roll first."), text
    assert "The GM answers it with the buttons on the roll's message" in text, text
    assert "`/gm resolve` settles it: the resources not answered are refused" in text, text
    await ok(await slash(h, gm, "gm resolve"))
    text = await refused(await slash(h, gm, "gm next"))
    assert text.startswith("Waiting for Mira Quell to keep their roll first."), text
    assert "The buttons on the roll's message decide it" in text, text
    assert "`/gm resolve` settles it: the roll stands as it is." in text, text


async def _close(h: DiscordHarness, table: Table) -> None:
    """The GM ends the channel's encounter (Confirm) so the next system's can start."""
    click = await end_encounter(h, table)
    await click.wait_for(lambda r: any("Encounter ended" in m.text() for m in r.followups))


async def test_an_undo_names_the_command_as_it_was_typed(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """The README's GM typed `/gm add-npc template:Thug count:3`, then `/gm undo`, and read
    "The GM undoes add_npcs — Undid **add\\_npcs**" (a one-off NPC: "add_npc"; `/gm hp`:
    "hp"; an `/act action:attack`: "act"; the turn ping's End turn button: "endturn") — the
    log's internal labels, which no command or button is called. An undo and a redo now name
    the slash command typed, with `/act`'s action, or the button pressed."""
    h = discord_harness
    gm, player = table.gm, table.player
    await ok(await slash(h, gm, "encounter start", name="Ambush at the ford"))
    await answered(await slash(h, player, "character import", example="willow"))
    await ok(await slash(h, player, "encounter join", character="Willow"))
    await answered(await slash(h, table.moderator, "npc import", example="thug"))
    await ok(await slash(h, gm, "gm add-npc", template="Thug", count=3))
    undone = (await ok(await slash(h, gm, "gm undo"))).message.text()
    assert undone.startswith("The GM undoes /gm add-npc\nUndid **/gm add-npc** by <@"), undone
    assert "add_npc" not in undone and "add\\_npc" not in undone, undone
    redone = (await ok(await slash(h, gm, "gm redo"))).message.text()
    assert redone.startswith("The GM redoes /gm add-npc\nRedid **/gm add-npc** by <@"), redone
    await ok(await slash(h, gm, "gm add-npc", name="Brute", health=50, stamina=60))
    assert "Undid **/gm add-npc**" in (await ok(await slash(h, gm, "gm undo"))).message.text()

    await ok(await slash(h, gm, "encounter begin"))
    await pass_turns_until(bot, h, table, "Willow")
    await ok(await slash(h, gm, "gm hp", combatant="Willow", health="-3"))
    assert "Undid **/gm hp**" in (await ok(await slash(h, gm, "gm undo"))).message.text()
    await ok(await slash(h, player, "act", action="talk", detail="Back off!"))
    assert "Undid **/act action:talk**" in (await ok(await slash(h, gm, "gm undo"))).message.text()
    [ping] = [m for m in h.messages_in(h.channel) if "**Willow**'s turn" in m.text()][-1:]
    await press(h, player, ping, "End turn")
    undone = (await ok(await slash(h, gm, "gm undo"))).message.text()
    assert "Undid **the turn's End turn button** by <@" in undone, undone


async def test_every_command_an_undo_names_is_one_the_bot_has(
    bot: CombatBot, discord_harness: DiscordHarness
) -> None:
    """What an undo calls a logged command (:mod:`bot.services.log_commands`) is a slash
    command the bot registers, typed as Discord shows it."""
    paths: set[str] = set()
    for command in discord_harness.registered_commands():
        subs = [o for o in command.get("options", []) if o.get("type") in (1, 2)]
        paths.add(f"/{command['name']}")
        for sub in subs:
            paths.add(f"/{command['name']} {sub['name']}")
            for leaf in sub.get("options", []):
                if leaf.get("type") == 1:
                    paths.add(f"/{command['name']} {sub['name']} {leaf['name']}")
    named = set(log_commands.TYPED.values())
    assert named - paths == set(), sorted(named - paths)


async def test_undoing_what_the_bot_did_says_the_bot_did_it(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table, clock: ManualClock
) -> None:
    """The README's slow fight (`/gm settings turn_deadline:12h`): Willow's deadline passed and
    the bot ended her turn; the GM gave it back with `/gm undo` and read "Undid **deadline**
    by <@0>" — a mention of nobody (Discord shows "@unknown-user") and the log's label. It
    now reads "Undid **a passed turn deadline** by the bot"."""
    bot, h, gm = clocked_bot, discord_harness, table.moderator
    await one_on_one(h, table, "uttas", name="Ambush")
    await ok(await slash(h, gm, "gm settings", turn_deadline="12h"))
    clock.advance(12 * 3600)
    assert len(await bot.fire_turn_deadlines()) == 1
    undone = (await ok(await slash(h, gm, "gm undo"))).message.text()
    assert "Undid **a passed turn deadline** by the bot (version" in undone, undone
    assert "<@0>" not in undone, undone
    # The GM's log file says the same (its JSON keeps the log's own labels and ids).
    record = await slash(h, gm, "gm log")
    await record.response()
    files = sorted(a["filename"] for a in record.message.payload["attachments"])
    markdown = record.message.attachment(files[1]).text()
    assert ": a passed turn deadline — *undone by version" in markdown, markdown
    assert "by the bot" in markdown and "<@0>" not in markdown, markdown
    assert ": /gm settings" in markdown, markdown


def _readme_buttons(system: str) -> list[str]:
    """The reaction buttons the README's command table names for ``system``."""
    row = next(line for line in README.splitlines() if line.startswith("| reaction buttons"))
    listed = row[row.index(f"({system}: ") + len(system) + 3 :]
    listed = listed[: listed.index(";")]
    names = listed.replace(" and for an ally ", ", ").split(" — ")[0]
    return [n.strip() for n in names.split(",") if n.strip() and n.strip() != "stance changes"]


async def test_the_readmes_reaction_buttons_are_the_ones_the_bot_shows(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """The README promised UTTAS "an Intercept button for allies"; when Thug 1 attacked
    Willow, Bear's player looked for it and found "Take the hit for Willow (1 action)" — no
    command, button or rules text says Intercept (the rules call it "Take one for the team").
    Every button the README names is now one the attack's prompt shows (Counter needs a
    martial art: Willow has none)."""
    h = discord_harness
    await set_up_fight(h, table, thugs=1, begin=False)
    await ok(await slash(h, table.moderator, "gm place engage", a="Willow", b="Thug 1"))
    await ok(await slash(h, table.moderator, "encounter begin"))
    prompt = await thug_attacks_willow(bot, h, table)
    labels = [c.get("label", "") for c in prompt.all_components()]
    named = _readme_buttons("UTTAS")
    assert "Take the hit for Willow" in named, named
    for name in named:
        if name != "Counter":
            assert any(label.startswith(name) for label in labels), (name, labels)


async def test_the_readme_says_which_turn_pings_have_no_attack_button(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """The README's "Act from the ping" promised every turn's message End turn, the breather
    and **Attack…**; in the README's Uune conflict Mira Quell's ping had End turn alone, and
    her player looked for the button the README named. A Uune PC's Attack names the resources
    it uses, so it has no such button — the README and `/help` now say so, and how to attack
    instead; the Dock Thug's ping has it."""
    h = discord_harness
    block = README[README.index("**Act from the ping.**") :]
    block = " ".join(block[: block.index("\n\n")].split())
    assert "A Uune PC's ping has no **Attack…**" in block, block
    assert "`/act action:attack detail:`" in block, block
    guide = await slash(h, table.player, "help")
    await guide.response()
    text = " ".join(
        "\n".join(e.get("description") or "" for e in guide.response_data["embeds"]).split()
    )
    assert "a Uune PC's Attack names its resources" in text, text
    await one_on_one(h, table, "uune", name="Dock nine")
    [ping] = [m for m in h.messages_in(h.channel) if "**Mira Quell**'s turn" in m.text()][-1:]
    assert [c.get("label") for c in ping.all_components() if c.get("type") == 2] == ["End turn"]
    await ok(await slash(h, table.moderator, "endturn"))
    [ping] = [m for m in h.messages_in(h.channel) if "**Dock Thug 1**'s turn" in m.text()][-1:]
    assert "Attack…" in [c.get("label") for c in ping.all_components() if c.get("type") == 2]


async def test_the_gm_guide_holds_in_every_game_system(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """`/help topic:gm` told a new Untitled and Uune GM that at `/encounter begin` "initiative
    is rolled" (Untitled keeps the join order, Uune puts the PCs first: nothing is rolled),
    to run an NPC with `/attack` (refused in those systems by name) and that `/gm resolve`
    settles "a waiting attack, no reaction" (in Uune it settles an approval or a roll). The
    guide now says what each system does; the commands it names for NPCs are accepted."""
    h = discord_harness
    guide = await slash(h, table.moderator, "help", topic="gm")
    await guide.response()
    text = " ".join(
        "\n".join(e.get("description") or "" for e in guide.response_data["embeds"]).split()
    )
    assert "initiative is rolled and" not in text, text
    assert "Untitled keeps the join order" in text and "Uune puts the PCs first" in text, text
    assert "in Uune `/act action:npc-attack`" in text, text
    assert "a Uune roll as it stands" in text, text
    await one_on_one(h, table, "uune", name="Dock nine")
    await pass_turns_until(bot, h, table, "Dock Thug 1")
    await ok(
        await slash(
            h, table.moderator, "act", action="npc-attack", target="Mira Quell", detail="Cudgel"
        )
    )


async def test_a_started_encounter_names_the_gms_next_commands(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """`/encounter start` answered "Players join with `/encounter join`; the GM adds NPCs and
    begins the fight." — the new GM was told what to do next but not with which commands (the
    README lists them; the reply did not). It now names `/gm add-npc` and `/encounter
    begin`."""
    h = discord_harness
    text = (
        await ok(await slash(h, table.gm, "encounter start", name="Ambush at the ford"))
    ).message.text()
    assert "the GM adds NPCs with `/gm add-npc`" in text, text
    assert "begins the fight with `/encounter begin`" in text, text


async def test_joining_a_running_fight_says_where_in_the_order(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Bear's player brought General Bearington into the README's fight after it began, and
    the GM added a fourth Thug: the replies said "brings **General Bearington** into the
    fight." and "Added **Thug 2**." with a list in joining order — nothing said when they
    act, while a one-off NPC's reply did ("Brute takes place 5 in the initiative order.").
    Every way in now says where the newcomer stands; before the fight begins, nothing (the
    order is set at `/encounter begin`)."""
    h = discord_harness
    gm, player, bear = table.gm, table.player, table.other_player
    await ok(await slash(h, gm, "encounter start", name="Ambush at the ford"))
    await answered(await slash(h, player, "character import", example="willow"))
    await answered(await slash(h, bear, "character import", example="general-bearington"))
    text = (await ok(await slash(h, player, "encounter join", character="Willow"))).message.text()
    assert "initiative order" not in text, text
    await answered(await slash(h, table.moderator, "npc import", example="thug"))
    await ok(await slash(h, gm, "gm add-npc", template="Thug"))
    await ok(await slash(h, gm, "encounter begin"))
    text = (
        await ok(await slash(h, bear, "encounter join", character="General Bearington"))
    ).message.text()
    live = await bot.services.encounters.live(h.channel.id)
    place = [c.name for c in map(live.state.get, live.state.order)].index("General Bearington")
    assert f"\nGeneral Bearington takes place {place + 1} in the initiative order." in text, text
    text = (await ok(await slash(h, gm, "gm add-npc", template="Thug"))).message.text()
    assert text.startswith("Added **Thug 2**.\nThug 2 takes place 4 in the initiative order."), text
    text = (
        await ok(await slash(h, gm, "gm add-npc", name="Brute", health=50, stamina=60))
    ).message.text()
    assert "Brute takes place 5 in the initiative order." in text, text


async def _form_title(h: DiscordHarness, member: Member, command: str, **options: Any) -> str:
    """The title of the creation form ``command`` opens."""
    record = await slash(h, member, command, **options)
    await record.response()
    assert record.response_type == 9, record.response_data  # a modal
    title: str = record.response_data["title"]
    return title


async def test_creating_a_character_in_a_fights_channel_makes_one_of_its_system(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """In the README's Untitled mill, a new player with no sheet typed `/encounter join
    character:Wren` and was told to "make one with `/character create`"; the form that opened
    was UTTAS's (the command's default), the sheet it made was refused at the join ("**Wren**
    is a UTTAS sheet; this encounter uses Untitled.") and nothing said how to get on. Left out,
    `ruleset:` is now the channel's fight's system (else UTTAS), as `/tables` reads it; the
    join's refusal says how to bring in a sheet of the encounter's system."""
    h = discord_harness
    player = table.player
    assert await _form_title(h, player, "character create") == "New UTTAS character"
    await ok(await slash(h, table.gm, "encounter start", name="The mill", ruleset="untitled"))
    text = await refused(await slash(h, player, "encounter join", character="Wren"))
    assert "make one with `/character create`" in text, text
    assert await _form_title(h, player, "character create") == "New Untitled character"
    assert await _form_title(h, table.moderator, "npc create") == "New Untitled NPC template"
    chosen = await _form_title(h, player, "character create", ruleset="uune")
    assert chosen == "New Uune character", chosen
    await answered(await slash(h, player, "character import", example="willow"))
    text = await refused(await slash(h, player, "encounter join", character="Willow"))
    assert text.startswith("**Willow** is a UTTAS sheet; this encounter uses Untitled: "), text
    assert "`/character import example:wren` or `/character create`" in text, text


@pytest.mark.parametrize(
    ("system", "fight"),
    [("uttas", "fight"), ("utopia", "fight"), ("untitled", "fight"), ("uune", "conflict")],
)
async def test_beginning_alone_says_how_to_bring_in_more(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table, system: str, fight: str
) -> None:
    """A new GM whose one player had joined typed `/encounter begin` and read "A fight needs at
    least two combatants." — not how to get a second. Every system's refusal now names
    `/encounter join` and `/gm add-npc` (the four copies of the check are one, in the core)."""
    h = discord_harness
    await ok(await slash(h, table.gm, "encounter start", name="Alone", ruleset=system))
    pc, example, _ = ONE_ON_ONE[system]
    await answered(await slash(h, table.player, "character import", example=example))
    await ok(await slash(h, table.player, "encounter join", character=pc))
    text = await refused(await slash(h, table.gm, "encounter begin"))
    assert text == (
        f"A {fight} needs at least two combatants: players bring theirs in with "
        "`/encounter join`, and the GM adds NPCs with `/gm add-npc`."
    ), text


@pytest.mark.parametrize(
    ("system", "why"),
    [
        ("utopia", "Utopia always rolls its order (everyone's Speed test, highest first)"),
        ("untitled", "Untitled rolls no initiative (the Storyteller sets the order"),
        ("uune", "Uune rolls no initiative (the PCs act first"),
    ],
)
async def test_an_initiative_setting_where_none_applies_says_so(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table, system: str, why: str
) -> None:
    """The README lists `/gm settings [initiative] …`; a Utopia GM chose `initiative:Roll
    Agility dice` and was told "Name at least one setting to change (Utopia always rolls its
    order)." — they had named one. The refusal now says that the option is UTTAS's and why
    it does not apply in the encounter's system."""
    h = discord_harness
    await ok(await slash(h, table.gm, "encounter start", name="Orders", ruleset=system))
    text = await refused(await slash(h, table.gm, "gm settings", initiative="roll"))
    assert text.startswith(why), text
    assert "`initiative:` is UTTAS's" in text and "Name at least one" not in text, text


@pytest.mark.parametrize(
    ("system", "said", "example"),
    [
        (
            "utopia",
            "Utopia has no Health for `/gm hp` (its vitals: SHP, DHP, Stamina, TA, IA",
            "`/gm vital combatant:Vesna vital:shp amount:-3`",
        ),
        (
            "uune",
            "Uune has no Health for `/gm hp` (its vitals: Vitality, Focus",
            "`/gm vital combatant:Mira Quell vital:vitality amount:-3`",
        ),
    ],
)
async def test_gm_hp_where_there_is_no_health_names_gm_vital(
    bot: CombatBot,
    discord_harness: DiscordHarness,
    table: Table,
    system: str,
    said: str,
    example: str,
) -> None:
    """The README's first fight corrects Health with `/gm hp`; a Utopia GM typed `/gm hp
    combatant:Vesna health:-3` and read "Utopia has no vital called 'health': shp, dhp,
    stamina, ta or ia." — not that `/gm vital` is the command that sets those. The refusal
    now names it, with an example for the combatant, which works as written."""
    h = discord_harness
    pc = await one_on_one(h, table, system, name="Hurt")
    text = await refused(await slash(h, table.moderator, "gm hp", combatant=pc, health="-3"))
    assert text.startswith(said) and example in text, text
    found = re.search(r"`/gm vital combatant:(.+?) vital:(\S+) amount:(\S+)`", text)
    assert found, text
    combatant, vital, amount = found.groups()
    await ok(
        await slash(h, table.moderator, "gm vital", combatant=combatant, vital=vital, amount=amount)
    )


async def test_a_typed_reaction_is_named_in_the_systems_words(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """The README's reaction row says `/dodge` and `/block` do what the buttons do. In Utopia
    Vesna's `/dodge` was titled "Vesna evades" (UTTAS's Evade; Utopia's is Dodge); in Untitled
    Brask's `/block` "Brask blocks" (he raised his shield); in Uune Mira's `/dodge` against the
    Dock Thug's Cudgel read "Name the difficulty, or resources to approve or refuse." — an
    approval's words, to a player who has no Dodge at all. A typed reaction is now titled as
    its button names it, and Uune's refusal says how a Defend is made."""
    h = discord_harness
    gm, vesna, brask = table.moderator, table.player, table.other_player
    await set_up_cast(
        h,
        table,
        "utopia",
        name="Pass",
        pcs={"Vesna": "vesna"},
        npc=("stone-hound", "Stone hound"),
        begin=False,
    )
    await ok(await slash(h, gm, "gm place engage", a="Vesna", b="Stone hound 1"))
    await ok(await slash(h, gm, "encounter begin"))
    await pass_turns_until(bot, h, table, "Stone hound 1")
    bite = {"detail": "Crushing bite"}
    await ok(await slash(h, gm, "act", action="attack", target="Vesna", **bite))  # in reach
    dodged = (await ok(await slash(h, vesna, "dodge"))).message
    assert dodged.embeds[0]["title"] == "Vesna reacts: Dodge", dodged.embeds[0]
    await _close(h, table)

    await untitled_mill(h, table)
    await pass_turns_until(bot, h, table, "Hill giant 1")
    await ok(await slash(h, gm, "act", action="attack", target="Brask"))
    raised = (await ok(await slash(h, brask, "block"))).message
    assert raised.embeds[0]["title"] == "Brask reacts: Raise the Oak heater shield", raised.embeds
    await _close(h, table)

    await one_on_one(h, table, "uune", name="Dock nine")
    await pass_turns_until(bot, h, table, "Dock Thug 1")
    await ok(await slash(h, gm, "act", action="npc-attack", target="Mira Quell", detail="Cudgel"))
    text = await refused(await slash(h, vesna, "dodge"))
    assert text.startswith("Uune has no Dodge: an NPC's attack is answered with a Defend roll."), (
        text
    )
    assert "`/act action:propose detail:`" in text and "**Roll now**" in text, text


async def test_the_gms_button_for_a_hidden_npc_names_what_it_chooses(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """The README's Reed Ford with `npcs_react:True`: Vesna's Knife hit the Bandit archer and
    the prompt's button read "GM: choose Bandit archer 1's reaction" — Utopia's is a defense
    (the prompt's own sentence said "the GM chooses **Bandit archer 1**'s defense"); in Uune
    the same button stood for an NPC forcing a reroll. The button, the GM's private list and
    the refusal to a player now say what is chosen, in the system's words."""
    h = discord_harness
    gm, player = table.moderator, table.player
    await reed_ford_npcs_react(bot, h, table)
    hit = await ok(
        await slash(h, player, "act", action="attack", target="Bandit archer 1", detail="Knife")
    )
    prompt = hit.message
    assert "the GM chooses **Bandit archer 1**'s defense" in prompt.text(), prompt.text()
    chooser = button(prompt, "GM: choose Bandit archer 1's defense")["custom_id"]
    text = await refused(await h.click(player, prompt, chooser))
    assert text == "Only the GM chooses **Bandit archer 1**'s defense.", text
    opened = await h.click(gm, prompt, chooser)
    await opened.response()
    assert opened.ephemeral, opened.response_data
    assert opened.message.text().startswith("Choose **Bandit archer 1**'s defense (only you")


async def test_undo_in_a_new_encounter_does_not_claim_everything_was_undone(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """A new GM started an encounter, paused it to try the command and typed `/gm undo`: "There
    is nothing to undo: every command since the encounter started is undone." — nothing had
    been undone. The refusal now says both cases, and what undo never takes back."""
    h = discord_harness
    await ok(await slash(h, table.gm, "encounter start", name="Ambush at the ford"))
    await ok(await slash(h, table.gm, "gm pause"))
    text = await refused(await slash(h, table.gm, "gm undo"))
    assert text.startswith("There is nothing to undo: no command has changed the encounter"), text
    assert "every command since the encounter started is undone" not in text, text


async def test_the_settings_name_the_initiative_as_its_option_does(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """`/gm settings` listed UTTAS's initiative as "initiative: agility" and, once the GM chose
    "Roll Agility dice", "initiative: roll" — the stored values, not the option's choices the
    GM picked from. The list now names them as the option does."""
    h = discord_harness
    await ok(await slash(h, table.gm, "encounter start", name="Ambush at the ford"))
    text = await refused(await slash(h, table.gm, "gm settings"))
    assert "- initiative: By Agility (ties rolled)\n" in text, text
    await ok(await slash(h, table.gm, "gm settings", initiative="roll"))
    text = await refused(await slash(h, table.gm, "gm settings"))
    assert "- initiative: Roll Agility dice\n" in text, text


async def test_an_undone_reaction_is_named_by_how_it_was_given(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Undoing Willow's Evade read "Undid **react**" whether she pressed the button or typed
    `/dodge` (and a GM's Uune approval was a "react" too). It now names the button or the
    command — the button as it read, costs and all ("Evade (1 action)", not the option's
    bare "Evade")."""
    h = discord_harness
    await set_up_fight(h, table, thugs=1)
    prompt = await thug_attacks_willow(bot, h, table)
    labels = [c["label"] for row in h.message(prompt).components for c in row["components"]]
    [shown] = [label for label in labels if label.startswith("Evade")]
    assert shown == "Evade (1 action)", labels  # the button shows its cost
    await press(h, table.player, prompt, "Evade")
    undone = (await ok(await slash(h, table.moderator, "gm undo"))).message.text()
    # named as the button read (it once read "the “Evade” button": the option's bare label)
    assert f"Undid **the “{shown}” button** by <@" in undone, undone
    await ok(await slash(h, table.player, "dodge"))
    undone = (await ok(await slash(h, table.moderator, "gm undo"))).message.text()
    assert "Undid **/dodge** by <@" in undone, undone
