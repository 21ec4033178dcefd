"""QA of /act's ``detail:`` suggestions as players use them (qa15h).

* A weapon or resource whose name has a comma or a ``+`` in it (``Knife +1``, ``Bow, long``,
  ``Rope, 30 ft``) — sheets allow both — was split apart by the comma-separated lists: the
  suggestion ``Knife +1`` was refused ("no weapon called 'Knife'"), and completing ``Bow, lo``
  offered ``Bow, Bow, long``. Lists are now split knowing the names (``verbs.split_named``).
* An action typed by its label, as the action list shows it (``Sheath a weapon``), got
  ``detail:`` suggestions but ``/act`` refused it as an action the system does not have,
  while listing it among those it has (Utopia, Untitled, Uune; UTTAS took labels). The cog
  now takes a label as its key for every system (``verbs.spec_for``)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.client import CombatBot
from tests.e2e.combat_helpers import (
    answered,
    button,
    hound_pass,
    ok,
    pass_turns_until,
    press,
    refused,
    set_up_cast,
    set_up_fight,
    slash,
)
from tests.e2e.conftest import DiceBox, Table
from tests.e2e.uune_steps import Docks
from tests.harness.models import Member
from tests.harness.server import DiscordHarness


async def details(
    h: DiscordHarness, member: Member, action: str, typed: str, **options: Any
) -> list[str]:
    """The values ``detail:`` suggests with ``action:`` chosen."""
    listed = await h.autocomplete(
        member, h.channel, "act", focused="detail", value=typed, action=action, **options
    )
    return [c["value"] for c in listed]


async def _pass_with_odd_weapons(bot: CombatBot, h: DiscordHarness, table: Table) -> None:
    """Utopia at the Pass: Vesna's Longbow renamed ``Bow, long`` and Knife ``Knife +1``; her
    turn against the Stone hound."""
    gm, player = table.moderator, table.player
    await ok(await slash(h, gm, "encounter start", name="Pass", ruleset="utopia"))
    await answered(await slash(h, gm, "npc import", example="stone-hound"))
    await ok(await slash(h, gm, "gm add-npc", template="Stone hound"))
    await answered(await slash(h, player, "character import", example="vesna"))
    for old, new in (("Knife", "Knife +1"), ("Longbow", "Bow, long")):
        await answered(
            await slash(
                h, player, "character edit", name="Vesna", field=f"weapons.{old}.name", value=new
            )
        )
    await ok(await slash(h, player, "encounter join", character="Vesna"))
    await ok(await slash(h, gm, "encounter begin"))
    await pass_turns_until(bot, h, table, "Vesna")


async def test_utopia_weapons_named_with_a_comma_or_a_plus_are_one_weapon(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, player = discord_harness, table.player
    await _pass_with_odd_weapons(bot, h, table)
    assert await details(h, player, "attack", "") == ["Bow, long", "Knife +1"]
    assert await details(h, player, "attack", "Bow, lo") == ["Bow, long"]
    assert await details(h, player, "attack", "Bow, long, ") == ["Bow, long, Knife +1"]
    assert await details(h, player, "attack", "Bow, long, kn") == ["Bow, long, Knife +1"]
    chosen = (await details(h, player, "attack", "knife"))[0]
    done = await ok(
        await slash(h, player, "act", action="attack", detail=chosen, target="Stone hound 1")
    )
    assert "Knife +1" in done.message.text()


async def test_an_action_typed_by_its_label_is_taken(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, player = discord_harness, table.player
    await _pass_with_odd_weapons(bot, h, table)
    assert await details(h, player, "Sheath a weapon", "kn") == ["Knife +1"]
    done = await ok(await slash(h, player, "act", action="Sheath a weapon", detail="Knife +1"))
    assert "Knife +1" in done.message.text()
    assert await details(h, player, "unsheath", "") == ["Knife +1"]


async def test_uune_a_resource_named_with_a_comma_is_one_resource(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, player, gm = discord_harness, table.player, table.moderator
    await ok(await slash(h, gm, "encounter start", name="Docks", ruleset="uune"))
    await answered(await slash(h, player, "character import", example="mira"))
    await answered(
        await slash(
            h,
            player,
            "character edit",
            name="Mira Quell",
            field="items.Lockpicks.name",
            value="Rope, 30 ft",
        )
    )
    await answered(await slash(h, player, "encounter join", character="Mira Quell"))
    await answered(await slash(h, gm, "npc import", example="dock-thug"))
    await ok(await slash(h, gm, "gm add-npc", template="Dock Thug"))
    await ok(await slash(h, gm, "encounter begin"))
    await pass_turns_until(bot, h, table, "Mira Quell")
    assert await details(h, player, "action", "climb: rope") == ["climb: Rope, 30 ft"]
    assert await details(h, player, "action", "climb: Rope, 30 ft, dar") == [
        "climb: Rope, 30 ft, Dark cloak"
    ]
    chosen = (await details(h, player, "action", "climb: Rope, 30 ft, dar"))[0]
    await ok(await slash(h, player, "act", action="action", detail=chosen))
    prompt = next(m for m in h.messages_in(h.channel) if "approve or refuse" in m.text())
    assert button(prompt, "GM: approve Rope, 30 ft")["label"] == "GM: approve Rope, 30 ft"
    assert button(prompt, "GM: approve Dark cloak")
    await ok(await slash(h, gm, "gm settings", show_odds=True))
    shown = await answered(
        await slash(
            h, player, "odds", target="Dock Thug 1", with_="Attack", resources="Rope, 30 ft"
        )
    )
    assert "\nRope, 30 ft: " in shown.response_data["content"]  # one resource, not two
    await press(h, gm, prompt, "GM: approve Rope, 30 ft")
    waiting = (await bot.services.encounters.live(h.channel.id)).state.decisions
    assert [d.approved for d in waiting] == [("Rope, 30 ft",)]  # type: ignore[attr-defined]


async def test_uttas_suggests_only_what_act_takes_powers_draws_and_bindings(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Willow's Blast, Entangle and Fire Blast are attacks (``/attack``) and Warp moves her
    (``/move``): ``/act power`` refuses all four, so only Heal is suggested. The General's
    Claws take no hand ("always ready"): ``draw`` refuses them. Entangled, he is offered the
    binding to break out of, and taking it is accepted."""
    h, player, gm = discord_harness, table.player, table.moderator
    await set_up_fight(h, table)
    await pass_turns_until(bot, h, table, "Willow")
    assert await details(h, player, "power", "") == ["Heal"]
    for power in ("Blast", "Warp"):  # what was suggested before, and is refused
        await refused(await slash(h, player, "act", action="power", detail=power))
    await pass_turns_until(bot, h, table, "General Bearington")
    mine = {"as": "General Bearington"}
    assert await details(h, player, "draw", "", **mine) == []
    text = await refused(
        await slash(h, player, "act", action="draw", detail="Claws", as_="General Bearington")
    )
    assert "always ready" in text, text
    assert await details(h, player, "break-free", "", **mine) == []
    await ok(
        await slash(
            h, gm, "gm condition", combatant="General Bearington", action="add", name="Entangled"
        )
    )
    chosen = await details(h, player, "break-free", "", **mine)
    assert chosen == ["Entangled"]
    done = await ok(
        await slash(
            h, player, "act", action="break-free", detail=chosen[0], as_="General Bearington"
        )
    )
    assert "Entangled" in done.message.text()


async def test_untitled_a_fired_bow_is_offered_to_reload_not_to_attack(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Wren's Longbow, fired, is refused for an attack until reloaded ("not loaded: reload it
    first"), and put away it is refused for a reload ("draw it first"): the suggestions
    follow both."""
    h, player = discord_harness, table.player
    pcs = {"Wren": "wren"}
    await set_up_cast(h, table, "untitled", name="Hill", pcs=pcs, npc=("hill-giant", "Hill giant"))
    await pass_turns_until(bot, h, table, "Wren")
    assert await details(h, player, "draw", "") == ["Longbow"]  # it starts on her back
    await ok(await slash(h, player, "act", action="draw", detail="Longbow"))
    assert await details(h, player, "attack", "") == ["Longbow", "Hunting knife"]
    await ok(
        await slash(h, player, "act", action="attack", detail="Longbow", target="Hill giant 1")
    )
    assert await details(h, player, "attack", "") == ["Hunting knife"]
    text = await refused(
        await slash(h, player, "act", action="attack", detail="Longbow", target="Hill giant 1")
    )
    assert "not loaded" in text, text
    assert await details(h, player, "reload", "") == ["Longbow"]
    await ok(await slash(h, player, "endturn"))
    await pass_turns_until(bot, h, table, "Wren")
    await ok(await slash(h, player, "act", action="stow", detail="Longbow"))
    assert await details(h, player, "reload", "") == []
    text = await refused(await slash(h, player, "act", action="reload", detail="Longbow"))
    assert "put away" in text, text


@pytest.mark.parametrize(
    ("system", "pc", "npc", "said"),
    [
        ("uttas", "willow", "thug", "UTTAS has no action ``*b`d*``."),
        ("untitled", "wren", "hill-giant", "Untitled has no action '\\*b\\`d\\*'."),
        ("utopia", "vesna", "stone-hound", "Utopia has no action '\\*b\\`d\\*'."),
        ("uune", "mira", "dock-thug", "Uune has no action '\\*b\\`d\\*'."),
    ],
)
async def test_an_unknown_action_is_quoted_as_typed(
    bot: CombatBot,
    discord_harness: DiscordHarness,
    table: Table,
    system: str,
    pc: str,
    npc: str,
    said: str,
) -> None:
    """``/act action:*b`d*`` read "Untitled has no action 'b`d'" with the b in italics (and
    the backtick opened a code span in UTTAS's): the refusal quoted what was typed with
    ``!r``, which escapes nothing (``tests/test_refusal_repr.py`` guards the class)."""
    h, player, gm = discord_harness, table.player, table.moderator
    await ok(await slash(h, gm, "encounter start", name="Odd", ruleset=system))
    await answered(await slash(h, player, "character import", example=pc, name="Wren"))
    await ok(await slash(h, player, "encounter join", character="Wren"))
    await answered(await slash(h, gm, "npc import", example=npc, name="Brute"))
    await ok(await slash(h, gm, "gm add-npc", template="Brute"))
    await ok(await slash(h, gm, "encounter begin"))
    await pass_turns_until(bot, h, table, "Wren")
    text = await refused(await slash(h, player, "act", action="*b`d*"))
    assert text.startswith(said), text


async def test_tables_without_ruleset_name_the_fights_system_as_the_rules_do(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """In a Utopia fight's channel ``/tables set entry:speed_refill`` (UTTAS's entry, as the
    README shows it) is refused for Utopia's tables: the refusal said "The UTOPIA tables"
    (the key upper-cased; "UNTITLED", "UUNE" likewise), and ``/tables show`` added the
    missing part in Python's quotes, "`speed_refill` ('speed_refill')"."""
    h, gm = discord_harness, table.moderator
    await hound_pass(h, table)
    text = await refused(await slash(h, gm, "tables set", entry="speed_refill", value="turn_end"))
    assert text == (
        "The Utopia tables have no entry `speed_refill`. UTTAS's tables have it: add "
        "`ruleset:UTTAS`."
    ), text
    text = await refused(await slash(h, gm, "tables show", entry="speed_refill"))
    assert text.startswith("The Utopia tables have no entry `speed_refill`. UTTAS's"), text
    text = await refused(await slash(h, gm, "tables show", entry="actions.*none*"))
    assert text == ("The Utopia tables have no entry `actions.*none*` (no '\\*none\\*' there)."), (
        text
    )


async def test_uune_a_removed_helper_is_said_to_leave_once(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """Tobin and Wren help Mira's lock-picking; the GM approves Tobin's Herbalist, then
    removes Tobin. The channel read "Tobin Ash leaves the encounter and no longer helps Mira
    Quell's roll." and then "Tobin Ash leaves the encounter." again. It says he leaves once;
    Wren's help stays and is rolled (her resource only, rules version 3)."""
    h = discord_harness
    u = Docks(scripted_bot, h, table, dice)
    await u.cast()
    gm = table.moderator
    await u.run(gm, "encounter begin")
    await u.run(table.player, "act", action="action", detail="pick the lock: Lockpicks", amount=3)
    await u.run(table.other_player, "act", action="help", detail="Herbalist")
    await u.run(table.bystander, "act", action="help", detail="Lockpicks")
    await u.press(gm, "GM: approve Tobin Ash's Herbalist")
    said = (await u.run(gm, "gm remove", combatant="Tobin Ash")).message.text()
    assert said.count("leaves the encounter") == 1, said
    assert "Tobin Ash no longer helps Mira Quell's roll." in said, said
    rolled = (await u.press(gm, "GM: approve all", [5, 6, 5])).text()
    assert "Wren helps Mira Quell: Lockpicks 1d6 [5] = 1 hit." in rolled, rolled
    assert "2 hits + 1 from help vs 3 needed: success" in rolled, rolled
    assert "Tobin" not in rolled, rolled


async def test_uttas_stance_move_and_stand_suggest_what_the_state_allows(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Willow, in the Neutral stance and with no flying speed, was offered Neutral (refused:
    "already in the Neutral stance") and fly (refused: "cannot fly right now"); standing up
    was offered while she stood (refused: "is not Prone"). Each list follows the state."""
    h, player, gm = discord_harness, table.player, table.moderator
    await set_up_fight(h, table)
    await pass_turns_until(bot, h, table, "Willow")
    assert "Neutral" not in await details(h, player, "stance", "")
    text = await refused(await slash(h, player, "act", action="stance", detail="Neutral"))
    assert "already in the Neutral stance" in text, text
    assert "fly" not in await details(h, player, "move", "")
    text = await refused(await slash(h, player, "act", action="move", detail="fly", amount=2))
    assert "cannot fly" in text, text
    assert await details(h, player, "stand", "") == []
    await ok(await slash(h, gm, "gm condition", combatant="Willow", action="add", name="Prone"))
    assert await details(h, player, "stand", "") == ["move", "acrobatics"]
    await ok(await slash(h, player, "act", action="stand", detail="move"))


async def test_uune_a_resource_named_with_a_colon_is_refused_on_the_sheet(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """A Uune item renamed ``Kit: lockpicks`` was stored, then proposing it (``/act
    action:action detail:"pick the lock: Kit: lockpicks"``) was refused with "No combatant
    called 'Kit'": a roll keeps a helper's resource as ``<helper id>:<resource>``, so any
    resource with a colon read as some helper's. The sheet refuses the colon, saying why."""
    h, player = discord_harness, table.player
    await answered(await slash(h, player, "character import", example="mira"))
    text = await refused(
        await slash(
            h,
            player,
            "character edit",
            name="Mira Quell",
            field="items.Lockpicks.name",
            value="Kit: *lockpicks*",
        )
    )
    assert "name may not contain ':'" in text, text
    assert "'Kit: \\*lockpicks\\*'" in text, text
