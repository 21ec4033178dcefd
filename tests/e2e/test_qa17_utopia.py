"""Audit 17 of Utopia against ``utopia-actions.txt``, through Discord with scripted dice: an
attack from hiding ("Stealth"; "Block", "Dodge": "an instance it is aware of") is unseen in every
source of damage it deals — each weapon of a multi-weapon attack ("simultaneously") and a
damaging spell, which gives the hidden caster away as any attack does (rules version 6)."""

from __future__ import annotations

import json
from pathlib import Path

from bot.client import CombatBot
from tests.e2e.combat_helpers import answered, hound_pass, ok, refused, slash
from tests.e2e.conftest import DiceBox, Table
from tests.harness.models import InteractionRecord
from tests.harness.server import DiscordHarness

SHEETS = Path(__file__).resolve().parents[2] / "data" / "sheets" / "utopia"
HOUND = "Stone hound 1"


def said(record: InteractionRecord) -> str:
    """What the channel was told: the reply and what followed it."""
    return "\n".join([record.message.text(), *(m.text() for m in record.followups)])


async def test_a_hidden_attackers_every_blow_and_spell_go_undefended(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """Vesna (9 TA, an Ember dart spell) sneaks past the Stone hound and strikes with her Knife
    and Longbow at once: the hound can defend against neither (version 5 gave it Block and
    Dodge buttons against the Longbow). She sneaks again and casts her Ember dart: the hound
    cannot defend, and the spell gives her away (version 5 offered a defense and left her
    hidden)."""
    h, gm, player = discord_harness, table.moderator, table.player
    await ok(await slash(h, gm, "encounter start", name="Ridge", ruleset="utopia"))
    await (await slash(h, gm, "npc import", example="stone-hound")).response()
    await ok(await slash(h, gm, "gm add-npc", template="Stone hound"))
    await ok(await slash(h, gm, "gm settings", npcs_react=True))  # the GM defends the hound
    data = json.loads((SHEETS / "vesna.json").read_text())
    dart = {"name": "Ember dart", "stamina": 2, "damage": "1d6", "damage_type": "heat"}
    data.update(turn_actions=9, spells=[{**dart, "range_m": 20}])
    upload = h.make_attachment("vesna.json", json.dumps(data).encode())
    imported = await answered(await slash(h, player, "character import", file=upload))
    assert "Vesna" in imported.followups[0].text(), imported.followups[0].text()
    await ok(await slash(h, player, "encounter join", character="Vesna"))
    dice.load([1, 1, 1, 6, 6, 6])  # Speed tests (the hound joined first): Vesna first
    await ok(await slash(h, gm, "encounter begin"))

    async def sneak() -> None:
        dice.load([6, 6, 6, 1])  # Stunt 4d6 (distracting) = 19 against the gifted 6 × 2 = 12
        done = await ok(await slash(h, player, "act", action="stealth", detail="distracting"))
        assert "Vesna stays unnoticed by Stone hound 1" in done.message.text()

    async def undefended() -> None:
        live = await scripted_bot.services.encounters.live(h.channel.id)
        assert live.state.pending is None and live.state.decisions == []

    await sneak()
    # /odds shows no Block or Dodge line for a hound that has not noticed her
    odds = await refused(
        await slash(h, gm, "odds", target=HOUND, with_="Knife", as_="Vesna", range=1)
    )
    assert "Stone hound 1 has not noticed Vesna: no Block or Dodge" in odds, odds
    assert "Block:" not in odds and "Dodge:" not in odds, odds
    # The Knife: 1d4 = 4, halved 2, + 3; the Longbow's Dexterity test 4d6 + 3 against 1 m,
    # then 1d10 = 10, halved 5: each 5, 2 after the hound's Physical defense of 3.
    dice.load([4, 6, 6, 6, 6, 10])
    hit = await ok(
        await slash(
            h, player, "act", action="attack", target=HOUND, detail="Knife, Longbow", amount=1
        )
    )
    shown = said(hit)
    assert "did not see it coming and cannot defend" in shown, shown
    # the channel does not say why an NPC did not defend (what it has left is its secret)
    assert shown.count("Stone hound 1 does not defend") == 2, shown
    assert hit.message.components == []
    await undefended()

    await sneak()
    dice.load([6])  # 1d6 heat: 6, 4 after the hound's Heat defense of 2
    cast = await ok(
        await slash(h, player, "act", action="cast", detail="Ember dart", target=HOUND, amount=5)
    )
    shown = said(cast)
    assert "gives them away: Stone hound 1 did not see it coming" in shown, shown
    assert "Stone hound 1 does not defend" in shown and cast.message.components == []
    await undefended()
    live = await scripted_bot.services.encounters.live(h.channel.id)
    vesna = next(c for c in live.state.combatants if c.name == "Vesna")
    hound = next(c for c in live.state.combatants if c.name == HOUND)
    assert vesna.hidden_from == () and hound.shp == hound.sheet.shp - 2 - 2 - 4
    assert dice.empty


async def test_a_grappled_hound_cannot_leap_away(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """Brannoc grapples the Stone hound; on its turn the GM's `/act action:leap` for the hound
    is refused, nothing spent ("Grappled creatures cannot take the Travel action": restrained,
    it moves only with its grappler — the bot's reading of the silent Leap). Version 5 let it
    leap away and stay grappled by a Brannoc it was no longer beside."""
    h, gm, ally = discord_harness, table.moderator, table.other_player
    await hound_pass(h, table, begin=False)
    dice.load([1, 1, 1, 1, 1, 1, 6, 6, 6])  # Speed tests: the hound, Vesna, Brannoc (first)
    await ok(await slash(h, gm, "encounter begin"))
    await ok(await slash(h, gm, "gm place engage", a="Brannoc", b=HOUND))
    # Brannoc's Agility 2d6 (the hound is a size larger: a disfavor) + 2 = 14 against the
    # hound's Strength 3d6 + 9 = 12: held.
    dice.load([6, 6, 1, 1, 1])
    held = await ok(await slash(h, ally, "act", action="grapple", target=HOUND))
    assert "Brannoc grapples Stone hound 1" in said(held)
    await ok(await slash(h, ally, "endturn"))
    text = await refused(await slash(h, gm, "act", action="leap", as_=HOUND))
    assert "Stone hound 1 is grappled by Brannoc and cannot leap away" in text, text
    live = await scripted_bot.services.encounters.live(h.channel.id)
    hound = next(c for c in live.state.combatants if c.name == HOUND)
    assert hound.pools["turn"] == 6 and hound.stamina == hound.sheet.stamina
    assert dice.empty


async def test_a_servers_modifier_offset_counts_in_damage(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """The GM sets `test.modifier_offset` 3 for the server (`/tables set`): a modifier is score
    − 3. Vesna's Knife adds her Dexterity modifier (7 − 3 = +4, not the +3 of 7 − 4 that
    version 5 added whatever the tables said, though its tests read the server's offset)."""
    h, gm, player = discord_harness, table.moderator, table.player
    done = await slash(
        h, gm, "tables set", ruleset="utopia", entry="test.modifier_offset", value="3"
    )
    await answered(done)
    await ok(await slash(h, gm, "encounter start", name="Ridge", ruleset="utopia"))
    await answered(await slash(h, gm, "npc import", example="stone-hound"))
    await ok(await slash(h, gm, "gm add-npc", template="Stone hound"))
    await answered(await slash(h, player, "character import", example="vesna"))
    await ok(await slash(h, player, "encounter join", character="Vesna"))
    dice.load([1, 1, 1, 6, 6, 6])  # Speed tests: Vesna first
    await ok(await slash(h, gm, "encounter begin"))
    dice.load([2])  # the Knife: 1d4 = 2, + 4
    hit = await ok(await slash(h, player, "act", action="attack", target=HOUND, detail="Knife"))
    assert "1d4 [2] + 4 = 6" in said(hit), said(hit)
    assert dice.empty
