"""The actions ``/act`` offers in Untitled, with their costs in the text's words
(``untitled-combat.txt`` "Combat": move, standard, full-round, swift, immediate and free
actions; the hold), and how a member's options become a command. The defender's shield choice
is a button on the attack it answers, not an ``/act`` action. What the text only names — the
flourishes and special attacks ("can be expanded by using armor, flourishes, special attacks
and other modifiers") and a parry — is refused by name (:data:`PLANNED`); an action Untitled
does not have is refused, listing those it has."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from bot import names
from bot.engine.core.commands import CommandBase, HoldTurn, ResumeTurn
from bot.engine.core.verbs import ActInput, ActionSpec
from bot.engine.untitled import commands as cmd
from bot.errors import InvalidInput
from bot.words import shortened

RULE = "Combat"
ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec(
        key="attack",
        label="Attack",
        cost="a standard action",
        target="required",
        detail="the weapon (empty: the only one on the sheet, else asked)",
        amount="meters to the target",
        rule=RULE,
    ),
    ActionSpec(
        key="move",
        label="Move",
        cost="a move action: up to the speed rating",
        target="optional",
        detail="a weapon drawn while moving (a combined move action)",
        amount="meters",
        rule=RULE,
    ),
    ActionSpec(
        key="draw", label="Draw a weapon", cost="a move action", detail="the weapon", rule=RULE
    ),
    ActionSpec(
        key="stow",
        label="Put a weapon away",
        cost="a move action",
        detail="the weapon",
        rule=RULE,
        aliases=("put away",),
    ),
    ActionSpec(
        key="reload",
        label="Reload",
        cost="a move action or a full-round action, as the weapon says",
        detail="the weapon (empty: the first to reload)",
        rule=RULE,
    ),
    ActionSpec(
        key="hold",
        label="Hold your action",
        cost="your turn, until what you name happens",
        detail="until when (e.g. the giant goes again)",
        rule=RULE,
    ),
    ActionSpec(
        key="resume", label="Act now (held action)", cost="the held turn, at a new place", rule=RULE
    ),
    ActionSpec(
        key="full-round",
        label="Full-round action",
        cost="the whole round (both moves and the standard)",
        detail="what you do",
        rule=RULE,
    ),
    ActionSpec(
        key="standard",
        label="Use an ability",
        cost="a standard action",
        detail="what you do",
        rule=RULE,
    ),
    ActionSpec(
        key="swift",
        label="Swift action",
        cost="one swift action a round, on your turn (often at the opening or closing of your "
        "standard action)",
        detail="what you do",
        rule=RULE,
    ),
    ActionSpec(
        key="immediate",
        label="Immediate action",
        cost="one immediate action a round, on or off your turn",
        detail="what you do",
        rule=RULE,
    ),
    ActionSpec(key="free", label="Free action", cost="free", detail="what you do", rule=RULE),
)

PLANNED: dict[str, str] = {
    "flourish": "Flourishes",
    "special-attack": "Special attacks",
    "parry": "Parry",
}
"""What the text names without rules for it (docs/rules/untitled.md: not modelled)."""

_DECLARED: dict[str, Literal["swift", "immediate", "free", "full_round", "standard"]] = {
    "full-round": "full_round",
    "standard": "standard",
    "swift": "swift",
    "immediate": "immediate",
    "free": "free",
}


def _detail(label: str, given: ActInput) -> str:
    if not given.detail or not given.detail.strip():
        raise InvalidInput(f"{label} needs a `detail:` saying {_WHAT.get(label, 'what')}.")
    return shortened(given.detail, 200)


_WHAT = {"Hold your action": "until when", "Draw a weapon": "which weapon"}


def _said(label: str, given: ActInput, lead: str) -> str:
    """``detail:`` for an action whose note puts ``lead`` before it ("holds their action
    until …", "spends 1 swift action to …"): one leading ``lead`` typed is the note's own
    word, so "until the giant goes again" — the rules text's example of a hold, said the way
    a player says it — is kept as "the giant goes again", and "to nock an arrow" as "nock an
    arrow"."""
    words = _detail(label, given)
    first, _, rest = words.partition(" ")
    if first.casefold() == lead:
        return _detail(label, given.model_copy(update={"detail": rest}))
    return words


def _attack(me: str, given: ActInput) -> CommandBase:
    if not given.target:
        raise InvalidInput("Attack needs a `target:`.")
    return cmd.Attack(
        actor=me, target=given.target, weapon=given.detail or None, range_m=given.amount
    )


def _move(me: str, given: ActInput) -> CommandBase:
    draw = (given.detail or "").strip() or None
    return cmd.Move(actor=me, meters=given.amount, toward=given.target, draw=draw)


_BUILDERS: dict[str, Callable[[str, ActInput], CommandBase]] = {
    "attack": _attack,
    "move": _move,
    "draw": lambda me, g: cmd.Draw(actor=me, weapon=_detail("Draw a weapon", g)),
    "stow": lambda me, g: cmd.Stow(actor=me, weapon=_detail("Put a weapon away", g)),
    "reload": lambda me, g: cmd.Reload(actor=me, weapon=(g.detail or "").strip() or None),
    "hold": lambda me, g: HoldTurn(actor=me, until=_said("Hold your action", g, "until")),
    "resume": lambda me, g: ResumeTurn(actor=me),
}


def act(combatant: Any, given: ActInput) -> CommandBase:
    """The command ``/act`` means. Raises :class:`InvalidInput` for an action Untitled does
    not have (listing those it has), one the bot does not play yet (by name), or a missing
    option."""
    key = given.key.strip().casefold().replace(" ", "-")
    me = combatant.id
    builder = _BUILDERS.get(key)
    if builder is not None:
        return builder(me, given)
    if key in _DECLARED:
        label = next(a.label for a in ACTIONS if a.key == key)
        words = _said(label, given, "to")
        return cmd.Declared(actor=me, action=_DECLARED[key], words=words)
    if key in PLANNED:
        raise InvalidInput(
            f"{PLANNED[key]}: the Untitled text only names them, and the bot does not play "
            "them yet."
        )
    raise InvalidInput(
        f"Untitled has no action {names.quoted(given.key, 40)}. It has: "
        + ", ".join(a.label for a in ACTIONS)
        + "."
    )
