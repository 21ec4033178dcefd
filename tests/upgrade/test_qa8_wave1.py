"""QA8: a fight started before this session's healing (the wave-1 database, frozen at rules
version 1) — issue 11, "Reachable through Discord": a command the bot accepts must do what it
says, or be refused with the reason."""

from __future__ import annotations

from bot.engine.core.commands import EndTurn
from bot.engine.uttas.commands import ActivatePower, SetVitals
from bot.errors import DomainError
from bot.services.combat import find_combatant
from bot.store.db import Database
from tests.upgrade.test_wave1_database import GM, PLAYER, db, services  # noqa: F401 (db: fixture)


async def test_willows_heal_in_a_fight_started_before_the_change_heals_or_is_refused(
    db: Database,  # noqa: F811
) -> None:
    encounters, combat, _ = services(db)
    await encounters.freeze_rules()
    live = await encounters.live(101)
    assert live.rules.version == 1
    decision = combat.decision(live)
    assert decision is not None
    await combat.decide(live.id, decision.pending_version, PLAYER, "none")
    for _ in range(6):
        live = await encounters.live(101)
        assert live.state.current is not None
        if live.state.current.name == "Willow":
            break
        await combat.gm_command(
            101, GM, "endturn", {}, lambda cur: EndTurn(actor=cur.state.turn), action="x"
        )
    await combat.gm_command(
        101,
        GM,
        "hp",
        {},
        lambda cur: SetVitals(
            target=find_combatant(cur.state, "General Bearington").id, health_change=-6
        ),
        action="x",
    )
    hurt = find_combatant((await encounters.live(101)).state, "General Bearington")
    assert hurt.health == 24  # type: ignore[attr-defined]
    try:
        result = await combat.act(
            101,
            PLAYER,
            "Willow",
            "power",
            {},
            lambda cur, me: ActivatePower(actor=me.id, power="Heal", target=hurt.id),
            between_fights=True,
        )
    except DomainError:
        return  # refused with a reason: acceptable
    after = find_combatant(result.encounter.state, "General Bearington")
    assert after.health > 24, "accepted, and nothing healed"  # type: ignore[attr-defined]
