"""The UTTAS text's "Combat in action", played through Discord: slash commands and reaction
buttons pressed by the members who would press them, round by round.

The text fixes who acts and what happens, not the dice, so every die is SCRIPTED (the same
faces as the engine's acceptance test, tests/engine/test_worked_example.py) to produce the
narrated outcome; the comments say what each handful does. The three thugs are the three
example thugs (``plausibility.THUGS``), imported as NPC templates and added one of each: Thug 1
of the text (the one the bear beats on) is "Brawler 1", Thug 2 (Willow's) "Lackey 1", Thug 3
(who sprints away) "Ringleader 1". What is checked is what the members
see: the embeds, the buttons, the mentions, the tracker.
"""

from __future__ import annotations

from typing import Any

from bot.client import CombatBot
from tests.e2e.combat_helpers import answered, ok, press, slash
from tests.e2e.conftest import DiceBox, Table
from tests.harness.models import InteractionRecord, Member, StoredMessage
from tests.harness.server import DiscordHarness


class Table5:
    def __init__(self, h: DiscordHarness, table: Table, dice: DiceBox) -> None:
        self.h, self.table, self.dice = h, table, dice
        self.clicks: dict[int, InteractionRecord] = {}

    async def player(self, command: str, **options: Any) -> StoredMessage:
        return (await ok(await slash(self.h, self.table.player, command, **options))).message

    async def gm(self, command: str, **options: Any) -> StoredMessage:
        return (await self.gm_record(command, **options)).message

    async def gm_record(self, command: str, **options: Any) -> InteractionRecord:
        return await ok(await slash(self.h, self.table.moderator, command, **options))

    @staticmethod
    async def gm_copy(record: InteractionRecord) -> str:
        """The exact numbers the GM alone receives (an ephemeral followup)."""
        await record.wait_for(lambda r: any("Exact numbers" in m.text() for m in r.followups))
        [copy] = [m for m in record.followups if "Exact numbers (GM only)" in m.text()]
        assert copy.ephemeral
        return copy.text()

    async def decide(
        self, who: Member, prompt: StoredMessage, label: str, faces: list[int]
    ) -> InteractionRecord:
        self.dice.load(faces)
        click = await press(self.h, who, prompt, label)
        assert self.dice.empty
        self.clicks[prompt.id] = click
        return click

    def seen(self, message: StoredMessage) -> str:
        """What the channel saw of a prompt: the prompt (now the result) and what the last click
        on it posted after it (the next turn's ping, the next hit's prompt)."""
        after = self.clicks.get(message.id)
        posted = [m.text() for m in after.followups if not m.ephemeral] if after else []
        return "\n".join([self.h.message(message).text(), *posted])

    async def posted_after(self, message: StoredMessage, text: str) -> StoredMessage:
        """The message a click on ``message`` posted next that contains ``text`` (a turn's ping,
        the next hit's prompt), waiting for it."""
        click = self.clicks[message.id]
        await click.wait_for(lambda r: any(text in m.text() for m in r.followups))
        return next(m for m in click.followups if text in m.text())


async def test_combat_in_action(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    h = discord_harness
    t = Table5(h, table, dice)
    gm, player = table.moderator, table.player

    # The cast: the player's Willow and her bear; the GM's three thugs, who react to attacks.
    # Each thug has its own example sheet: the GM imports the three and adds one of each.
    await t.gm("encounter start", name="Firewood")
    for example in ("willow", "general-bearington"):
        await answered(await slash(h, player, "character import", example=example))
    await t.player("encounter join", character="Willow")
    await t.player("encounter join", character="General Bearington")
    for example in ("brawler", "lackey", "ringleader"):  # plausibility.THUGS
        await answered(await slash(h, gm, "npc import", example=example))
    for template in ("Brawler", "Lackey", "Ringleader"):
        added = await t.gm("gm add-npc", template=template, count=1)
        assert f"{template} 1" in added.text()

    await t.gm("gm settings", npcs_react=True)

    # Initiative by Agility: Willow and the bear (12) before the thugs (10); ties roll 2d6.
    dice.load([2, 3, 5, 5, 6, 6, 1, 1, 3, 3])
    begun = await t.gm("encounter begin")
    text = begun.text()
    assert "General Bearington**'s turn" in text and f"<@{player.id}>" in text
    order = text.index("General Bearington"), text.index("Willow"), text.index("Brawler 1")
    assert order == tuple(sorted(order)), text

    # ---- Round 1 ---------------------------------------------------------------------------
    # Bearington charges (free half move) and hits the Brawler, nearly knocking him out.
    assert "moves 6 m" in (await t.player("move", meters=6.0)).text()
    prompt = await t.player("attack", target="Brawler 1", with_="Claws")
    assert f"<@{gm.id}>" in prompt.content  # the GM decides for NPCs in this encounter
    click = await t.decide(gm, prompt, "Take it", [4, 4, 4, 3, 3, 3, 3, 2])
    seen = t.seen(prompt)
    assert "Hit!" in seen and "Brawler 1 looks **Bloodied**" in seen  # NPC numbers hidden …
    assert "4 Health" not in seen and "12 Stamina" not in seen and "6/18" not in seen
    exact = await t.gm_copy(click)  # … except from the GM, who clicked
    assert "4 Health" in exact and "12 Stamina" in exact and "Health 10/14" in exact
    assert "Stamina 6/18" in exact
    # How the damage came about: dice counted minus Armor, total minus Defense; the labelled
    # Accuracy bonus against the Dodge it had to beat.
    assert "4 Health (5 dice − Armor 1), 12 Stamina (14 − Defense 2)" in exact
    assert "Accuracy bonus" in exact and "vs Brawler 1's Dodge" in exact

    # Willow Blasts the Lackey, who spends one of his 4 actions dodging; she rolls poorly.
    prompt = await t.player("attack", target="Lackey 1", with_="Blast", range=10.0)
    await t.decide(gm, prompt, "Evade", [1, 2, 3])
    seen = t.seen(prompt)
    assert "Lackey 1 reacts: Evade" in seen and "[1, 2, 3]" in seen and "**Miss.**" in seen

    # Two thugs gang up on the bear: the Brawler hits, the Ringleader misses.
    prompt = await t.gm("attack", target="General Bearington", with_="Cudgel")
    assert f"<@{player.id}>" in prompt.content  # the bear's controller is asked
    await t.decide(player, prompt, "Take it", [5, 5, 4, 4, 4, 4])
    assert "Hit!" in t.seen(prompt) and "Stamina 50/60" in t.seen(prompt)
    prompt = await t.gm("attack", target="General Bearington", with_="Cudgel")
    await t.decide(player, prompt, "Take it", [2, 3, 3])
    assert "**Miss.**" in t.seen(prompt)

    # The Lackey charges Willow, and misses (rules version 2: his pool, 3 after the dodge,
    # refilled to 4 as his turn began).
    moved = await t.gm("move", meters=5.0)
    assert "Lackey 1" in moved.text()
    record = await t.gm_record("attack", target="Willow", with_="Cudgel")
    prompt = record.message
    assert "Lackey 1 spends 1 action" not in prompt.text()  # an NPC's actions are hidden
    assert "Lackey 1 spends 1 action on Cudgel (3 left)" in await t.gm_copy(record)
    await t.decide(player, prompt, "Take it", [3, 3, 3])
    assert "**Miss.**" in t.seen(prompt)

    # ---- Round 2 ---------------------------------------------------------------------------
    assert "Round 2" in t.seen(prompt)
    prompt = await t.player("attack", target="Brawler 1", with_="Claws")
    await t.decide(gm, prompt, "Block", [2, 2, 2])
    assert "Brawler 1 reacts: Block" in t.seen(prompt) and "**Miss.**" in t.seen(prompt)

    # Willow takes the Steady stance (free at the start of her turn) and clubs the Lackey.
    assert "free" in (await t.player("stance", name="Steady")).text()
    prompt = await t.player("attack", target="Lackey 1", with_="Club")
    await t.decide(gm, prompt, "Evade", [5, 5, 5, 5, 3, 2, 2])
    seen = t.seen(prompt)
    assert "Hit!" in seen and "[5, 5, 5, 5]" in seen and "Willow's Steady stance" in seen

    # The Brawler braces and misses the bear; the Ringleader hits it.
    await t.gm("stance", name="Bracing")
    prompt = await t.gm("attack", target="General Bearington", with_="Cudgel")
    await t.decide(player, prompt, "Take it", [3, 3])
    assert "**Miss.**" in t.seen(prompt)
    prompt = await t.gm("attack", target="General Bearington", with_="Cudgel")
    await t.decide(player, prompt, "Take it", [5, 5, 5, 4, 4, 4])
    assert "Hit!" in t.seen(prompt)

    # The Lackey hits Willow because of her stance (attackers get Advantage against Steady):
    # 9 + [4, 4, 3, 3] = 23 beats her Dodge 22; without the fourth die, 20 would not.
    prompt = await t.gm("attack", target="Willow", with_="Cudgel")
    await t.decide(player, prompt, "Take it", [4, 4, 3, 3, 3, 3, 3])
    seen = t.seen(prompt)
    assert "Hit!" in seen and "Advantage for Lackey 1: Willow's Steady stance" in seen

    # ---- Round 3 ---------------------------------------------------------------------------
    prompt = await t.player("attack", target="Brawler 1", with_="Claws")
    await t.decide(gm, prompt, "Block", [6, 5, 5, 6, 6, 5, 5, 5])
    seen = t.seen(prompt)
    assert "Hit!" in seen and "Brawler 1 looks **Down**" in seen and "Unconscious" in seen

    # Willow's blow Stuns the Lackey (13 Stamina, above his Body 8) but leaves him conscious.
    prompt = await t.player("attack", target="Lackey 1", with_="Club")
    await t.decide(gm, prompt, "Take it", [4, 4, 4, 4, 5, 5, 5])
    seen = t.seen(prompt)
    assert "Lackey 1 is now Stunned" in seen and "Lackey 1 looks **Down**" not in seen

    # The Brawler is skipped (unconscious); the Ringleader hits the bear without dropping it;
    # the Lackey spends his turn recovering from Stunned; round 4 begins with the bear, whose
    # player is pinged.
    prompt = await t.gm("attack", target="General Bearington", with_="Cudgel")
    await t.decide(player, prompt, "Take it", [5, 5, 5, 4, 4, 4])
    seen = t.seen(prompt)
    assert "Lackey 1 spends the turn recovering from Stunned" in seen
    ping = await t.posted_after(prompt, "it is **General Bearington**'s turn (round 4")
    assert f"<@{player.id}>" in ping.content

    # ---- Round 4 ---------------------------------------------------------------------------
    # The bear's flurry at the Ringleader: three hits, one action each; two land (11 and 10
    # Stamina: massive, but neither above his Body 18), the third misses.
    prompt = await t.player("attack", target="Ringleader 1", with_="Claws", hits=3)
    assert "spends 3 actions on Claws (3 hits)" in prompt.text()
    await t.decide(gm, prompt, "Take it", [5, 5, 5, 3, 3, 3, 2, 2])
    assert "Hit!" in t.seen(prompt) and "(hit 2 of 3)" in t.seen(prompt)  # next hit waits
    second = await t.posted_after(prompt, "Claws")  # a new message: the decider is notified
    assert h.message(prompt).components == []
    await t.decide(gm, second, "Take it", [5, 5, 5, 3, 3, 2, 2, 2])
    assert "Hit!" in t.seen(second) and "(hit 3 of 3)" in t.seen(second)
    assert "Ringleader 1 is now Stunned" not in t.seen(second)
    third = await t.posted_after(second, "Claws")
    await t.decide(gm, third, "Evade", [1, 1, 1])
    assert "**Miss.**" in t.seen(third) and h.message(third).components == []

    # Willow switches to the Mobile stance and knocks the Lackey out.
    await t.player("stance", name="Mobile")
    prompt = await t.player("attack", target="Lackey 1", with_="Club")
    await t.decide(gm, prompt, "Take it", [5, 5, 5, 3, 3, 2])
    assert "Lackey 1 looks **Down**" in t.seen(prompt)

    # The last thug, the Ringleader, Sprints into the woods.
    assert "sprints 20 m" in (await t.gm("sprint", meters=20.0)).text()

    # ---- The chase and the surrender -------------------------------------------------------
    await t.player("move", meters=14.0, full=True)
    prompt = await t.player("attack", target="Ringleader 1", with_="Entangle", range=20.0)
    await t.decide(gm, prompt, "Take it", [3, 3, 3])
    assert "Ringleader 1 is now Entangled" in t.seen(prompt)
    ended = await t.gm("surrender")
    assert "The fight is over" in ended.text()

    tracker = h.last_message(h.channel)
    assert tracker is not None
