"""``/odds`` asked where no attack could follow (fix23), in each game system through Discord:
after ``/gm end-fight``, against the asker's own combatant, against an NPC already out of the
fight; ``range:`` where the system gives distance no meaning; and a member with two
combatants who names neither."""

from __future__ import annotations

import pytest

from bot.client import CombatBot
from tests.e2e.combat_helpers import (
    ONE_ON_ONE,
    ok,
    one_on_one,
    pass_turns_until,
    refused,
    set_up_cast,
    set_up_fight,
    slash,
)
from tests.e2e.conftest import Table
from tests.e2e.registered import filled, slash_commands
from tests.harness.server import DiscordHarness

SYSTEMS = sorted(ONE_ON_ONE)


async def weapon_of(bot: CombatBot, h: DiscordHarness, name: str) -> str:
    """The first attack ``/odds with:`` offers ``name``."""
    live = await bot.services.encounters.live(h.channel.id)
    return live.rules.odds_attack_names(live.state.find(name))[0]


@pytest.mark.parametrize("system", SYSTEMS)
async def test_odds_after_the_gm_ended_the_fight_say_it_is_over(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table, system: str
) -> None:
    """After ``/gm end-fight`` nobody attacks any more (every turn command says "The fight is
    over"), yet ``/odds`` still computed a chance to hit."""
    h, gm, player = discord_harness, table.moderator, table.player
    pc = await one_on_one(h, table, system, name="Ended")
    npc = f"{ONE_ON_ONE[system][2][1]} 1"
    await ok(await slash(h, gm, "gm settings", show_odds=True))
    weapon = await weapon_of(bot, h, pc)
    await ok(await slash(h, gm, "gm end-fight"))
    over = await refused(await slash(h, player, "odds", target=npc, with_=weapon))
    assert over.startswith("The fight is over") and "%" not in over, over
    gm_too = await refused(await slash(h, gm, "odds", target=npc, with_=weapon, as_=pc))
    assert gm_too.startswith("The fight is over"), gm_too


@pytest.mark.parametrize("system", SYSTEMS)
async def test_odds_against_ones_own_combatant_are_refused(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table, system: str
) -> None:
    """``/odds target:`` the asker's own combatant computed a chance to hit (Uune: "Attack is
    against an NPC"); every system's attack refuses it as an attack on oneself."""
    h, player = discord_harness, table.player
    pc = await one_on_one(h, table, system, name="Mirror")
    weapon = await weapon_of(bot, h, pc)
    own = await refused(await slash(h, player, "odds", target=pc, with_=weapon))
    assert own.startswith(f"{pc} cannot attack themselves"), own
    assert "%" not in own


OUT = {
    "uttas": ("Dead", "is already dead"),
    "utopia": ("Down", "is already out of the fight"),
    "untitled": ("Down", "is already Down"),
    "uune": ("Incapacitated", "is already out of the conflict"),
}
"""The condition that takes an NPC out of each system's fight, and the words ``/attack`` uses
to refuse an attack on it."""


@pytest.mark.parametrize("system", SYSTEMS)
async def test_odds_against_an_npc_out_of_the_fight_are_refused_as_the_attack_is(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table, system: str
) -> None:
    """The first of two NPCs is out of the fight: ``/odds`` against it computed a chance to hit
    as if it could still defend, where ``/attack`` refuses the attack."""
    h, gm, player = discord_harness, table.moderator, table.player
    pc, example, (npc_example, template) = ONE_ON_ONE[system]
    cast = {pc: example}
    await set_up_cast(h, table, system, name="Down", pcs=cast, npc=(npc_example, template), count=2)
    await ok(await slash(h, gm, "gm settings", show_odds=True))
    condition, words = OUT[system]
    npc = f"{template} 1"
    if system == "uune":  # "Incapacitated follows vitality"
        out = {"combatant": npc, "vital": "vitality", "amount": "0"}
        await ok(await slash(h, gm, "gm vital", **out))
    else:
        await ok(await slash(h, gm, "gm condition", combatant=npc, action="add", name=condition))
    weapon = await weapon_of(bot, h, pc)
    down = await refused(await slash(h, player, "odds", target=npc, with_=weapon))
    assert down == f"{npc} {words}.", down
    # The other one is still up: its odds are given (Vesna's Longbow needs the distance).
    distance = {"range": 10.0} if system == "utopia" else {}
    second = f"{template} 2"
    up = await refused(await slash(h, player, "odds", target=second, with_=weapon, **distance))
    assert ("% damage gets through" if system == "utopia" else "% to hit") in up, up


async def test_uttas_odds_against_an_unconscious_thug_show_no_reaction_only(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """UTTAS "Unconscious": the creature "cannot take any actions", yet further damage counts
    ("negative Stamina"), and ``/attack`` goes ahead with no reaction asked of it. ``/odds``
    showed Evade, Block and Move lines as if it could still react."""
    h, gm, player = discord_harness, table.moderator, table.player
    await set_up_fight(h, table, thugs=2)
    await ok(await slash(h, gm, "gm settings", show_odds=True))
    await ok(
        await slash(h, gm, "gm condition", combatant="Thug 1", action="add", name="Unconscious")
    )
    seen = await refused(
        await slash(h, player, "odds", target="Thug 1", with_="Claws", as_="General Bearington")
    )
    lines = seen.splitlines()
    assert lines[0].startswith("General Bearington's Claws against Thug 1"), seen
    assert "Thug 1 is Unconscious: they cannot react" in seen, seen
    assert [line.split(":")[0] for line in lines if "% to hit" in line] == ["no reaction"], seen


async def test_uune_odds_refuse_a_range_by_name(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Uune's rules set no distances: ``/odds range:`` was ignored without a word."""
    h, gm, player = discord_harness, table.moderator, table.player
    await one_on_one(h, table, "uune", name="Docks")
    await ok(await slash(h, gm, "gm settings", show_odds=True))
    ranged = await refused(
        await slash(h, player, "odds", target="Dock Thug 1", with_="Attack", range=30.0)
    )
    assert ranged.startswith("Uune has no distances or range bands"), ranged
    assert "`range:`" in ranged and "%" not in ranged


async def test_untitled_odds_read_the_range_as_the_attack_does(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Untitled's rules give distance no bonus or penalty, but ``/attack range:`` refuses a
    target beyond the weapon's reach or range; ``/odds range:`` ignored the distance without a
    word (odds for a shot the attack refuses)."""
    h, gm, player = discord_harness, table.moderator, table.player
    await one_on_one(h, table, "untitled", name="Ford")
    await ok(await slash(h, gm, "gm settings", show_odds=True))
    far = await refused(
        await slash(h, player, "odds", target="Hill giant 1", with_="Longbow", range=5000.0)
    )
    assert far.startswith("Hill giant 1 is 5000 m away: Longbow reaches"), far
    near = await refused(
        await slash(h, player, "odds", target="Hill giant 1", with_="Longbow", range=10.0)
    )
    lines = near.splitlines()
    assert lines[0] == "Wren's Longbow against Hill giant 1 at 10 m", near
    assert "distance changes no odds in Untitled" in lines[1], near


async def test_a_member_with_two_combatants_is_told_to_name_one_for_their_odds(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """The player runs Willow and General Bearington; on a Thug's turn ``/odds`` without
    ``as:`` told them "To act off-turn, say which of your combatants acts" — asking odds is no
    act: it should name their combatants and ask which one with ``as:``."""
    h, player = discord_harness, table.player
    await set_up_fight(h, table, thugs=1)
    await pass_turns_until(bot, h, table, "Thug 1")
    which = await refused(await slash(h, player, "odds", target="Thug 1", with_="Claws"))
    assert "off-turn" not in which and "acts" not in which, which
    assert "**Willow**" in which and "**General Bearington**" in which and "`as:`" in which
    assert "whose odds" in which, which


async def test_every_command_with_as_names_the_members_combatants_when_none_is_named(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Guard for the class: every registered command with an ``as`` option, given by a player
    with two combatants on another's turn without ``as:``, names both combatants and asks for
    one with ``as:`` (read from the commands the bot registered, so a new one is swept)."""
    h, player = discord_harness, table.player
    await set_up_fight(h, table, thugs=1)
    await pass_turns_until(bot, h, table, "Thug 1")
    swept = []
    for command, options in slash_commands(h):
        if not any(o["name"] == "as" for o in options):
            continue
        values = filled(h, table, options)
        record = await h.slash(player, h.channel, command, values)
        said = await refused(record)
        swept.append(command)
        assert "**Willow**" in said and "**General Bearington**" in said, (command, said)
        assert "`as:`" in said, (command, said)
        assert ("off-turn" in said) == (command != "odds"), (command, said)
    assert "odds" in swept and "attack" in swept, swept


async def test_uttas_odds_against_a_hidden_thug_are_refused_as_the_attack_is(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """UTTAS ``/attack`` refuses a Hidden target ("find them first"); ``/odds`` computed a
    chance to hit it as if it could be seen."""
    h, gm, player = discord_harness, table.moderator, table.player
    await set_up_fight(h, table, thugs=2)
    await ok(await slash(h, gm, "gm settings", show_odds=True))
    await ok(await slash(h, gm, "gm condition", combatant="Thug 1", action="add", name="Hidden"))
    unseen = await refused(
        await slash(h, player, "odds", target="Thug 1", with_="Claws", as_="General Bearington")
    )
    assert unseen.startswith("Thug 1 is hidden: find them first"), unseen
