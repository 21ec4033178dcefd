"""Items through Discord (issue 11, "Items"; UTTAS "Perform an action": "draws and uses an
item", and "Disabled Limb", Arms/Hands: "A disabled arm or hand immediately drops whatever
it's holding"): an item added with `/character edit`, used with `/act action:use-item` as the
turn's one action; a called shot that drops the thug's Cudgel, refused until he draws it
again; the refusals a player reads; uses spent kept in the campaign record."""

from __future__ import annotations

from bot.client import CombatBot
from tests.e2e.combat_helpers import (
    answered,
    current_name,
    end_encounter,
    ok,
    press,
    refused,
    slash,
    version,
)
from tests.e2e.conftest import DiceBox, Table
from tests.harness.server import DiscordHarness

POTION = '{"description": "A red draught.", "effect": {"restores": "health", "dice": 2}, "uses": 2}'
TONIC = '{"description": "Bitter.", "effect": {"restores": "stamina", "dice": 1}}'


async def willow_and_a_thug(h: DiscordHarness, table: Table, *, begin: bool = True) -> None:
    """The moderator GMs one Thug; the player brings Willow, who carries a Healing Potion
    (2 uses) and a Tonic. Willow (Agility 12) acts before the Thug (10): no dice for it."""
    gm, player = table.moderator, table.player
    await ok(await slash(h, gm, "encounter start", name="Firewood"))
    await answered(await slash(h, gm, "npc import", example="thug"))
    await ok(await slash(h, gm, "gm add-npc", template="Thug", count=1))
    await answered(await slash(h, player, "character import", example="willow"))
    for field, value in (("items.Healing Potion", POTION), ("items.Tonic", TONIC)):
        edited = await slash(h, player, "character edit", name="Willow", field=field, value=value)
        await edited.response()
        assert "Updated" in edited.response_data["content"], edited.response_data
    await ok(await slash(h, player, "encounter join", character="Willow"))
    if begin:
        await ok(await slash(h, gm, "encounter begin"))


async def health_of(bot: CombatBot, h: DiscordHarness, name: str) -> int:
    live = await bot.services.encounters.live(h.channel.id)
    return int(next(c for c in live.state.combatants if c.name == name).health)


async def test_willow_drinks_a_potion_and_the_thug_drops_his_cudgel(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    bot, h, gm, player = scripted_bot, discord_harness, table.moderator, table.player
    await willow_and_a_thug(h, table)
    assert await current_name(bot, h) == "Willow"
    listed = await h.autocomplete(player, h.channel, "act", focused="action", value="use-item")
    assert [c["name"] for c in listed] == [
        "Draw and use an item — 1 action; ends the turn (none between fights)"
    ]
    await ok(await slash(h, gm, "gm hp", combatant="Willow", health="-8"))  # 16 → 8

    dice.load([3, 4])  # the potion's 2d6
    used = await ok(await slash(h, player, "act", action="use-item", detail="healing potion"))
    shown = used.message.text()
    assert "Willow draws and uses the Healing Potion: A red draught (1 use left)." in shown
    assert "Willow regains 7 Health from Willow's Healing Potion" in shown
    assert await health_of(bot, h, "Willow") == 15
    assert await current_name(bot, h) == "Thug 1"  # the turn's one action

    text = await refused(
        await slash(h, player, "act", action="use-item", detail="Tonic", as_="Willow")
    )
    assert "It is Thug 1's turn, not Willow's." in text
    text = await refused(await slash(h, gm, "act", action="use-item", detail="Rope"))
    assert "Thug 1 has no item called 'Rope' (items: none)." in text
    await ok(await slash(h, gm, "endturn"))

    # Willow's hands hold the Club and the potion (a use left): no hand for the Tonic.
    before = await version(bot, h)
    text = await refused(await slash(h, player, "act", action="use-item", detail="Tonic"))
    assert (
        "Willow has no free hand for the Tonic: the hands hold the Club and the Healing Potion. "
        "Put one away first (`/act action:stow detail:Club`, free)."
    ) in text
    text = await refused(await slash(h, player, "act", action="use-item"))
    assert "**Draw and use an item** needs `detail:` — the item (from your sheet)." in text
    assert await version(bot, h) == before  # nothing applied

    # A called shot at the Thug's right arm (Steady: Advantage, less the shot's Disadvantage):
    # 3d6 [6, 6, 6] + 8 = 26 beats his Dodge 20; the Club's 3 damage dice less Armor 1 deal
    # 2 Health damage, which disables the arm — and it drops the Cudgel.
    await ok(await slash(h, player, "stance", name="Steady"))
    dice.load([6, 6, 6, 3, 3, 3])
    hit = await ok(await slash(h, player, "attack", target="Thug 1", with_="Club", aim="right arm"))
    assert "Thug 1 drops the Cudgel: the right arm is disabled." in hit.message.text()

    assert await current_name(bot, h) == "Thug 1"
    text = await refused(await slash(h, gm, "attack", target="Willow", with_="Cudgel"))
    assert (
        "Thug 1 dropped the Cudgel when an arm holding it was disabled: pick it up first "
        "(`/act action:draw detail:Cudgel`)."
    ) in text
    text = await refused(await slash(h, gm, "act", action="draw", detail="Cudgel"))
    assert "Thug 1 has no free hand for the Cudgel: the hands hold the Throwing Axe." in text
    stowed = await ok(await slash(h, gm, "act", action="stow", detail="Throwing Axe"))
    assert "Thug 1 puts the Throwing Axe away." in stowed.message.text()
    drawn = await ok(await slash(h, gm, "act", action="draw", detail="Cudgel"))
    assert "Thug 1 draws the Cudgel (left arm)." in drawn.message.text()
    assert await current_name(bot, h) == "Thug 1"  # a draw costs an action; the turn goes on

    attack = await ok(await slash(h, gm, "attack", target="Willow", with_="Cudgel"))
    dice.load([1, 1, 1, 1])  # 3d6 + Steady's Advantage for attackers: a miss
    await press(h, player, attack.message, "Take it")
    assert dice.empty


async def test_item_uses_outlast_the_fight_in_the_campaign_record(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """Before the fight begins an item needs no turn and no action (as healing); the uses
    spent go to Willow's campaign record when the encounter ends, and a used-up item is
    refused in her next fight."""
    bot, h, player = scripted_bot, discord_harness, table.player
    await willow_and_a_thug(h, table, begin=False)
    sheet = await h.slash(player, h.channel, "character show", {"name": "Willow"})
    await sheet.response()
    assert "**Healing Potion** — restores 2d6 Health, 2 uses: A red draught." in str(
        sheet.response_data
    )
    await ok(await slash(h, table.moderator, "gm hp", combatant="Willow", health="-10"))
    for faces, health in (([1, 2], 9), ([2, 2], 13)):
        dice.load(faces)
        await ok(await slash(h, player, "act", action="use-item", detail="Healing Potion"))
        assert await health_of(bot, h, "Willow") == health
    text = await refused(await slash(h, player, "act", action="use-item", detail="Healing Potion"))
    assert "Willow's Healing Potion is used up (2 of 2 uses spent)." in text
    await end_encounter(h, table)

    shown = await h.slash(player, h.channel, "campaign show", {"character": "Willow"})
    await shown.response()
    assert "Item uses spent: Healing Potion 2 of 2" in shown.response_data["content"]

    await ok(await slash(h, table.moderator, "encounter start", name="Second fight"))
    await ok(await slash(h, player, "encounter join", character="Willow"))
    text = await refused(await slash(h, player, "act", action="use-item", detail="Healing Potion"))
    assert "used up" in text
