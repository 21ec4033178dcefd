"""The GM's effects on a Uune combatant (Uune SRD "Effects", "Scopes and Scoped Mechanics",
"Effect: Grappled" … "Effect: Stimulated") through the core's scoped effects
(:mod:`bot.engine.core.effects`).

Each effect of the text has "Default scope: Scene": the GM's default duration ("until
removed") is read as that scope, so ``/gm time end-of scene`` (or a longer period) ends it; the
GM may give another (a day, a quest, an arc, some rounds, a turn). Putting an effect on that is
already there stacks a level ("Effects": "Some effects can stack"). What each does is read where
its rule applies: Grappled refuses movement (:func:`bot.engine.uune.conflict.move`) and a
successful attack frees the creature (:func:`bot.engine.uune.rolls.resolve`); Stunned loses
turns (:meth:`bot.engine.uune.core.Tx.turn_taken_up`); Intoxicated and Impaired change the
roll (:func:`bot.engine.uune.dice.roll_action`); Bleeding takes vitality at each round's start
(:meth:`bot.engine.uune.core.Tx.effect_hook`); Stimulated raises the focus maximum."""

from __future__ import annotations

from bot import names
from bot.engine.core.effects import Moment
from bot.engine.uune.commands import SetCondition
from bot.engine.uune.core import Tx
from bot.engine.uune.state import BLEEDING, CONDITIONS, IMPAIRED, INCAPACITATED
from bot.errors import InvalidInput, RuleViolation

ALIASES = {"impared": IMPAIRED}
"""The text's own spelling ("Effect: Impared")."""


def effect_named(given: str) -> str:
    """The condition ``given`` names (case and spacing aside). Raises :class:`InvalidInput`
    listing Uune's."""
    key = names.key(given)
    found = ALIASES.get(key) or next((n for n in CONDITIONS if names.key(n) == key), None)
    if found is None:
        raise InvalidInput(f"Uune has no effect called {given[:40]!r}: {', '.join(CONDITIONS)}.")
    return found


def set_condition(tx: Tx, cmd: SetCondition) -> None:
    """The GM puts an effect on (another level when already there) for the scope ``lasts``
    names, or takes it off. Incapacitated follows vitality and is refused."""
    c = tx.view(cmd.target)
    name = effect_named(cmd.condition)
    if name == INCAPACITATED:
        raise RuleViolation(
            "Incapacitated follows vitality (0 is incapacitated): set vitality with `/gm vital`."
        )
    if not cmd.present:
        if c.effect(name) is None:
            raise RuleViolation(f"{c.name} is not {name}.")
        tx.lose(c.id, name, "by the Game Master")
        tx.clamp_focus(c.id)
        return
    if (cmd.lasts == "rounds") != (cmd.rounds is not None):
        raise InvalidInput("Give `rounds:` together with lasting some rounds, and only then.")
    lasts = "scene" if cmd.lasts == "until_removed" else cmd.lasts
    scope, ends = tx.lasting(lasts, c.id, cmd.rounds)
    hook: Moment | None = "round_start" if name == BLEEDING else None
    tx.gain(
        c.id, name, "by the Game Master", scope=scope, ends=ends, stack=True, hook=hook, level=1
    )
