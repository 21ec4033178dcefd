"""The Untitled worked example, "The giant at the mill" (``docs/rules/untitled.md``, "A worked
example"), replayed through Discord with scripted dice: the text's archer (she moves while
drawing her bow, fires as the standard action and reloads with the second move action), a
melee fighter with a shield (the shield is his choice, a button), a held action that changes
the order for good, a critical and a tie that goes to the defender. Each step is what the prose
says, with the slash commands and buttons a table would use; the dice are the prose's."""

from __future__ import annotations

from bot.client import CombatBot
from tests.e2e.combat_helpers import answered, press, slash
from tests.e2e.conftest import DiceBox, Table
from tests.e2e.test_worked_example import Table5
from tests.harness.models import StoredMessage
from tests.harness.server import DiscordHarness

GIANT = "Hill giant 1"


def labels(message: StoredMessage) -> list[str]:
    return [c.get("label", "") for row in message.components for c in row["components"]]


async def test_the_giant_at_the_mill(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    h = discord_harness
    t = Table5(h, table, dice)
    gm, wren, brask = table.moderator, table.player, table.other_player

    async def brask_does(command: str, **options: object) -> StoredMessage:
        record = await answered(await slash(h, brask, command, **options))
        assert not record.ephemeral, record.response_data
        return record.message

    await t.gm("encounter start", name="The mill", ruleset="untitled")
    await answered(await slash(h, wren, "character import", example="wren"))
    await answered(await slash(h, brask, "character import", example="brask"))
    await t.player("encounter join", character="Wren")
    await brask_does("encounter join", character="Brask")
    await answered(await slash(h, gm, "npc import", example="hill-giant"))
    await t.gm("gm add-npc", template="Hill giant")

    # The order: the Storyteller's, the join order suggested; the GM keeps it.
    begun = await t.gm("encounter begin")
    assert "1. Wren, 2. Brask, 3. Hill giant 1" in begun.text()
    assert "Round 1 begins (6 seconds)." in begun.text()

    # ---- Round 1. Wren: the bow comes off her back as she moves (one move action). ---------
    drew = await t.player("act", action="move", amount=9.0, detail="Longbow")
    assert "Wren spends 1 move action to move 9 m while drawing Longbow." in drew.text()
    # The standard action: Bows 7, Journeyman 2d8 (8, 7) + 7 = 22 against the giant's Combat
    # Defense 2, 2d6 (1, 2) + 2 = 5. 22 is at least double 5: a critical — Archery 4 rolls a
    # tier higher, Journeyman 2d8 (5, 5) + 4 = 14; the giant's heavy armor (level 4, 1d8)
    # stops 3: 11 of his 60 Health.
    dice.load([8, 7, 1, 2, 5, 5, 3])
    shot = await t.player("act", action="attack", target=GIANT, detail="Longbow")
    assert "2d8 [8] [7] + 7 = 22 against Combat Defense: [1, 2]: a critical hit" in shot.text()
    assert "Archery (Journeyman, critical): 2d8 [5] [5] + 4 = 14; Heavy armor: [3]" in shot.text()
    assert labels(h.message(shot)) == []
    # The second move action reloads the bow for the next round.
    reloaded = await t.player("act", action="reload")
    assert "Wren spends 1 move action to reload their Longbow." in reloaded.text()
    await t.player("endturn")

    # ---- Brask holds his action until the giant swings. -----------------------------------
    held = await brask_does("act", action="hold", detail="the giant swings")
    assert "Brask holds their action until the giant swings." in held.text()
    assert "Round 1: Hill giant 1's turn." in held.text()

    # ---- The giant swings at Brask: he carries a shield, so the choice is his. -------------
    club = await t.gm("act", action="attack", target="Brask", detail="Tree-trunk club")
    assert "**Brask** may defend with their Oak heater shield or with Combat Defense alone." in (
        club.text()
    )
    # Clubs 9: 2d8 (6, 5) + 9 = 20 against Combat Defense 5, 2d6 (4, 3) + 5 = 12, and the
    # shield (Heater shield 4, 2d6: 3, 2) — 17: a hit. Crushing blows 11, Expert 2d10 (4, 3)
    # + 11 = 18; his mail (Medium armor 6, 2d6: 4, 2) stops 6: 12 of his 30 Health.
    dice.load([6, 5, 4, 3, 3, 2, 4, 3, 4, 2])
    await press(h, brask, club, "Raise the Oak heater shield")
    assert dice.empty
    assert "12 Health lost, 18 left" in h.message(club).text()
    # That is his moment: he acts as soon as the giant's turn ends, and keeps that place.
    resumed = await brask_does("act", action="resume")
    assert "Brask will act as soon as the current turn ends." in resumed.text()
    ended = await t.gm("endturn")
    assert "Brask takes their held action and goes after Hill giant 1 from now on." in (
        ended.text()
    )
    # Swords 6: 2d8 (3, 2) + 6 = 11 against 2d6 (4, 3) + 2 = 9: a hit, not a critical.
    # Sword and board 5, Journeyman 2d8 (6, 5) + 5 = 16; the heavy armor stops 4: 12 more.
    dice.load([3, 2, 4, 3, 6, 5, 4])
    cut = await brask_does("act", action="attack", target=GIANT)
    assert "2d8 [3] [2] + 6 = 11 against Combat Defense: [4, 3]: a hit" in cut.text()
    assert "critical" not in cut.text()
    gm_view = await slash(h, gm, "encounter status")
    await gm_view.response()
    assert "Health 37/60" in gm_view.response_data["embeds"][0]["description"]
    # ---- Round 2: Wren, the giant, then Brask — the hold moved him for good. ---------------
    round2 = await brask_does("endturn")
    assert "Round 2: Wren's turn" in round2.text()
    # A tie goes to the defender: 2d8 (1, 2) + 7 = 10 against 2d6 (4, 4) + 2 = 10.
    dice.load([1, 2, 4, 4])
    tie = await t.player("act", action="attack", target=GIANT, detail="Longbow")
    assert "2d8 [1] [2] + 7 = 10 against Combat Defense: [4, 4]: a miss." in tie.text()
    await t.player("act", action="reload")
    after = await t.player("endturn")
    assert "Round 2: Hill giant 1's turn." in after.text()
    # The giant turns on Wren: no shield, nothing to choose — rolled at once, a miss.
    dice.load([2, 1, 5, 5])
    swing = await t.gm("act", action="attack", target="Wren", detail="Tree-trunk club")
    assert "against Combat Defense (Novice): 2d6 [5] [5] + 3 = 13: a miss." in swing.text()
    assert labels(h.message(swing)) == []
    last = await t.gm("endturn")
    assert "Round 2: Brask's turn" in last.text()
