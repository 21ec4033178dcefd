"""A whole Uune conflict through Discord, with scripted dice (issue 14; Uune SRD "Conflict",
"Actions", "Focus", "Vitality", "Attack", "Defend", "Move", "Effect: Bleeding", "General NPC
Guideines"): ``/encounter start ruleset:uune``, three PCs and two NPCs join; the players choose
who goes next and the GM sets it; an action roll whose resources the GM approves and refuses
by button, one of them for the scene; a vitality spend and a focus spend; the NPC's forced
reroll, which only the GM presses; Attacks with a light, a lethal and a heavy outcome; an NPC's
attack answered by a Defend that proposes resources (the scene's approval standing); a Move
that costs the action and one that is free; Bleeding at a round's start, staunched; the GM
ends the conflict."""

from __future__ import annotations

from bot.client import CombatBot
from tests.e2e.combat_helpers import button, refused, slash, tracker_reading
from tests.e2e.conftest import DiceBox, Table
from tests.e2e.uune_steps import Docks, labels, prompt_with
from tests.harness.server import DiscordHarness


async def test_a_whole_uune_conflict_through_discord(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    h = discord_harness
    u = Docks(scripted_bot, h, table, dice)
    gm, mira, tobin, wren = table.moderator, table.player, table.other_player, table.bystander
    await u.cast()
    begun = (await u.run(gm, "encounter begin")).message.text()
    assert "1. Mira Quell, 2. Tobin Ash, 3. Wren, 4. Dock Thug 1, 5. River Witch 1" in begun
    assert "it is **Mira Quell**'s turn (round 1)" in begun

    # -- Round 1. The players choose who goes next: Wren's player picks Wren, before Tobin.
    chose = await u.run(wren, "act", action="next", target="Wren")
    assert "Wren chooses to go next." in chose.message.text()
    text = await refused(await slash(h, mira, "act", action="next", target="Dock Thug 1"))
    assert text == "Dock Thug 1 is an NPC: the NPCs act after every PC."

    # Mira's action roll: the GM names the difficulty, refuses one resource and approves the
    # other for the scene, all by button; the player's own press of a GM button is refused.
    asked = await u.run(
        mira, "act", action="action", detail="leap onto the crane: Lockpicks, Street fencing"
    )
    assert "GM: name the difficulty and approve or refuse Mira Quell's resources" in (
        asked.message.text()
    )
    prompt = await prompt_with(h, "GM: difficulty 2 (Easy)")
    text = await refused(
        await h.click(mira, prompt, button(prompt, "GM: difficulty 2")["custom_id"])
    )
    assert "Only the GM can choose" in text
    settled = await u.press(gm, "GM: difficulty 2 (Easy)")
    assert "The GM names the difficulty: 2 (Easy)." in settled.text()
    settled = await u.press(gm, "GM: refuse Lockpicks")
    assert "The GM refuses Lockpicks." in settled.text()
    rolled = await u.press(gm, "GM: approve all for the scene", [5, 2])
    assert "The GM approves Street fencing." in rolled.text()
    assert "[5] [2] = 1 hit vs 2 needed: failure" in rolled.text()

    # A vitality spend: reroll the missed die (5 vitality) — now a success.
    spend = await prompt_with(h, "Keep the roll")
    assert labels(spend) == [
        "Keep the roll",
        "Reroll die 2 (5 vitality)",
        "GM: choose Dock Thug 1's forced reroll",
        "GM: choose River Witch 1's forced reroll",
    ]
    rerolled = await u.press(mira, "Reroll die 2", [6])
    assert "Mira Quell rerolls a die (5 vitality)" in rerolled.text()
    assert "[5] [2→6] = 2 hits vs 2 needed: success" in rerolled.text()

    # The NPC forces a reroll of a hit die: the GM's press only (a player is refused), and
    # what it cost the thug goes to the GM alone.
    spend = await prompt_with(h, "GM: choose Dock Thug 1's forced reroll")
    chooser = button(spend, "GM: choose Dock Thug 1's forced reroll")["custom_id"]
    text = await refused(await h.click(mira, spend, chooser))
    assert text == "Only the GM chooses **Dock Thug 1**'s forced reroll."
    forced = await u.press(gm, "Force a reroll of die 1", [2], on="GM: choose Dock Thug 1")
    assert "Dock Thug 1 forces Mira Quell to reroll a hit die: " in forced.text()
    assert "[5→2] [2→6] = 1 hit vs 2 needed: failure" in forced.text()
    assert "(10 vitality)" not in forced.text()  # the NPC's numbers stay hidden
    gm_copy = [m.text() for m in h.messages_in(h.channel, include_ephemeral=True) if m.ephemeral]
    assert any(
        "Dock Thug 1 forces Mira Quell to reroll a hit die (10 vitality)" in m for m in gm_copy
    )
    kept = await u.press(mira, "Keep the roll")
    assert "Mira Quell's leap onto the crane fails (1 of 2 hits)." in kept.text()
    assert "Round 1: Wren's turn" in kept.text()  # Wren, as the players chose

    # Wren's Attack on the thug misses by one: a light wound.
    await u.run(
        wren, "act", action="attack", target="Dock Thug 1", detail="Quickblade, Twin short blades"
    )
    rolled = await u.press(gm, "GM: approve all", [5, 6, 2])
    assert "[5] [6] [2] = 2 hits vs 3 needed: failure" in rolled.text()
    kept = await u.press(wren, "Keep the roll")
    assert "Wren's attack gives Dock Thug 1 a light wound." in kept.text()

    # Tobin's Attack: five hits, then a focus spend forces a sixth — double the thug's
    # Defensiveness 3: a lethal wound, and the thug is out.
    await u.run(
        tobin,
        "act",
        action="attack",
        target="Dock Thug 1",
        detail="Field medic, Herbalist, Temple infirmary, Caravan cook, Quarterstaff, Herb pouch",
    )
    rolled = await u.press(gm, "GM: approve all", [6, 6, 5, 5, 6, 2, 1])
    assert "= 5 hits vs 3 needed: success" in rolled.text()
    spend = await prompt_with(h, "Keep the roll")
    assert "Force die 6 to hit (1 focus)" in labels(spend)
    assert "Reroll dice 6,7 (1 focus)" in labels(spend)
    forced = await u.press(tobin, "Force die 6 to hit")
    assert "Tobin Ash forces a resource die to hit (1 focus)" in forced.text()
    assert "[2→5] [1] = 6 hits vs 3 needed" in forced.text()
    kept = await u.press(tobin, "Keep the roll")
    assert "Tobin Ash's attack gives Dock Thug 1 a lethal wound." in kept.text()
    assert "Dock Thug 1's turn is skipped: incapacitated." in kept.text()
    assert "Round 1: River Witch 1's turn." in kept.text()

    # The witch attacks Mira: Mira's Defend (off-turn, free). She proposes two resources;
    # Street fencing stands approved for the scene, the GM approves the other by button.
    attack = await u.run(gm, "act", action="npc-attack", target="Mira Quell", detail="Bone knife")
    assert "River Witch 1 attacks Mira Quell with Bone knife: Mira Quell defends." in (
        attack.message.text()
    )
    assert "propose resources for a Defend against River Witch 1's Bone knife (difficulty 4: " in (
        attack.message.text()
    )
    proposed = await u.run(
        mira, "act", action="propose", detail="Street fencing, Twin short blades"
    )
    assert "Approved for the scene: Street fencing." in proposed.message.text()
    rolled = await u.press(gm, "GM: approve Twin short blades", [5, 6, 2])
    assert "[5] [6] [2] = 2 hits vs 4 needed: failure" in rolled.text()
    kept = await u.press(mira, "Keep the roll")
    assert (
        "River Witch 1's Bone knife gives Mira Quell a heavy wound (vitality 50/50, wounds: "
        "1 heavy)." in kept.text()
    )
    assert "Round 2 begins." in kept.text()

    # -- Round 2. The Bone knife's special: the GM makes Mira bleed. The GM sets who goes
    # next; Mira moves within her position (free), then to a new one (her action).
    bleeding = await u.run(
        gm, "gm condition", combatant="Mira Quell", action="add", name="Bleeding"
    )
    assert "Mira Quell is now Bleeding" in bleeding.message.text()
    chose = await u.run(gm, "act", action="next", target="Tobin Ash")
    assert "chooses Tobin Ash to go next." in chose.message.text()
    free = await u.run(mira, "act", action="shift", detail="behind the crates")
    assert "moves within their position (behind the crates) (free)" in free.message.text()
    moved = await u.run(mira, "act", action="move", detail="up the crane")
    assert "Mira Quell moves to a new position (up the crane): that is their action." in (
        moved.message.text()
    )
    assert "Round 2: Tobin Ash's turn" in moved.message.text()
    text = await refused(await slash(h, mira, "act", action="move", detail="down again"))
    assert text == "It is Tobin Ash's turn, not Mira Quell's."

    # Tobin's Attack on the witch meets her Defensiveness 5: a heavy wound.
    await u.run(
        tobin,
        "act",
        action="attack",
        target="River Witch 1",
        detail="Field medic, Herbalist, Temple infirmary, Quarterstaff, Herb pouch",
    )
    rolled = await u.press(gm, "GM: approve all", [5, 5, 6, 5, 6, 1])
    assert "= 5 hits vs 5 needed: success" in rolled.text()
    kept = await u.press(tobin, "Keep the roll")
    assert "Tobin Ash's attack gives River Witch 1 a heavy wound." in kept.text()
    await u.run(wren, "endturn")
    await u.run(gm, "endturn")  # the witch's

    # -- Round 3 begins: Mira bleeds 10; she staunches it with her action.
    assert u.said("Round 3 begins.\nMira Quell bleeds: 10 vitality lost (vitality 40/50")
    staunched = await u.run(mira, "act", action="staunch")
    assert "Mira Quell is no longer Bleeding (staunched)." in staunched.message.text()

    # The GM ends the conflict; the status shows where everyone stands.
    ended = await u.run(gm, "gm end-fight")
    assert "The fight is over: the Game Master ended it." in ended.message.text()
    # The one tracker the channel shows (a round's start may have posted it again at the
    # bottom after these commands answered: tracker_reading reads the channel at every look;
    # 20 s: a CI run on two busy cores once took over 5 s).
    board = await tracker_reading(h, "Dock nine — fight over", timeout=20)
    rows = board.embeds[0]["description"].split("\n")
    assert rows[0].startswith("**Mira Quell** · Vitality 40/50 · Wounds 0/1/0")
    assert rows[1].startswith(
        "**Tobin Ash** · Vitality 100/100 · Wounds 0/0/0 · Stress 0/0/0 · Focus 1"
    )
    assert rows[3:] == [
        "**Dock Thug 1** · Incapacitated · NPC",
        "**River Witch 1** · Wounded · NPC",
    ]


async def test_help_and_proposing_more_resources_through_act(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """ "Help": another PC rolls its own resources and adds its hits — ``/act action:help``,
    off-turn and free; the roller proposes more with ``/act action:propose`` while the GM has
    not answered. Both need resources, and only a roll still waiting for approval."""
    h = discord_harness
    u = Docks(scripted_bot, h, table, dice)
    gm, mira, tobin = table.moderator, table.player, table.other_player
    await u.cast(wren=False)
    await u.run(gm, "encounter begin")
    text = await refused(await slash(h, tobin, "act", action="help", detail="Herbalist"))
    assert text == "Nothing is waiting for a decision right now."
    await u.run(mira, "act", action="action", detail="pick the lock: Lockpicks", amount=3)
    text = await refused(await slash(h, tobin, "act", action="help"))
    assert text == "Help needs `detail:`: the resources, comma-separated."
    helped = await u.run(tobin, "act", action="help", detail="Herbalist")
    assert "Tobin Ash helps Mira Quell, proposing Herbalist." in helped.message.text()
    more = await u.run(mira, "act", action="propose", detail="Dark cloak")
    assert "Mira Quell proposes Dark cloak." in more.message.text()
    assert "Lockpicks, Tobin Ash's Herbalist, Dark cloak." in more.message.text()
    await u.press(gm, "GM: refuse Dark cloak")
    # Mira's base die and Lockpicks, then Tobin's Herbalist alone ("Roll your own resources",
    # rules version 3: a helper has no base die)
    rolled = await u.press(gm, "GM: approve all", [5, 1, 6])
    assert "Mira Quell rolls for pick the lock: " in rolled.text()
    assert "[5] [1] = 1 hit + 1 from help vs 3 needed: failure" in rolled.text()
    kept = await u.press(mira, "Keep the roll")
    assert "Mira Quell's pick the lock fails (2 of 3 hits)." in kept.text()


async def test_a_helper_whose_resources_are_all_refused_adds_nothing(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """ "Help": "Roll your own resources as they apply to the action." Tobin helped with
    Herbalist, the GM refused it, and Tobin still rolled a die of his own (a base die) whose
    hit counted for Mira. From rules version 3 a helper rolls only their approved resources:
    none approved, no dice and no hits, and the channel says so."""
    h = discord_harness
    u = Docks(scripted_bot, h, table, dice)
    gm, mira, tobin = table.moderator, table.player, table.other_player
    await u.cast(wren=False)
    await u.run(gm, "encounter begin")
    await u.run(mira, "act", action="action", detail="pick the lock: Lockpicks", amount=2)
    await u.run(tobin, "act", action="help", detail="Herbalist")
    await u.press(gm, "GM: refuse Tobin Ash's Herbalist")
    rolled = await u.press(gm, "GM: approve all", [5, 1])  # Mira's two dice, nothing of Tobin's
    text = rolled.text()
    assert (
        "Tobin Ash's help adds nothing to Mira Quell's roll: none of their resources was "
        "approved." in text
    )
    assert "[5] [1] = 1 hit vs 2 needed: failure" in text
    assert "from help" not in text


async def test_minutes_pass_outside_a_conflict_and_bleeding_takes_its_toll(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """ "Effect: Bleeding": outside a conflict, 10 vitality every (out of game) minute — the GM
    says how many passed with ``/gm time minutes``; only the GM, and not during a conflict."""
    h = discord_harness
    u = Docks(scripted_bot, h, table, dice)
    gm, mira = table.moderator, table.player
    await u.cast(wren=False)
    await u.run(gm, "encounter begin")
    await u.run(gm, "gm condition", combatant="Mira Quell", action="add", name="Bleeding")
    text = await refused(await slash(h, gm, "gm time minutes", count=2))
    assert text.startswith("In a conflict Bleeding takes its toll at the start of each round")
    await u.run(gm, "gm end-fight")
    text = await refused(await slash(h, mira, "gm time minutes", count=2))
    assert "Only the GM" in text
    passed = await u.run(gm, "gm time minutes", count=2)
    assert "2 minutes pass: Mira Quell bleeds 20 vitality (vitality 80/100)." in (
        passed.message.text()
    )
    staunched = await u.run(mira, "act", action="staunch")
    assert "Mira Quell is no longer Bleeding (staunched)." in staunched.message.text()
    passed = await u.run(gm, "gm time minutes", count=1)
    assert "1 minute passes: nobody is Bleeding." in passed.message.text()


async def test_the_board_shows_a_pcs_stealth_level(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """ "Stealth": a PC's level (Observed, Hidden, Undetected) is on the board's row when it
    is not Observed; a failed attempt leaves the PC Observed (the bot's reading)."""
    h = discord_harness
    u = Docks(scripted_bot, h, table, dice)
    gm, mira, tobin = table.moderator, table.player, table.other_player
    await u.cast(wren=False, witch=False)
    await u.run(gm, "encounter begin")
    # The thug's Perceptiveness 2, one watcher: 2 hits needed.
    await u.run(mira, "act", action="stealth", detail="one: Dark cloak")
    rolled = await u.press(gm, "GM: approve Dark cloak", [5, 6])
    assert "= 2 hits vs 2 needed: success" in rolled.text()  # final at once: nothing to spend
    assert "Mira Quell's Stealth succeeds (2 of 2 hits): Mira Quell is Hidden." in rolled.text()

    def row(name: str) -> str:
        boards = [m for m in h.messages_in(h.channel) if m.text().startswith("Dock nine — ")]
        if len(boards) != 1:  # a new tracker posted, the old not yet deleted: look again
            return ""
        return next(r for r in boards[0].embeds[0]["description"].split("\n") if name in r)

    await h.wait_for(lambda: "Hidden" in row("Mira Quell"))
    assert row("Mira Quell").startswith(
        "**Mira Quell** · Vitality 100/100 · Wounds 0/0/0 · Stress 0/0/0 · Focus 0 · Hidden"
    )
    assert "Hidden" not in row("Tobin Ash")
    # Tobin tries and fails: he stays Observed, and his row says nothing of it.
    await u.run(tobin, "act", action="stealth", detail="one: Lantern")
    await u.press(gm, "GM: approve Lantern", [1, 2])
    await u.press(tobin, "Keep the roll")
    assert u.said("Tobin Ash's Stealth fails (0 of 2 hits): Tobin Ash is Observed.")
    await h.wait_for(lambda: "▶ **Dock Thug 1**" in row("Dock Thug 1"))  # the board caught up
    assert row("Tobin Ash").endswith("· Focus 2 · 0 actions")  # no stealth level shown
    assert "Hidden" in row("Mira Quell")


async def test_the_gm_ends_the_scene_and_what_lasts_a_scene_ends_with_it(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """Outside a conflict: resources approved "for the scene" stand until the GM ends it
    (``/gm time end-of period:scene``), as do Center's once-a-scene and an effect's default
    scope ("Center", "Effects": "Default scope: Scene")."""
    h = discord_harness
    u = Docks(scripted_bot, h, table, dice)
    gm, mira = table.moderator, table.player
    await u.cast(wren=False, witch=False)  # not begun: outside a conflict
    centered = await u.run(mira, "act", action="center")
    assert "Mira Quell centers and gains their maximum focus (2)." in centered.message.text()
    text = await refused(await slash(h, mira, "act", action="center"))
    assert "already centered this scene" in text
    await u.run(
        mira, "act", action="observe", detail="the warehouse door: Street fencing", amount=1
    )
    rolled = await u.press(gm, "GM: approve all for the scene", [5, 2])
    assert "= 1 hit vs 1 needed: success" in rolled.text()
    # One hit over would notice with another sense: the roll waits for her spends (v5).
    await u.press(mira, "Keep the roll")
    dice.load([6, 6])  # approved for the scene: it rolls at once, nothing to ask the GM
    again = await u.run(
        mira, "act", action="observe", detail="the rooftops: Street fencing", amount=1
    )
    assert dice.empty
    assert "Approved for the scene: Street fencing." in again.message.text()
    # No die left to spend on: final at once, one over, two senses.
    await h.wait_for(lambda: u.said("observes the rooftops: something odd with 2 senses"))
    await u.run(gm, "gm condition", combatant="Mira Quell", action="add", name="Impaired")
    ended = await u.run(gm, "gm time end-of", period="scene")
    assert "Mira Quell is no longer Impaired" in ended.message.text()
    await u.run(mira, "act", action="center")  # a new scene: she may center again
    await u.run(mira, "act", action="observe", detail="the river: Street fencing", amount=1)
    prompt = await prompt_with(h, "GM: approve Street fencing")
    assert "approve or refuse Mira Quell's resources for Observe" in prompt.text()
