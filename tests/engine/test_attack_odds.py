"""The odds an attack had, on its result (issue 18), for UTTAS, Untitled, Utopia and Uune:
exact (the same figure ``/odds`` gives for the reaction taken or the resources approved, and
brute-force enumeration), and shown by audience — the GM always, players when they may see both
sides' numbers or the GM allows the odds against hidden NPCs (``show_odds``)."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

from bot.engine import RandomRoller, get_ruleset
from bot.engine.core.audience import GM, PUBLIC, controller
from bot.engine.core.commands import Begin, ChangeSettings, EndTurn
from bot.engine.core.dice import Roll
from bot.engine.core.odds import percent, roll_chance
from bot.engine.untitled.commands import Attack as UntitledAttack
from bot.engine.untitled.commands import Defend
from bot.engine.utopia.commands import Attack as UtopiaAttack
from bot.engine.utopia.commands import Defend as UtopiaDefend
from bot.engine.uttas.commands import Attack, React
from bot.engine.uttas.events import AttackResolved
from bot.engine.uune.commands import Approve, NpcAttack, Propose
from bot.engine.uune.commands import Attack as UuneAttack
from bot.errors import DomainError
from tests.engine.helpers import NOW, RULES, Fight


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


def untitled_duel(npc: bool) -> tuple[Any, Any]:
    """Wren (party) and Brask (a rival PC, or an NPC) in a running Untitled fight."""
    rules = get_ruleset("untitled")
    sheets = Path(__file__).resolve().parents[2] / "data" / "sheets" / "untitled"
    roller = RandomRoller(seed=6)
    state = rules.new_encounter(name="Ford", seed=6)
    cast = (("Wren", "wren", "party", False), ("Brask", "brask", "rivals", npc))
    for name, stem, side, is_npc in cast:
        sheet = rules.parse_sheet(json.loads((sheets / f"{stem}.json").read_text()))
        add = rules.add_command(name=name, sheet=sheet, is_npc=is_npc)
        state = rules.apply(state, add.model_copy(update={"side": side}), roller, NOW).state
    return rules, rules.apply(state, Begin(), roller, NOW).state


def untitled_attack(npc: bool, shield: bool) -> tuple[Any, Any, Any, Any]:
    """Wren stabs Brask (turns passed until Wren's), Brask answering with or without its
    shield: the ruleset, the state after, the AttackResolved event and the odds ``/odds``
    gave just before."""
    rules, state = untitled_duel(npc)
    roller = RandomRoller(seed=6)
    wren, brask = state.find("Wren"), state.find("Brask")
    while state.turn != wren.id:
        state = rules.apply(state, EndTurn(actor=state.turn), roller, NOW).state
    before = rules.odds(state, wren, brask, "Hunting knife")
    stab = UntitledAttack(actor=wren.id, target=brask.id, weapon="Hunting knife")
    state = rules.apply(state, stab, roller, NOW).state
    assert state.pending is not None  # Brask carries a shield: the attack waits on it
    answer = Defend(actor=brask.id, choice="shield" if shield else "none")
    out = rules.apply(state, answer, roller, NOW)
    [event] = [e for e in out.events if e.kind == "attack_resolved"]
    return rules, out.state, event, before


def test_untitled_result_shows_the_odds_odds_gave() -> None:
    for shield, line in ((False, "Combat Defense alone"), (True, "Raise the shield")):
        rules, state, event, before = untitled_attack(npc=False, shield=shield)
        expected = next(x for x in before.lines if x.reaction == line).chance
        public = "\n".join(event.render(rules.view(state, PUBLIC)))
        suffix = " against the shield" if shield else ""
        assert f"Odds: {percent(expected)} to hit{suffix}" in public


def test_untitled_odds_against_a_hidden_npc_only_for_the_gm_unless_allowed() -> None:
    rules, state, event, _ = untitled_attack(npc=True, shield=True)
    assert "Odds: " not in "\n".join(event.render(rules.view(state, PUBLIC)))
    assert "Odds: " in "\n".join(event.render(rules.view(state, GM)))
    settings = state.settings.model_copy(update={"show_odds": True})
    allowed = state.model_copy(update={"settings": settings})
    assert "Odds: " in "\n".join(event.render(rules.view(allowed, PUBLIC)))


def utopia_defended(npc: bool, choice: str) -> tuple[Any, Any, Any]:
    """Vesna attacks the Stone hound (a rival PC, or an NPC) on Vesna's turn until damage waits
    on the hound's defense; the hound answers with ``choice``: the ruleset, the state after and
    the DamageResolved event."""
    rules = get_ruleset("utopia")
    sheets = Path(__file__).resolve().parents[2] / "data" / "sheets" / "utopia"
    roller = RandomRoller(seed=8)
    state = rules.new_encounter(name="Ford", seed=8)
    for name, stem, side, is_npc in (
        ("Vesna", "vesna", "party", False),
        ("Hound", "stone-hound", "rivals", npc),
    ):
        sheet = rules.parse_sheet(json.loads((sheets / f"{stem}.json").read_text()))
        add = rules.add_command(name=name, sheet=sheet, is_npc=is_npc)
        state = rules.apply(state, add.model_copy(update={"side": side}), roller, NOW).state
    state = rules.apply(state, Begin(), roller, NOW).state
    vesna, hound = state.find("Vesna"), state.find("Hound")
    while state.pending is None or state.pending.kind != "damage":
        if state.pending is not None:  # the hound's own attack: Vesna takes it
            state = rules.apply(state, rules.lapse(state), roller, NOW).state
        elif state.turn != vesna.id:
            state = rules.apply(state, EndTurn(actor=state.turn), roller, NOW).state
        else:
            stab = UtopiaAttack(actor=vesna.id, target=hound.id, weapon=None)
            try:
                state = rules.apply(state, stab, roller, NOW).state
            except DomainError:
                state = rules.apply(state, EndTurn(actor=vesna.id), roller, NOW).state
    out = rules.apply(state, UtopiaDefend(actor=hound.id, choice=choice), roller, NOW)
    [event] = [e for e in out.events if e.kind == "damage_resolved"]
    return rules, out.state, event


def test_utopia_result_shows_the_chance_damage_got_through_the_defense_taken() -> None:
    for choice in ("block", "dodge"):
        rules, state, event = utopia_defended(npc=False, choice=choice)
        [dice] = event.defense_dice
        faces = list(itertools.product(range(1, dice.sides + 1), repeat=dice.count))
        through = Fraction(sum(1 for f in faces if sum(f) < event.damage), len(faces))
        line = f"Odds: {percent(through)} damage gets through the {choice.title()}"
        assert line in "\n".join(event.render(rules.view(state, PUBLIC)))
        assert event.attacker == state.find("Vesna").id and event.damage > 0


def test_utopia_odds_against_a_hidden_npc_only_for_the_gm_unless_allowed() -> None:
    rules, state, event = utopia_defended(npc=True, choice="block")
    assert "Odds: " not in "\n".join(event.render(rules.view(state, PUBLIC)))
    assert "Odds: " in "\n".join(event.render(rules.view(state, GM)))
    settings = state.settings.model_copy(update={"show_odds": True})
    allowed = state.model_copy(update={"settings": settings})
    assert "\n".join(event.render(rules.view(allowed, PUBLIC))).count("Odds: ") == 1


def uune_roll(attacking: bool) -> tuple[Any, Any, Any, Any]:
    """Mira (PC) and a Dock Thug (NPC, hidden numbers): Mira attacks the thug, or Defends
    against its Cudgel, with Quickblade and Lockpicks; the GM approves. The ruleset, the state
    after, the RollOdds event and ``/odds``'s figure for the same resources just before."""
    rules = get_ruleset("uune")
    sheets = Path(__file__).resolve().parents[2] / "data" / "sheets" / "uune"
    roller = RandomRoller(seed=9)
    state = rules.new_encounter(name="Dock", seed=9)
    for name, stem, npc in (("Mira", "mira", False), ("Thug", "dock-thug", True)):
        sheet = rules.parse_sheet(json.loads((sheets / f"{stem}.json").read_text()))
        state = rules.apply(
            state, rules.add_command(name=name, sheet=sheet, is_npc=npc), roller, NOW
        ).state
    state = rules.apply(state, Begin(), roller, NOW).state
    mira, thug = state.find("Mira"), state.find("Thug")
    events: list[Any] = []
    if attacking:
        before = rules.resource_odds(state, mira, thug, "Attack", "Quickblade, Lockpicks")
        steps = [UuneAttack(actor=mira.id, target=thug.id, resources=("Quickblade", "Lockpicks"))]
    else:
        state = state.model_copy(update={"turn": thug.id})
        before = rules.resource_odds(state, thug, mira, "Cudgel", "Quickblade, Lockpicks")
        steps = [
            NpcAttack(actor=thug.id, target=mira.id, attack="Cudgel"),
            Propose(actor=mira.id, resources=("Quickblade", "Lockpicks")),
        ]
    steps.append(Approve(actor=mira.id, all="approve"))
    for step in steps:
        out = rules.apply(state, step, roller, NOW)
        state, events = out.state, events + list(out.events)
    [event] = [e for e in events if e.kind == "roll_odds"]
    return rules, state, event, before.lines[0].chance


def test_uune_result_shows_the_odds_odds_gives_for_the_approved_resources() -> None:
    rules, state, event, chance = uune_roll(attacking=True)
    assert event.chance() == chance and 0 < chance < 1
    gm = "\n".join(event.render(rules.view(state, GM)))
    assert f"Odds: {percent(chance)} to hit with 2 resources" in gm
    assert "Odds: " not in "\n".join(event.render(rules.view(state, PUBLIC)))  # a hidden NPC
    settings = state.settings.model_copy(update={"show_odds": True})
    allowed = state.model_copy(update={"settings": settings})
    assert f"Odds: {percent(chance)}" in "\n".join(event.render(rules.view(allowed, PUBLIC)))


def test_uune_defend_shows_the_odds_the_npcs_attack_had_to_the_gm_only() -> None:
    rules, state, event, chance = uune_roll(attacking=False)
    assert event.chance() == chance and 0 < chance < 1
    line = f"Odds: {percent(chance)} to hit against Mira's Defend with 2 resources"
    assert line in "\n".join(event.render(rules.view(state, GM)))
    settings = state.settings.model_copy(update={"show_odds": True})
    allowed = state.model_copy(update={"settings": settings})
    assert "Odds: " not in "\n".join(event.render(rules.view(allowed, PUBLIC)))
