"""The GM's effects on a Uune combatant (Uune SRD "Effects", "Scopes and Scoped Mechanics",
"Effect: Grappled" … "Effect: Stimulated") through the core's scoped effects
(:mod:`bot.engine.core.effects`).

Each effect of the text has "Default scope: Scene": the GM's default duration ("until removed")
is read as that scope, so ``/gm time end-of scene`` (or a longer period) ends it; the GM may
give another (a day, a quest, an arc, the campaign, some rounds, a turn). Putting an effect on
that is already there stacks a level ("Effects": "Certain effects can stack, and their
mechanics will apply multiple times if you have more than 1 level"). What each does is read
where its rule applies, once per level where a level counts: Grappled refuses movement
(:func:`bot.engine.uune.conflict.move`) and a successful attack frees the creature
(:func:`bot.engine.uune.rolls.resolve`); Stunned loses turns
(:meth:`bot.engine.uune.core.Tx.turn_taken_up`); Intoxicated and Impaired change the roll
(:func:`bot.engine.uune.dice.roll_action`; Intoxicated per level from rules version 5);
Bleeding takes vitality at each round's start (:meth:`bot.engine.uune.core.Tx.effect_hook`)
and, outside a conflict, each minute the GM says passed (:func:`time_passes`); Stimulated
raises the focus maximum."""

from __future__ import annotations

from bot import names
from bot.engine.core.effects import Moment
from bot.engine.uune import health
from bot.engine.uune.commands import SetCondition, TimePasses
from bot.engine.uune.core import Tx
from bot.engine.uune.state import BLEEDING, CONDITIONS, IMPAIRED, INCAPACITATED, UuneCombatant
from bot.errors import InvalidInput, RuleViolation

ALIASES = {"impared": IMPAIRED}
"""The text's own spelling ("Effect: Impared")."""


def effect_named(given: str) -> str:
    """The condition ``given`` names (case and spacing aside). Raises :class:`InvalidInput`
    listing Uune's."""
    key = names.key(given)
    found = ALIASES.get(key) or next((n for n in CONDITIONS if names.key(n) == key), None)
    if found is None:
        raise InvalidInput(
            f"Uune has no effect called {names.quoted(given[:40])}: {', '.join(CONDITIONS)}."
        )
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
            raise RuleViolation(f"{names.escaped(c.name)} is not {name}.")
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


def time_passes(tx: Tx, cmd: TimePasses) -> None:
    """ "Effect: Bleeding": "If outside of a conflict, this happens every out of game minute" —
    the GM says how many minutes passed at the table (the bot keeps no clock of its own), and
    every Bleeding creature not out loses 10 vitality per level per minute. Refused in a
    conflict, where Bleeding takes its toll at each round's start."""
    st = tx.state
    if st.phase == "active":
        raise RuleViolation(
            "In a conflict Bleeding takes its toll at the start of each round: minutes count "
            "outside a conflict only."
        )
    passed = f"{cmd.minutes} minute passes" if cmd.minutes == 1 else f"{cmd.minutes} minutes pass"
    bleeding = [c for c in st.combatants if c.effect(BLEEDING) is not None and not tx.is_out(c)]
    if not bleeding:
        tx.note(f"{passed}: nobody is Bleeding.")
        return
    for c in bleeding:
        effect = c.effect(BLEEDING)
        assert effect is not None
        levels = effect.level * cmd.minutes
        lost = tx.tables.bleeding.vitality * levels

        def bled(c: UuneCombatant = c, lost: int = lost) -> None:
            tx.note(
                f"{passed}: {c.name} bleeds {lost} vitality ({tx.vitality_line(tx.view(c.id))}).",
                c.id,
                secret=c.is_npc,
                public=f"{passed}: {c.name} bleeds.",
            )

        tx.set_health(c.id, health.bleed(c.health, tx.tables, levels), "bled out", bled)
