"""A new table plays the README as written: "Your first fight" command by command, with the
options it shows, then what the README's command tables promise for the rest of an evening —
``/act`` and ``/check``, ``/gm place``, ``/gm condition lasts:``, ``/gm time end-of``, the end
of the fight and ``/encounter end``, ``/campaign show`` / ``rest`` / ``heal``, and a second
encounter that Willow joins with the wounds of the first (NEWUSER5).

Each step checks what the member who typed it sees: the reply's text and whether the channel
sees it or only they do. The encounter's GM is a plain member (``table.gm``), as on a server
where anyone may start a fight; the README's server-GM steps (``/npc import``, ``/campaign
rest``, ``/campaign heal``) are taken by the moderator, who has Manage Channels."""

from __future__ import annotations

from typing import Any

from bot.client import CombatBot
from tests.e2e.combat_helpers import answered, current_name, press, refused, slash, tracker_reading
from tests.e2e.conftest import Table
from tests.harness.models import Channel, InteractionRecord, Member, StoredMessage
from tests.harness.server import DiscordHarness


def here(h: DiscordHarness) -> Channel:
    """The harness's fight channel ("combat")."""
    assert h.channel is not None
    return h.channel


def shown(record: InteractionRecord) -> StoredMessage:
    """The message a reply posted (or the one a click edited)."""
    assert record.message is not None, record.response_data
    return record.message


async def public(h: DiscordHarness, member: Member, command: str, **options: Any) -> str:
    """A command whose answer the whole channel sees; its text."""
    record = await answered(await slash(h, member, command, **options))
    assert not record.ephemeral, record.response_data
    return shown(record).text()


async def private(h: DiscordHarness, member: Member, command: str, **options: Any) -> str:
    """A command whose answer only ``member`` sees; its text."""
    record = await answered(await slash(h, member, command, **options))
    assert record.ephemeral, record.response_data
    return shown(record).text()


def reaction_prompt(h: DiscordHarness) -> StoredMessage:
    """The channel's latest message with buttons: the attack waiting on a reaction."""
    return next(m for m in reversed(h.messages_in(here(h))) if m.components)


async def end_encounter(h: DiscordHarness, gm: Member) -> InteractionRecord:
    prompt = await h.slash(gm, here(h), "encounter end")
    await prompt.response()
    assert prompt.ephemeral  # the Confirm / Cancel question is the GM's alone
    question = shown(prompt)
    assert "End **Ambush at the ford**?" in question.text()
    confirm = question.component(label="Confirm: end it")["custom_id"]
    click = await h.click(gm, question, confirm)
    await click.response()
    await click.wait_for(lambda r: any("Encounter ended" in m.text() for m in r.followups))
    return click


async def test_a_new_table_plays_the_readme(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm, player, server_gm = discord_harness, table.gm, table.player, table.moderator

    # ---- "Your first fight", line by line -------------------------------------------------
    text = await public(h, gm, "encounter start", name="Ambush at the ford")
    assert "Ambush at the ford" in text and "started an encounter" in text
    assert "/encounter join" in text  # the next step is named

    text = await private(h, player, "character import", example="willow")
    assert "Imported **Willow**" in text and "/character show" in text

    text = await public(h, player, "encounter join", character="Willow")
    assert "brings **Willow** into the fight" in text

    # "GM: /npc import example:thug (a server GM, once per server*)": the encounter's GM is
    # refused, and told what to do instead; a server GM imports the template.
    text = await refused(await slash(h, gm, "npc import", example="thug"))
    assert "Only a GM of this server" in text and "/gm add-npc" in text
    text = await private(h, server_gm, "npc import", example="thug")
    assert "Imported **Thug**" in text

    text = await public(h, gm, "gm add-npc", template="Thug", count=3)
    assert "Added **Thug 1**, **Thug 2**, **Thug 3**." in text

    text = await public(h, gm, "gm settings", npcs_react=True)
    assert "NPCs react: on" in text

    text = await public(h, gm, "encounter begin")
    assert "The fight begins!" in text
    assert f"<@{player.id}> it is **Willow**'s turn (round 1)" in text  # the first is pinged

    assert "Willow takes the Steady stance (free" in await public(
        h, player, "stance", name="Steady"
    )
    moved = await public(h, player, "move", meters=6.0, toward="Thug 1")
    assert "Willow moves 6 m (run, free)" in moved and "engaged" in moved
    text = await public(h, player, "attack", target="Thug 1", with_="Club")
    assert "**Willow** attacks **Thug 1** with **Club**" in text
    assert "the GM chooses **Thug 1**'s reaction" in text  # npcs_react: the GM decides
    assert f"<@{gm.id}>" in text

    # The GM chooses the thug's reaction; the attack resolves and the turn passes (one action).
    click = await press(h, gm, reaction_prompt(h), "Take it")
    assert "Thug 1 does not react." in shown(click).text()
    assert await current_name(bot, h) == "Thug 1"

    # "GM: (on a thug's turn) /attack target:Willow with:Cudgel"
    text = await public(h, gm, "attack", target="Willow", with_="Cudgel")
    assert "**Thug 1** attacks **Willow** with **Cudgel**" in text
    assert f"<@{player.id}>" in text and "`/dodge`, `/block`" in text
    labels = [c["label"] for row in reaction_prompt(h).components for c in row["components"]]
    assert {"Evade (1 action)", "Block (1 action)"} <= set(labels)
    # "player: press a reaction button (Evade, Block, …) or /dodge, /block"
    text = await public(h, player, "dodge")
    assert "Willow reacts: Evade." in text and "Thug 1's turn ends." in text
    assert await current_name(bot, h) == "Thug 2"

    # ---- /act: any action of the game system, with its cost in the list -------------------
    choices = await h.autocomplete(player, here(h), "act", focused="action", value="")
    assert any(c["value"] == "talk" and "free" in c["name"] for c in choices)
    text = await public(h, gm, "act", action="talk", detail="Your purse, witch!", as_="Thug 2")
    assert "Thug 2: “Your purse, witch!”" in text
    assert "Thug 2's turn ends." in await public(h, gm, "act", action="end-turn")
    assert "Thug 3's turn ends." in await public(h, gm, "endturn")

    # Round 2: Willow moves with /act, then /check — which takes her action and ends her turn.
    assert "Willow moves 3 m" in await public(h, player, "act", action="move", amount=3.0)
    text = await public(h, player, "check", skill="Perception", difficulty=15)
    assert "Willow's Perception: 6d6" in text and "vs 15" in text
    assert "Willow spends 1 action on Perception" in text  # NEWUSER5: not in the README
    assert "Willow's turn ends" in text
    text = await refused(await slash(h, player, "act", action="breather"))
    assert text == "It is Thug 1's turn, not Willow's."

    # ---- /gm place: distance, engage, apart; shown on the tracker -------------------------
    assert "Willow and Thug 2 are 5 m apart." in await public(
        h, gm, "gm place distance", a="Willow", b="Thug 2", meters=5.0
    )
    assert "Willow and Thug 1 are engaged." in await public(
        h, gm, "gm place engage", a="Willow", b="Thug 1"
    )
    text = await private(h, player, "encounter status")
    assert "Willow ⚔ Thug 1" in text and "Willow ↔ Thug 2: 5 m" in text
    text = await public(h, gm, "gm place apart", combatant="Willow")
    assert "Willow is no longer engaged." in text
    assert "Willow ⚔ Thug 1" not in await private(h, player, "encounter status")

    # ---- /gm condition lasts:, then /gm time end-of ---------------------------------------
    text = await public(
        h, gm, "gm condition", combatant="Thug 2", action="add", name="Prone", lasts="scene"
    )
    assert "Thug 2 is now Prone" in text
    assert "Prone" in await private(h, player, "encounter status")
    text = await public(h, gm, "gm time end-of", period="scene")
    assert "Thug 2 is no longer Prone (the scene ended)." in text
    assert "Prone" not in await private(h, player, "encounter status")

    # ---- The fight ends: Willow is hurt, the thugs fall -----------------------------------
    text = await public(h, gm, "gm hp", combatant="Willow", health="-5")
    assert "Willow" in text
    for n in (1, 2, 3):
        text = await public(h, gm, "gm hp", combatant=f"Thug {n}", health="0")
        assert f"Thug {n}, who looks **Dead**" in text
    assert "The fight is over" in text and "Winner: the party side." in text
    text = await private(h, player, "encounter status")
    assert "**party** won" in text and "/encounter end" in text
    # "says who won" (the tracker is edited just after the reply; the channel is read at every
    # look: a round's start may post it again after later replies, tracker_reading)
    await tracker_reading(h, "The fight is over: **party** won.")
    text = await refused(await slash(h, player, "endturn"))
    assert "The fight is over (party won)" in text and "/encounter end" in text

    click = await end_encounter(h, gm)
    summary = next(m for m in click.followups if "Encounter ended" in m.text())
    assert not summary.ephemeral
    assert "The **party** side won." in summary.text()
    assert "**Willow** · party · Health 11/16" in summary.text()

    # ---- Between fights: /campaign show, rest, heal ---------------------------------------
    text = await private(h, player, "campaign show", character="Willow")
    assert "**Willow**" in text and "Health 11/16 · Stamina 38/40" in text
    text = await refused(await slash(h, gm, "campaign rest", kind="short"))
    assert "Only server GMs" in text
    text = await public(h, server_gm, "campaign rest", kind="short")
    assert "Willow recovers" in text and "campaign time: day" in text
    text = await public(h, server_gm, "campaign heal", weeks=1)
    assert "Willow heals 1 Health; now 12." in text
    assert "Health 12/16" in await private(h, player, "campaign show", character="Willow")

    # ---- A second encounter: Willow brings her wounds ------------------------------------
    await public(h, gm, "encounter start", name="Back at the ford")
    text = await public(h, player, "encounter join", character="Willow")
    assert "brings **Willow** into the fight" in text
    live = await bot.services.encounters.live(here(h).id)
    assert live.state.find("Willow").health == 12
    # Nobody is shown that yet (NEWUSER5): before the fight the status lists names only.
    assert "12/16" not in await private(h, gm, "encounter status")
    # The README's one-off NPC, and the fight begins: now the tracker shows her wounds.
    text = await public(h, gm, "gm add-npc", name="Brute", health=50, stamina=60)
    assert "Added **Brute**." in text and "Combatants (2)" in text
    await public(h, gm, "encounter begin")
    assert "**Willow** · 6/6 actions" in await private(h, player, "encounter status")
    assert "H 12/16" in await private(h, player, "encounter status")
