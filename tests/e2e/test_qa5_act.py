"""QA5: positions and /act attacked through Discord — a reaction that moves, talking past the
rules' limit."""

from __future__ import annotations

from bot.client import CombatBot
from tests.e2e.combat_helpers import (
    ok,
    pass_turns_until,
    press,
    refused,
    set_up_fight,
    slash,
    thug_attacks_willow,
)
from tests.e2e.conftest import Table
from tests.harness.server import DiscordHarness


async def test_talk_is_25_words_a_round_not_25_words_a_command(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, player = discord_harness, table.player
    await set_up_fight(h, table)
    await pass_turns_until(bot, h, table, "Willow")
    words = " ".join(["word"] * 20)
    await ok(await slash(h, player, "act", action="talk", detail=words))
    # UTTAS "Talk": up to 25 words in a 6 second period (a round); /act lists it as
    # "free: 25 words per round". 40 words in one round is more than that.
    text = await refused(await slash(h, player, "act", action="talk", detail=words))
    assert "25 words" in text


async def test_a_move_reaction_steps_out_of_melee(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm, player = discord_harness, table.moderator, table.player
    await set_up_fight(h, table)
    await ok(await slash(h, gm, "gm place engage", a="Willow", b="Thug 1"))
    prompt = await thug_attacks_willow(bot, h, table)
    await press(h, player, prompt, "Move")
    assert "Willow reacts: Move." in h.message(prompt).text()
    # "a move leaves the mover's melee" (docs/architecture.md, Positions); the reaction's own
    # words: "Step away from the attacker (up to 2 m)". The status must not still show melee.
    status = await h.slash(player, h.channel, "encounter status")
    await status.response()
    assert "Thug 1 ⚔ Willow" not in str(status.response_data)
