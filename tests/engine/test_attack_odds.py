"""The odds an attack had, on its result (issue 18): exact (the same figure ``/odds`` gives
for the reaction taken, and brute-force enumeration), and shown by audience — the GM always,
players when they may see both sides' numbers or the GM allows the odds against hidden NPCs
(``show_odds``)."""

from __future__ import annotations

import itertools
from fractions import Fraction

from bot.engine.core.audience import GM, PUBLIC, controller
from bot.engine.core.commands import ChangeSettings
from bot.engine.core.dice import Roll
from bot.engine.core.odds import percent, roll_chance
from bot.engine.uttas.commands import Attack, React
from bot.engine.uttas.events import AttackResolved
from tests.engine.helpers import RULES, Fight


def resolved(f: Fight) -> AttackResolved:
    return next(e for o in reversed(f.log) for e in o.events if isinstance(e, AttackResolved))


def shown(f: Fight, audience: object) -> str:
    view = RULES.view(f.state, audience)  # type: ignore[arg-type]
    return "\n".join(resolved(f).render(view))


def test_roll_chance_matches_brute_force() -> None:
    roll = Roll(
        purpose="accuracy", base_dice=3, advantage=1, dice=(1, 2, 3, 4), modifier=2, total=12
    )
    faces = list(itertools.product(range(1, 7), repeat=4))
    above = sum(1 for f in faces if sum(f) + 2 > 15)
    assert roll_chance(roll, 15, "second") == Fraction(above, len(faces))
    at_least = sum(1 for f in faces if sum(f) + 2 >= 15)
    assert roll_chance(roll, 15, "first") == Fraction(at_least, len(faces))


def test_the_result_shows_the_odds_odds_gave_for_the_reaction_taken() -> None:
    f = Fight(seed=3)
    ann = f.add("Ann", agility=20)
    cat = f.add("Cat", side="rivals", agility=5)
    f.begin()
    before = RULES.odds(f.state, f.c(ann), f.c(cat), "Sword")
    evade = next(line for line in before.lines if line.reaction == "Evade")
    f.do(Attack(actor=ann, target=cat, attack="Sword"))
    f.do(React(actor=cat, choice="evade"))
    event = resolved(f)
    assert roll_chance(event.accuracy, event.target_number, "second") == evade.chance  # type: ignore[arg-type]
    line = f"Odds: {percent(evade.chance)} to hit against Evade"
    assert line in shown(f, PUBLIC)  # two player characters: everyone sees both sides
    assert line in shown(f, GM)


def test_odds_against_a_hidden_npc_only_for_the_gm_unless_allowed() -> None:
    f = Fight(seed=4)
    ann = f.add("Ann", agility=20)
    thug = f.add("Thug", npc=True, agility=5)
    f.begin()
    f.do(Attack(actor=ann, target=thug, attack="Sword"))
    if f.state.pending is not None:
        f.do(React(actor=thug, choice="none"))
    assert "Odds: " not in shown(f, PUBLIC)
    assert "Odds: " not in shown(f, controller(1234))
    assert "Odds: " in shown(f, GM)
    f.do(ChangeSettings(show_odds=True))
    assert "Odds: " in shown(f, PUBLIC)
    assert shown(f, PUBLIC).count("Odds: ") == 1


def test_odds_of_a_hidden_npcs_attack_stay_with_the_gm() -> None:
    f = Fight(seed=5)
    thug = f.add("Thug", npc=True, agility=20)
    ann = f.add("Ann", agility=5)
    f.begin()
    f.do(Attack(actor=thug, target=ann, attack="Sword"))
    f.do(React(actor=ann, choice="none"))
    assert "Odds: " not in shown(f, PUBLIC)  # the odds would tell the Thug's Accuracy bonus
    assert "Odds: " in shown(f, GM)
    f.do(ChangeSettings(show_odds=True))
    assert "Odds: " not in shown(f, PUBLIC)  # show_odds is about odds against NPCs
    f.do(ChangeSettings(hide_npc_numbers=False))
    assert "Odds: " in shown(f, PUBLIC)
