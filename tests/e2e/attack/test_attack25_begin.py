"""QA attack (round 25): newuser24's `/encounter begin initiative:` refusal, met by a fight
that has already begun."""

from __future__ import annotations

import pytest

from bot.client import CombatBot
from tests.e2e.combat_helpers import ONE_ON_ONE, ok, refused, set_up_cast, slash
from tests.e2e.conftest import Table
from tests.harness.server import DiscordHarness


@pytest.mark.parametrize("system", ["utopia", "untitled", "uune"])
async def test_begin_with_initiative_on_a_begun_fight_says_it_has_begun(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table, system: str
) -> None:
    """The GM's `/encounter begin initiative:` on a Utopia fight that had begun read "`initiative:`
    is UTTAS's. Begin without it." — and begun without it, "The fight has already begun." The
    refusal of the option is for a fight still to begin; a begun one says so, as in UTTAS."""
    h, gm = discord_harness, table.moderator
    pc, example, npc = ONE_ON_ONE[system]
    await set_up_cast(h, table, system, name="Ford", pcs={pc: example}, npc=npc)
    text = await refused(await slash(h, gm, "encounter begin", initiative="roll"))
    assert text.endswith("has already begun."), text  # Uune: "The conflict has …"
    await ok(await slash(h, gm, "gm next"))  # the fight goes on
