"""``/help``: the guides and every command's own help, ephemeral and within Discord's limits."""

from __future__ import annotations

import re

from bot.client import CombatBot
from tests.e2e.combat_helpers import refused, slash
from tests.e2e.conftest import Table
from tests.e2e.registered import slash_commands
from tests.harness.server import DiscordHarness


async def test_help_shows_the_guides_and_each_command(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    player = await slash(h, table.player, "help")
    await player.response()
    assert player.ephemeral
    text = player.message.text()
    assert "Player's guide" in text and "one action" in text and "Speed pool" in text
    assert "set a turn deadline, says when it passes: then your turn ends" in " ".join(text.split())

    gm = await slash(h, table.gm, "help", topic="gm")
    await gm.response()
    assert "/encounter end" in gm.message.text() and "npcs_react" in gm.message.text()
    assert "stops reaction windows and turn deadlines" in " ".join(gm.message.text().split())

    utopia = await slash(h, table.player, "help", topic="utopia")
    await utopia.response()
    assert "Playing Utopia" in utopia.message.text()
    assert "interrupt actions (IA)" in utopia.message.text()
    # each system's guide says what an unanswered reaction window does in that system
    assert "the damage is taken with no defense" in utopia.message.text()

    untitled = await slash(h, table.player, "help", topic="Untitled")
    await untitled.response()
    text = untitled.message.text()
    assert "Playing Untitled" in text and "two move actions and one standard action" in text
    assert "`/gm settings`" in text and "combined move" in text
    assert "reaction window, the shield is raised" in text

    uune = await slash(h, table.player, "help", topic="uune")
    await uune.response()
    text = uune.message.text()
    assert "Playing Uune" in text and "Every PC takes one turn, in any order" in text
    assert "approves or refuses each resource with buttons" in text
    assert "are refused and the roll is made" in text and "keeps the roll as it is" in text

    attack = await slash(h, table.player, "help", topic="/attack")
    await attack.response()
    assert "`target`" in attack.message.text() and "`with`" in attack.message.text()

    hp = await slash(h, table.player, "help", topic="gm hp")
    await hp.response()
    assert hp.message.text().startswith("/gm hp")

    every = await slash(h, table.player, "help", topic="commands")
    await every.response()
    assert "`/encounter start`" in every.message.text() and "`/help`" in every.message.text()

    text = await refused(await slash(h, table.player, "help", topic="flying"))
    assert "no help topic called 'flying'" in text

    choices = await h.autocomplete(table.player, h.channel, "help", focused="topic", value="gm")
    assert 0 < len(choices) <= 25
    assert {"name": "GM's guide", "value": "gm"} in choices
    choices = await h.autocomplete(table.player, h.channel, "help", focused="topic", value="unt")
    assert {"name": "Playing Untitled", "value": "untitled"} in choices
    choices = await h.autocomplete(table.player, h.channel, "help", focused="topic", value="uu")
    assert {"name": "Playing Uune", "value": "uune"} in choices


UTTAS_TERMS = {
    "Advantage": {"uune"},
    "Disadvantage": {"uune"},
    "Accuracy": {"utopia"},
    "Staggered": set(),
}
"""UTTAS's names for its mechanics (``uttas-gameplay.txt``), each with the other systems whose
own rules text uses the word too (Uune's luck checks take advantage and disadvantage,
``uune-srd.txt``; Utopia's Aim raises "your accuracy", ``utopia-actions.txt``)."""


def uttas_terms_in(text: str, system: str | None) -> list[str]:
    """The UTTAS terms of ``text`` that are not ``system``'s own (``None``: any system's help,
    a command's: every line with one must say it is UTTAS's)."""
    found: list[str] = []
    for shown in text.splitlines():
        line = re.sub(r"/?gm advantage", "", shown)  # the command's name is no rules word
        for term, own in UTTAS_TERMS.items():
            if not re.search(rf"\b{term}\b", line, re.IGNORECASE):
                continue
            attributed = "UTTAS" in line if system is None else system in own
            if not attributed:
                found.append(f"{term}: {shown}")
    return found


async def test_no_other_system_is_told_in_uttas_words(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """`/help topic:gm advantage` said "Grant (or take) dice on a next roll" and "Advantage dice;
    negative for Disadvantage" — UTTAS's terms, in a fight of any system: in Utopia it gives
    favor, and Untitled and Uune have none. A command's help is every system's, so a UTTAS term
    in it says it is UTTAS's; another system's guide uses one only where its own rules text
    does."""
    h = discord_harness
    wrong: list[str] = []
    for system in ("utopia", "untitled", "uune"):
        shown = await slash(h, table.player, "help", topic=system)
        await shown.response()
        wrong += [f"{system}: {found}" for found in uttas_terms_in(shown.message.text(), system)]
    for name, _ in slash_commands(h):
        shown = await slash(h, table.player, "help", topic=name)
        await shown.response()
        wrong += [f"/{name}: {found}" for found in uttas_terms_in(shown.message.text(), None)]
    assert not wrong, "\n".join(wrong)
    advantage = await slash(h, table.player, "help", topic="gm advantage")
    await advantage.response()
    text = advantage.message.text()
    assert "Utopia favor" in text and "not in Untitled, Uune" in text, text
