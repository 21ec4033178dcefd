"""QA17 (the UTTAS rules audit, audit17a), through Discord: what rules version 4 fixed.

* "Activating Powers": a maintained power's Stamina is held "for as long as they Maintain the
  Power". A maintained *attack* power held it for good — `/attack` never recorded what it
  maintained, so `/act action:drop-power` answered "not maintaining".
* "Head": a disabled head has "a Disadvantage on all Accuracy rolls and skill checks" — the
  target of an opposed `/check` rolled its skill whole.
* "Grappled" and "Arms/Hands": a grapple holds one limb per arm, and a disabled arm "cannot be
  used for any actions" — a one-armed grappler still held two limbs.
* "Advantage and Disadvantage": `/gm advantage` gives dice on the combatant's next Accuracy or
  skill roll — First Aid (a skill check) rolled without them, and a flurry rolled "next roll"
  dice on every hit.
* "Grappled": the held creature may only spend actions on escaping — a paid stance change went
  through.
* "Enter a Stance": the free change belongs to the turn's start — it stayed free after standing
  up from Prone, which spends half the Run speed (a move).
* "Defend": the Move reaction steps away — an Entangled creature, which "cannot move", was
  offered it.
"""

from __future__ import annotations

from bot.client import CombatBot
from tests.e2e.combat_helpers import (
    against_a_thug,
    ok,
    pass_turns_until,
    press,
    refused,
    set_up_fight,
    slash,
    thug_attacks_willow,
    version,
)
from tests.e2e.conftest import DiceBox, Table
from tests.harness.models import Member, StoredMessage
from tests.harness.server import DiscordHarness

MAGE = {
    "name": "Mage",
    "agility": 14,
    "ego": 14,
    "speed": 6,
    "stamina": 40,
    "powers": [
        {
            "name": "Hold",
            "active_points": 20,
            "targets": "dodge",
            "inflicts": ["Entangled"],
            "maintained": True,
            "range_m": 10,
        }
    ],
}
"""A maintained attack power: 20 Active Points, 4 Stamina, doubled to 8 and held."""


async def disable_limb(h: DiscordHarness, gm: Member, combatant: str, limb: str) -> None:
    """The GM disables ``combatant``'s ``limb`` (UTTAS "Disabled Limb") with ``/gm condition``."""
    await ok(
        await slash(
            h,
            gm,
            "gm condition",
            combatant=combatant,
            action="add",
            name="Disabled limb",
            limb=limb,
        )
    )


async def test_a_maintained_attack_power_is_dropped_and_frees_its_stamina(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, player = discord_harness, table.player
    await against_a_thug(h, table, MAGE)

    await pass_turns_until(bot, h, table, "Mage")
    attacked = await ok(await slash(h, player, "attack", target="Thug 1", with_="Hold"))
    assert "Mage spends 8 Stamina on Hold (32 left, held while maintained)" in (
        attacked.message.text()
    )
    live = await bot.services.encounters.live(h.channel.id)
    mage = next(c for c in live.state.combatants if c.name == "Mage")
    assert [mp.power for mp in mage.maintained] == ["Hold"]

    await pass_turns_until(bot, h, table, "Mage")
    before = await version(bot, h)
    text = await refused(await slash(h, player, "attack", target="Thug 1", with_="Hold"))
    assert "Mage already maintains Hold: stop maintaining it first" in text, text
    assert await version(bot, h) == before  # nothing spent

    dropped = await ok(await slash(h, player, "act", action="drop-power", detail="Hold"))
    assert "Mage stops maintaining Hold." in dropped.message.text()
    live = await bot.services.encounters.live(h.channel.id)
    mage = next(c for c in live.state.combatants if c.name == "Mage")
    assert (mage.stamina_held, mage.maintained) == (0, [])


async def test_the_target_of_an_opposed_check_rolls_with_its_disabled_head(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Willow's Perception against the General (not hiding), whose head the GM disabled: the
    General's Stealth (untrained, 1d6) loses its one die."""
    h, gm, player = discord_harness, table.moderator, table.player
    await set_up_fight(h, table, thugs=1)
    await disable_limb(h, gm, "General Bearington", "head")
    await pass_turns_until(bot, h, table, "Willow")
    checked = await ok(
        await slash(h, player, "check", skill="Perception", target="General Bearington")
    )
    text = checked.message.text()
    assert "General Bearington's Stealth, untrained: 1d6 -1 disadv" in text, text


async def test_a_grappler_with_a_disabled_arm_holds_one_limb(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm = discord_harness, table.moderator
    await set_up_fight(h, table, thugs=1)
    await disable_limb(h, gm, "Thug 1", "left arm")
    await pass_turns_until(bot, h, table, "Thug 1")
    before = await version(bot, h)
    text = await refused(
        await slash(h, gm, "attack", target="Willow", with_="Grapple", limbs="left arm, right arm")
    )
    assert "Thug 1 can hold at most 1 limb (a disabled arm holds nothing)." in text, text
    assert await version(bot, h) == before
    await disable_limb(h, gm, "Thug 1", "right arm")
    text = await refused(
        await slash(h, gm, "attack", target="Willow", with_="Grapple", limbs="head")
    )
    assert "Thug 1 has no working arm to grapple with" in text, text


async def test_the_gm_advantage_joins_willows_first_aid(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """`/gm advantage` gives dice on the combatant's "next Accuracy or skill roll": First Aid is
    a skill check (2d6 for Willow), so it rolls 2 more dice and uses them up. Before, only the
    combatant's own `/attack` and `/check` took them, and the dice waited for a later roll."""
    h, gm, player = discord_harness, table.moderator, table.player
    await set_up_fight(h, table, thugs=1)
    await ok(await slash(h, gm, "gm hp", combatant="Willow", health="-5"))
    await ok(await slash(h, gm, "gm advantage", combatant="Willow", dice=2))
    await pass_turns_until(bot, h, table, "Willow")
    aid = await ok(await slash(h, player, "act", action="first-aid", target="Willow", as_="Willow"))
    shown = aid.message.text() + str(aid.message.embeds)
    assert "Willow's First Aid on Willow: 2d6 +2 adv" in shown, shown
    live = await bot.services.encounters.live(h.channel.id)
    willow = next(c for c in live.state.combatants if c.name == "Willow")
    assert willow.gm_next_roll == 0


async def test_an_entangled_willow_is_not_offered_a_move_reaction(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """ "Defend: ... a Block, Evade, or Move action": the Move reaction steps away, and an
    Entangled creature "cannot move" — its buttons offered Move (+2 Dodge) all the same."""
    h, gm = discord_harness, table.moderator
    await set_up_fight(h, table, thugs=1)
    await ok(await slash(h, gm, "gm condition", combatant="Willow", action="add", name="Entangled"))
    prompt = await thug_attacks_willow(bot, h, table)
    labels = [c.get("label", "") for r in h.message(prompt).components for c in r["components"]]
    assert any(label.startswith("Evade") for label in labels), labels
    assert not any(label.startswith("Move") for label in labels), labels


async def test_willow_held_in_a_grapple_cannot_pay_for_a_stance_change(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """ "Grappled": "the only actions the grappled creature may take are those allowing him to
    either escape the grapple or take control of the grapple". Held, Willow still takes her
    free stance (no action), but a second change costs an action and is refused; before, it
    was paid."""
    bot, h, gm, player = scripted_bot, discord_harness, table.moderator, table.player
    await set_up_fight(h, table, thugs=1, begin=False)
    dice.load([6, 6, 1, 1])  # Willow and the General tie on Agility 12: Willow rolls higher
    await ok(await slash(h, gm, "encounter begin"))
    prompt = await thug_attacks_willow_with(bot, h, table, "Grapple", limbs="left arm")
    dice.load([6, 6, 6])
    await press(h, player, prompt, "Take it")
    await pass_turns_until(bot, h, table, "Willow")
    await ok(await slash(h, player, "stance", name="Steady", as_="Willow"))
    before = await version(bot, h)
    text = await refused(await slash(h, player, "stance", name="Mobile", as_="Willow"))
    assert "Willow is grappled and may only try to escape or take control" in text, text
    assert await version(bot, h) == before


async def thug_attacks_willow_with(
    bot: CombatBot, h: DiscordHarness, table: Table, attack: str, **options: str
) -> StoredMessage:
    await pass_turns_until(bot, h, table, "Thug 1")
    record = await ok(
        await slash(h, table.moderator, "attack", target="Willow", with_=attack, **options)
    )
    return record.message


async def test_a_stance_after_standing_up_costs_willow_an_action(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Standing up from Prone spends half the Run speed — a move; the free stance belongs to
    the start of the turn, before moving ("Enter a Stance"). It stayed free after `/stand`."""
    h, gm, player = discord_harness, table.moderator, table.player
    await set_up_fight(h, table, thugs=1)
    await pass_turns_until(bot, h, table, "Willow")
    await ok(await slash(h, gm, "gm condition", combatant="Willow", action="add", name="Prone"))
    await ok(await slash(h, player, "stand", as_="Willow"))
    changed = await ok(await slash(h, player, "stance", name="Steady", as_="Willow"))
    shown = changed.message.text() + str(changed.message.embeds)
    assert "Willow takes the Steady stance (1 action)" in shown, shown


async def test_the_gm_advantage_on_a_next_roll_joins_one_hit_of_a_flurry(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Each hit of the General's three-hit flurry is its own Accuracy roll; dice "on the next
    roll" join the first alone. Before, the whole `/attack` took them: three hits, 6 dice."""
    h, gm, player = discord_harness, table.moderator, table.player
    await set_up_fight(h, table, thugs=1)
    await ok(await slash(h, gm, "gm advantage", combatant="General Bearington", dice=2))
    await pass_turns_until(bot, h, table, "General Bearington")
    flurry = await ok(await slash(h, player, "attack", target="Thug 1", with_="Claws", hits=3))
    shown = str(flurry.message.embeds)
    assert shown.count("Advantage for General Bearington: Game Master x2") == 1, shown
