"""Untitled's engine, rule by rule, with scripted dice (``untitled-combat.txt`` "Combat";
docs/rules/untitled.md and untitled-rule-table.md cite these tests): the round's actions, the
Storyteller's order and its die roll, the hold that moves the holder for good, the text's
archer, and the worked fight's critical. These drive :class:`UntitledRuleset` directly."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.engine import get_ruleset
from bot.engine.core.commands import Begin, EndTurn, HoldTurn, MoveInOrder, ResumeTurn
from bot.engine.core.dice import ScriptedRoller
from bot.engine.untitled import commands as u
from bot.engine.untitled.events import AttackResolved
from bot.engine.untitled.ruleset import UntitledRuleset
from bot.engine.untitled.sheet import UntitledSheet
from bot.errors import DomainError
from tests.engine.helpers import NOW

SHEETS = Path(__file__).resolve().parents[2] / "data" / "sheets" / "untitled"
RULES = UntitledRuleset()


def example(name: str) -> UntitledSheet:
    return UntitledSheet.model_validate_json((SHEETS / f"{name}.json").read_text())


class Fight:
    """A fight driven command by command, each with its own scripted dice."""

    def __init__(self, *joiners: u.AddCombatant) -> None:
        self.state: Any = RULES.new_encounter(name="Test", seed=1)
        for j in joiners:
            self.do(j)
        if len(joiners) >= 2:
            self.do(Begin())

    def do(self, command: Any, dice: list[int] | None = None) -> list[Any]:
        outcome = RULES.apply(self.state, command, ScriptedRoller(dice or []), NOW)
        self.state = outcome.state
        return list(outcome.events)

    def refused(self, command: Any, match: str) -> None:
        before = self.state.model_dump_json()
        with pytest.raises(DomainError, match=match):
            RULES.apply(self.state, command, ScriptedRoller([]), NOW)
        assert self.state.model_dump_json() == before

    def c(self, name: str) -> Any:
        return next(c for c in self.state.combatants if c.name == name)


def archer_fight() -> Fight:
    return Fight(
        u.AddCombatant(name="Wren", sheet=example("wren"), stowed=("Longbow",)),
        u.AddCombatant(name="Brask", sheet=example("brask")),
        u.AddCombatant(name="Giant", sheet=example("hill-giant"), is_npc=True),
    )


def test_untitled_is_registered_in_the_shipped_registry() -> None:
    assert isinstance(get_ruleset("untitled"), UntitledRuleset)


def test_the_storyteller_order_is_the_join_order_until_the_gm_moves_someone() -> None:
    """ "The turn order being determined by the Storyteller at the start of combat ... There is
    no specific initiative bonus or roll": a suggestion (the join order) the GM reorders."""
    f = archer_fight()
    wren, brask, giant = (f.c(n).id for n in ("Wren", "Brask", "Giant"))
    assert f.state.order == [wren, brask, giant] and f.state.turn == wren
    f.do(MoveInOrder(target=giant, position=2))
    assert f.state.order == [wren, giant, brask]


def test_a_die_roll_randomises_the_order_or_breaks_a_tie() -> None:
    """ "May ask for a die roll to help randomize the order or resolve a tie" (tables
    ``order_die``, a d20): the named creatures take their places again, highest first."""
    f = archer_fight()
    wren, brask, giant = (f.c(n).id for n in ("Wren", "Brask", "Giant"))
    f.do(u.RollOrder(among=(brask, giant)), [4, 17])
    assert f.state.order == [wren, giant, brask]
    f.do(u.RollOrder(), [2, 9, 9])  # everyone; a tie keeps the order it had
    assert f.state.order == [giant, brask, wren]


def test_two_moves_and_a_standard_or_a_full_round_action() -> None:
    """ "Up-to two movement actions and a standard action"; "a full-round action ... consumes
    all of the effort you may expend in a round"; each move up to the speed rating."""
    f = archer_fight()
    wren = f.c("Wren").id
    f.refused(u.Move(actor=wren, meters=10), "at most 9 m")
    f.do(u.Move(actor=wren, meters=9))
    f.refused(u.Declared(actor=wren, action="full_round", words="reload"), "whole round")
    f.do(u.Move(actor=wren, meters=3))
    f.refused(u.Move(actor=wren), "no move action left")
    f.do(u.Declared(actor=wren, action="standard", words="use an ability"))
    f.refused(u.Declared(actor=wren, action="standard", words="again"), "no standard action")
    f.do(u.Declared(actor=wren, action="free", words="shout"))
    f.do(u.Declared(actor=wren, action="free", words="shout again"))
    f.do(EndTurn(actor=wren))
    brask = f.c("Brask").id
    f.do(u.Declared(actor=brask, action="full_round", words="pray"))
    assert f.c("Brask").pools["move"] == 0 and f.c("Brask").pools["standard"] == 0


def test_swift_on_your_turn_and_immediate_off_it_once_a_round() -> None:
    """ "Swift and immediate actions are often combined with and thus declared at the opening
    or closing of your standard action"; "an immediate action – an action that occurs
    immediately": off your turn too, one a round each."""
    f = archer_fight()
    wren, brask = f.c("Wren").id, f.c("Brask").id
    f.refused(u.Declared(actor=brask, action="swift", words="x"), "Wren.s turn, not Brask.s")
    f.do(u.Declared(actor=brask, action="immediate", words="duck"))
    f.refused(u.Declared(actor=brask, action="immediate", words="again"), "no immediate")
    f.do(u.Declared(actor=wren, action="swift", words="nock"))
    f.refused(u.Declared(actor=wren, action="swift", words="x"), "no swift action left")
    # ``/act`` says what the bot does: a swift action alone on the turn (it said "with your
    # standard action", which the bot does not require: the text's "often")
    (swift,) = [a for a in RULES.actions(f.state, f.c("Wren")) if a.key == "swift"]
    assert swift.cost.startswith("one swift action a round, on your turn (often")


def test_the_archer_draws_while_moving_fires_and_reloads_with_the_second_move() -> None:
    """The text's archer: "move into position while drawing their bow from off their back ...
    utilize their standard action to load, draw, aim and fire at their target and their second
    move action to reload for the next round" — and the attack's critical (issue 13: "at least
    double the defense ... one skill tier higher")."""
    f = archer_fight()
    wren, giant = f.c("Wren").id, f.c("Giant").id
    f.refused(u.Attack(actor=wren, target=giant, weapon="Longbow"), "put away")
    f.do(u.Move(actor=wren, meters=9, draw="Longbow"))
    assert f.c("Wren").pools["move"] == 1 and f.c("Wren").stowed == ()
    # Bows 7 (Journeyman 2d8 + 7) = 22 against Combat Defense 2 (2d6 + 2) = 5: 22 >= 10, a
    # critical: Archery 4 rolls Journeyman 2d8 + 4 = 14; heavy armor 4: 1d8 = 3; 11 lost.
    events = f.do(u.Attack(actor=wren, target=giant, weapon="Longbow"), [8, 7, 1, 2, 5, 5, 3])
    hit = next(e for e in events if isinstance(e, AttackResolved))
    assert hit.hit and hit.critical and hit.damage is not None
    assert hit.damage.tier == "journeyman" and hit.damage.total == 14
    assert hit.health_lost == 11 and f.c("Giant").health == 49
    assert f.state.pending is None  # no shield: no choice, resolved at once
    f.refused(u.Attack(actor=wren, target=giant, weapon="Longbow"), "no standard action|loaded")
    f.do(u.Reload(actor=wren))
    assert f.c("Wren").unloaded == () and f.c("Wren").pools["move"] == 0


def test_the_storyteller_may_refuse_a_combined_move() -> None:
    """ "Not all move actions work this way, so your Storyteller will advise you"."""
    f = archer_fight()
    wren = f.c("Wren").id
    f.do(u.AllowCombined(target=wren, allowed=False))
    f.refused(u.Move(actor=wren, draw="Longbow"), "refused")
    f.do(u.Draw(actor=wren, weapon="Longbow"))
    assert f.c("Wren").pools["move"] == 1


def test_a_complex_weapon_reloads_with_a_full_round_action() -> None:
    """ "A full-round action – an action that requires concentration such as reloading a
    complex weapon"."""
    f = Fight(
        u.AddCombatant(name="Bandit", sheet=example("bandit-crossbowman")),
        u.AddCombatant(name="Giant", sheet=example("hill-giant"), is_npc=True),
    )
    bandit, giant = f.c("Bandit").id, f.c("Giant").id
    weapon = f.c("Bandit").sheet.weapons[0].name
    f.do(u.Attack(actor=bandit, target=giant, weapon=weapon), [1, 1, 6, 6])  # a miss
    f.do(EndTurn(actor=bandit))
    f.do(EndTurn(actor=giant))
    f.do(u.Move(actor=bandit, meters=1))
    f.refused(u.Reload(actor=bandit), "whole round")
    f.do(EndTurn(actor=bandit))
    f.do(EndTurn(actor=giant))
    f.do(u.Reload(actor=bandit))
    assert f.c("Bandit").unloaded == () and f.c("Bandit").pools["standard"] == 0


def test_a_held_action_acts_after_its_trigger_and_keeps_that_place() -> None:
    """ "I want to hold my action until the giant goes again ... The Storyteller will update
    the order ... and the player will conduct their turn at their new position from that
    point forward" — and a shield's choice, whose lapse rolls it."""
    f = archer_fight()
    wren, brask, giant = (f.c(n).id for n in ("Wren", "Brask", "Giant"))
    f.do(EndTurn(actor=wren))
    f.do(HoldTurn(actor=brask, until="the giant goes again"))
    assert f.state.turn == giant
    # Clubs 9 (2d8 + 9) = 17 against Combat Defense 5 (2d8 + 5) = 7 + the shield (2d6) = 2:
    # a hit, not a critical (17 < 18): Crushing blows 11, 2d10 + 11 = 13; medium armor 6, 2d6.
    f.do(u.Attack(actor=giant, target=brask), [])
    assert f.state.pending is not None and f.state.pending.target == brask
    f.do(RULES.lapse(f.state), [4, 4, 1, 1, 1, 1, 1, 1, 3, 3])
    assert f.c("Brask").health == 23
    f.do(ResumeTurn(actor=brask))
    f.do(EndTurn(actor=giant))
    assert f.state.turn == brask and f.state.order == [wren, giant, brask]
    f.do(EndTurn(actor=brask))
    assert f.state.round == 2 and f.state.turn == wren


def test_a_weapon_the_sheet_marks_stowed_starts_the_fight_put_away() -> None:
    """The text's archer draws "their bow from off their back": Wren's sheet marks the Longbow
    ``stowed``, so she joins with it put away (her knife in hand) without the join naming it."""
    f = Fight(
        u.AddCombatant(name="Wren", sheet=example("wren")),
        u.AddCombatant(name="Giant", sheet=example("hill-giant"), is_npc=True),
    )
    wren, giant = f.c("Wren").id, f.c("Giant").id
    assert f.c("Wren").stowed == ("Longbow",) and f.c("Giant").stowed == ()
    f.refused(u.Attack(actor=wren, target=giant, weapon="Longbow"), "put away")


def test_a_move_that_goes_nowhere_or_toward_oneself_is_refused() -> None:
    """QA round 4: ``/act action:move amount:0`` spent a move action on nothing, and a move
    toward oneself silently moved the whole speed rating."""
    f = archer_fight()
    wren = f.c("Wren").id
    f.refused(u.Move(actor=wren, meters=0), "0 m")
    f.refused(u.Move(actor=wren, toward=wren), "toward themselves")
    f.do(u.Move(actor=wren, meters=0, draw="Longbow"))  # drawing where she stands
    assert f.c("Wren").pools["move"] == 1
