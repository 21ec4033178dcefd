"""The actions ``/act`` offers in Utopia, with their costs (``utopia-actions.txt`` "Standard
Actions"), and how a member's options become a command; an action Utopia does not have is
refused, listing those it has. (Block, Dodge, Take Cover and Assist on a Block or Dodge are
buttons on the damage they answer, not ``/act`` actions.)"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from bot import names
from bot.engine.core.commands import CommandBase, DelayTurn
from bot.engine.core.scale import Scale
from bot.engine.core.verbs import ActInput, ActionSpec, split_named
from bot.engine.utopia import commands as cmd
from bot.engine.utopia.stealth import circumstances
from bot.engine.utopia.tables import UtopiaTables
from bot.errors import InvalidInput

ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec(
        key="attack",
        label="Attack",
        cost="the weapon's TA (weaponless 2 TA); off turn 2 IA per TA",  # see `priced`
        target="required",
        detail="the weapon, or weaponless (empty: the only attack, else asked); several, "
        "comma-separated: a multi-weapon attack",
        amount="meters to the target",
        rule="Attack",
    ),
    ActionSpec(key="aim", label="Aim", cost="1 TA: favor on the next ranged attack", rule="Aim"),
    ActionSpec(
        key="travel",
        label="Travel",
        cost="1 TA: up to the travel distance",
        target="optional",
        detail="land, water or air",
        amount="meters",
        rule="Travel",
    ),
    ActionSpec(
        key="leap",
        label="Leap",
        cost="3 TA + 3 Stamina: up to the Power score (Strength after 2 m of travel)",
        target="optional",
        amount="meters",
        rule="Leap",
    ),
    ActionSpec(
        key="grapple",
        label="Grapple",
        cost="3 TA + 2 Stamina: a contest against an adjacent creature",
        target="required",
        rule="Grapple",
    ),
    ActionSpec(
        key="escape",
        label="Break free",
        cost="2 TA (1 IA off turn) + 2 Stamina, once per turn",
        rule="Grapple",
    ),
    ActionSpec(
        key="scale",
        label="Scale",
        cost="3 TA + 4 Stamina: a contest to climb onto an adjacent creature",
        target="required",
        rule="Scale",
    ),
    ActionSpec(
        key="shake-off",
        label="Shake off a scaler",
        cost="2 TA (1 IA off turn), once per turn",
        target="optional",
        rule="Scale",
    ),
    ActionSpec(
        key="sheath",
        label="Sheath a weapon",
        cost="1 TA",
        detail="the weapon",
        rule="Sheath or Unsheath a Weapon",
    ),
    ActionSpec(
        key="unsheath",
        label="Unsheath a weapon",
        cost="1 TA (free right before an attack with it)",
        detail="the weapon",
        rule="Sheath or Unsheath a Weapon",
    ),
    ActionSpec(
        key="don",
        label="Don armor",
        cost="3 TA neck or ring, 6 TA other armor",
        detail="the armor piece",
        rule="Equipment Actions",
    ),
    ActionSpec(
        key="doff",
        label="Doff armor",
        cost="3 TA neck or ring, 6 TA other armor",
        detail="the armor piece",
        rule="Equipment Actions",
    ),
    ActionSpec(key="deep-breath", label="Deep Breath", cost="1 TA: 1 Stamina", rule="Deep Breath"),
    ActionSpec(
        key="hold", label="Hold Action", cost="2 TA for 1 IA later by default", rule="Hold Action"
    ),
    ActionSpec(
        key="delay",
        label="Go later",
        cost="free, before spending anything: you go after target: from now on",
        target="required",
        rule="Standard Actions",
    ),
    ActionSpec(
        key="exchange",
        label="Exchange",
        cost="1 TA for 1 IA on your turn by default",
        rule="Interchanging Actions",
    ),
    ActionSpec(
        key="cast",
        label="Cast a spell",
        cost="3 TA + the spell's Stamina",
        target="optional",
        detail="the spell",
        amount="meters to the target",
        rule="Casting a spell",
    ),
    ActionSpec(
        key="stealth",
        label="Stealth",
        cost="1 TA (doubled per doubling of time): Stunt against each foe's Awareness",
        detail="circumstances: suspicious, seen, sight, distracting",
        amount="times the time is doubled (0-2, a favor each)",
        rule="Stealth",
    ),
    ActionSpec(
        key="assist",
        label="Assist",
        cost="pledged: 1 IA a test or a Leap, a grapple 2 IA by default (TA 1 for 1 on your turn)",
        target="required",
        detail="test, leap or grapple",
        rule="Assist",
    ),
)
BY_KEY = {a.key: a for a in ACTIONS}


def priced(
    played: UtopiaTables, *, ia_per_ta: int, ta_per_ia: int, hold_ta: int, board: Scale
) -> list[ActionSpec]:
    """:data:`ACTIONS` with every cost the tables set, as this fight plays them (``played``: the
    tables its rules version reads; the exchange rates, "Interchanging Actions", and what a held
    IA costs are passed as the fight's economy charges them) — a server that changed them sees
    its own numbers in ``/act``'s list, not the text's. ``board``: how the board shows
    distances."""
    held = played.hold.interrupt_actions
    aid = played.assist
    leap, grapple, scale = played.leap, played.grapple, played.scale
    gear = played.equipment
    armor = (
        f"{gear.small_ta} TA {' or '.join(gear.small_slots)}, {gear.armor_ta} TA other armor"
        if gear.small_slots
        else f"{gear.armor_ta} TA"
    )
    costs = {
        "aim": f"{played.aim.ta} TA: favor on the next ranged attack",
        "travel": f"{played.travel.ta} TA: up to the travel distance",
        "leap": f"{leap.ta} TA + {leap.stamina} Stamina: up to the Power score (Strength after "
        f"{board.show(leap.run_up_m)} of travel)",
        "grapple": f"{grapple.ta} TA + {grapple.stamina} Stamina: a contest against an adjacent "
        "creature",
        "escape": f"{grapple.escape_ta} TA ({grapple.escape_ia} IA off turn) + "
        f"{grapple.escape_stamina} Stamina, once per turn",
        "scale": f"{scale.ta} TA + {scale.stamina} Stamina: a contest to climb onto an adjacent "
        "creature",
        "shake-off": f"{scale.escape_ta} TA ({scale.escape_ia} IA off turn), once per turn",
        "sheath": f"{gear.sheath_ta} TA",
        "unsheath": f"{gear.sheath_ta} TA (free right before an attack with it)",
        "don": armor,
        "doff": armor,
        "deep-breath": f"{played.deep_breath.ta} TA: {played.deep_breath.stamina} Stamina",
        "cast": f"{played.spell.ta} TA + the spell's Stamina",
        "attack": f"the weapon's TA (weaponless {played.weaponless.ta} TA); "
        f"off turn {ia_per_ta} IA per TA",
        "hold": f"{hold_ta * held} TA for {held} IA later",
        "exchange": f"{ta_per_ia} TA for 1 IA on your turn",
        "assist": f"pledged: {aid.ia} IA a test or a Leap, a grapple {aid.grapple_ia} IA "
        f"({ta_per_ia} TA per IA on your turn)",
    }
    return [
        spec.model_copy(update={"cost": costs[spec.key]}) if spec.key in costs else spec
        for spec in ACTIONS
    ]


_PLAIN: dict[str, Callable[[str], CommandBase]] = {
    "aim": lambda me: cmd.Aim(actor=me),
    "escape": lambda me: cmd.Escape(actor=me),
    "break-free": lambda me: cmd.Escape(actor=me),
    "deep-breath": lambda me: cmd.DeepBreath(actor=me),
    "hold": lambda me: cmd.HoldAction(actor=me),
    "exchange": lambda me: cmd.Exchange(actor=me, to="interrupt"),
}
"""The actions that take no option but the actor."""


_GEAR = {
    "sheath": "weapon",
    "sheathe": "weapon",
    "unsheath": "weapon",
    "draw": "weapon",
    "don": "armor piece",
    "doff": "armor piece",
    "cast": "spell",
    "spell": "spell",
}
"""The equipment actions and Cast a spell: each names its item or spell in ``detail:``."""


def _gear(me: str, key: str, given: ActInput) -> CommandBase:
    """Sheath, unsheath (draw), don or doff the item — or cast the spell — named in
    ``detail:``."""
    if not given.detail:
        raise InvalidInput(f"{key.title()} needs the {_GEAR[key]} named in `detail:`.")
    if _GEAR[key] == "spell":
        return cmd.Cast(actor=me, spell=given.detail, target=given.target, range_m=given.amount)
    if _GEAR[key] == "weapon":
        return cmd.Sheathe(actor=me, weapon=given.detail, drawn=key in ("unsheath", "draw"))
    return cmd.Wear(actor=me, item=given.detail, on=key == "don")


def _stealth(me: str, key: str, given: ActInput) -> CommandBase:
    """Stealth with the circumstances named in ``detail:`` and ``amount:`` doublings."""
    doubled = given.amount or 0
    if doubled not in (0, 1, 2):
        raise InvalidInput(
            f"Stealth's `amount:` is how many times you double the time: 0, 1 or 2, not {doubled}."
        )
    return cmd.Stealth(actor=me, circumstances=circumstances(given.detail), doubled=int(doubled))


def _assist(me: str, key: str, given: ActInput) -> CommandBase:
    """Assist ``target:`` with its next test, Leap or grapple (``detail:``)."""
    form = (given.detail or "").strip().casefold()
    if form not in ("test", "leap", "grapple"):
        raise InvalidInput(
            "Assist needs `detail:` test (1 IA), leap (1 IA) or grapple (2 IA): what the aided "
            "creature does next. (Assist on a Block or Dodge is a button: it is offered to allies "
            "within 1 m when a creature blocks or dodges.)"
        )
    return cmd.Assist(actor=me, target=_target("Assist", given), form=form)


_BUILDERS: dict[str, Callable[[str, str, ActInput], CommandBase]] = {
    **dict.fromkeys(_GEAR, _gear),
    "stealth": _stealth,
    "assist": _assist,
    # "Standard Actions": "A creature may choose to put themselves lower in turn order".
    "delay": lambda me, key, given: DelayTurn(actor=me, after=_target("Go later", given)),
}
"""The actions built from their options by a function: ``(actor, key, given)``."""


def _target(label: str, given: ActInput) -> str:
    if not given.target:
        raise InvalidInput(f"{label} needs a `target:`.")
    return given.target


def _attack(combatant: Any, given: ActInput) -> CommandBase:
    """An Attack with the weapon in ``detail:``, or a multi-weapon attack ("Multi-weapon
    Attacks") with the weapons it names separated by commas (or ``+``); a weapon whose name
    has a comma or a ``+`` in it (``Knife +1``) is one weapon (:func:`split_named`)."""
    me = combatant.id
    target = _target("Attack", given)
    weapons = [w.name for w in combatant.sheet.weapons]
    named = [w.strip() for w in re.split(r"[,+]", given.detail or "")]
    if all(named):
        named = split_named(given.detail or "", weapons, ",+")
    if len(named) == 1:
        return cmd.Attack(actor=me, target=target, weapon=given.detail, range_m=given.amount)
    if not all(named):
        raise InvalidInput("Name the weapons separated by commas: `detail:Knife, Cestus`.")
    if len(named) > 10:
        raise InvalidInput("A multi-weapon attack names at most 10 weapons.")
    return cmd.MultiAttack(actor=me, target=target, weapons=tuple(named), range_m=given.amount)


def act(combatant: Any, given: ActInput) -> CommandBase:
    """The command ``/act`` means. Raises :class:`InvalidInput` for an action Utopia does not
    have (listing those it has) or a missing option."""
    key = given.key.strip().casefold().replace(" ", "-")
    me = combatant.id
    if key in _PLAIN:
        return _PLAIN[key](me)
    if key in _GEAR:
        return _gear(me, key, given)
    if key == "attack":
        return _attack(combatant, given)
    if key == "travel":
        mode = (given.detail or "land").strip().casefold()
        if mode not in ("land", "water", "air"):
            raise InvalidInput(
                f"Travel is by land, water or air, not {names.quoted(given.detail or '')}."
            )
        return cmd.Travel(
            actor=me,
            mode=mode,
            meters=given.amount,
            toward=given.target,
        )
    if key == "leap":
        return cmd.Leap(actor=me, meters=given.amount, toward=given.target)
    if key in ("grapple", "scale"):
        made = cmd.Grapple if key == "grapple" else cmd.Scale
        return made(actor=me, target=_target(key.title(), given))
    if key == "shake-off":
        return cmd.ShakeOff(actor=me, target=given.target)
    if key in _BUILDERS:
        return _BUILDERS[key](me, key, given)
    raise InvalidInput(
        f"Utopia has no action {names.quoted(given.key, 40)}. It has: "
        + ", ".join(a.label for a in ACTIONS)
        + "."
    )
