"""The fight in pictures through Discord (issue 18): ``/encounter status chart:True`` attaches
the chart so far — exact for the GM, the channel's view for a player (a hidden NPC by wound
level, none of its numbers in the alt text) — refused clearly before the first round; the
end-of-fight summary attaches the channel's chart with its description, and the GM gets the
exact one privately."""

from __future__ import annotations

import pytest

from bot.client import CombatBot
from tests.e2e.combat_helpers import answered, end_encounter, ok, refused, set_up_fight, slash
from tests.e2e.conftest import Table
from tests.harness.models import InteractionRecord, StoredMessage
from tests.harness.server import DiscordHarness

CHART = "fight-chart.png"
THUG_NUMBERS = ("9/14", "/14", "/24", "Thug 1 Health", "Thug 1 Stamina")


async def chart_of(record: InteractionRecord, index: int = 0) -> StoredMessage:
    message = await record.followup(index, timeout=60)
    (file,) = message.attachments
    assert file.filename == CHART and file.data.startswith(b"\x89PNG")
    assert file.content_type.startswith("image/png") or file.filename.endswith(".png")
    assert file.size <= 10 * 1024 * 1024  # the harness' attachment_size_limit
    assert file.description and file.description.startswith("Line chart of Firewood")
    return message


async def test_status_chart_and_the_end_of_fight_chart(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm, player = discord_harness, table.moderator, table.player
    await set_up_fight(h, table, thugs=1, begin=False)
    early = await refused(await slash(h, player, "encounter status", chart=True))
    assert "No round has been fought yet" in early
    await ok(await slash(h, gm, "encounter begin"))
    await ok(await slash(h, gm, "gm hp", combatant="Thug 1", health="9"))
    for _ in range(3):  # everyone's turn: round 1 ends
        await ok(await slash(h, gm, "endturn"))
    assert (await bot.services.encounters.live(h.channel.id)).state.round == 2

    seen = await slash(h, player, "encounter status", chart=True)
    message = await chart_of(seen)
    assert message.ephemeral
    description = message.attachments[0].description or ""
    assert "Thug 1 Hurt" in description and "shown by wound level" in description
    assert "Willow Health 16/16" in description
    for secret in THUG_NUMBERS:
        assert secret not in description and secret not in message.content, secret
    assert message.embeds, "the tracker comes with it"

    exact = await chart_of(await slash(h, gm, "encounter status", chart=True))
    gm_words = exact.attachments[0].description or ""
    assert exact.ephemeral and "Thug 1 Health 9/14" in gm_words and "wound level" not in gm_words

    click = await end_encounter(h, table)
    summary = await chart_of(click, 0)
    assert not summary.ephemeral and "Encounter ended: Firewood" in summary.text()
    public_words = summary.attachments[0].description or ""
    assert "Thug 1 Hurt" in public_words and "from the start to the end of round 2" in public_words
    for secret in THUG_NUMBERS:
        assert secret not in public_words and secret not in summary.content, secret
    private = await chart_of(click, 1)
    assert private.ephemeral and "Exact numbers (GM only)" in private.content
    assert "Thug 1 Health 9/14" in (private.attachments[0].description or "")


async def test_a_fight_ended_before_it_began_has_no_chart(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await set_up_fight(h, table, thugs=1, begin=False)
    click = await end_encounter(h, table)
    summary = await click.followup(0, timeout=30)
    assert "Encounter ended: Firewood" in summary.text() and not summary.attachments


CASTS = {
    # ruleset: (character example, its name, NPC example, the NPC template, the PC's pools)
    "utopia": ("vesna", "Vesna", "bandit-archer", "Bandit archer", "SHP "),
    "untitled": ("wren", "Wren", "bandit-crossbowman", "Bandit crossbowman", "Health "),
    "uune": ("mira", "Mira Quell", "dock-thug", "Dock Thug", "Vitality 100/100"),
}


@pytest.mark.parametrize("ruleset", sorted(CASTS))
async def test_every_ruleset_ends_with_its_pools_and_a_chart(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table, ruleset: str
) -> None:
    """The summary says each PC's pools in its system's words (it read UTTAS's Health and
    Stamina from every system's combatants, and failed for the others), and attaches the chart
    of those pools, the NPC by wound level."""
    h, gm, player = discord_harness, table.moderator, table.player
    example, name, npc_example, template, pools = CASTS[ruleset]
    await ok(await slash(h, gm, "encounter start", name="Firewood", ruleset=ruleset))
    await answered(await slash(h, player, "character import", example=example))
    await answered(await slash(h, player, "encounter join", character=name))
    await answered(await slash(h, gm, "npc import", example=npc_example))
    await ok(await slash(h, gm, "gm add-npc", template=template))
    await answered(await slash(h, gm, "encounter begin"))
    click = await end_encounter(h, table)
    summary = await chart_of(click, 0)
    assert "Encounter ended: Firewood" in summary.text()
    assert f"**{name}** · " in summary.text() and pools in summary.text()
    words = summary.attachments[0].description or ""
    assert f"{template} 1 Unhurt" in words and f"{name} {pools.split()[0]}" in words


async def test_server_end_posts_the_chart_with_the_summary(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await set_up_fight(h, table, thugs=1)
    prompt = await h.slash(table.moderator, h.channel, "server end", {"channel": h.channel})
    await prompt.response()
    confirm = prompt.message.component(label="Confirm: end it")["custom_id"]
    await (await h.click(table.moderator, prompt.message, confirm)).response()

    def summaries() -> list[StoredMessage]:
        return [m for m in h.messages_in(h.channel) if "Encounter ended" in m.text()]

    await h.wait_for(summaries, timeout=60)
    (summary,) = summaries()
    (file,) = summary.attachments
    assert file.filename == CHART and file.data.startswith(b"\x89PNG")
    assert (file.description or "").startswith("Line chart of Firewood")
    assert "Thug 1 Unhurt" in (file.description or "") and "/14" not in summary.content
