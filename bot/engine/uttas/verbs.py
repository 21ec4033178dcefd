"""UTTAS's actions for ``/act`` and its skills for ``/check`` (issue 10, decision D): the rules
text's own words and costs (``uttas-gameplay.txt`` "Actions", ``docs/rules/uttas.md``), as data
the Discord layer reads and a builder per action. ``/attack`` and ``/endturn`` are shared verbs;
readying an action stays ``/ready`` (its trigger and plan do not fit ``/act``'s options)."""

from __future__ import annotations

from collections.abc import Callable

from bot import names
from bot.engine.core.commands import CommandBase, EndTurn
from bot.engine.core.verbs import ActInput, ActionSpec
from bot.engine.uttas.commands import (
    ActivatePower,
    BreakFree,
    Breather,
    ChangeStance,
    Draw,
    DropPower,
    FirstAid,
    GrappleContest,
    Move,
    ResolveReadied,
    Sprint,
    Stand,
    Stow,
    Surrender,
    Talk,
    UseItem,
    UseSkill,
)
from bot.engine.uttas.sheet import MOVEMENT_MODES, MovementMode
from bot.engine.uttas.skills_long import StopSkill
from bot.engine.uttas.state import Combatant
from bot.errors import InvalidInput

MODES = ", ".join(MOVEMENT_MODES)

ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec(
        key="stance",
        label="Enter a Stance",
        cost="free at the start of your turn, then 1 action",
        detail="the stance",
        rule="Enter a Stance",
    ),
    ActionSpec(
        key="move",
        label="Move",
        cost="free: half your movement",
        target="optional",
        amount="meters",
        detail=f"how: {MODES} (default run)",
        rule="Moving",
    ),
    ActionSpec(
        key="full-move",
        label="Full Move",
        cost="1 action + Stamina; ends the turn",
        target="optional",
        amount="meters",
        detail=f"how: {MODES} (default run)",
        rule="Full Move",
    ),
    ActionSpec(
        key="sprint",
        label="Sprint",
        cost="1 action + Stamina; ends the turn; Dexterity halved until your next turn",
        target="optional",
        amount="meters",
        detail=f"how: {MODES} (default run)",
        rule="Full Move",
    ),
    ActionSpec(
        key="stand",
        label="Stand up",
        cost="your free half move, or an Acrobatics check (detail: acrobatics)",
        detail="move or acrobatics (default move)",
        rule="Prone",
    ),
    ActionSpec(
        key="breather",
        label="Take a Breather",
        cost="1 action; ends the turn",
        rule="Take a Breather",
    ),
    ActionSpec(
        key="skill",
        label="Perform a skill",
        cost="1 action; ends the turn (a skill of several turns takes each of them)",
        detail="the skill",
        amount="the difficulty (optional)",
        rule="Perform a skill",
    ),
    ActionSpec(
        key="power",
        label="Activate a Power",
        cost="1 action + Stamina (maintained: held)",
        target="optional",
        detail="the power",
        rule="Activate a Power",
    ),
    ActionSpec(
        key="drop-power",
        label="Stop maintaining a power",
        cost="free; its held Stamina can be recovered again",
        detail="the maintained power",
        rule="Activating Powers",
    ),
    ActionSpec(
        key="first-aid",
        label="First Aid",
        cost="1 action in a fight (none between fights); ends the turn",
        target="required",
        rule="Healing",
    ),
    ActionSpec(
        key="use-item",
        label="Draw and use an item",
        cost="1 action; ends the turn (none between fights)",
        target="optional",
        detail="the item (from your sheet)",
        rule="Perform an action",
    ),
    ActionSpec(
        key="draw",
        label="Draw a weapon or item",
        cost="1 action, the turn goes on (as the GM's table says)",
        detail="the weapon or item",
        rule="Perform an action",
    ),
    ActionSpec(
        key="stow",
        label="Put away what you hold",
        cost="free (as the GM's table says)",
        detail="what you hold",
        rule="Disabled Limb",
    ),
    ActionSpec(
        key="break-free",
        label="Break free",
        cost="1 action; ends the turn; breaks one part of a binding (Entangled: two)",
        detail="the binding, if more than one holds you",
        rule="Conditions",
    ),
    ActionSpec(
        key="escape",
        label="Escape a grapple",
        cost="1 action; ends the turn",
        rule="Grappled",
    ),
    ActionSpec(
        key="take-control",
        label="Take control of a grapple",
        cost="1 action; ends the turn",
        rule="Grappled",
    ),
    ActionSpec(
        key="stop-skill",
        label="Stop a skill in progress",
        cost="free (a skill that takes several turns never completes)",
        rule="Perform a skill",
    ),
    ActionSpec(key="surrender", label="Surrender", cost="free", rule="Surrender"),
    ActionSpec(
        key="talk",
        label="Talk",
        cost="free: up to 25 words",
        detail="what you say",
        rule="Talk",
    ),
    ActionSpec(key="end-turn", label="End your turn", cost="free", rule="Combat"),
)
BY_KEY = {a.key: a for a in ACTIONS}

Builder = Callable[[Combatant, ActInput], CommandBase]


def _detail(spec: ActionSpec, given: ActInput) -> str:
    if not given.detail:
        raise InvalidInput(f"**{spec.label}** needs `detail:` — {spec.detail}.")
    return given.detail


def _target(spec: ActionSpec, given: ActInput) -> str:
    if not given.target:
        raise InvalidInput(f"**{spec.label}** needs `target:` — who it is for.")
    return given.target


def _meters(spec: ActionSpec, given: ActInput) -> float:
    if given.amount is None:
        raise InvalidInput(f"**{spec.label}** needs `amount:` — the meters to move.")
    return given.amount


def _mode(given: ActInput) -> MovementMode:
    how = (given.detail or "run").strip().casefold()
    for mode in MOVEMENT_MODES:
        if mode == how:
            return mode
    raise InvalidInput(f"Move how? `detail:` is one of {MODES}.")


def _difficulty(given: ActInput) -> int | None:
    if given.amount is None:
        return None
    if given.amount != int(given.amount):
        raise InvalidInput("A difficulty is a whole number.")
    return int(given.amount)


_BUILDERS: dict[str, Builder] = {
    "stance": lambda c, g: ChangeStance(actor=c.id, stance=_detail(BY_KEY["stance"], g)),
    "move": lambda c, g: Move(
        actor=c.id, meters=_meters(BY_KEY["move"], g), mode=_mode(g), toward=g.target
    ),
    "full-move": lambda c, g: Move(
        actor=c.id,
        meters=_meters(BY_KEY["full-move"], g),
        mode=_mode(g),
        full=True,
        toward=g.target,
    ),
    "sprint": lambda c, g: Sprint(
        actor=c.id, meters=_meters(BY_KEY["sprint"], g), mode=_mode(g), toward=g.target
    ),
    "stand": lambda c, g: Stand(
        actor=c.id,
        method="acrobatics" if (g.detail or "").strip().casefold() == "acrobatics" else "move",
    ),
    "breather": lambda c, g: Breather(actor=c.id),
    "skill": lambda c, g: UseSkill(
        actor=c.id, skill=_detail(BY_KEY["skill"], g), difficulty=_difficulty(g)
    ),
    "use-item": lambda c, g: UseItem(
        actor=c.id, item=_detail(BY_KEY["use-item"], g), target=g.target
    ),
    "draw": lambda c, g: Draw(actor=c.id, thing=_detail(BY_KEY["draw"], g)),
    "stow": lambda c, g: Stow(actor=c.id, thing=_detail(BY_KEY["stow"], g)),
    "break-free": lambda c, g: BreakFree(actor=c.id, condition=g.detail or None),
    "drop-power": lambda c, g: DropPower(actor=c.id, power=_detail(BY_KEY["drop-power"], g)),
    "first-aid": lambda c, g: FirstAid(actor=c.id, target=_target(BY_KEY["first-aid"], g)),
    "power": lambda c, g: ActivatePower(
        actor=c.id, power=_detail(BY_KEY["power"], g), target=g.target
    ),
    "escape": lambda c, g: GrappleContest(actor=c.id, goal="escape"),
    "take-control": lambda c, g: GrappleContest(actor=c.id, goal="control"),
    "stop-skill": lambda c, g: StopSkill(actor=c.id),
    "surrender": lambda c, g: Surrender(actor=c.id),
    "talk": lambda c, g: Talk(actor=c.id, text=_detail(BY_KEY["talk"], g)),
    "end-turn": lambda c, g: EndTurn(actor=c.id),
}
assert set(_BUILDERS) == set(BY_KEY), "every UTTAS action has one builder"


def act(combatant: Combatant, given: ActInput) -> CommandBase:
    """The UTTAS command for ``/act``. Raises :class:`InvalidInput` for an action UTTAS does not
    have (listing its actions) or a missing or bad option."""
    key = given.key.strip().casefold().replace(" ", "-")
    spec = BY_KEY.get(key) or next(
        (a for a in ACTIONS if a.label.casefold() == given.key.strip().casefold()), None
    )
    if spec is None:
        known = ", ".join(a.key for a in ACTIONS)
        raise InvalidInput(
            f"UTTAS has no action {names.code(given.key[:40])}. Its actions: {known} "
            "(attacks are `/attack`, with `together:` for allies' coordinated attacks; "
            "readied actions `/ready`)."
        )
    if spec.target == "none" and given.target is not None:
        raise InvalidInput(f"**{spec.label}** takes no `target:`.")
    if spec.amount is None and given.amount is not None:
        raise InvalidInput(f"**{spec.label}** takes no `amount:`.")
    return _BUILDERS[spec.key](combatant, given)


def readied_or_not(
    actor: str, action: CommandBase, readied: bool, stop: bool = False
) -> CommandBase:
    """``action`` itself, or — ``readied`` — the readied action it resolves (UTTAS "Perform a
    readied action"; ``stop``: a movement trigger's interruption ends the mover's movement),
    for the shortcuts' ``readied:``/``stop:`` options. Raises :class:`InvalidInput` for ``stop``
    without ``readied``."""
    if stop and not readied:
        raise InvalidInput("`stop:` is for a readied action: add `readied:True`.")
    if not readied:
        return action
    return ResolveReadied.model_validate({"actor": actor, "action": action, "stops_movement": stop})
