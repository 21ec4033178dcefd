"""Untitled's attack and defense through the ruleset, with scripted dice
(``untitled-combat.txt`` "Combat"; docs/rules/untitled.md cites these tests): a tie to the
defender, the shield as the defender's only choice, Health and Down, reach and range, a
refusal that rolls nothing, and what players see of an NPC."""

from __future__ import annotations

from bot.engine.core.audience import PUBLIC
from bot.engine.core.commands import Begin, EndTurn, SetDistance
from bot.engine.untitled import commands as u
from bot.engine.untitled.events import AttackResolved
from bot.engine.untitled.tables import load_tables
from tests.contract.harness_untitled import untitled_sheet
from tests.engine.test_untitled_engine import RULES, Fight


def duel(shield: bool = False, armor: str | None = None, npc: bool = False) -> Fight:
    """A (Swords 3, Blade 3) against B (Combat Defense 2, Health 20 or 120 as an NPC)."""
    return Fight(
        u.AddCombatant(name="A", sheet=untitled_sheet(20, 3, False, None, False)),
        u.AddCombatant(
            name="B", sheet=untitled_sheet(20, 3, shield, armor, npc), is_npc=npc, side="foes"
        ),
    )


def resolved(events: list[object]) -> AttackResolved:
    return next(e for e in events if isinstance(e, AttackResolved))


def test_a_tie_goes_to_the_defender() -> None:
    """ "A tie will go to the defender": Swords 3 (2d6 + 3) = 9 against Combat Defense 2
    (2d6 + 2) = 9."""
    f = duel()
    events = f.do(u.Attack(actor=f.c("A").id, target=f.c("B").id), [3, 3, 4, 3])
    hit = resolved(events)
    assert not hit.hit and hit.attack.total == hit.defense.total == 9
    assert f.c("B").health == 20 and "tie" in hit.text


def test_a_hit_takes_damage_less_the_armor_off_health() -> None:
    """ "The dice associated with the Combat Form ... their skill level in that form added";
    "they will roll the dice set associated with their skill level in that armor ... The
    remainder of incoming damage is deducted from their Health pool": Blade 3, 2d6 + 3 = 10;
    light armor 2, 1d4 = 4; 6 lost."""
    f = duel(armor="light")
    events = f.do(u.Attack(actor=f.c("A").id, target=f.c("B").id), [5, 5, 3, 3, 3, 4, 4])
    hit = resolved(events)
    assert hit.hit and not hit.critical and hit.health_lost == 6 and f.c("B").health == 14


def test_the_shield_is_the_defenders_choice_and_its_lapse_uses_it() -> None:
    """ "If the defender has a shield ... they may also roll the dice associated with their
    skill level in their chosen shield": a decision before any die; ``none`` leaves it."""
    f = duel(shield=True)
    a, b = f.c("A").id, f.c("B").id
    f.do(u.Attack(actor=a, target=b))
    p = f.state.pending
    assert p is not None
    options = RULES.reaction_options(f.state, b)
    assert [o.choice for o in options] == ["shield", "none"]
    f.refused(u.Defend(actor=a, choice="none"), "Only B chooses")
    events = f.do(u.Defend(actor=b, choice="none", decision=p.id), [6, 6, 1, 1, 2, 2])
    assert resolved(events).shield is None and f.state.pending is None
    assert f.c("B").health < 20


def test_zero_health_is_down_and_ends_the_fight() -> None:
    """The bot's reading: at 0 Health a creature is Down (out of the fight)."""
    f = duel()
    f.do(u.SetVitals(target=f.c("B").id, health=(3, False)))
    f.do(u.Attack(actor=f.c("A").id, target=f.c("B").id), [6, 5, 1, 1, 6, 6])
    assert f.c("B").health == 0 and f.c("B").has("Down")
    assert f.state.phase == "finished"


def test_reach_and_range_are_checked_before_anything_is_paid() -> None:
    f = duel()
    a, b = f.c("A").id, f.c("B").id
    f.do(SetDistance(a=a, b=b, meters=5))
    f.refused(u.Attack(actor=a, target=b, weapon="Sword"), "Sword reaches 1 m")
    f.refused(u.Attack(actor=a, target=b, weapon="Longbow", range_m=150), "reaches 100 m")


def test_legendary_dice_not_set_refuse_the_attack_and_roll_nothing() -> None:
    """The ladder's "21+ Legendary ... Storyteller": refused by name until the Storyteller
    sets the dice (the refusal's dice script is empty: a roll would raise)."""
    f = Fight(
        u.AddCombatant(name="A", sheet=untitled_sheet(20, 21, False, None, False)),
        u.AddCombatant(name="B", sheet=untitled_sheet(20, 3, False, None, False)),
    )
    f.refused(u.Attack(actor=f.c("A").id, target=f.c("B").id), "Storyteller")
    tables = load_tables(overrides=RULES.tables.with_legendary("3d12"))
    assert tables.skill_dice(21) == "3d12"


def test_players_never_see_an_npcs_health() -> None:
    """``status`` shows Health to those who may see it; players read the wound level only,
    and the attack's public line no Health number."""
    f = duel(npc=True)
    b = f.c("B")
    assert RULES.status(b, revealed=False, compact=False, in_fight=True) == ["Unhurt"]
    assert "Health 120/120" in RULES.status(b, revealed=True, compact=False, in_fight=True)
    events = f.do(u.Attack(actor=f.c("A").id, target=b.id), [6, 6, 1, 1, 6, 6, 6, 6])
    line = " ".join(resolved(events).render(RULES.view(f.state, PUBLIC)))
    assert "critical" in line and str(f.c("B").health) not in line


def test_a_swift_action_declared_at_the_opening_of_an_attack() -> None:
    """ "Swift and immediate actions are often combined with and thus declared at the opening
    or closing of your standard action" (the poisoned blade): the attack pays the swift action
    with the standard one; a second swift that round is refused."""
    f = duel()
    a, b = f.c("A").id, f.c("B").id
    f.do(u.Attack(actor=a, target=b, swift="coats the blade with poison"), [1, 1, 6, 6])
    assert f.c("A").pools["swift"] == 0 and f.c("A").pools["standard"] == 0
    f.refused(u.Declared(actor=a, action="swift", words="again"), "no swift action left")


def test_each_round_is_six_seconds_and_starts_when_everyone_has_gone() -> None:
    """ "When everyone has completed their turn, this will complete a round and start the
    next"; "Each round is intended to represent six (6) seconds" (tables ``round.seconds``)."""
    f = Fight(u.AddCombatant(name="A", sheet=untitled_sheet(20, 3, False, None, False)))
    f.do(u.AddCombatant(name="B", sheet=untitled_sheet(20, 3, False, None, False), side="foes"))
    events = f.do(Begin())
    assert any("Round 1 begins (6 seconds)" in e.text for e in events)
    f.do(EndTurn(actor=f.c("A").id))
    f.do(EndTurn(actor=f.c("B").id))
    assert f.state.round == 2 and f.state.turn == f.c("A").id
