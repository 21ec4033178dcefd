"""Going later in a Utopia fight through Discord (``utopia-actions.txt`` "Standard Actions": "A
creature may choose to put themselves lower in turn order, but not higher"): Vesna, first
after the Speed tests, goes after Brannoc with ``/act action:delay``; the turn passes on,
hers comes again at her new place in the same round, and the order keeps it the next round.
Going earlier, or going later after spending TA, is refused and changes nothing."""

from __future__ import annotations

from bot.client import CombatBot
from tests.e2e.combat_helpers import answered, refused, slash
from tests.e2e.conftest import DiceBox, Table
from tests.e2e.test_utopia_interleave import reed_ford
from tests.e2e.test_worked_example import Table5
from tests.harness.server import DiscordHarness

BANDIT = "Bandit archer 1"


async def test_a_creature_goes_later_in_the_order_never_earlier(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    h = discord_harness
    t = Table5(h, table, dice)
    gm, player, other = table.moderator, table.player, table.other_player

    await reed_ford(h, table, t)
    await t.gm("gm add-npc", template="Bandit archer")

    # Speed tests: Vesna 6+6+5 +1 = 18, Brannoc 5+5+5 −1 = 14, the bandit 1+2+1 = 4.
    dice.load([6, 6, 5, 5, 5, 5, 1, 2, 1])
    begun = await t.gm("encounter begin")
    assert "Round 1: Vesna's turn (6 TA left)." in begun.text()

    # Vesna goes after Brannoc: free, for good; Brannoc's turn starts.
    waited = await t.player("act", action="delay", target="Brannoc")
    assert "Vesna waits: from now on they go after Brannoc." in waited.text()
    assert "Round 1: Brannoc's turn" in waited.text()

    # Brannoc ends his turn: Vesna's comes again at her new place, this round, with her TA.
    ended = (await answered(await slash(h, other, "endturn"))).message
    assert ended is not None and "Round 1: Vesna's turn (6 TA left)." in ended.text()

    # Once she has spent TA it is too late; going "later" after someone earlier is refused.
    await t.player("act", action="aim")
    text = await refused(await slash(h, player, "act", action="delay", target=BANDIT))
    assert "Vesna has already acted this turn: it is too late to go later." in text
    ended = await t.player("endturn")
    assert "Round 1: Bandit archer 1's turn." in ended.text()
    text = await refused(await slash(h, gm, "act", action="delay", target="Vesna"))
    assert "may only go later in the order" in text
    assert "Vesna does not come after Bandit archer 1" in text

    # Round 2 keeps the new order: Brannoc, then Vesna, then the bandit.
    next_round = await t.gm("endturn")
    assert "Round 2: Brannoc's turn" in next_round.text()
