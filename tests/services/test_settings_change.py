"""``/gm settings`` given a value a setting already has changes nothing: decided by the service
(:mod:`bot.services.settings_change`, applied by ``CombatService.gm_command`` to every settings
change), not by the cog — so every caller, and any future one, gets it (fix24)."""

from __future__ import annotations

import pytest

from bot.engine.core.commands import ChangeSettings
from bot.errors import InvalidInput
from bot.store.db import Database
from tests.services.test_held_encounters import GM, begun, services


async def test_a_value_a_setting_already_has_is_no_change_for_every_caller(db: Database) -> None:
    encounters, combat = services(db)
    await begun(encounters, combat, 7)
    before = await encounters.live(7)
    npcs_react = before.state.settings.npcs_react
    nothing = "Nothing to change: NPCs react: " + ("on" if npcs_react else "off") + " already."
    with pytest.raises(InvalidInput, match=nothing):
        await combat.change_settings(7, GM, {"npcs_react": npcs_react})
    # A caller that builds the command itself gets the same answer (gm_command decides).
    with pytest.raises(InvalidInput, match=nothing):
        await combat.gm_command(
            7, GM, "settings", {}, lambda e: ChangeSettings(npcs_react=npcs_react), action="x"
        )
    assert (await encounters.live(7)).version == before.version

    # A value already set is left out of a change that changes something else.
    show_odds = not before.state.settings.show_odds
    result = await combat.gm_command(
        7,
        GM,
        "settings",
        {},
        lambda e: ChangeSettings(npcs_react=npcs_react, show_odds=show_odds),
        action="x",
    )
    assert result.encounter.state.settings.show_odds is show_odds
    async with db.read() as conn:
        row = await conn.fetch_one(
            "SELECT command FROM encounter_log WHERE encounter_id = ? ORDER BY version DESC",
            (result.encounter.id,),
        )
    assert row is not None and "npcs_react" not in row["command"], row["command"]
