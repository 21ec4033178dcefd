"""Utopia's optional interleaved turn order through Discord (``utopia-actions.txt`` "Turn
order": "each creature goes after each action"): the GM turns it on in setup with ``/gm
settings interleaved:``; Vesna and Brannoc alternate one action at a time, the ping and the
tracker say whose action it is and the TA left, acting out of turn is refused by name, and the
round ends once everyone has spent or given up their TA. UTTAS refuses the setting."""

from __future__ import annotations

from bot.client import CombatBot
from tests.e2e.combat_helpers import answered, refused, slash
from tests.e2e.conftest import DiceBox, Table
from tests.e2e.test_worked_example import Table5
from tests.harness.server import DiscordHarness

BANDIT = "Bandit archer 1"


async def reed_ford(h: DiscordHarness, table: Table, t: Table5) -> None:
    """The Reed ford, in Utopia: Vesna (the player's) and Brannoc (the other player's) join;
    the GM imports the Bandit archer template (not yet added)."""
    gm, player, other = table.moderator, table.player, table.other_player
    await t.gm("encounter start", name="Reed ford", ruleset="utopia")
    await answered(await slash(h, player, "character import", example="vesna"))
    await t.player("encounter join", character="Vesna")
    await answered(await slash(h, other, "character import", example="brannoc"))
    await answered(await slash(h, other, "encounter join", character="Brannoc"))
    await answered(await slash(h, gm, "npc import", example="bandit-archer"))


async def test_two_creatures_alternate_actions_in_the_interleaved_order(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    h = discord_harness
    t = Table5(h, table, dice)
    gm, player, other = table.moderator, table.player, table.other_player

    await reed_ford(h, table, t)
    await t.gm("gm settings", interleaved=True)
    shown = await slash(h, gm, "gm settings")
    await shown.response()
    assert "- interleaved turn order: yes" in shown.response_data["content"]

    # Speed tests: Vesna 6+6+5 +1 = 18, Brannoc 5+5+5 −1 = 14, the bandit 1+2+1 = 4.
    await t.gm("gm add-npc", template="Bandit archer")
    dice.load([6, 6, 5, 5, 5, 5, 1, 2, 1])
    begun = await t.gm("encounter begin")
    assert "Round 1: Vesna acts (6 TA left)." in begun.text()
    assert f"<@{player.id}> Round 1: **Vesna** acts (6 TA left)" in begun.text()

    # Vesna aims (1 TA): her action is done and Brannoc acts.
    aimed = await t.player("act", action="aim")
    assert "Vesna's action is done (5 TA left this round)." in aimed.text()
    assert f"<@{other.id}> Round 1: **Brannoc** acts (6 TA left)" in aimed.text()

    # Out of turn: a Longbow shot would need 4 IA; ending the turn is not hers to do.
    text = await refused(
        await slash(h, player, "act", action="attack", target=BANDIT, detail="Longbow", amount=10.0)
    )
    assert "It is Brannoc's action, not Vesna's (interleaved turn order)" in text
    assert "their 5 TA wait for their next action" in text
    text = await refused(await slash(h, player, "endturn", as_="Vesna"))
    assert "It is Brannoc's turn, not Vesna's." in text

    # Brannoc takes a deep breath (1 TA), then the bandit (whose numbers players do not see):
    # back to Vesna, who kept her 5 TA.
    breath = (await answered(await slash(h, other, "act", action="deep-breath"))).message
    assert breath is not None
    assert "Round 1: **Bandit archer 1** acts:" in breath.text()
    assert "Bandit archer 1 acts (6 TA" not in breath.text()
    breath = await t.gm("act", action="deep-breath")
    assert f"<@{player.id}> Round 1: **Vesna** acts (5 TA left)" in breath.text()
    status = await slash(h, player, "encounter status")
    await status.response()
    embed = status.response_data["embeds"][0]
    now = {f["name"]: f["value"] for f in embed["fields"]}["Now"]
    assert "Round 1: **Vesna** acts (5 TA left)" in now
    assert "**Vesna** · 5 TA" in embed["description"]

    # Vesna ends her turn: she gives up her TA for the round; Brannoc and the bandit do too,
    # and round 2 starts over from the top with full TA.
    ended = await t.player("endturn")
    assert "Vesna is done for the round (gives up 5 TA)." in ended.text()
    assert "Round 1: **Brannoc** acts (5 TA left)" in ended.text()
    ended = (await answered(await slash(h, other, "endturn"))).message
    assert ended is not None and "Round 1: **Bandit archer 1** acts:" in ended.text()
    round_two = await t.gm("endturn")
    assert "Bandit archer 1 is done for the round." in round_two.text()
    assert "gives up 5 TA" not in round_two.text()  # an NPC's TA are the GM's to see
    assert "Round 2 begins." in round_two.text()
    assert f"<@{player.id}> Round 2: **Vesna** acts (6 TA left)" in round_two.text()

    # An attack passes the turn once its damage is settled (the bandit does not react): Vesna's
    # aim from round 1 waited across the others' goes (close range and aim: 2 favor, 5 dice).
    dice.load([4, 4, 4, 4, 4, 8])
    shot = await t.player("act", action="attack", target=BANDIT, detail="Longbow", amount=10.0)
    assert "Vesna spends 2 TA to attack Bandit archer 1 with Longbow." in shot.text()
    assert "3d6 +2 favor" in shot.text()
    assert "Vesna's action is done (4 TA left this round)." in shot.text()
    assert f"<@{other.id}> Round 2: **Brannoc** acts (6 TA left)" in shot.text()

    # Once begun, the order cannot change shape.
    text = await refused(await slash(h, gm, "gm settings", interleaved=False))
    assert "before the fight begins" in text


async def test_uttas_refuses_the_interleaved_order(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await answered(await slash(h, table.gm, "encounter start", name="Firewood"))
    text = await refused(await slash(h, table.gm, "gm settings", interleaved=True))
    assert "This game system has no interleaved turn order" in text
    shown = await slash(h, table.gm, "gm settings")
    await shown.response()
    assert "interleaved" not in shown.response_data["content"]
