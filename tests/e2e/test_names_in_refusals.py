"""Names with Markdown in them, quoted in refusals (the ephemeral replies a command gets when
the rules, a GM command or a service refuse it), in every system.

A player named their character ``*Wren*`` and the GM's NPC template was ``_Brute_``: every
refusal naming them read "It is Brute 1's turn, not Wren's." in italics — the engine built its
refusals with the raw names and the bot sends a refusal as it is (it has Markdown of its own,
``**bold**`` names and backticked commands, so it cannot be escaped whole). Each name a refusal
quotes now goes through ``names.escaped`` where the message is written;
``tests/test_refusal_names.py`` keeps new refusals from quoting one raw."""

from __future__ import annotations

import pytest

from bot.client import CombatBot
from tests.e2e.combat_helpers import answered, ok, pass_turns_until, refused, slash
from tests.e2e.conftest import Table
from tests.harness.server import DiscordHarness

WREN, WREN_SHOWN = "*Wren*", "\\*Wren\\*"
BRUTE, BRUTE_SHOWN = "_Brute_ 1", "\\_Brute\\_ 1"

CAST = {  # the PC's example sheet, the NPC's, and how the PC attacks with a weapon it lacks
    "uttas": ("willow", "thug", ("attack", {"with_": "Nope"})),
    "untitled": ("brask", "hill-giant", ("act", {"action": "attack", "detail": "Nope"})),
    "utopia": ("vesna", "stone-hound", ("act", {"action": "attack", "detail": "Nope"})),
    "uune": ("mira", "dock-thug", ("act", {"action": "attack", "detail": "Nope"})),
}
LACKS = {
    "uttas": f"{WREN_SHOWN} has no attack called 'Nope'.",
    "untitled": f"{WREN_SHOWN} has no weapon called 'Nope' (weapons: ",
    "utopia": f"{WREN_SHOWN} has no weapon called 'Nope' (weapons: ",
    "uune": f"{WREN_SHOWN} has no resource called 'Nope' (resources: ",
}


async def _odd_fight(bot: CombatBot, h: DiscordHarness, table: Table, system: str) -> None:
    """*Wren* (the player's) against the GM's _Brute_ 1, on the Brute's turn."""
    gm, player = table.moderator, table.player
    pc, npc, _ = CAST[system]
    await ok(await slash(h, gm, "encounter start", name="Odd names", ruleset=system))
    await answered(await slash(h, player, "character import", example=pc, name=WREN))
    await ok(await slash(h, player, "encounter join", character=WREN))
    await answered(await slash(h, gm, "npc import", example=npc, name="_Brute_"))
    await ok(await slash(h, gm, "gm add-npc", template="_Brute_"))
    await ok(await slash(h, gm, "encounter begin"))
    await pass_turns_until(bot, h, table, BRUTE)


@pytest.mark.parametrize("system", ["uttas", "untitled", "utopia", "uune"])
async def test_a_refusal_shows_markdown_in_a_name_as_typed(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table, system: str
) -> None:
    """The player's `/endturn as:*Wren*` on the Brute's turn, the GM's `/gm place apart` of
    *Wren*, who stands in no melee, *Wren* joining twice and attacking with a weapon not on the
    sheet: each refusal shows both names as typed, and says nothing else differently."""
    h = discord_harness
    gm, player = table.moderator, table.player
    await _odd_fight(bot, h, table, system)
    before = (await bot.services.encounters.live(h.channel.id)).state_json

    text = await refused(await slash(h, player, "endturn", as_=WREN))
    assert text == f"It is {BRUTE_SHOWN}'s turn, not {WREN_SHOWN}'s.", text
    text = await refused(await slash(h, gm, "gm place apart", combatant=WREN))
    assert text == f"{WREN_SHOWN} is not engaged with anyone.", text
    text = await refused(await slash(h, player, "encounter join", character=WREN))
    assert text == f"**{WREN_SHOWN}** is already in this fight: yours.", text
    assert (await bot.services.encounters.live(h.channel.id)).state_json == before

    await pass_turns_until(bot, h, table, WREN)
    command, options = CAST[system][2]
    text = await refused(await slash(h, player, command, target=BRUTE, **options))
    assert text.startswith(LACKS[system]), text
    assert WREN not in text, text


async def test_a_refusal_naming_an_action_paid_for_shows_the_names_in_it_as_typed(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Utopia: *Wren* attacking off her turn with no interrupt actions to pay read "*Wren*
    cannot attack _Brute_ 1 with a weaponless attack: …" — the action's words, written for the
    log (where the view escapes them), were put into the refusal raw."""
    h = discord_harness
    await _odd_fight(bot, h, table, "utopia")
    text = await refused(
        await slash(
            h, table.player, "act", action="attack", target=BRUTE, as_=WREN, detail="weaponless"
        )
    )
    assert text.startswith(
        f"{WREN_SHOWN} cannot attack {BRUTE_SHOWN} with a weaponless attack: "
    ), text
