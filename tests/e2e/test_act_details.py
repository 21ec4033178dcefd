"""``/act``'s ``detail:`` suggests what the chosen action takes, from the acting combatant's
sheet and state, in every system (the weapons in hand or put away, stances, skills, spells,
armor worn or not, a PC's resources — also after "what you attempt:" —, an NPC's attacks, a
Uune PC's bonds); the member's own words (what a character says) get none. Each test then
plays a suggestion through ``/act`` to show it is a value the action takes."""

from __future__ import annotations

from typing import Any

from bot.client import CombatBot
from tests.e2e.combat_helpers import (
    current_name,
    hound_pass,
    ok,
    pass_turns_until,
    refused,
    set_up_cast,
    set_up_fight,
    slash,
)
from tests.e2e.conftest import Table
from tests.harness.models import Member
from tests.harness.server import DiscordHarness


async def details(
    h: DiscordHarness, member: Member, action: str | None, typed: str, **options: Any
) -> list[str]:
    """The values ``detail:`` suggests with ``action:`` chosen (None: not chosen yet)."""
    if action is not None:
        options["action"] = action
    listed = await h.autocomplete(
        member, h.channel, "act", focused="detail", value=typed, **options
    )
    return [c["value"] for c in listed]


async def test_uttas_details_come_from_the_sheet_and_the_hands(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, player = discord_harness, table.player
    await set_up_fight(h, table)
    await pass_turns_until(bot, h, table, "Willow")
    assert await details(h, player, None, "") == []
    # the stances she knows but is not in (she starts in Neutral: entering it is refused)
    assert set(await details(h, player, "stance", "")) == {"Steady", "Mobile"}
    assert await details(h, player, "Enter a Stance", "mob") == ["Mobile"]  # the label works too
    assert await details(h, player, "skill", "tr") == ["Tracking"]
    # the modes she has a speed in (no fly: moving by air is refused)
    assert await details(h, player, "move", "") == ["run", "leap", "swim", "warp"]
    assert await details(h, player, "stow", "") == ["Club"]  # what she holds
    assert await details(h, player, "draw", "") == []  # nothing put away
    assert await details(h, player, "talk", "") == []  # her own words
    chosen = (await details(h, player, "stance", "stead"))[0]
    done = await ok(await slash(h, player, "act", action="stance", detail=chosen))
    assert "Steady" in done.message.text()


async def test_utopia_details_list_weapons_armor_and_circumstances(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, player = discord_harness, table.player
    await hound_pass(h, table)
    await pass_turns_until(bot, h, table, "Vesna")
    assert await details(h, player, "attack", "") == ["Longbow", "Knife"]
    # a multi-weapon attack: the weapons named so far are kept and not offered again
    assert await details(h, player, "attack", "Longbow, k") == ["Longbow, Knife"]
    assert await details(h, player, "attack", "Longbow,") == ["Longbow, Knife"]
    assert await details(h, player, "stealth", "sus") == ["suspicious"]
    assert await details(h, player, "travel", "") == ["land", "water", "air"]
    assert await details(h, player, "unsheath", "") == []  # both weapons start drawn
    assert await details(h, player, "sheath", "kn") == ["Knife"]
    await ok(await slash(h, player, "act", action="sheath", detail="Knife"))
    assert await details(h, player, "unsheath", "") == ["Knife"]
    assert await details(h, player, "sheath", "") == ["Longbow"]


async def test_untitled_details_follow_the_weapons_in_hand(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, player = discord_harness, table.player
    pcs = {"Brask": "brask"}
    await set_up_cast(h, table, "untitled", name="Hill", pcs=pcs, npc=("hill-giant", "Hill giant"))
    await pass_turns_until(bot, h, table, "Brask")
    assert await details(h, player, "attack", "") == ["Arming sword"]
    assert await details(h, player, "draw", "") == []
    assert await details(h, player, "stow", "arm") == ["Arming sword"]
    await ok(await slash(h, player, "act", action="stow", detail="Arming sword"))
    assert await details(h, player, "draw", "") == ["Arming sword"]
    assert await details(h, player, "attack", "") == []
    assert await details(h, player, "standard", "") == []  # "what you do": her own words


async def test_uune_details_offer_resources_attacks_and_bonds(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, player, gm = discord_harness, table.player, table.moderator
    await set_up_cast(
        h, table, "uune", name="Docks", pcs={"Mira Quell": "mira"}, npc=("dock-thug", "Dock Thug")
    )
    await pass_turns_until(bot, h, table, "Mira Quell")
    assert await details(h, player, "propose", "lock") == ["Lockpicks"]
    assert await details(h, player, "propose", "Lockpicks, dark") == ["Lockpicks, Dark cloak"]
    # "what you attempt: resources": the words before the colon are kept as typed
    assert await details(h, player, "action", "climb: lock") == ["climb: Lockpicks"]
    assert "climb the wall: Quickblade" in await details(h, player, "action", "climb the wall")
    assert await details(h, player, "action", "") == []
    assert await details(h, player, "stealth", "fe") == ["few", "few keep"]
    assert await details(h, player, "downtime", "sparse: str") == ["sparse: Street fencing"]
    assert await details(h, player, "luck", "the rope holds") == [
        "advantage: the rope holds",
        "disadvantage: the rope holds",
        "both: the rope holds",
    ]
    bonds = await h.autocomplete(
        player, h.channel, "act", focused="detail", value="wager", action="bond"
    )
    assert [(c["value"], c["name"][:3]) for c in bonds] == [("2", "2. ")]
    assert "wager" in bonds[0]["name"]
    assert await details(h, gm, "npc-attack", "", **{"as": "Dock Thug 1"}) == [
        "Cudgel",
        "Thrown bottle",
    ]
    chosen = (await details(h, player, "action", "climb: lock"))[0]
    await ok(await slash(h, player, "act", action="action", detail=chosen))


async def test_utopia_a_natural_weapon_is_not_sheathed_nor_offered(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """The Stone hound's bite and stomp are held in no hands: part of the hound. The GM is
    refused sheathing one (ephemeral; nothing spent), and ``detail:`` offers neither."""
    h, gm = discord_harness, table.moderator
    await hound_pass(h, table)
    hound = await current_name(bot, h)
    assert hound.startswith("Stone hound"), hound
    before = (await bot.services.encounters.live(h.channel.id)).version
    assert await details(h, gm, "sheath", "", **{"as": hound}) == []
    said = await refused(
        await slash(h, gm, "act", action="sheath", detail="Crushing bite", **{"as": hound})
    )
    assert "Crushing bite is part of them" in said, said
    assert (await bot.services.encounters.live(h.channel.id)).version == before
