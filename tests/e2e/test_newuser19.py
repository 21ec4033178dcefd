"""A brand-new GM and three players run a Utopia fight and a Uune conflict over a week of chat
from the README alone (issue 19's walkthrough): sheets from the forms and the examples, the
GM's NPCs, turn deadlines and reminders, a player away for two days, an undo, a player joining
late, a second fight in the same campaign and its records. Each test is a place where what the
bot said was wrong or left them guessing, and states what they should see."""

from __future__ import annotations

from bot.client import CombatBot
from tests.e2e.combat_helpers import (
    answered,
    end_encounter,
    ok,
    pass_turns_until,
    press,
    set_up_cast,
    slash,
)
from tests.e2e.conftest import Table
from tests.e2e.test_characters import answer
from tests.harness.server import DiscordHarness


async def test_a_record_shown_during_its_fight_says_it_is_from_before_it(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """The GM ended the Reed Ford fight with `/gm end-fight` ("the encounter stays open") after
    Brannoc lost 5 DHP; his player checked `/campaign show` ("A character's state between
    fights") and read "DHP 20/20" — the record from before the fight, which the fight writes
    back only at `/encounter end` — with nothing saying so. The record now says which open
    encounter carries the character and that its numbers are from before it; once the
    encounter ends, the record has the wound and no such line."""
    h, gm, player = discord_harness, table.moderator, table.other_player
    await set_up_cast(
        h,
        table,
        "utopia",
        name="Reed Ford",
        pcs={"Vesna": "vesna", "Brannoc": "brannoc"},
        npc=("stone-hound", "Stone hound"),
    )
    await ok(await slash(h, gm, "gm vital", combatant="Brannoc", vital="dhp", amount="-5"))
    await ok(await slash(h, gm, "gm end-fight"))
    shown = await answered(await slash(h, player, "campaign show", character="Brannoc"))
    text = shown.response_data["content"]
    assert f"In **Reed Ford** (<#{h.channel.id}>), still open: these are its numbers" in text
    assert "DHP 20/20" in text and "`/encounter end`" in text, text
    click = await end_encounter(h, table)
    await click.wait_for(lambda r: any("Encounter ended" in m.text() for m in r.followups))
    shown = await answered(await slash(h, player, "campaign show", character="Brannoc"))
    text = shown.response_data["content"]
    assert "DHP 15/20" in text and "still open" not in text, text


async def _late_join_then_undo(
    h: DiscordHarness, table: Table, system: str, pc: tuple[str, str], npc: tuple[str, str]
) -> tuple[str, str]:
    """``system``'s fight with the player's ``pc`` (character, example) against ``npc``, begun;
    a third player's character joins late and the GM undoes it: the join's reply and the
    undo's text."""
    gm = table.moderator
    await set_up_cast(h, table, system, name="Dock nine", pcs={pc[0]: pc[1]}, npc=npc)
    await answered(await slash(h, table.other_player, "character import", example=LATE[system][1]))
    joined = await ok(
        await slash(h, table.other_player, "encounter join", character=LATE[system][0])
    )
    undone = await ok(await slash(h, gm, "gm undo"))
    click = await end_encounter(h, table)
    await click.wait_for(lambda r: any("Encounter ended" in m.text() for m in r.followups))
    return joined.message.text(), undone.message.text()


LATE = {"uune": ("Tobin Ash", "tobin"), "untitled": ("Brask", "brask")}


async def test_a_late_joiners_place_reads_the_same_in_the_log_as_in_the_reply(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Tobin's player joined the Uune conflict late: the reply said "Tobin Ash joins the player
    characters, who act first and choose who goes next; then the NPCs." (Uune rolls no
    initiative); the GM undid the join and read "~~Tobin Ash takes place 3 in the initiative
    order.~~" — words the channel had never seen, for an order Uune does not have (Untitled's
    is the Storyteller's: the same). The log's note about a newcomer's place now uses the
    order's own words, the ones the join's reply showed."""
    h = discord_harness
    for system, pc, npc in (
        ("uune", ("Mira Quell", "mira"), ("dock-thug", "Dock Thug")),
        ("untitled", ("Wren", "wren"), ("hill-giant", "Hill giant")),
    ):
        joined, undone = await _late_join_then_undo(h, table, system, pc, npc)
        name = LATE[system][0]
        words = joined[joined.index(f"{name} ", joined.index("into the fight")) :].split("\n")[0]
        assert "initiative order" not in joined, (system, joined)
        assert "initiative order" not in undone, (system, undone)
        # (a note is plain text: its backticks are escaped, and Discord shows them as typed)
        assert f"~~{words}~~" in undone.replace("\\`", "`"), (system, words, undone)


async def test_a_utopia_sheet_shows_its_spells_armor_and_weapons_in_full(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """`/help topic:utopia` says to fill in "weapons, spells and armor with `/character edit`";
    the README promises `/character show` "every number and the derived values". Brannoc's
    player imported the example and read no spell (Stoneskin), no armor (Studded vest), not
    his innate defense, and "Cestus: 1d6 physical" — while his attacks rolled "1d6 + 3" (the
    Power modifier the sheet names) — nor Vesna's Longbow's ranges; a spell added with
    `/character edit field:spells.Fire bolt` did not show at all. Another player saw only
    "Size: medium" where the README says they see the weapons and powers."""
    h, third = discord_harness, table.other_player
    await answered(await slash(h, third, "character import", example="brannoc"))
    _, text, _ = await answer(await slash(h, third, "character show", name="Brannoc"))
    assert "Cestus: 1d6 + Power (+3) physical, 1 TA, reach 1 m" in text, text
    assert "Stoneskin: 3 Stamina, touch — Harden your skin until your next turn." in text, text
    assert "Studded vest (chest, worn): physical +2" in text, text
    assert "the sheet's physical +1" in text and "Gifted: Power" in text, text
    seen = await h.slash(table.player, h.channel, "character show", name="Brannoc", member=third)
    _, text, _ = await answer(seen)
    assert "Weapons: Cestus" in text and "Spells: Stoneskin" in text, text
    assert "1d6" not in text and "Studded vest" not in text, text

    await answered(await slash(h, table.player, "character import", example="vesna"))
    _, text, _ = await answer(await slash(h, table.player, "character show", name="Vesna"))
    assert "Longbow: 1d10 physical, 2 TA, ranged: close 20 m, far 40 m, 2 hands" in text, text
    edit = await slash(
        h,
        table.player,
        "character edit",
        name="Vesna",
        field="spells.Fire bolt",
        value='{"damage": "2d6", "stamina": 4, "range_m": 10}',
    )
    _, text, _ = await answer(edit)
    assert "Fire bolt: 4 Stamina, 2d6 energy, range 10 m" in text, text


async def test_a_uune_sheet_shows_its_bonds_money_and_the_npcs_whole_statblock(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """A new Uune player made Sable Reed with the form — name, shticks, **bonds**, experiences,
    items — and `/character show` listed no bond (`/act action:bond` uses them), nor Mira's
    money and income, nor her Guild token (an item that is not a resource). The GM's
    `/npc show` of the River Witch gave her Scores and attacks but not the Bone knife's
    special ("Bleeding (scene) on a heavy wound"), her vitality, stress, incentives or
    objections — what the GM runs her by."""
    h, gm = discord_harness, table.moderator
    await answered(await slash(h, table.player, "character import", example="mira"))
    _, text, _ = await answer(await slash(h, table.player, "character show", name="Mira Quell"))
    assert "motivation: Pay back the river guild that sheltered her as a child." in text, text
    assert "flaw: Cannot walk away from a wager, even a losing one." in text, text
    assert "Money 120 · income poor" in text, text
    assert "Guild token — Opens doors in guild houses" in text, text
    await answered(await slash(h, gm, "npc import", example="river-witch"))
    _, text, _ = await answer(await slash(h, gm, "npc show", name="River Witch"))
    assert "Bone knife: difficulty 4, melee — Bleeding (scene) on a heavy wound." in text, text
    assert "Vitality 110/110 · Wounds 0/0/0 · Stress 0/0/1" in text, text
    assert "Incentive: Old debts paid in river silver." in text, text
    assert "Objection: Iron thrown into her river." in text, text


async def test_a_late_joiner_to_a_rolled_order_is_told_what_they_rolled(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Utopia's order is everyone's Speed test, and `/encounter begin` showed each PC's ("3.
    Vesna (rolled 12)"). Brannoc's player joined on day 2 and read only "Brannoc takes place
    3 in the initiative order." — the bot had rolled his Speed test and kept it to itself, so
    he could not tell why he went after the hound — and the card under it listed him last.
    The reply (and the log, so an undo) now says what he rolled, as the fight's start does, and
    the card lists the combatants in the turn order."""
    h, gm = discord_harness, table.moderator
    await set_up_cast(
        h,
        table,
        "utopia",
        name="Reed Ford",
        pcs={"Vesna": "vesna"},
        npc=("stone-hound", "Stone hound"),
    )
    await answered(await slash(h, table.other_player, "character import", example="brannoc"))
    joined = await ok(await slash(h, table.other_player, "encounter join", character="Brannoc"))
    live = await bot.services.encounters.live(h.channel.id)
    brannoc = next(c for c in live.state.combatants if c.name == "Brannoc")
    assert brannoc.initiative is not None
    place = live.state.order.index(brannoc.id) + 1
    words = (
        f"Brannoc rolls {brannoc.initiative.primary} for initiative and takes place {place} in "
        "the initiative order."
    )
    assert words in joined.message.text(), joined.message.text()
    # The card under it lists everyone in that order, not the newcomer last.
    [card] = joined.message.embeds
    [listed] = [f for f in card["fields"] if f["name"].startswith("Combatants")]
    assert listed["name"] == "Combatants (3), in turn order", listed
    by_order = [c.name for cid in live.state.order for c in live.state.combatants if c.id == cid]
    assert listed["value"].replace(" (NPC)", "").replace("**", "").split("\n") == by_order
    undone = await ok(await slash(h, gm, "gm undo"))
    assert f"~~{words}~~" in undone.message.text(), undone.message.text()


async def test_a_weaponless_attack_reads_as_a_sentence(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Ilka, made with the Utopia form (no weapons yet: "none (weaponless …)"), punched the
    hound and the channel read "…with a weaponless attack; a weaponless attack damage (1d8 +
    …)". It now reads "weaponless damage", as a weapon's reads "Cestus damage"."""
    h, player = discord_harness, table.player
    await set_up_cast(
        h, table, "utopia", name="Pass", pcs={}, npc=("stone-hound", "Stone hound"), begin=False
    )
    await (await slash(h, player, "character create", ruleset="utopia")).response()
    form = {"name": "Ilka", "subtraits": "6 3 2 4 1 1 2 5 1 3 1 1", "pools": "14 12 16"}
    await answered(await h.submit_modal(player, h.channel, "sheet:create:character:utopia", form))
    await ok(await slash(h, player, "encounter join", character="Ilka"))
    await ok(await slash(h, table.moderator, "gm place engage", a="Ilka", b="Stone hound 1"))
    await ok(await slash(h, table.moderator, "encounter begin"))
    await pass_turns_until(bot, h, table, "Ilka")
    punch = await ok(
        await slash(h, player, "act", action="attack", target="Stone hound 1", detail="weaponless")
    )
    text = punch.message.text()
    assert "with a weaponless attack; weaponless damage (1d8" in text, text
    assert "a weaponless attack damage" not in text, text


async def test_a_gm_who_cannot_import_templates_is_pointed_at_what_their_system_takes(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """The new Utopia GM (no server role) tried `/npc import example:bandit-archer` as the
    README's Reed Ford shows and was told to add a one-off NPC "with `/gm add-npc name:
    health: stamina:`" — which their Utopia fight refuses ("takes `name` and `stamina` only,
    not `health`"), as Untitled and Uune refuse one-offs altogether. The refusal now says
    what each system's one-off takes, and the Utopia form it names is accepted."""
    h, gm = discord_harness, table.gm
    await ok(await slash(h, gm, "encounter start", name="Reed Ford", ruleset="utopia"))
    text = (
        await answered(await slash(h, gm, "npc import", example="bandit-archer"))
    ).response_data["content"]
    assert "name: health: stamina:" not in text, text
    assert "Utopia: `stamina:` only" in text and "Untitled and Uune have none" in text, text
    await ok(await slash(h, gm, "gm add-npc", name="Ruffian", stamina=12))


async def test_the_gm_gets_the_log_of_the_fight_that_just_ended(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """After `/encounter end` the summary says "archived, kept in the log", and
    `/encounter recap` still recaps that fight; but the GM who wanted the week's conflict for
    the campaign's records typed `/gm log` and read "There is no encounter in this channel."
    It now sends the log of the fight that ended last in the channel, to its GM only."""
    h, gm = discord_harness, table.moderator
    await set_up_cast(
        h,
        table,
        "uune",
        name="Dock nine",
        pcs={"Mira Quell": "mira"},
        npc=("dock-thug", "Dock Thug"),
    )
    await ok(await slash(h, table.player, "act", action="center"))
    click = await end_encounter(h, table)
    await click.wait_for(lambda r: any("Encounter ended" in m.text() for m in r.followups))
    record = await slash(h, gm, "gm log")
    await record.response()
    assert record.ephemeral
    text = record.response_data["content"]
    assert text.startswith("The log of **Dock nine** (ended <t:"), text
    files = sorted(a["filename"] for a in record.message.payload["attachments"])
    markdown = record.message.attachment(files[1]).text()
    assert "Mira Quell centers" in markdown, markdown
    refused = await slash(h, table.player, "gm log")
    await refused.response()
    assert refused.ephemeral and "GM" in refused.response_data["content"]


async def test_an_undone_button_press_names_the_button(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """In the Dock nine conflict the GM pressed "GM: approve all for the scene" instead of one
    resource, and undid it: "Undid **a decision's button**" — which of the eight buttons on
    that message? The undo (and `/gm log`) now names the button pressed."""
    h, gm = discord_harness, table.moderator
    await set_up_cast(
        h,
        table,
        "uune",
        name="Dock nine",
        pcs={"Mira Quell": "mira"},
        npc=("dock-thug", "Dock Thug"),
    )
    attack = await ok(
        await slash(
            h,
            table.player,
            "act",
            action="attack",
            target="Dock Thug 1",
            detail="Twin short blades, Street fencing",
        )
    )
    await press(h, gm, attack.message, "GM: approve all for the scene")
    undone = (await ok(await slash(h, gm, "gm undo"))).message.text()
    assert "Undid **the “GM: approve all for the scene” button** by <@" in undone, undone


async def test_a_default_action_from_another_system_is_refused_in_this_ones_words(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """The README's slow-fight example sets `default_action:Take a Breather` (UTTAS). The
    Utopia GM copied it for Brannoc and read "the default action is one of `Deep Breath`, or
    `none`" — one of one, and no word that Utopia's breather has another name. The refusal
    now names the game system and reads as a sentence."""
    h, gm = discord_harness, table.moderator
    await set_up_cast(
        h,
        table,
        "utopia",
        name="Reed Ford",
        pcs={"Brannoc": "brannoc"},
        npc=("stone-hound", "Stone hound"),
    )
    said = (
        await answered(
            await slash(h, gm, "gm settings", combatant="Brannoc", default_action="Take a Breather")
        )
    ).response_data["content"]
    assert said == (
        "Brannoc cannot default to `Take a Breather`: in Utopia the default action is "
        "`Deep Breath` (or `none` for no default)."
    ), said
