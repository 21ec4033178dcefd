"""Who acts: a combatant found by exact name, the combatant a member acts for, whether a
member may act for a combatant (its controller, or the GM — and, while its controller is
``/away``, the member they named), and who is asked when a combatant must act or react.

Every command and button that acts for a combatant goes through :func:`controls` (issue 17,
"Away players"); every turn ping, reaction ping and reminder goes to :func:`answering`."""

from __future__ import annotations

import difflib

from bot import names
from bot.engine.core.state import AnyState, CombatantBase
from bot.errors import InvalidInput, NotAllowed, NotFound, RuleViolation
from bot.services.actor import Actor
from bot.services.encounter import Encounter


def controls(encounter: Encounter, actor: Actor, combatant: CombatantBase) -> bool:
    """Whether ``actor`` may act for ``combatant``: its controller, or the GM (who also runs
    every NPC and any combatant without a controller), or — while its controller is away —
    the delegate they named (:func:`delegate_of`)."""
    controller = combatant.controller_id
    if controller == actor.user_id or encounter.is_gm(actor):
        return True
    return controller is not None and delegate_of(encounter, controller) == actor.user_id


def delegate_of(encounter: Encounter, member_id: int) -> int | None:
    """The member standing in for ``member_id`` while they are away: the delegate they named
    with ``/away delegate:``, unless that delegate is away too (a delegate cannot delegate
    further: the GM stands in then). ``None``: they are not away, or the GM stands in."""
    mark = encounter.away.get(member_id)
    if mark is None or mark.delegate_id is None or mark.delegate_id in encounter.away:
        return None
    return mark.delegate_id


def answering(encounter: Encounter, controller_id: int | None) -> int:
    """The member asked when a combatant controlled by ``controller_id`` must act or react
    (turn pings, reaction pings, reminders): its controller; the GM for an NPC or a
    combatant without one; while the controller is away, their delegate, else the GM."""
    if controller_id is None:
        return encounter.row.gm_id
    if controller_id not in encounter.away:
        return controller_id
    return delegate_of(encounter, controller_id) or encounter.row.gm_id


def standing_in(encounter: Encounter, actor: Actor, combatant: CombatantBase) -> int | None:
    """The away member ``actor`` acts for when acting for ``combatant`` (its controller, away,
    and not ``actor``), for results that say "X (for Y, away)"; else ``None``."""
    controller = combatant.controller_id
    if controller is None or controller == actor.user_id or controller not in encounter.away:
        return None
    return controller


def runs(encounter: Encounter, actor: Actor, combatant: CombatantBase) -> bool:
    """Whether ``combatant`` is one of the member's own: theirs, or one they stand in for (its
    controller is away and named them) — the combatants a member means by "mine" when they
    name none (the GM's NPCs are not theirs in this sense)."""
    controller = combatant.controller_id
    if controller is None:
        return False
    return controller == actor.user_id or delegate_of(encounter, controller) == actor.user_id


def runs_listed(encounter: Encounter, actor: Actor, mine: list[CombatantBase]) -> str:
    """The member's own combatants as a refusal names them: "you control **Willow**", and
    those they stand in for by whose they are — "you act for **Willow** and **General
    Bearington** while <@…> is away" — never "you control" for a combatant not theirs
    (newuser26: the stand-in was told they controlled the away player's characters)."""
    own = [c for c in mine if c.controller_id == actor.user_id]
    parts = [f"you control {_and(own)}"] if own else []
    away: dict[int, list[CombatantBase]] = {}
    for combatant in mine:
        if combatant.controller_id is not None and combatant.controller_id != actor.user_id:
            away.setdefault(combatant.controller_id, []).append(combatant)
    parts += [f"you act for {_and(some)} while <@{uid}> is away" for uid, some in away.items()]
    return "; ".join(parts)


def _and(combatants: list[CombatantBase]) -> str:
    shown = [f"**{names.escaped(c.name)}**" for c in combatants]
    return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} and {shown[-1]}"


def find_combatant(state: AnyState, name: str) -> CombatantBase:
    """A combatant by exact name (compared by :func:`bot.names.key`: case and invisible
    characters ignored), never by prefix. Raises :class:`NotFound` suggesting the closest
    names."""
    if names.blank(name):
        raise NotFound(
            f"The combatant's name you typed {names.BLANK}: type one of the combatants' names "
            "(autocomplete lists them)."
        )
    folded = names.key(name)
    for combatant in state.combatants:
        if names.key(combatant.name) == folded:
            found: CombatantBase = combatant
            return found
    known = [c.name for c in state.combatants]
    close = difflib.get_close_matches(name, known, n=3, cutoff=0.4)
    if not close:
        close = [n for n in known if folded and folded in names.key(n)][:3]
    hint = f" Did you mean {', '.join(f'**{names.escaped(n)}**' for n in close)}?" if close else ""
    shown = names.escaped(names.clean_stored(name))
    raise NotFound(f"There is no combatant called **{shown}** in this encounter.{hint}")


def pick_actor(
    encounter: Encounter, actor: Actor, as_name: str | None, *, picked_for: str | None = None
) -> CombatantBase:
    """The combatant a member acts for.

    With ``as_name``: that combatant, if the member controls it. Without: the combatant whose
    turn it is when the member controls it, else the member's only combatant. Raises
    :class:`NotFound`, :class:`NotAllowed` or :class:`InvalidInput` (several to choose from).

    ``picked_for``: what a command that does not act picks the combatant for, as the refusal
    asks it ("whose odds to show", ``/odds``); None: the combatant acts, perhaps off-turn.
    Several to choose from are named in the refusal, which asks for one with ``as:`` —
    every command with an ``as`` option builds it here (fix23)."""
    state = encounter.state
    if as_name:
        chosen = find_combatant(state, as_name)
        if not controls(encounter, actor, chosen):
            raise NotAllowed(f"You do not control **{names.escaped(chosen.name)}**.")
        return chosen
    current: CombatantBase | None = state.current
    if current is not None and controls(encounter, actor, current):
        return current
    mine: list[CombatantBase] = [c for c in state.combatants if runs(encounter, actor, c)]
    if len(mine) == 1:
        return mine[0]
    ask = f"say {picked_for}" if picked_for else "say which one acts"
    if not mine:
        if encounter.is_gm(actor):
            who = f"Say {picked_for}" if picked_for else "Say which combatant acts"
            raise InvalidInput(f"{who} with `as:`.")
        raise NotAllowed("You have no combatant in this encounter. Join with `/encounter join`.")
    listed = runs_listed(encounter, actor, mine)
    listed = listed[:1].upper() + listed[1:]
    if current is not None and not picked_for:
        raise RuleViolation(
            f"It is **{names.escaped(current.name)}**'s turn, not yours. {listed}: "
            f"to act off-turn, {ask} with `as:`."
        )
    raise InvalidInput(f"{listed}: {ask} with `as:`.")
