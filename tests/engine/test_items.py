"""Issue 11, "Items": UTTAS "Perform an action" ("draws and uses an item" is the turn's one
action) and "Disabled Limb", Arms/Hands ("A disabled arm or hand immediately drops whatever
it's holding", "cannot be used for attacks"): what a combatant holds, drawing, using and
putting away items, limited uses kept in the campaign record, and the refusals — each with
nothing spent."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import ValidationError

from bot import names
from bot.engine.core.commands import EndCombat, EndTurn
from bot.engine.core.places import SetDistance
from bot.engine.uttas.commands import (
    AddCombatant,
    Attack,
    Draw,
    GrappleContest,
    React,
    SetCondition,
    SetVitals,
    Stow,
    UseItem,
)
from bot.engine.uttas.record import record_lines, record_of
from bot.engine.uttas.ruleset import UttasRuleset
from bot.engine.uttas.sheet import UttasSheet
from bot.engine.uttas.tables import default_tables, load_tables
from bot.errors import NotFound, RuleViolation
from tests.engine.helpers import Fight, sheet

POTION = {
    "name": "Healing Potion",
    "description": "A red draught.",
    "effect": {"restores": "health", "dice": 2, "bonus": 1},
    "uses": 2,
}
TONIC = {"name": "Tonic", "effect": {"restores": "stamina", "dice": 1}}
SMOKE = {"name": "Smoke Bomb", "description": "A cloud of smoke fills 4 m around.", "uses": 1}
ITEMS = [POTION, TONIC, SMOKE]


def party(rules: UttasRuleset | None = None, **ann: Any) -> tuple[Fight, str, str, str]:
    """Ann (acts first; a Sword in her right hand, the left free) and Ben against Orc."""
    f = Fight(rules) if rules is not None else Fight()
    a = f.add("Ann", agility=14, items=ITEMS, **ann)
    b = f.add("Ben", agility=12, side="party")
    o = f.add("Orc", npc=True, agility=10)
    f.begin(dice=[])
    return f, a, b, o


def round_to(f: Fight, cid: str) -> None:
    """End turns until it is ``cid``'s."""
    for _ in range(6):
        if f.state.turn == cid:
            return
        f.do(EndTurn(actor=f.state.turn))
    raise AssertionError("never reached the turn")


def test_drawing_and_using_an_item_is_the_turns_one_action() -> None:
    """ "Perform an action: ... draws and uses an item. The character's turn ends when they
    take their action." The potion goes into the free left hand and stays there while a use
    is left; its dice (2d6 + 1) restore Health."""
    f, a, _b, _o = party()
    f.do(SetVitals(target=a, health=10))
    out = f.do(UseItem(actor=a, item="healing potion"), dice=[3, 4])
    assert f.c(a).health == 18 and "Ann regains 8 Health from Ann's Healing Potion" in out.text
    assert "Ann draws and uses the Healing Potion: A red draught (1 use left)." in out.text
    assert f.c(a).holding == {"right arm": "Sword", "left arm": "Healing Potion"}
    assert f.c(a).item_uses == {"Healing Potion": 1}
    assert f.state.turn != a  # the turn's action: the turn is over
    round_to(f, a)
    out = f.do(UseItem(actor=a, item="Healing Potion"), dice=[1, 1])  # already in hand
    assert "Ann uses the Healing Potion: A red draught (its last use)." in out.text
    assert f.c(a).health == 20 and "(capped at the maximum)" in out.text
    assert f.c(a).holding == {"right arm": "Sword"}  # nothing is left of it to hold
    round_to(f, a)
    f.do(SetVitals(target=a, health=5))
    with pytest.raises(RuleViolation, match=r"used up \(2 of 2 uses spent\)"):
        f.do(UseItem(actor=a, item="Healing Potion"))
    assert f.c(a).actions_left == 4 and f.state.turn == a  # nothing spent


def test_an_item_the_gm_applies_shows_its_description() -> None:
    f, a, _b, _o = party()
    out = f.do(UseItem(actor=a, item="Smoke Bomb"), dice=[])
    assert (
        "Ann draws and uses the Smoke Bomb: A cloud of smoke fills 4 m around; "
        "the GM applies its effect (its last use)."
    ) in out.text


def test_a_stamina_item_recovers_stamina_and_wakes_the_unconscious() -> None:
    f, a, b, _o = party()
    f.do(SetVitals(target=b, stamina=0))
    assert f.c(b).has("Unconscious")
    out = f.do(UseItem(actor=a, item="Tonic", target=b), dice=[5])
    assert f.c(b).stamina == 5 and not f.c(b).has("Unconscious")
    assert "Ann draws and uses the Tonic on Ben." in out.text


def test_health_from_an_item_restores_a_limb_and_a_dropped_weapon_is_drawn_again() -> None:
    """ "A disabled arm or hand immediately drops whatever it's holding"; "A limb is no longer
    disabled when the Health damage ... is healed" — by an item too."""
    f, a, _b, o = party()
    round_to(f, o)
    # Orc's Accuracy: 3d6 + 1 Advantage − 1 for the called shot, + 10, against Ann's Dodge 22
    f.do(Attack(actor=o, target=a, attack="Sword", aimed_limb="right arm", advantage=1))
    out = f.do(React(actor=a, choice="none"), dice=[6, 6, 6, 1, 1, 1, 1])  # 4 Health damage
    assert "Ann drops the Sword: the right arm is disabled." in out.text
    assert f.c(a).holding == {} and f.c(a).dropped == ["Sword"]
    round_to(f, a)
    with pytest.raises(RuleViolation, match="dropped the Sword when an arm holding it"):
        f.do(Attack(actor=a, target=o, attack="Sword"))
    out = f.do(UseItem(actor=a, item="Healing Potion"), dice=[2, 2])  # 16 + 4 of 5
    assert f.c(a).health == 20 and "Ann's right arm works again." in out.text
    round_to(f, a)
    with pytest.raises(RuleViolation, match="pick it up first"):
        f.do(Attack(actor=a, target=o, attack="Sword"))
    out = f.do(Draw(actor=a, thing="sword"))  # 1 action; the turn goes on
    assert "Ann draws the Sword (right arm)." in out.text and f.c(a).actions_left == 3
    assert f.state.turn == a and f.c(a).dropped == []
    f.do(Attack(actor=a, target=o, attack="Sword"))  # allowed again


def test_a_grapple_holding_an_arm_drops_what_it_holds() -> None:
    """ "Grappled": "The grappled limbs are effectively disabled" — so an arm held drops its
    weapon, which stays dropped after the hold breaks."""
    f, a, _b, o = party()
    round_to(f, o)
    f.do(Attack(actor=o, target=a, attack="Grapple", limbs=("right arm",)))
    out = f.do(React(actor=a, choice="none"), dice=[6, 6, 6])
    assert "Ann drops the Sword: the right arm is held in a grapple." in out.text
    round_to(f, a)
    with pytest.raises(RuleViolation, match="grappled"):  # only escape or take control
        f.do(UseItem(actor=a, item="Tonic"))
    f.do(GrappleContest(actor=a, goal="escape"), dice=[6, 6, 1, 1])
    assert not f.c(a).has("Grappled") and f.c(a).dropped == ["Sword"]


def test_a_two_handed_weapon_leaves_both_hands_and_needs_both_arms() -> None:
    """ "Arms/Hands": a disabled arm "cannot be used for any actions": a two-handed weapon
    cannot be used or drawn with one working arm."""
    f, a, _b, o = party(weapons=[{"name": "Greatsword", "damage_dice": 3, "hands": 2}])
    assert f.c(a).holding == {"right arm": "Greatsword", "left arm": "Greatsword"}
    f.do(SetCondition(target=a, condition="Disabled limb", limb="left arm"))
    assert f.c(a).holding == {} and f.c(a).dropped == ["Greatsword"]
    with pytest.raises(RuleViolation, match="no free hand to use Greatsword"):
        f.do(Attack(actor=a, target=o, attack="Greatsword"))
    with pytest.raises(RuleViolation, match="needs 2 hands; Ann has 1 working arm"):
        f.do(Draw(actor=a, thing="Greatsword"))


def test_a_fighter_starts_holding_its_weapons_up_to_its_hands() -> None:
    """The default loadout: weapons in sheet order, in as many working arms as each needs
    (right, left, extra arms); the rest carried; items put away; claws need no hand."""
    weapons = [
        {"name": "Sword", "damage_dice": 2},
        {"name": "Dagger", "damage_dice": 1},
        {"name": "Bow", "kind": "mechanical", "damage_dice": 2, "hands": 2, "range_m": 30},
        {"name": "Claws", "damage_dice": 1, "hands": 0},
    ]
    f, a, _b, o = party(weapons=weapons)
    assert f.c(a).holding == {"right arm": "Sword", "left arm": "Dagger"}
    with pytest.raises(RuleViolation, match="not holding the Bow: draw it first"):
        f.do(Attack(actor=a, target=o, attack="Bow"))
    with pytest.raises(RuleViolation, match="needs no hand"):
        f.do(Draw(actor=a, thing="Claws"))
    f.do(Attack(actor=a, target=o, attack="Claws"))  # always ready


def test_starting_hands_fill_arms_in_order_and_skip_disabled_ones() -> None:
    weapons = [
        {"name": "Sword", "damage_dice": 2},
        {"name": "Bow", "kind": "mechanical", "hands": 2, "range_m": 30},
        {"name": "Dagger", "damage_dice": 1},
    ]
    three = sheet(weapons=weapons, extra_limbs=[{"name": "Third Arm", "is_arm": True}])
    assert three.starting_hands() == {
        "right arm": "Sword",
        "left arm": "Bow",
        "third arm": "Bow",
    }
    assert three.starting_hands({"right arm"}) == {"left arm": "Sword", "third arm": "Dagger"}


def test_refusals_are_specific_and_spend_nothing() -> None:
    """Each refusal names its reason; the refused command changes nothing (the engine's
    transactions are copy-on-write: ``Fight.do`` keeps the state it had)."""
    f, a, b, _o = party(weapons=[{"name": "Sword", "damage_dice": 2}, {"name": "Dagger"}])
    f.do(SetVitals(target=a, stamina=10))
    f.do(SetVitals(target=b, health=5))
    before = f.state.model_dump_json()
    with pytest.raises(NotFound, match=r"no item called 'Rope' \(items: Healing Potion, Tonic"):
        f.do(UseItem(actor=a, item="Rope"))
    with pytest.raises(RuleViolation, match="It is Ann's turn, not Ben's"):
        f.do(UseItem(actor=b, item="Tonic"))
    with pytest.raises(
        RuleViolation,
        match=r"Ann has no free hand for the Tonic: the hands hold the Sword and the Dagger\. "
        r"Put one away first \(`/act action:stow detail:Sword`, free\)",
    ):
        f.do(UseItem(actor=a, item="Tonic"))
    assert f.state.model_dump_json() == before
    out = f.do(Stow(actor=a, thing="dagger"))  # free: the turn goes on
    assert "Ann puts the Dagger away." in out.text and f.c(a).actions_left == 4
    with pytest.raises(NotFound, match="Ann holds no 'Dagger'; the hands hold the Sword"):
        f.do(Stow(actor=a, thing="Dagger"))
    with pytest.raises(RuleViolation, match="Ann has no Health damage to heal"):
        f.do(UseItem(actor=a, item="Healing Potion"))
    f.do(SetDistance(a=a, b=b, meters=8))
    with pytest.raises(RuleViolation, match="Ben is 8 m away; an item is used on someone within 2"):
        f.do(UseItem(actor=a, item="Healing Potion", target=b))
    f.do(SetDistance(a=a, b=b, meters=1))
    f.do(SetVitals(target=b, health=0))
    with pytest.raises(RuleViolation, match="Ben is dead"):
        f.do(UseItem(actor=a, item="Healing Potion", target=b))
    assert f.c(a).item_uses == {} and f.c(a).actions_left == 4 and f.state.turn == a
    assert f.c(a).holding == {"right arm": "Sword"}
    f.do(UseItem(actor=a, item="Tonic"), dice=[3])
    assert f.c(a).stamina == 13


def test_no_actions_left_refuses_the_use() -> None:
    f, a, _b, _o = party(speed=1)
    f.do(SetVitals(target=a, stamina=10))
    f.do(Draw(actor=a, thing="Smoke Bomb"))  # the one action; the turn goes on
    with pytest.raises(RuleViolation, match="Ann has no actions left this round"):
        f.do(UseItem(actor=a, item="Smoke Bomb"))
    assert f.c(a).item_uses == {}


def test_drawing_may_be_the_turns_action_by_the_table() -> None:
    tables = load_tables(overrides={"items": {"draw_ends_turn": True, "draw_actions": 1}})
    f, a, _b, _o = party(rules=UttasRuleset(tables))
    f.do(Draw(actor=a, thing="Tonic"))
    assert f.state.turn != a


def test_between_fights_items_need_no_turn_and_no_action() -> None:
    f, a, b, _o = party()
    f.do(SetVitals(target=b, health=5))
    f.do(EndCombat())
    f.do(UseItem(actor=a, item="Healing Potion", target=b), dice=[1, 1])
    assert f.c(b).health == 8
    with pytest.raises(RuleViolation, match="Ben already holds the Sword"):
        f.do(Draw(actor=b, thing="Sword"))
    f.do(Stow(actor=b, thing="Sword"))
    f.do(Draw(actor=b, thing="Sword"))
    assert f.c(b).holding == {"right arm": "Sword"} and f.state.phase == "finished"


def test_uses_spent_outlast_the_fight_in_the_campaign_record() -> None:
    """Lasting: the uses spent go to the character's campaign record (decision A) and come
    back with it; raising ``uses`` on the sheet restocks."""
    f, a, _b, _o = party()
    f.do(UseItem(actor=a, item="Smoke Bomb"), dice=[])
    record = record_of(f.c(a))
    assert record.item_uses == {"Smoke Bomb": 1}
    lines = record_lines(f.c(a).sheet, record, default_tables())
    assert "Item uses spent: Smoke Bomb 1 of 1" in lines
    g = Fight()
    g.do(AddCombatant(name="Ann", sheet=f.c(a).sheet, record=record))
    g.add("Orc", npc=True)
    g.begin(dice=[])
    ann = g.state.combatants[0]
    assert ann.holding == {"right arm": "Sword"}  # the default loadout again
    with pytest.raises(RuleViolation, match="used up"):
        g.do(UseItem(actor=ann.id, item="Smoke Bomb"))
    restocked = f.c(a).sheet.model_copy(
        update={"items": tuple(i.model_copy(update={"uses": 2}) for i in f.c(a).sheet.items)}
    )
    h = Fight()
    h.do(AddCombatant(name="Ann", sheet=restocked, record=record))
    h.add("Orc", npc=True)
    h.begin(dice=[])
    h.do(UseItem(actor=h.state.combatants[0].id, item="Smoke Bomb"), dice=[])


def test_a_state_stored_before_items_loads_with_weapons_in_working_hands() -> None:
    f, a, _b, _o = party(weapons=[{"name": "Sword"}, {"name": "Dagger"}])
    f.do(SetCondition(target=a, condition="Disabled limb", limb="right arm"))
    data = json.loads(f.state.model_dump_json())
    for c in data["combatants"]:
        del c["holding"], c["dropped"], c["item_uses"]
    loaded = f.rules.load_state(json.dumps(data))
    assert loaded.get(a).holding == {"left arm": "Sword"}
    assert loaded.get(a).item_uses == {}


def test_item_sheets_are_validated() -> None:
    with pytest.raises(ValidationError, match="must be unique"):
        sheet(items=[{"name": "sword"}])
    with pytest.raises(ValidationError, match="give dice or a bonus"):
        sheet(items=[{"name": "Dud", "effect": {"restores": "health"}}])
    with pytest.raises(ValidationError):
        sheet(items=[{"name": "Potion", "uses": 0}])
    with pytest.raises(ValidationError):
        sheet(items=[{"name": f"Thing {i}"} for i in range(31)])
    stored = UttasSheet.model_validate(
        {"name": "Old", "weapons": [{"name": "Torch"}], "items": [{"name": "Torch"}]},
        context=names.STORED,
    )
    assert [i.name for i in stored.items] == ["Torch 2"]
