"""Act from the ping (issue 17, "Act from the ping"): the common moves the message that says
it is a combatant's turn offers as buttons — end the turn, the system's breather
(:meth:`~bot.engine.core.contract.Ruleset.breather_action`), the combatant's usual attack (the
:meth:`~bot.engine.core.contract.Ruleset.usual_attack`, named before its target is picked, as
the attack's own line names it after).

Each move names the encounter and the turn (``turn_seq``) it was offered for, so a click after
that turn ended is refused, and only the combatant's controller or the GM may use it; it then
takes the same path as the slash command (:meth:`CombatService.act_on_turn`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from bot import names
from bot.engine.core.audience import PUBLIC
from bot.engine.core.commands import CommandBase, EndTurn
from bot.engine.core.state import CombatantBase
from bot.engine.core.verbs import ActInput
from bot.errors import Conflict, NotAllowed, RuleViolation
from bot.services.acting import controls
from bot.services.actor import Actor
from bot.services.combat import CombatResult, CombatService
from bot.services.encounters import Encounter

Move = Literal["end", "rest", "atk"]
"""A turn button's move: end the turn, the breather, the usual attack."""

TOGETHER = "+"
"""Ends a target select's value that strikes together with the allies readied to (UTTAS's
coordinated attacks: :meth:`~bot.engine.core.contract.Ruleset.joint_attackers`)."""


def split_target(value: str | None) -> tuple[str | None, bool]:
    """A target select's value as the target's id and whether the attack is made together
    with the allies readied to strike with it."""
    if value is None:
        return None, False
    return value.removesuffix(TOGETHER), value.endswith(TOGETHER)


TURN_OVER = "That turn is over"


@dataclass(frozen=True)
class QuickMove:
    """A button on the turn ping: its ``move`` and ``label``."""

    move: Move
    label: str


def quick_moves(encounter: Encounter) -> list[QuickMove]:
    """The moves to offer on the message announcing the current turn (none when no turn
    runs): End turn, the system's breather if it has one, and Attack when the combatant has
    an attack."""
    state, rules = encounter.state, encounter.rules
    current = state.current
    if state.phase != "active" or current is None:
        return []
    moves = [QuickMove("end", "End turn")]
    rest = rest_label(encounter, current)
    if rest is not None:
        moves.append(QuickMove("rest", rest[:80]))
    if rules.usable_attack_names(state, current):
        moves.append(QuickMove("atk", "Attack…"))
    return moves


def rest_label(encounter: Encounter, combatant: CombatantBase) -> str | None:
    """The system's breather as its action list names it for ``combatant`` (UTTAS "Take a
    Breather", Utopia "Deep Breath"), or None when it has none."""
    rules = encounter.rules
    breather = rules.breather_action()
    if breather is None:
        return None
    actions = rules.actions(encounter.state, combatant)
    return next((a.label for a in actions if a.key == breather), None)


def turn_holder(encounter: Encounter, turn_seq: int, actor: Actor) -> CombatantBase:
    """The combatant whose turn ``turn_seq`` is, if it still runs and ``actor`` may act for
    it. Raises :class:`Conflict` when that turn is over (or the fight is not running) and
    :class:`NotAllowed` for anyone but its controller or the GM."""
    state = encounter.state
    current: CombatantBase | None = state.current
    if encounter.row.status != "live" or state.phase != "active" or current is None:
        raise Conflict(f"{TURN_OVER}: the fight is not running.")
    if state.turn_seq != turn_seq:
        raise Conflict(f"{TURN_OVER}: it is now **{_name(encounter, current)}**'s turn.")
    if not controls(encounter, actor, current):
        raise NotAllowed(
            f"Only **{_name(encounter, current)}**'s controller or the GM can use these buttons."
        )
    return current


def _name(encounter: Encounter, combatant: CombatantBase) -> str:
    return names.escaped(combatant.name)


@dataclass(frozen=True)
class AttackChoice:
    """What the Attack button opens: the ``attacker``, its usual ``attack``, the ``targets``
    (id, name) the channel may see, other sides first (at most 25; a target an ally's
    coordinated attack is readied at comes first as "<name>, together with <ally>", its value
    ending in :data:`TOGETHER`), and the ``command`` that
    makes any other attack in this system (`/attack`, or `/act action:attack` where the
    system's attack is one of its ``/act`` actions and `/attack` is refused)."""

    encounter: Encounter
    attacker: CombatantBase
    attack: str
    targets: list[tuple[str, str]]
    command: str = "/attack"


async def attack_choice(
    combat: CombatService, encounter_id: int, turn_seq: int, actor: Actor
) -> AttackChoice:
    """The Attack button: the usual attack and whom it may target. Raises as
    :func:`turn_holder`, :class:`RuleViolation` when there is no one to attack, and
    :class:`~bot.errors.RulesVersionUnknown` for rules a newer bot froze."""
    encounter = await combat.encounter(encounter_id)
    # The rules the fight plays by: a newer bot's are refused before a choice is offered
    # (Encounter.rules would offer this version's; the attack picked would be refused).
    rules, state = encounter.playing_rules(), encounter.state
    attacker = turn_holder(encounter, turn_seq, actor)
    attack = rules.usual_attack(state, attacker)
    if attack is None:
        raise RuleViolation(f"**{_name(encounter, attacker)}** has no attack.")
    public = rules.view(state, PUBLIC)
    others = [
        c for c in state.combatants if c.id != attacker.id and public.combatant(c.id) is not None
    ]
    others.sort(key=lambda c: c.side == attacker.side)
    if not others:
        raise RuleViolation("There is no one to attack.")
    targets: list[tuple[str, str]] = []
    for c in others:
        # UTTAS's coordinated attacks: the allies readied to strike together with this attack
        # on ``c`` are offered first, as ``/attack together:`` offers them
        joint = rules.joint_attackers(state, attacker.id, c.id)
        if joint:
            allies = ", ".join(state.get(a).name for a in joint)
            targets.append((f"{c.id}{TOGETHER}", f"{c.name}, together with {allies}"))
        targets.append((c.id, c.name))
    targets = targets[:25]
    acts = rules.actions(state, attacker)
    key = rules.attack_action(attacker)
    command = f"/act action:{key}" if any(a.key == key for a in acts) else "/attack"
    return AttackChoice(encounter, attacker, attack, targets, command)


def _usual_attack(
    current: Encounter, me: CombatantBase, aimed: str | None, joint: bool
) -> CommandBase:
    """The Attack button's command: ``me``'s usual attack on ``aimed`` (an id), made together
    with the allies readied to strike with it when ``joint``."""
    rules = current.rules
    attack = rules.usual_attack(current.state, me)
    if aimed is None or attack is None:
        raise RuleViolation("Pick whom to attack.")
    if all(c.id != aimed for c in current.state.combatants):
        raise Conflict("That combatant is no longer in the fight.")
    together: tuple[str, ...] = ()
    if joint:
        together = tuple(rules.joint_attackers(current.state, me.id, aimed))
        if not together:
            raise RuleViolation(
                "No coordinated attack is readied with this attack on "
                f"**{names.escaped(current.state.get(aimed).name)}** any more: pick again."
            )
    return rules.attack_command(current.state, me, aimed, attack, together)


async def take_move(
    combat: CombatService,
    encounter_id: int,
    turn_seq: int,
    actor: Actor,
    move: Move,
    target: str | None = None,
) -> CombatResult:
    """Take ``move`` for the combatant whose turn ``turn_seq`` is (``target``: the attack's
    target id, ending in :data:`TOGETHER` to strike together with the allies readied to, as
    ``/attack together:``). Raises as :func:`turn_holder` and as the slash command would."""
    aimed, joint = split_target(target)

    def make(current: Encounter, me: CombatantBase) -> CommandBase:
        rules = current.rules
        if move == "end":
            return EndTurn(actor=me.id)
        if move == "rest":
            key = rules.breather_action()
            if key is None:
                raise RuleViolation(f"{rules.title} has no breather.")
            return rules.act(current.state, me, ActInput(key=key))
        return _usual_attack(current, me, aimed, joint)

    labels = {"end": "endturn", "rest": "breather", "atk": "attack"}
    label = labels[move]
    if move == "rest":
        # Logged (and undone) under the system's own action: UTTAS's breather, Utopia's
        # deep breath — "breather" was UTTAS's word in every system's undo and log.
        key = (await combat.encounter(encounter_id)).rules.breather_action()
        label = (key or label).replace("-", " ")
    options: dict[str, object] = {"turn": turn_seq, **({"target": aimed} if aimed else {})}
    if joint:
        options["together"] = True
    return await combat.act_on_turn(
        encounter_id, turn_seq, actor, label, options, make, turn_holder
    )
