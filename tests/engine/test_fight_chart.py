"""The fight in pictures (issue 18), the data side: what a chart draws for each audience.

Against NPCs with distinctive Health and Stamina (≥ 100, so no wound-level index, round or
label can be mistaken for one), the public chart's data — every value fed to the plot, every
label and the alt text — never holds an NPC's number; the GM's holds them all."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from bot.engine import RandomRoller, get_ruleset
from bot.engine.core.audience import GM, PUBLIC, controller
from bot.engine.core.chart import WOUND_PANEL, ChartData, Sample, chart_data
from bot.engine.core.commands import Begin
from bot.engine.uttas.commands import AddCombatant
from bot.errors import DomainError
from tests.contract.harness import HARNESSES
from tests.engine.helpers import NOW, RULES
from tests.engine.test_audiences import hidden_numbers, npc_sheet, pc_sheet
from tests.engine.test_properties import pick


def scripted_fight(npcs: int, pcs: int, *, seed: int = 3, rounds: int = 6) -> list[Sample]:
    """A seeded random UTTAS fight of ``npcs`` Ogres (hidden numbers) and ``pcs`` Heroes,
    sampled at the start and at the end of every round."""
    s = RULES.new_encounter(name="Scripted", seed=seed)
    roller, rng = RandomRoller(seed=seed), random.Random(seed)
    cast = [
        AddCombatant(
            name=f"Ogre {i}",
            sheet=npc_sheet(i % 6).model_copy(update={"name": f"Ogre {i}"}),
            is_npc=True,
        )
        for i in range(npcs)
    ]
    cast += [
        AddCombatant(
            name=f"Hero {i}", sheet=pc_sheet(i % 6).model_copy(update={"name": f"Hero {i}"})
        )
        for i in range(pcs)
    ]
    for command in [*cast, Begin()]:
        s = RULES.apply(s, command, roller, NOW).state
    samples = [Sample("Start", s)]
    for _ in range(5000):
        if s.phase != "active" or s.round > rounds:
            break
        try:
            after = RULES.apply(s, pick(s, rng), roller, NOW).state
        except DomainError:
            continue
        if after.round != s.round:
            samples.append(Sample(str(s.round), s))
        s = after
    if samples[-1].state is not s and s.round <= rounds:
        samples.append(Sample(str(s.round), s))
    return samples


def numbers_in(data: ChartData) -> set[int]:
    """Every number the chart draws or writes: plotted values, labels and the alt text."""
    found: set[int] = set()
    for panel in data.panels:
        for series in panel.series:
            found |= {int(v) for v in series.values if v is not None}
            found |= {int(n) for n in re.findall(r"-?\d+", series.last + series.name)}
    found |= {int(n) for n in re.findall(r"-?\d+", data.alt_text(100_000))}
    return found


def secret(samples: list[Sample]) -> set[int]:
    out: set[int] = set()
    for sample in samples:
        out |= hidden_numbers(sample.state)
    return out


def test_the_public_chart_never_draws_a_hidden_npcs_numbers() -> None:
    samples = scripted_fight(3, 3)
    assert len(samples) >= 3
    public = chart_data(RULES, samples, PUBLIC, title="Scripted")
    assert secret(samples), "the fight must have numbers to hide"
    assert not numbers_in(public) & secret(samples)
    titles = [p.title for p in public.panels]
    assert titles == ["Health", "Stamina", WOUND_PANEL]
    wounds = public.panels[-1]
    assert {s.name for s in wounds.series} == {"Ogre 0", "Ogre 1", "Ogre 2"}
    for series in wounds.series:  # wound-level indexes only, and words for the last
        assert {v for v in series.values if v is not None} <= {0.0, 1.0, 2.0, 3.0, 4.0}
        assert series.last in RULES.wound_levels
    for panel in public.panels[:2]:
        assert {s.name for s in panel.series} == {"Hero 0", "Hero 1", "Hero 2"}
    alt = public.alt_text()
    assert "shown by wound level" in alt and "Ogre 0" in alt and len(alt) <= 1024
    assert not public.exact


def test_the_gm_chart_is_exact() -> None:
    samples = scripted_fight(2, 2)
    gm = chart_data(RULES, samples, GM, title="Scripted")
    assert gm.exact and [p.title for p in gm.panels] == ["Health", "Stamina"]
    ogre = next(s for s in gm.panels[0].series if s.name == "Ogre 0")
    first = samples[0].state.combatants[0]
    assert ogre.values[0] == first.health == first.sheet.health
    end = samples[-1].state.get(ogre.combatant)
    assert ogre.values[-1] == end.health and ogre.last == f"{end.health}/{end.sheet.health}"
    assert f"Ogre 0 Health {end.health}/{end.sheet.health}" in gm.alt_text()


def test_a_controller_sees_their_own_npc_exactly() -> None:
    samples = scripted_fight(2, 1)
    owner = 42
    states = [
        Sample(
            s.label,
            s.state.model_copy(
                update={
                    "combatants": [
                        c.model_copy(update={"controller_id": owner}) if c.name == "Ogre 0" else c
                        for c in s.state.combatants
                    ]
                }
            ),
        )
        for s in samples
    ]
    mine = chart_data(RULES, states, controller(owner), title="Scripted")
    health = {s.name for s in mine.panels[0].series}
    assert "Ogre 0" in health and "Ogre 1" not in health
    assert {s.name for s in mine.panels[-1].series} == {"Ogre 1"}


def test_shown_npc_numbers_are_drawn_when_the_gm_shows_them() -> None:
    samples = [
        Sample(
            s.label,
            s.state.model_copy(
                update={"settings": s.state.settings.model_copy(update={"hide_npc_numbers": False})}
            ),
        )
        for s in scripted_fight(1, 1)
    ]
    public = chart_data(RULES, samples, PUBLIC, title="Shown")
    assert public.exact and WOUND_PANEL not in [p.title for p in public.panels]


def test_the_alt_text_fits_discords_limit_for_sixty_combatants() -> None:
    samples = scripted_fight(30, 30, rounds=2)
    data = chart_data(RULES, samples, PUBLIC, title="Sixty")
    assert data.combatants == 60
    alt = data.alt_text()
    assert len(alt) <= 1024 and alt.endswith("more.")
    assert "60 combatants" in alt


POOLS = {
    "uttas": ["Health", "Stamina"],
    "utopia": ["SHP", "DHP", "Stamina"],
    "untitled": ["Health"],
    "uune": ["Vitality"],
}


@pytest.mark.parametrize("key", sorted(HARNESSES))
def test_every_ruleset_charts_its_pools_and_hides_an_npcs(key: str) -> None:
    """Each implemented ruleset draws its own pools (as its text names them) for a PC, and an
    NPC whose numbers are hidden on the wound-level scale, with none of its numbers."""
    rules: Any = get_ruleset(key)
    harness = HARNESSES[key]
    state = rules.new_encounter(name="Pools", seed=1)
    for command in harness.setup([harness.example_sheet(), harness.example_sheet()], [False, True]):
        state = rules.apply(state, command, RandomRoller(seed=1), NOW).state
    pc, npc = state.combatants
    samples = [Sample("Start", state)]
    public = chart_data(rules, samples, PUBLIC, title="Pools")
    assert [p.title for p in public.panels] == [*POOLS[key], WOUND_PANEL]
    readings = rules.chart_pools(state)[pc.id]
    for panel in public.panels[:-1]:
        (line,) = panel.series
        assert line.combatant == pc.id and line.values == (float(readings[panel.title].value),)
    (hidden,) = public.panels[-1].series
    assert hidden.combatant == npc.id and hidden.last == rules.wound_level(npc)
    assert hidden.values == (float(rules.wound_levels.index(rules.wound_level(npc))),)
    assert not {int(v) for v in hidden.values if v is not None} & harness.hidden_numbers(state) - {
        0,
        1,
        2,
        3,
        4,
    }
    gm = chart_data(rules, samples, GM, title="Pools")
    assert [p.title for p in gm.panels] == POOLS[key] and gm.exact
