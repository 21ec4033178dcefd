"""Uune's vitality, wounds and stress (issue 14, slice 1) as pure functions, and the Attack and
Defend outcomes, against the Uune SRD (``uune-srd.txt``; section names are its headings)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.engine.uune import commands as u
from bot.engine.uune.health import (
    COUNT_MAX,
    Health,
    Stress,
    Wounds,
    attack_outcome,
    bleed,
    defend_outcome,
    downtime,
    heal_stress,
    heal_wound,
    restore,
    spend,
    stabilise,
    stress,
    wound,
)
from bot.engine.uune.state import INCAPACITATED
from bot.engine.uune.tables import default_tables
from bot.errors import InvalidInput
from tests.engine.test_uune_engine import RULES, Table

T = default_tables()
FRESH = Health()


def test_vitality_is_100_and_zero_is_incapacitated() -> None:
    """ "Vitality": "100 points of vitality"; "If your character has zero vitality, they become
    incapacitated"."""
    assert (FRESH.maximum(T), FRESH.now(T), FRESH.incapacitated(T)) == (100, 100, False)
    assert spend(FRESH, 100, T).incapacitated(T)


def test_wounds_take_their_toll_off_maximum_and_current_vitality() -> None:
    """ "Wounds": lethal −100 max, heavy −50 max, light −10 max and current."""
    light = wound(FRESH, "light", T)
    assert (light.maximum(T), light.now(T)) == (90, 90)
    heavy = wound(FRESH, "heavy", T)
    assert (heavy.maximum(T), heavy.now(T), heavy.unstable_heavy) == (50, 50, 1)
    lethal = wound(FRESH, "lethal", T)
    assert (lethal.maximum(T), lethal.incapacitated(T), lethal.unstable_lethal) == (0, True, 1)
    tired = wound(spend(FRESH, 30, T), "heavy", T)  # 70 now, max falls to 50: clamped
    assert tired.now(T) == 50
    low = wound(spend(FRESH, 20, T), "light", T)
    assert (low.maximum(T), low.now(T)) == (90, 70)


def test_stress_takes_its_toll_off_maximum_and_current_vitality() -> None:
    """ "Stress": traumatic −100, heavy −50, light −10, each off max and current."""
    assert (stress(FRESH, "light", T).maximum(T), stress(FRESH, "light", T).now(T)) == (90, 90)
    heavy = stress(spend(FRESH, 10, T), "heavy", T)
    assert (heavy.maximum(T), heavy.now(T)) == (50, 40)
    assert stress(FRESH, "traumatic", T).incapacitated(T)


def test_the_wound_healing_ladder_runs_lethal_heavy_four_light_none() -> None:
    """ "Wounds": "only your heaviest wound will heal … A lethal wound will turn into a heavy
    wound. A heavy wound will turn into 4 light wounds. A light wound will turn into no
    wound." Lethal and heavy wounds mend only once stabilised."""
    h = wound(wound(FRESH, "light", T), "lethal", T)
    same, step = heal_wound(h, T)
    assert (same, step) == (h, "unstable")
    h, step = heal_wound(stabilise(h), T)
    assert (step, h.wounds) == ("lethal→heavy", Wounds(heavy=1, light=1))
    assert h.unstable_heavy == 0  # a stabilised wound stays stabilised as it mends
    h, step = heal_wound(h, T)
    assert (step, h.wounds, h.maximum(T)) == ("heavy→light", Wounds(light=5), 50)
    for _ in range(5):
        h, step = heal_wound(h, T)
    assert (step, h.wounds, h.maximum(T)) == ("light→none", Wounds(), 100)
    assert heal_wound(h, T)[1] == "none"


def test_the_stress_healing_ladder_runs_traumatic_heavy_four_light_none() -> None:
    h = stress(FRESH, "traumatic", T)
    h, step = heal_stress(h, T)
    assert (step, h.stress) == ("traumatic→heavy", Stress(heavy=1))
    h, step = heal_stress(h, T)
    assert (step, h.stress, h.maximum(T), h.now(T)) == ("heavy→light", Stress(light=4), 60, 0)
    assert heal_stress(Health(), T)[1] == "none"


def test_downtime_needs_the_living_conditions_hits_restores_50_and_heals_a_step() -> None:
    """ "Downtime": Luxurious 2, Comfortable 3, Sparse 4, Dire 5; "On a success you restore 50
    vitality"; the heaviest wound (after a day) and stress heal one step."""
    h = stress(wound(stabilise(wound(FRESH, "heavy", T)), "light", T), "light", T)
    assert (h.maximum(T), h.now(T)) == (30, 30)
    failed = downtime(h, 3, "sparse", T)
    assert (failed.success, failed.needed, failed.health) == (False, 4, h)
    done = downtime(h, 4, "Sparse", T)
    assert (done.success, done.wound_step, done.stress_step) == (True, "heavy→light", "light→none")
    assert done.health.wounds == Wounds(light=5) and done.health.now(T) == 50
    same_day = downtime(h, 5, "dire", T, a_day_passed=False)
    assert (same_day.wound_step, same_day.health.wounds.heavy) == ("none", 1)
    with pytest.raises(InvalidInput, match="luxurious, comfortable, sparse, dire"):
        downtime(h, 5, "palace", T)


def test_bleeding_takes_10_a_round_and_spends_are_paid_in_full_or_not_at_all() -> None:
    """ "Effect: Bleeding": "lose 10 vitality at the start of each round"."""
    assert bleed(FRESH, T).now(T) == 90 and bleed(FRESH, T, levels=2).now(T) == 80
    assert bleed(spend(FRESH, 95, T), T).now(T) == 0
    with pytest.raises(InvalidInput, match="costs 10 vitality; only 5 is left"):
        spend(spend(FRESH, 95, T), 10, T)
    assert restore(spend(FRESH, 80, T), 500, T).now(T) == 100


@pytest.mark.parametrize(
    ("hits", "defensiveness", "outcome"),
    [
        (6, 3, "lethal"),
        (5, 3, "heavy"),
        (3, 3, "heavy"),
        (2, 3, "light"),
        (1, 3, "fail"),
        (0, 0, "heavy"),
        (1, 0, "lethal"),
        (0, 1, "light"),
    ],
)
def test_attack_against_defensiveness(hits: int, defensiveness: int, outcome: str) -> None:
    """ "Attack": succeed → heavy wound; "double the required hits" → lethal; "miss by 1 hit"
    → light; "miss by more than 1 hit" → fail."""
    assert attack_outcome(hits, defensiveness) == outcome


@pytest.mark.parametrize(
    ("hits", "difficulty", "outcome"),
    [
        (3, 3, "none"),
        (4, 3, "none"),
        (2, 3, "light"),
        (1, 3, "heavy"),
        (0, 3, "lethal"),
        (0, 1, "lethal"),
        (0, 0, "none"),
    ],
)
def test_defend_against_an_attacks_difficulty(hits: int, difficulty: int, outcome: str) -> None:
    """ "Defend": succeed → dodge or parry; "fail by 1" → light; more → heavy; "no hits" →
    lethal."""
    assert defend_outcome(hits, difficulty) == outcome


@given(
    st.lists(
        st.sampled_from(["lethal", "heavy", "light", "traumatic", "s-heavy", "s-light", "bleed"]),
        max_size=12,
    )
)
def test_vitality_never_leaves_zero_to_maximum(steps: list[str]) -> None:
    h = FRESH
    for s in steps:
        if s in ("lethal", "heavy", "light"):
            h = wound(h, s, T)  # type: ignore[arg-type]
        elif s == "bleed":
            h = bleed(h, T)
        else:
            h = stress(h, {"traumatic": "traumatic", "s-heavy": "heavy", "s-light": "light"}[s], T)  # type: ignore[arg-type]
        assert 0 <= h.now(T) <= h.maximum(T) <= h.base


def test_the_gm_deals_the_wounds_and_stress_a_story_gives() -> None:
    """ "Stress": "Traumatic stress reduces your max and current vitality by 100" — the GM's
    `/gm vital vital:traumatic stress amount:+1` (``TakeHarm``) leaves Mira at 0/0,
    Incapacitated; a count given as a number is what the count becomes (never lower: Downtime
    heals); an NPC's numbers stay the GM's."""
    t = Table()
    t.do(RULES.vitals_command("c2", {"light wound": (2, False)}))
    assert t.state.get("c2").health.wounds.light == 2 and t.said("Tobin takes 2 light wounds")
    with pytest.raises(InvalidInput, match=r"has 2 light wounds: .* Downtime heals"):
        t.do(RULES.vitals_command("c2", {"light wound": (1, False)}))
    t.do(RULES.vitals_command("c1", {"traumatic stress": (1, True)}))
    mira = t.state.get("c1")
    assert mira.health.now(T) == 0 and mira.health.maximum(T) == 0 and mira.has(INCAPACITATED)
    thug = t.do(u.TakeHarm(target="c3", harm="wound", severity="heavy", amount=1))
    assert thug.get("c3").health.wounds.heavy == 1 and t.said("Thug takes a heavy wound")
    with pytest.raises(InvalidInput, match="one kind of wound or stress"):
        RULES.vitals_command("c1", {"heavy wound": (1, True), "vitality": (5, False)})


@given(
    st.lists(
        st.sampled_from(["lethal", "heavy", "light", "traumatic", "heavy stress", "light stress"]),
        max_size=8,
    ),
    st.sampled_from(["wound", "heal_wound", "stress", "heal_stress"]),
)
def test_every_health_a_function_returns_validates_or_the_change_is_refused(
    start: list[str], step: str
) -> None:
    """Guard (attack 18): :class:`Health` is changed by copies, which pydantic does not
    validate; a count past :data:`COUNT_MAX` stayed in play and left a campaign record that
    could not be read back. From counts at or near the most, every change returns a health
    that validates as itself: a count stops at the most (no wound in play is refused, so no
    decision waits forever on one)."""
    h = Health(
        wounds=Wounds(lethal=COUNT_MAX - 1, heavy=COUNT_MAX, light=COUNT_MAX - 3),
        stress=Stress(traumatic=COUNT_MAX - 1, heavy=COUNT_MAX, light=COUNT_MAX - 3),
    )
    changes = {
        "wound": lambda x: wound(x, "light", T),
        "heal_wound": lambda x: heal_wound(stabilise(x), T)[0],
        "stress": lambda x: stress(x, "light", T),
        "heal_stress": lambda x: heal_stress(x, T)[0],
    }
    dealt = {
        "lethal": lambda x: wound(x, "lethal", T),
        "heavy": lambda x: wound(x, "heavy", T),
        "light": lambda x: wound(x, "light", T),
        "traumatic": lambda x: stress(x, "traumatic", T),
        "heavy stress": lambda x: stress(x, "heavy", T),
        "light stress": lambda x: stress(x, "light", T),
    }
    for kind in start:
        h = dealt[kind](h)
    after = changes[step](h)
    assert Health.model_validate(after.model_dump()) == after


def test_an_npc_with_vitality_lost_looks_worn_not_unhurt() -> None:
    """What players see of a hidden NPC (``wound_level``): Thug at 40 of 60 vitality (the GM's
    ``/gm vital``, Bleeding) with no wound or stress looked "Unhurt" (newuser24); vitality is
    "their health and energy", so it looks Worn; a stress still reads Stressed, and back at
    its maximum it is Unhurt again."""
    t = Table()
    assert RULES.wound_level(t.state.get("c3")) == "Unhurt"
    t.do(RULES.vitals_command("c3", {"vitality": (40, False)}))
    assert t.state.get("c3").health.now(T) == 40
    assert RULES.wound_level(t.state.get("c3")) == "Worn"
    t.do(u.TakeHarm(target="c3", harm="stress", severity="light", amount=1))
    assert RULES.wound_level(t.state.get("c3")) == "Stressed"
    assert RULES.wound_levels.index("Worn") == RULES.wound_levels.index("Unhurt") + 1
