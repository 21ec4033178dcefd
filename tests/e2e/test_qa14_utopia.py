"""QA round 14: a Utopia fight played by a GM and three players over several days, attacked
through Discord — every ``/act`` action with boundary and absurd options, buttons pressed at
the wrong moment, the GM's moderation commands, undo and redo. Each test is a defect found and
fixed: it states what a user should see."""

from __future__ import annotations

from bot.client import CombatBot
from tests.e2e.combat_helpers import (
    answered,
    current_name,
    game_state,
    ok,
    pass_turns_until,
    press,
    refused,
    slash,
)
from tests.e2e.conftest import Table
from tests.e2e.test_qa12_utopia import hound_fight
from tests.harness.models import InteractionRecord, StoredMessage
from tests.harness.server import DiscordHarness

HOUND = "Stone hound 1"


async def _state(bot: CombatBot, h: DiscordHarness) -> str:
    return (await bot.services.encounters.live(h.channel.id)).state_json


# ---- /act travel and leap -------------------------------------------------------------------


async def test_travel_or_leap_of_zero_meters_is_refused_not_taken_as_the_most(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """``amount:0`` used to move Vesna her whole 5 m (1 TA spent): 0 was read as "no amount
    given". A move of nothing, or toward oneself, is refused and costs nothing."""
    h = discord_harness
    await hound_fight(h, table)
    await pass_turns_until(bot, h, table, "Vesna")
    before = game_state(await _state(bot, h))
    for options in (
        {"action": "travel", "amount": 0.0},
        {"action": "leap", "amount": 0.0},
    ):
        text = await refused(await slash(h, table.player, "act", **options))
        assert "0 m" in text and "`amount:`" in text, text
    for action in ("travel", "leap"):
        text = await refused(await slash(h, table.player, "act", action=action, target="Vesna"))
        assert "toward themselves" in text, text
    assert game_state(await _state(bot, h)) == before


# ---- pledged Assists ------------------------------------------------------------------------


async def test_a_pledge_made_on_the_aided_creatures_turn_says_when_it_really_lapses(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Brannoc pledged to assist Vesna's next test during Vesna's turn; the channel read
    "until the end of Vesna's next turn", yet the pledge lapsed when that very turn ended."""
    h = discord_harness
    await hound_fight(h, table)
    await pass_turns_until(bot, h, table, "Vesna")
    pledge = await ok(
        await slash(h, table.other_player, "act", action="assist", target="Vesna", detail="test")
    )
    said = pledge.message.text()
    assert "until the end of Vesna's turn" in said and "next turn" not in said, said
    ended = await ok(await slash(h, table.player, "endturn"))
    assert "The assistance pledged to Vesna lapses unused." in ended.message.text()
    # Pledged on someone else's turn, it waits for Vesna's next one, as it says.
    await pass_turns_until(bot, h, table, "Brannoc")
    again = await ok(
        await slash(h, table.other_player, "act", action="assist", target="Vesna", detail="test")
    )
    assert "until the end of Vesna's next turn" in again.message.text()
    await ok(await slash(h, table.other_player, "endturn"))
    assert "pledged to Vesna lapses" not in str(
        (await bot.services.encounters.log((await bot.services.encounters.live(h.channel.id)).id))[
            -1
        ].result
    )


# ---- /gm vital ------------------------------------------------------------------------------


async def test_gm_vital_refusals_name_the_utopia_vital_not_uttas_health(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """A GM who typed a decimal or a huge number for the hound's SHP was told "Health and
    Stamina change in whole numbers" / "Health and Stamina stay within ±100000": UTTAS's
    vitals, which a Utopia creature does not have."""
    h = discord_harness
    await hound_fight(h, table)
    before = await _state(bot, h)
    for vital, amount, said in (
        ("shp", "2.5", "Amounts of SHP are whole numbers"),
        ("dhp", "-999999", "Amounts of DHP stay within ±100000"),
        ("stamina", "+1d6+0.5", "Amounts of Stamina are whole numbers"),
        ("ia", "999999", "Amounts of IA stay within ±100000"),
    ):
        text = await refused(
            await slash(h, table.moderator, "gm vital", combatant=HOUND, vital=vital, amount=amount)
        )
        assert said in text and "Health" not in text, text
    assert await _state(bot, h) == before


# ---- /gm refresh ----------------------------------------------------------------------------


async def test_refresh_to_a_sheet_with_fewer_actions_lowers_the_actions_left(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Vesna's player cut her sheet to 3 TA and 1 IA; after `/gm refresh` the GM's tracker
    still read "Vesna · 6 TA · 2 IA" and she could spend them: a refresh lowered SHP, DHP
    and Stamina to the new maximums but not the turn and interrupt actions left."""
    h = discord_harness
    await hound_fight(h, table)
    for field, value in (("turn_actions", "3"), ("interrupt_actions", "1")):
        await answered(
            await slash(h, table.player, "character edit", name="Vesna", field=field, value=value)
        )
    await answered(await slash(h, table.moderator, "gm refresh", combatant="Vesna"))
    status = await slash(h, table.moderator, "encounter status")
    await status.response()
    [line] = [line for line in status.message.text().splitlines() if "**Vesna**" in line]
    assert "3 TA · 1 IA" in line, line
    # Still off her turn, her one IA cannot pay for a TA action (2 IA per TA).
    assert await current_name(bot, h) == HOUND
    text = await refused(await slash(h, table.player, "act", action="deep-breath"))
    assert "Vesna cannot take a deep breath" in text, text


# ---- undo and redo --------------------------------------------------------------------------


def _labels(message: StoredMessage) -> list[str]:
    return [c.get("label", "") for c in message.all_components() if c.get("type") == 2]


def _pinged(record: InteractionRecord) -> list[int]:
    """The members the reply is allowed to notify (its text may name others: "by @GM")."""
    mentions = record.response_data.get("allowed_mentions") or {}
    return [int(u) for u in mentions.get("users") or []]


async def test_undo_that_gives_a_turn_back_tells_its_player_and_brings_back_the_buttons(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Vesna's player ended her turn by mistake; the GM's `/gm undo` gave it back, but nobody
    was told (no mention, nothing in the channel said whose turn it was) and the ping's End
    turn / Deep Breath / Attack… buttons, taken off when the turn ended, never came back: a
    player reading the channel days later could not tell it was their turn."""
    h = discord_harness
    player = table.player
    await hound_fight(h, table)
    await pass_turns_until(bot, h, table, "Vesna")
    await ok(await slash(h, player, "endturn"))
    undo = await ok(await slash(h, table.moderator, "gm undo"))
    said = undo.message.text()
    assert _pinged(undo) == [player.id] and "**Vesna**'s turn" in said, said
    assert _labels(undo.message) == ["End turn", "Deep Breath", "Attack…"]
    breath = await press(h, player, undo.message, "Deep Breath")
    assert "Vesna spends 1 TA to take a deep breath." in breath.message.text()
    # The turn moves on again: that ping loses its buttons like any other.
    await ok(await slash(h, player, "endturn"))
    await h.wait_for(lambda: h.message(undo.message).components == [])
    # Redo of the hound's turn start names the GM, who runs it; an undo that changes no turn
    # mentions nobody.
    await ok(await slash(h, table.moderator, "gm undo"))
    redo = await ok(await slash(h, table.moderator, "gm redo"))
    assert _pinged(redo) == [table.moderator.id], redo.response_data
    await ok(await slash(h, table.moderator, "act", action="deep-breath"))
    quiet = await ok(await slash(h, table.moderator, "gm undo"))
    assert _pinged(quiet) == [], quiet.response_data
    assert _labels(quiet.message) == []


# ---- Interchanging Actions ------------------------------------------------------------------


async def test_on_her_own_turn_spent_turn_actions_are_not_paid_with_interrupt_actions(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """With her 6 TA spent, Vesna's player could still take a Deep Breath on her own turn:
    "Vesna spends 2 IA to take a deep breath" — a seventh TA each turn. "Interchanging
    Actions" trades 2 IA for 1 TA only "when it's not your turn" (the rule table, row 9, says
    so too); an action priced "1 turn action or 1 interrupt action" takes the IA instead."""
    h = discord_harness
    await hound_fight(h, table)
    await pass_turns_until(bot, h, table, "Vesna")
    await ok(await slash(h, table.moderator, "gm vital", combatant="Vesna", vital="ta", amount="0"))
    before = game_state(await _state(bot, h))
    for options in (
        {"action": "deep-breath"},
        {"action": "attack", "target": HOUND, "detail": "Knife"},
        {"action": "stealth"},
    ):
        text = await refused(await slash(h, table.player, "act", **options))
        assert "no turn actions left" in text and "interrupt actions pay" not in text, text
    assert game_state(await _state(bot, h)) == before
    # A Block is "1 turn action or 1 interrupt action": with her TA spent, on her turn, it
    # costs her 1 IA (not 2 IA as if it were a turn action), as Brannoc's jab shows.
    jab = await ok(
        await slash(h, table.other_player, "act", action="attack", target="Vesna", detail="Cestus")
    )
    labels = [c.get("label") for c in jab.message.all_components() if c.get("type") == 2]
    assert labels[:2] == ["Block (1 IA)", "Dodge (1 IA)"], labels
    await ok(await slash(h, table.moderator, "gm undo"))
    # Off her turn her 2 IA still pay for a 1-TA action.
    await ok(await slash(h, table.player, "endturn"))
    knife = await ok(
        await slash(h, table.player, "act", action="attack", target=HOUND, detail="Knife")
    )
    assert "Vesna spends 2 IA to attack Stone hound 1 with Knife." in knife.message.text()


# ---- Assist on a Block or Dodge ---------------------------------------------------------------


async def test_removing_a_helper_while_a_dodge_waits_leaves_the_dodge_rollable(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Brannoc had assisted Vesna's Dodge when the GM removed him from the encounter. The
    prompt then read "Given so far: **someone** +1d12", and Vesna's "Roll the Dodge now"
    answered "That decision is no longer pending" — the roll looked for the helper who had
    left. The leaver's Assist goes with him; the Dodge rolls with what is left."""
    h = discord_harness
    await hound_fight(h, table)
    await pass_turns_until(bot, h, table, HOUND)
    bite = await ok(
        await slash(
            h, table.moderator, "act", action="attack", target="Vesna", detail="Crushing bite"
        )
    )
    await press(h, table.player, bite.message, "Dodge")
    await h.wait_for(lambda: _assist_prompt(h) is not None)
    first = _assist_prompt(h)
    assert first is not None
    await press(h, table.other_player, first, "Assist")
    await h.wait_for(lambda: _assist_prompt(h) not in (None, first))
    removed = await ok(await slash(h, table.moderator, "gm remove", combatant="Brannoc"))
    assert "Brannoc's Assist" in removed.message.text(), removed.message.text()
    await h.wait_for(lambda: len(_roll_prompts(h)) == 1)
    [prompt] = _roll_prompts(h)
    assert "someone" not in prompt.text(), prompt.text()
    rolled = await press(h, table.player, prompt, "Roll the Dodge now")
    assert "Vesna dodges" in rolled.message.text(), rolled.message.text()
    assert "Assist from" not in rolled.message.text(), rolled.message.text()
    live = await bot.services.encounters.live(h.channel.id)
    assert live.state.decisions == []


def _roll_prompts(h: DiscordHarness) -> list[StoredMessage]:
    """The messages still offering Vesna's "Roll the Dodge now"."""
    return [m for m in h.messages_in(h.channel) if "Roll the Dodge now" in _labels(m)]


def _assist_prompt(h: DiscordHarness) -> StoredMessage | None:
    """The newest message offering an Assist on Vesna's Dodge."""
    found = [m for m in h.messages_in(h.channel) if any("Assist" in label for label in _labels(m))]
    return found[-1] if found else None


async def test_removing_a_creature_that_pledged_an_assist_leaves_the_aided_one_free_to_act(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Brannoc pledged to assist Vesna's next test, Leap and grapple; the GM then removed him.
    Every `/check`, Leap or Grapple of Vesna's answered "No combatant called 'c3' in this
    encounter." (an internal id) until her turn ended: the pledges still named him."""
    h = discord_harness
    await hound_fight(h, table)
    await pass_turns_until(bot, h, table, "Brannoc")
    for form in ("test", "leap"):
        await ok(
            await slash(h, table.other_player, "act", action="assist", target="Vesna", detail=form)
        )
    removed = await ok(await slash(h, table.moderator, "gm remove", combatant="Brannoc"))
    said = removed.message.text()
    assert "Brannoc's pledged Assist to Vesna goes with them." in said, said
    assert await current_name(bot, h) == "Vesna"
    check = await ok(await slash(h, table.player, "check", skill="Awareness", difficulty=5))
    assert "Brannoc" not in check.message.text(), check.message.text()
    leap = await ok(await slash(h, table.player, "act", action="leap", amount=1.0))
    assert "assisted" not in leap.message.text(), leap.message.text()


# ---- what a refusal quotes ------------------------------------------------------------------


async def test_a_refusal_quotes_typed_names_as_typed_not_as_markdown(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Vesna's player typed `detail:*Longbow*` (asterisks from a copied note) and read "Vesna
    has no weapon called 'Longbow'" — Discord drew the asterisks as italics, so the refusal
    seemed to deny the Longbow she has. What the member typed is quoted escaped, as the
    combatant names in refusals already are."""
    h = discord_harness
    await hound_fight(h, table)
    await pass_turns_until(bot, h, table, "Vesna")
    for options, typed in (
        ({"action": "attack", "target": HOUND, "detail": "*Longbow*"}, r"'\*Longbow\*'"),
        ({"action": "sheath", "detail": "__Knife__"}, r"'\_\_Knife\_\_'"),
        ({"action": "don", "detail": "~~coat~~"}, r"'\~\~coat\~\~'"),
        ({"action": "cast", "detail": "**Spark**"}, r"'\*\*Spark\*\*'"),
        ({"action": "travel", "detail": "`air`"}, r"'\`air\`'"),
        ({"action": "stealth", "detail": "||seen||"}, r"'\|\|seen\|\|'"),
        ({"action": "*aim*"}, r"'\*aim\*'"),
    ):
        text = await refused(await slash(h, table.player, "act", **options))
        assert typed in text, (options, text)
    text = await refused(await slash(h, table.player, "check", skill="<@&1234567890123456789>"))
    assert "<@&1234567890123456789>" not in text, text
    text = await refused(
        await slash(h, table.moderator, "gm vital", combatant=HOUND, vital="*hp*", amount="1")
    )
    assert r"'\*hp\*'" in text, text


async def test_off_turn_the_refusal_says_held_interrupt_actions_do_not_pay_for_a_turn_action(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Vesna held two actions (2 held IA), then off her turn spent her own 2 IA on a Deep
    Breath. The tracker still showed her "2 IA", yet a second Deep Breath answered only "no
    turn actions left (2 interrupt actions pay for 1)": it did not say that held interrupt
    actions are kept for interrupt actions (a Block, a Dodge, an Assist)."""
    h = discord_harness
    await hound_fight(h, table)
    await pass_turns_until(bot, h, table, "Vesna")
    for _ in range(2):
        await ok(await slash(h, table.player, "act", action="hold"))
    await pass_turns_until(bot, h, table, HOUND)
    await ok(await slash(h, table.player, "act", action="deep-breath"))
    text = await refused(await slash(h, table.player, "act", action="deep-breath"))
    assert "held" in text and "interrupt action" in text, text
