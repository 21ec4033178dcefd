"""Untitled's own commands (the core's come through ``command_adapter``, the hold and resume
moves of the Storyteller's order included): joining, the round's actions (``untitled-combat.txt``
"Combat": move, standard — an attack —, full-round, swift, immediate and free actions; drawing,
stowing and reloading a weapon), the defender's shield choice, and the Game Master's tools
(the order's die roll, Health, Down, refusing combined move actions)."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import Field

from bot.engine.core.commands import Answer, CommandBase, Dated, Id, Meters, Name, Side
from bot.engine.untitled.sheet import UntitledSheet
from bot.engine.untitled.state import ItemName, UntitledRecord
from bot.engine.untitled.terms import DiceText

Words = Annotated[str, Field(min_length=1, max_length=200)]


class AddCombatant(CommandBase):
    """Add a creature (setup or mid-fight); a character joins as its campaign ``record`` left
    it. ``stowed``: weapons it starts with put away besides those its sheet marks ``stowed``
    (the text's archer's bow "off their back")."""

    kind: Literal["add_combatant"] = "add_combatant"
    name: Name
    sheet: UntitledSheet
    controller_id: int | None = None
    is_npc: bool = False
    side: Side | None = None
    character_id: int | None = None
    record: UntitledRecord | None = None
    stowed: tuple[ItemName, ...] = Field(default=(), max_length=30)


class Attack(Dated):
    """A standard action ("an action such as attacking"): ``actor`` attacks ``target`` with
    its weapon ``weapon`` (None: its first). ``range_m``: meters to the target (None: the
    encounter's positions). ``swift``: a swift action declared at its opening ("coats their
    blade"), in words."""

    kind: Literal["attack"] = "attack"
    actor: Id
    target: Id
    weapon: Name | None = None
    range_m: Meters | None = None
    swift: Words | None = None


class Defend(Answer):
    """The defender's answer to an attack: roll its shield's dice too (``shield``) or not
    (``none``)."""

    kind: Literal["defend"] = "defend"
    actor: Id
    choice: Literal["shield", "none"]


class Move(Dated):
    """A move action: up to the speed rating (``meters``; None: all of it), ``toward`` a
    creature (closer; engaged within 1 m). ``draw``: a weapon drawn while moving — a combined
    move action ("drawing a sword ... while moving into position"), unless the Storyteller
    refused this fighter's combined actions."""

    kind: Literal["move"] = "move"
    actor: Id
    meters: Meters | None = None
    toward: Id | None = None
    draw: Name | None = None


class Draw(Dated):
    """A move action: draw ``weapon`` ("drawing a sword (which would normally be a move action
    by itself)")."""

    kind: Literal["draw"] = "draw"
    actor: Id
    weapon: Name


class Stow(Dated):
    """A move action: put ``weapon`` away (the bot's reading, as drawing)."""

    kind: Literal["stow"] = "stow"
    actor: Id
    weapon: Name


class Reload(Dated):
    """Reload ``weapon`` (None: the first that needs it): a move action ("their second move
    action to reload") or a full-round action ("reloading a complex weapon"), as the weapon
    says."""

    kind: Literal["reload"] = "reload"
    actor: Id
    weapon: Name | None = None


class Declared(Dated):
    """An action the bot keeps no rules for, declared in ``words`` and paid from the round:
    ``swift`` (on your turn), ``immediate`` (on or off your turn), ``free``, ``full_round`` (the
    whole round) or ``standard`` ("using an ability")."""

    kind: Literal["declare"] = "declare"
    actor: Id
    action: Literal["swift", "immediate", "free", "full_round", "standard"]
    words: Words


class RollOrder(CommandBase):
    """The Game Master's die roll for the order ("may ask for a die roll to help randomize the
    order or resolve a tie"): each of ``among`` (empty: everyone) rolls the tables' order die;
    they take the places they held between them, highest first (a tie keeps their order)."""

    kind: Literal["roll_order"] = "roll_order"
    waits_for_decisions: ClassVar[bool] = True
    among: tuple[Id, ...] = Field(default=(), max_length=25)


class AllowCombined(CommandBase):
    """The Game Master allows or refuses ``target``'s combined move actions ("Not all move
    actions work this way, so your Storyteller will advise you")."""

    kind: Literal["allow_combined"] = "allow_combined"
    target: Id
    allowed: bool


class SetRule(CommandBase):
    """The Game Master sets one of the Storyteller's dice for this encounter
    (:mod:`bot.engine.untitled.encounter`): ``rule`` names which, ``dice`` the expression
    (None: back to the server's tables)."""

    kind: Literal["set_rule"] = "set_rule"
    rule: Literal[
        "Legendary dice", "Light armor above 18", "Medium armor above 18", "Heavy armor above 18"
    ]
    dice: DiceText | None


class SetVitals(CommandBase):
    """The Game Master sets (``relative`` False) or changes the target's Health."""

    kind: Literal["set_vitals"] = "set_vitals"
    target: Id
    health: tuple[Annotated[int, Field(ge=-10_000, le=10_000)], bool]


class SetCondition(CommandBase):
    """The Game Master puts a condition on the target or takes it off (Down)."""

    kind: Literal["set_condition"] = "set_condition"
    target: Id
    condition: Annotated[str, Field(max_length=40)]
    present: bool


class Check(Dated):
    """A skill roll (``/check``): ``skill`` (a name on the sheet; untrained otherwise) against
    ``difficulty``, or opposed by ``target``'s ``against`` skill (None: the same skill)."""

    kind: Literal["check"] = "check"
    actor: Id
    skill: Name
    difficulty: Annotated[int, Field(ge=0, le=1000)] | None = None
    target: Id | None = None
    against: Name | None = None


OWN_COMMANDS: tuple[type[CommandBase], ...] = (
    AddCombatant,
    Attack,
    Defend,
    Move,
    Draw,
    Stow,
    Reload,
    Declared,
    RollOrder,
    AllowCombined,
    SetRule,
    SetVitals,
    SetCondition,
    Check,
)
