"""Acceptance test: the rules text's own worked example, "Combat in action".

Willow and General Bearington (Agility 12, Speed 6) fight three thugs (Agility 10, Speed 4),
sheets from ``data/sheets/uttas/``: the three example thugs of ``plausibility.THUGS`` — Thug 1
(the one the bear beats on) is a Brawler, Thug 2 (Willow's) a Lackey, Thug 3 (who sprints away)
a Ringleader, added as a GM adds NPCs from templates ("<sheet name> <n>"). The text fixes who
acts when and what happens, not the dice, so every roll is SCRIPTED to produce the outcome the
text narrates; the comments say which die does what. The rules (action pools, Advantage from
Steady, Bracing, Block, Stunned, knock-outs, the flurry, the sprint, the surrender) are the
engine's own.
"""

from __future__ import annotations

import json
from pathlib import Path

from bot.engine.core.events import CombatEnded, TurnSkipped
from bot.engine.uttas.commands import (
    AddCombatant,
    Attack,
    ChangeStance,
    Move,
    React,
    Sprint,
    Surrender,
)
from bot.engine.uttas.events import AttackResolved
from bot.engine.uttas.plausibility import THUGS
from bot.engine.uttas.sheet import UttasSheet
from tests.engine.helpers import Fight

SHEETS = Path(__file__).resolve().parents[2] / "data" / "sheets" / "uttas"


def load(name: str) -> UttasSheet:
    return UttasSheet.model_validate(json.loads((SHEETS / f"{name}.json").read_text()))


def resolved(f: Fight) -> list[AttackResolved]:
    return [e for e in f.log[-1].events if isinstance(e, AttackResolved)]


def test_combat_in_action() -> None:
    f = Fight()
    f.do(AddCombatant(name="Willow", sheet=load("willow"), controller_id=1))
    f.do(AddCombatant(name="General Bearington", sheet=load("general-bearington"), controller_id=1))
    for stem in THUGS:  # Thug 1, 2, 3 of the text
        sheet = load(stem)
        f.do(AddCombatant(name=f"{sheet.name} 1", sheet=sheet, is_npc=True))
    w, bear, t1, t2, t3 = (c.id for c in f.state.combatants)

    # Initiative by Agility: Willow and the bear (12) before the thugs (10). Ties roll Agility
    # dice (2d6): Willow 5, bear 10; Thug 1 12, Thug 2 2, Thug 3 6.
    f.begin(dice=[2, 3, 5, 5, 6, 6, 1, 1, 3, 3])
    assert f.state.order == [bear, w, t1, t3, t2]
    assert f.state.turn == bear and f.state.round == 1

    # ---- Round 1 --------------------------------------------------------------------------
    # The bear charges (free half move) and hits Thug 1 (the Brawler), nearly knocking him out:
    # 12 of his 18 Stamina, not Stunned (12 is not above his Body 14).
    f.do(Move(actor=bear, meters=6))
    f.do(Attack(actor=bear, target=t1, attack="Claws"))
    f.do(React(actor=t1, choice="none"), dice=[4, 4, 4, 3, 3, 3, 3, 2])  # 27 vs 21; 5d6 = 14
    [hit] = resolved(f)
    assert hit.hit and hit.stamina_damage == 12 and hit.health_damage == 4
    assert f.c(t1).stamina == 6 and not f.c(t1).has("Stunned")

    # Willow Blasts Thug 2 (the Lackey), who spends one of his 4 actions to dodge; she rolls
    # poorly.
    assert f.state.turn == w
    f.do(Attack(actor=w, target=t2, attack="Blast", range_m=10))
    assert f.c(w).stamina == 30  # 50 Active Points → 10 Stamina
    f.do(React(actor=t2, choice="evade"), dice=[1, 2, 3])  # 13 + 6 = 19 vs Dodge 19 + 4
    assert not resolved(f)[0].hit
    assert f.c(t2).actions_left == 3

    # Two thugs gang up on the bear: Thug 1 hits, Thug 3 misses.
    assert f.state.turn == t1
    f.do(Attack(actor=t1, target=bear, attack="Cudgel"))
    f.do(React(actor=bear, choice="none"), dice=[5, 5, 4, 4, 4, 4])  # 25 vs 21; 3d6 = 12
    assert resolved(f)[0].hit and f.c(bear).stamina == 60 - 4 - 6
    assert f.state.turn == t3
    f.do(Attack(actor=t3, target=bear, attack="Cudgel"))
    f.do(React(actor=bear, choice="none"), dice=[2, 3, 3])  # 12 + 8 = 20 vs 21
    assert not resolved(f)[0].hit

    # Thug 2 charges Willow, and misses. (Rules version 2: his pool, 3 after the dodge,
    # refilled to Speed as his turn began — the dodge cost him nothing now.)
    assert f.state.turn == t2 and f.c(t2).actions_left == 4
    f.do(Move(actor=t2, meters=5))
    f.do(Attack(actor=t2, target=w, attack="Cudgel"))
    assert f.c(t2).actions_left == 3
    f.do(React(actor=w, choice="none"), dice=[3, 3, 3])  # 9 + 9 = 18 vs Willow's Dodge 22
    assert not resolved(f)[0].hit

    # ---- Round 2 --------------------------------------------------------------------------
    assert f.state.round == 2 and f.state.turn == bear
    # Bearington attacks Thug 1 again, who successfully Blocks.
    f.do(Attack(actor=bear, target=t1, attack="Claws"))
    f.do(React(actor=t1, choice="block"), dice=[2, 2, 2])  # 21 vs Dodge 21 + 3 (Block)
    assert not resolved(f)[0].hit

    # Willow takes the Steady stance (free at the start of her turn) and clubs Thug 2, who
    # tries to dodge again; Steady gives her Advantage (4d6).
    f.do(ChangeStance(actor=w, stance="Steady"))
    assert f.c(w).actions_left == 6
    f.do(Attack(actor=w, target=t2, attack="Club"))
    f.do(React(actor=t2, choice="evade"), dice=[5, 5, 5, 5, 3, 2, 2])  # 10+20=30 vs 23; 3d6=7
    [club] = resolved(f)
    assert club.hit and club.accuracy is not None and len(club.accuracy.dice) == 4
    assert "Willow's Steady stance" in club.advantages
    assert f.c(t2).stamina == 26 - 2 - 5 and not f.c(t2).has("Stunned")  # 5 is not above 8

    # Thug 1 takes the Bracing stance to defend himself and attacks the bear (Bracing means
    # Disadvantage: 2d6) — he misses; Thug 3 hits.
    assert f.state.turn == t1
    f.do(ChangeStance(actor=t1, stance="Bracing"))
    f.do(Attack(actor=t1, target=bear, attack="Cudgel"))
    f.do(React(actor=bear, choice="none"), dice=[3, 3])
    assert not resolved(f)[0].hit
    f.do(Attack(actor=t3, target=bear, attack="Cudgel"))
    f.do(React(actor=bear, choice="none"), dice=[5, 5, 5, 4, 4, 4])
    assert resolved(f)[0].hit

    # Thug 2 hits Willow *because of her stance*: attackers get Advantage against Steady.
    f.do(Attack(actor=t2, target=w, attack="Cudgel"))
    f.do(React(actor=w, choice="none"), dice=[4, 4, 3, 3, 3, 3, 3])  # 9 + 14 = 23 vs 22
    [back] = resolved(f)
    assert back.hit and "Willow's Steady stance" in back.advantages
    assert sum(back.accuracy.dice[:3]) + 9 <= 22  # type: ignore[union-attr] # 3d6 alone: miss

    # ---- Round 3 --------------------------------------------------------------------------
    assert f.state.round == 3
    # Bearington swipes at Thug 1 one last time; despite his Block (and Bracing), he drops.
    f.do(Attack(actor=bear, target=t1, attack="Claws"))
    f.do(React(actor=t1, choice="block"), dice=[6, 5, 5, 6, 6, 5, 5, 5])
    [ko] = resolved(f)
    assert ko.hit and ko.armor == 1 + 1 + 1 and ko.defense == 2 + 3 + 5
    assert f.c(t1).has("Unconscious") and f.c(t1).has("Prone")

    # Willow scores another blow on Thug 2, hard enough to Stun him (13 > Body 8); his deep
    # Stamina keeps him conscious (19 - 2 - 13 = 4).
    f.do(Attack(actor=w, target=t2, attack="Club"))
    f.do(React(actor=t2, choice="none"), dice=[4, 4, 4, 4, 5, 5, 5])
    assert resolved(f)[0].stamina_damage == 13
    assert f.c(t2).has("Stunned") and not f.c(t2).has("Unconscious")
    assert f.c(t2).stamina == 4

    # Thug 1's turn is skipped (unconscious). Thug 3 hits the bear but cannot drop it. Thug 2
    # then spends his turn recovering from Stunned and can do nothing else.
    f.do(Attack(actor=t3, target=bear, attack="Cudgel"))
    out = f.do(React(actor=bear, choice="none"), dice=[5, 5, 5, 4, 4, 4])
    assert resolved(f)[0].hit and not f.c(bear).has("Unconscious")
    skips = [e for e in out.events if isinstance(e, TurnSkipped)]
    assert [(e.combatant, e.reason) for e in skips] == [(t2, "recovering from Stunned")]
    assert not f.c(t2).has("Stunned")
    assert f.state.round == 4 and f.state.turn == bear

    # ---- Round 4 --------------------------------------------------------------------------
    # The bear's flurry at Thug 3 (the Ringleader, 30 Stamina left after three Cudgel swings):
    # three hits, three actions; two land for massive damage (21, more than half his 36, each
    # below his Body 18: not Stunned), the third misses.
    f.do(Attack(actor=bear, target=t3, attack="Claws", hits=3))
    assert f.c(bear).actions_left == 3
    f.do(React(actor=t3, choice="none"), dice=[5, 5, 5, 3, 3, 3, 2, 2])  # 30 vs 22; 13 → 11
    f.do(React(actor=t3, choice="none"), dice=[5, 5, 5, 3, 3, 2, 2, 2])  # 12 → 10
    f.do(React(actor=t3, choice="evade"), dice=[1, 1, 1])  # 18 vs 22 + 4
    hits = [e for o in f.log[-3:] for e in o.events if isinstance(e, AttackResolved)]
    assert [h.hit for h in hits] == [True, True, False]
    assert f.c(t3).health == 14 - 8 and f.c(t3).stamina == 30 - 21
    assert not f.c(t3).has("Stunned")

    # Willow changes to a Mobile stance (free, start of turn) and knocks Thug 2 out.
    f.do(ChangeStance(actor=w, stance="Mobile"))
    f.do(Attack(actor=w, target=t2, attack="Club"))
    f.do(React(actor=t2, choice="none"), dice=[5, 5, 5, 3, 3, 2])
    assert f.c(t2).has("Unconscious")

    # The last thug Sprints into the woods: double his full move, Dexterity halved.
    assert f.state.turn == t3
    f.do(Sprint(actor=t3, meters=20))
    assert f.c(t3).has("Sprinting") and f.c(t3).stamina == 9 - 2

    # ---- Afterwards: the chase and the surrender --------------------------------------------
    assert f.state.round == 5 and f.state.turn == bear
    f.do(Move(actor=bear, meters=14, full=True))  # Bearington chases after him
    f.do(Attack(actor=w, target=t3, attack="Entangle", range_m=20))
    f.do(React(actor=t3, choice="none"), dice=[3, 3, 3])  # 13 + 9 = 22 vs Dodge 18 (sprinting:
    [ent] = resolved(f)  # 10 + (10 + 14 / 2) / 2)
    assert ent.hit and ent.target_number == 18
    assert f.c(t3).has("Entangled")
    assert f.state.turn == t3  # Thug 1 and Thug 2 (unconscious) are skipped
    out = f.do(Surrender(actor=t3))
    [end] = [e for e in out.events if isinstance(e, CombatEnded)]
    assert end.winner == "party" and f.state.phase == "finished" and f.state.turn is None
