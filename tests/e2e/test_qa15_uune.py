"""QA round 15 on Uune (conflicts and fights) and its GM moderation, played through Discord by
a GM and players and attacked: every ``/act`` action with boundary and absurd options, buttons
at the wrong moment, the GM's moderation commands, undo and redo. Each test is a defect found
and fixed: it states what a user should see. Every die is scripted."""

from __future__ import annotations

import json
from pathlib import Path

from bot.client import CombatBot
from tests.e2e.combat_helpers import (
    answered,
    button,
    game_state,
    ok,
    pass_turns_until,
    refused,
    set_up_cast,
    set_up_fight,
    slash,
    thug_attacks_willow,
)
from tests.e2e.conftest import DiceBox, Table
from tests.e2e.uune_steps import Docks, prompt_with
from tests.harness.server import DiscordHarness

SHEETS = Path(__file__).resolve().parents[2] / "data" / "sheets"


async def _waiting(bot: CombatBot, h: DiscordHarness) -> list[object]:
    return list((await bot.services.encounters.live(h.channel.id)).state.decisions)


# ---- a roller the GM knocks out while their roll waits -------------------------------------


async def test_a_roller_the_gm_incapacitates_while_the_gm_approves_is_called_off(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """Mira's Attack waited on the GM's approval when the GM set her vitality to 0 (a blow
    from the story): she was Incapacitated ("cannot take actions"), the "GM: approve all"
    button answered "That choice is no longer available for this approval.", and the fight
    waited on an approval nobody could give until its window ran out (hours, in a slow
    fight). Her roll is now called off at once, saying why, and the turn passes on."""
    h = discord_harness
    u = Docks(scripted_bot, h, table, dice)
    await u.cast(wren=False)
    await u.run(table.moderator, "encounter begin")
    await u.run(table.player, "act", action="attack", target="Dock Thug 1", detail="Street fencing")
    # The prompt's button, taken before the roll is called off (the bot then edits it away).
    prompt = await prompt_with(h, "GM: approve all")
    approve_all = button(prompt, "GM: approve all")["custom_id"]
    knocked = await u.run(
        table.moderator, "gm vital", combatant="Mira Quell", vital="vitality", amount="0"
    )
    said = knocked.message.text()
    assert "Mira Quell's roll for an attack on Dock Thug 1 is called off: Mira Quell is " in said
    assert "Round 1: Tobin Ash's turn" in said, said
    assert await _waiting(scripted_bot, h) == []
    # The old prompt's button says the roll is gone, and nothing rolls.
    text = await refused(await h.click(table.moderator, prompt, approve_all))
    assert "no longer" in text, text
    assert dice.empty


async def test_a_defender_the_gm_incapacitates_mid_defend_ends_the_npcs_turn(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """The thug's Cudgel asked Mira's Defend; the GM set her vitality to 0 before she rolled:
    the Defend waited on her with no button she could press and every turn command was
    refused "Waiting for Mira Quell's Defend first.". The Defend is called off and the
    thug's turn, whose action the attack was, ends."""
    h = discord_harness
    u = Docks(scripted_bot, h, table, dice)
    await u.thug_swings_at_mira()
    knocked = await u.run(
        table.moderator, "gm vital", combatant="Mira Quell", vital="vitality", amount="0"
    )
    said = knocked.message.text()
    assert "Mira Quell's roll for a Defend against Dock Thug 1's Cudgel is called off" in said
    assert "Round 1: River Witch 1's turn" in said, said
    assert await _waiting(scripted_bot, h) == []


async def test_a_roll_waiting_on_its_spends_stands_when_the_gm_incapacitates_the_roller(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """Mira's rolled Attack waited on "Keep the roll" when the GM set her vitality to 0: her
    buttons were gone ("cannot take actions") but the roll still waited on her. It now
    stands as rolled at once, as when she spends her own last vitality."""
    h = discord_harness
    u = Docks(scripted_bot, h, table, dice)
    await u.cast(wren=False)
    await u.run(table.moderator, "encounter begin")
    await u.run(table.player, "act", action="attack", target="Dock Thug 1", detail="Street fencing")
    await u.press(table.moderator, "GM: approve all", [5, 6])
    await prompt_with(h, "Keep the roll")
    knocked = await u.run(
        table.moderator, "gm vital", combatant="Mira Quell", vital="vitality", amount="0"
    )
    said = knocked.message.text()
    assert "Mira Quell's attack gives Dock Thug 1 a light wound." in said, said
    assert "Round 1: Tobin Ash's turn" in said, said
    assert await _waiting(scripted_bot, h) == []


async def test_untitled_an_attack_whose_defender_the_gm_puts_down_is_cancelled(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """The same hole in Untitled: the giant's club waited on Brask's shield choice when the
    GM set his Health to 0; Brask was Down, had no button left, and the fight waited ("Waiting
    for Brask's defense against Tree-trunk club first.") until the window ran out. The
    attack on a Down creature is cancelled, as one declared on him is refused."""
    h = discord_harness
    pcs = {"Wren": "wren", "Brask": "brask"}
    await set_up_cast(h, table, "untitled", name="Hill", pcs=pcs, npc=("hill-giant", "Hill giant"))
    await pass_turns_until(bot, h, table, "Hill giant 1")
    await ok(await slash(h, table.moderator, "act", action="attack", target="Brask"))
    down = await ok(
        await slash(h, table.moderator, "gm vital", combatant="Brask", vital="health", amount="0")
    )
    said = down.message.text()
    assert "Hill giant 1's attack with Tree-trunk club is cancelled: Brask is Down." in said, said
    assert await _waiting(bot, h) == []
    ended = await ok(await slash(h, table.moderator, "endturn"))
    assert "Round 2" in ended.message.text(), ended.message.text()


# ---- what the table reads -------------------------------------------------------------------


async def test_the_end_of_a_scene_counts_the_effects_that_end_in_good_english(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """``/gm time end-of period:scene`` with one scene-long effect said "The scene ends: 1
    effect end with it." (and the GM's undo quoted it so): one effect *ends*."""
    h = discord_harness
    u = Docks(scripted_bot, h, table, dice)
    await u.cast(wren=False, witch=False)
    gm = table.moderator
    await u.run(gm, "gm condition", combatant="Mira Quell", action="add", name="Impaired")
    ended = await u.run(gm, "gm time end-of", period="scene")
    assert "The scene ends: 1 effect ends with it." in ended.message.text()
    await u.run(gm, "gm condition", combatant="Mira Quell", action="add", name="Impaired")
    await u.run(gm, "gm condition", combatant="Tobin Ash", action="add", name="Stimulated")
    ended = await u.run(gm, "gm time end-of", period="scene")
    assert "The scene ends: 2 effects end with it." in ended.message.text()


# ---- the GM's moderation -------------------------------------------------------------------


async def test_the_gm_cannot_move_an_npc_ahead_of_the_pcs(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """ "Conflict": "each PC gets a turn … Once all the PCs have taken their turns, the
    facilitator will give the NPCs their turns." ``/gm order combatant:Dock Thug 1
    position:1`` put the thug first, ahead of the PCs, every round after — while each round
    still began "the PCs act, in any order, then the NPCs". The move is refused by name;
    the GM reorders within the NPCs, and the players choose among the PCs."""
    h = discord_harness
    u = Docks(scripted_bot, h, table, dice)
    await u.cast(wren=False)
    gm = table.moderator
    await u.run(gm, "encounter begin")
    before = game_state((await scripted_bot.services.encounters.live(h.channel.id)).state_json)
    text = await refused(await slash(h, gm, "gm order", combatant="Dock Thug 1", position=1))
    assert text == (
        "In Uune the PCs act first, then the NPCs (Conflict): Dock Thug 1 may take places 3 "
        "to 4. The players choose who goes next among the PCs (`/act action:next`)."
    ), text
    text = await refused(await slash(h, gm, "gm order", combatant="Mira Quell", position=4))
    assert "Mira Quell may take places 1 to 2" in text, text
    after = game_state((await scripted_bot.services.encounters.live(h.channel.id)).state_json)
    assert after == before
    moved = await u.run(gm, "gm order", combatant="River Witch 1", position=3)
    assert "Order: 1. Mira Quell, 2. Tobin Ash, 3. River Witch 1, 4. Dock Thug 1" in (
        moved.message.text()
    )


async def test_a_sheet_is_not_refreshed_under_a_roll_that_waits_on_it(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """Mira proposed Lockpicks for her Attack; her player then removed the Lockpicks from her
    sheet (``/character import replace:True``) and the GM ran ``/gm refresh``: it took the
    new sheet, and every "GM: approve all" press then answered "Something went wrong on our
    side" (the roll looked for a resource no longer on the sheet) — the roll could never be
    made. A refresh now waits until no decision is open, and says so."""
    h = discord_harness
    u = Docks(scripted_bot, h, table, dice)
    await u.cast(wren=False)
    gm = table.moderator
    await u.run(gm, "encounter begin")
    await u.run(
        table.player, "act", action="attack", target="Dock Thug 1", detail="Lockpicks, Dark cloak"
    )
    sheet = json.loads((SHEETS / "uune" / "mira.json").read_text())
    sheet["items"] = [i for i in sheet["items"] if i["name"] != "Lockpicks"]
    upload = h.make_attachment("mira.json", json.dumps(sheet).encode())
    await answered(
        await h.slash(
            table.player, h.channel, "character import", {"file": upload, "replace": True}
        )
    )
    text = await refused(await slash(h, gm, "gm refresh", combatant="Mira Quell"))
    assert text == (
        "A decision is waiting (Mira Quell's roll for an attack on Dock Thug 1): refresh "
        "**Mira Quell** from their sheet once it is settled (`/gm resolve` settles it now)."
    ), text
    rolled = await u.press(gm, "GM: approve all", [5, 6, 1])
    assert "= 2 hits vs 3 needed" in rolled.text()
    await u.press(table.player, "Keep the roll")
    refreshed = await answered(await slash(h, gm, "gm refresh", combatant="Mira Quell"))
    assert not refreshed.ephemeral or "now uses the current" in str(refreshed.response_data)


async def test_uttas_a_sheet_is_not_refreshed_under_an_attack_that_waits(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """The same refresh in UTTAS while the thug's Cudgel waits on Willow's reaction: the
    reaction's buttons were worked out from the old sheet. Refused the same way."""
    h = discord_harness
    await set_up_fight(h, table)
    await thug_attacks_willow(bot, h, table)
    text = await refused(await slash(h, table.moderator, "gm refresh", combatant="Willow"))
    assert text.startswith("A decision is waiting (") and "refresh **Willow**" in text, text


async def test_a_bond_is_shortened_at_a_word_with_an_ellipsis_not_cut_mid_word(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """``/act action:bond detail:1`` asked "GM: grant Mira Quell a point of focus for acting on
    Bond 1 — Pay back the river guild that sheltered her as a ch, or refuse it." and a bond
    not found was listed as "1. Pay back the river guild that sheltered ; 2. …": words cut
    in the middle with nothing to say so. They are shortened at a word, with "..." (the one
    shortener, ``bot.words.shortened``, since fix19: Uune kept its own copy)."""
    h = discord_harness
    u = Docks(scripted_bot, h, table, dice)
    await u.cast(wren=False, witch=False)
    text = await refused(await slash(h, table.player, "act", action="bond", detail="9"))
    assert text == (
        "Mira Quell has no such bond (bonds: 1. motivation: Pay back the river guild that...; "
        "2. flaw: Cannot walk away from a wager, even a...)."
    ), text
    asked = await u.run(table.player, "act", action="bond", detail="1")
    said = asked.message.text()
    assert "for acting on Bond 1 — Pay back the river guild that sheltered her as a..., or" in said
    granted = await u.press(table.moderator, "GM: grant the focus")
    assert "The GM approves Bond 1 — Pay back the river guild that sheltered her as a...." in (
        granted.text()
    )


async def test_odds_with_an_unknown_attack_says_what_with_takes(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """A Uune player asking ``/odds target:Dock Thug 1 with:Street fencing`` (a resource, as
    everywhere else in Uune) was told "Mira Quell has no attack called 'Street fencing' on
    their sheet." — with nothing to say that a PC's ``with:`` is ``Attack``. Every system's
    refusal now lists what ``with:`` takes."""
    h = discord_harness
    u = Docks(scripted_bot, h, table, dice)
    await u.cast(wren=False)
    await u.run(table.moderator, "encounter begin")
    text = await refused(
        await slash(
            h,
            table.moderator,
            "odds",
            target="Dock Thug 1",
            with_="Street fencing",
            as_="Mira Quell",
        )
    )
    assert text == (
        "Mira Quell has no attack called 'Street fencing' on their sheet; `with:` takes: Attack."
    ), text
    text = await refused(
        await slash(
            h, table.moderator, "odds", target="Mira Quell", with_="Club", as_="Dock Thug 1"
        )
    )
    assert text == (
        "Dock Thug 1 has no attack called 'Club' on their sheet; `with:` takes: Cudgel, "
        "Thrown bottle."
    ), text


async def test_a_helper_the_gm_incapacitates_no_longer_adds_their_dice(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """Tobin helped Mira's lock-picking; before the GM approved, the GM set Tobin's vitality
    to 0. On approval Tobin — Incapacitated, "cannot take actions" — still rolled his
    Herbalist die and his base die and added their hits. His help is now dropped, saying so,
    and only Mira's dice roll."""
    h = discord_harness
    u = Docks(scripted_bot, h, table, dice)
    gm = table.moderator
    await u.tobin_helps_mira()
    knocked = await u.run(gm, "gm vital", combatant="Tobin Ash", vital="vitality", amount="0")
    assert "Tobin Ash is Incapacitated and no longer helps Mira Quell's roll." in (
        knocked.message.text()
    ), knocked.message.text()
    rolled = await u.press(gm, "GM: approve all", [5, 6])
    assert "[5] [6] = 2 hits vs 3 needed" in rolled.text(), rolled.text()
    assert "from help" not in rolled.text()


async def test_a_wound_that_incapacitates_is_said_before_its_consequence(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """Mira's Defend rolled no hits: the channel read "Mira Quell is now Incapacitated
    (vitality 0/0)." and only then "Dock Thug 1's Cudgel gives Mira Quell a lethal wound" —
    the consequence before its cause (so too a bleed, a spend or the GM's vital that takes
    the last vitality). The cause now comes first."""
    h = discord_harness
    u = Docks(scripted_bot, h, table, dice)
    gm = table.moderator
    await u.thug_swings_at_mira()
    await u.press(table.player, "Roll now", [1])
    kept = (await u.press(table.player, "Keep the roll")).text()
    wound = kept.index("Dock Thug 1's Cudgel gives Mira Quell a lethal wound (vitality 0/0")
    assert wound < kept.index("Mira Quell is now Incapacitated"), kept
    knocked = await u.run(gm, "gm vital", combatant="Tobin Ash", vital="vitality", amount="0")
    said = knocked.message.text()
    assert said.index("The GM sets Tobin Ash") < said.index("Tobin Ash is now Incapacitated"), said


async def test_gm_resolve_of_a_roll_that_is_no_attack_is_not_called_an_attack(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """``/gm resolve`` of Tobin's climb waiting for the GM's difficulty (or of a bond's
    focus) was titled "The GM resolves the waiting attack": there was no attack. One waiting
    decision is now "the waiting decision", in every system."""
    h = discord_harness
    u = Docks(scripted_bot, h, table, dice)
    await u.cast(wren=False)
    gm = table.moderator
    await u.run(gm, "encounter begin")
    await u.run(table.player, "endturn")
    await u.run(table.other_player, "act", action="action", detail="climb: Herbalist")
    resolved = await u.run(gm, "gm resolve")
    assert resolved.message.embeds[0]["title"] == "The GM resolves the waiting decision"
    assert "No difficulty was named: Tobin Ash's climb is called off." in resolved.message.text()


async def test_a_roll_with_no_resources_asks_the_gm_for_its_difficulty_alone(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """``/act action:observe detail:the door`` (no resources) asked "GM: name the difficulty
    and approve or refuse Mira Quell's resources for Observe (the door): none." — there was
    nothing to approve. It now asks for the difficulty alone."""
    h = discord_harness
    u = Docks(scripted_bot, h, table, dice)
    await u.cast(wren=False, witch=False)
    asked = await u.run(table.player, "act", action="observe", detail="the door")
    said = asked.message.text()
    assert "GM: name the difficulty of Mira Quell's Observe (the door) (no resources " in said
    assert ": none." not in said, said
    dice.load([5])
    rolled = await u.press(table.moderator, "GM: difficulty 1 (Very Easy)")
    assert "= 1 hit vs 1 needed: success" in rolled.text(), rolled.text()


async def test_the_board_counts_actions_in_english_and_none_for_the_incapacitated(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """The board read "Mira Quell · … · Focus 2 · 0 action" once she had acted, and an
    Incapacitated Tobin still showed "1 action" though he "cannot take actions". The count
    now reads "0 actions", and an Incapacitated creature shows none."""
    h = discord_harness
    u = Docks(scripted_bot, h, table, dice)
    await u.cast(wren=False, witch=False)
    gm = table.moderator
    await u.run(gm, "encounter begin")
    await u.run(table.player, "act", action="center")
    await u.run(gm, "gm vital", combatant="Tobin Ash", vital="vitality", amount="0")
    status = await answered(await slash(h, gm, "encounter status"))
    rows = status.response_data["embeds"][0]["description"].split("\n")
    mira = next(r for r in rows if "Mira Quell" in r)
    tobin = next(r for r in rows if "Tobin Ash" in r)
    thug = next(r for r in rows if "Dock Thug 1" in r)
    assert mira.endswith("· Focus 2 · 0 actions"), mira
    assert " action" not in tobin and tobin.endswith("Incapacitated"), tobin
    assert "· 1 action ·" in thug, thug
