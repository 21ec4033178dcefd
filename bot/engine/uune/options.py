"""The buttons of Uune's two decisions: the GM's approval before a roll and the spends after it
(Uune SRD "Actions", "Focus", "Vitality", "General NPC Guideines").

Only sensible choices are offered: a focus force on a resource die that missed, a focus
reroll of the (up to two) lowest missed resource dice, a vitality reroll of a missed die, a
bump of a die one face short of a hit, an NPC's forced reroll of a hit die — one button per
distinct face (two dice showing the same face are the same choice), each with its cost and
only when it can be paid. A choice string is ``<choice>:<die>[,<die>]`` (1-based dice)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.engine.core.contract import ReactionOption
from bot.engine.core.pools import RolledDie
from bot.engine.uune.core import Tx
from bot.engine.uune.state import ApprovalDecision, SpendDecision, UuneCombatant
from bot.engine.uune.terms import BASE_DIE

MAX_BUTTONS = 12
SEP = ":"
"""A helper's resource is kept as ``<helper id>:<resource>`` in the approval's lists."""


def shown(tx: Tx, resource: str) -> str:
    """A resource as the GM reads it (a helper's with the helper's name)."""
    if SEP in resource:
        cid, name = resource.split(SEP, 1)
        return f"{tx.view(cid).name}'s {name}"
    return resource


def spend_options(tx: Tx, d: SpendDecision, cid: str) -> list[ReactionOption]:
    """``cid``'s choices on the rolled action ``d`` (the actor: keep and its spends; the NPC
    the roll is against — any NPC for a plain action —: forced rerolls); none for anyone out
    of the fight, but for an Incapacitated PC's own Downtime (rules version 5,
    :meth:`~bot.engine.uune.core.Tx.rests_while_out`)."""
    c = tx.view(cid)
    if tx.is_out(c) and not (cid == d.actor and tx.rests_while_out(d.purpose)):
        return []
    if c.is_npc:
        return _npc_options(tx, d, c)[:MAX_BUTTONS]
    if cid != d.actor:
        return []
    out = [ReactionOption(choice="keep", label="Keep the roll")]
    if not _settled(tx, d):
        out += _focus_options(tx, d, c) + _vitality_options(tx, d, c)
    return out[:MAX_BUTTONS]


def _npc_options(tx: Tx, d: SpendDecision, c: UuneCombatant) -> list[ReactionOption]:
    t = tx.tables
    if d.purpose != "action" and c.id not in (d.target, d.attacker):
        return []
    cost = t.npc_forced_reroll.vitality
    if c.health.now(t) < cost:
        return []
    hits = _firsts(d.roll.roll.dice, lambda v, lab: v >= t.dice.hit_on)
    return [
        _option(f"npc_reroll:{i + 1}", f"Force a reroll of die {i + 1}", cost, "vitality", gm=True)
        for i in hits
    ]


def _focus_options(tx: Tx, d: SpendDecision, c: UuneCombatant) -> list[ReactionOption]:
    t, dice = tx.tables, d.roll.roll.dice
    hit_on, f = t.dice.hit_on, t.focus
    out: list[ReactionOption] = []
    if c.focus >= f.force_cost:
        for i in _firsts(dice, lambda v, lab: lab != BASE_DIE and v < hit_on):
            label = f"Force die {i + 1} to hit"
            out.append(_option(f"focus_force:{i + 1}", label, f.force_cost, "focus"))
    misses = [i for i, x in enumerate(dice) if x.label != BASE_DIE and x.value < hit_on]
    if c.focus >= f.reroll_cost and misses:
        lowest = sorted(misses, key=lambda i: dice[i].value)[: f.reroll_dice]
        shown = ",".join(str(i + 1) for i in sorted(lowest))
        out.append(_option(f"focus_reroll:{shown}", f"Reroll dice {shown}", f.reroll_cost, "focus"))
    return out


def _vitality_options(tx: Tx, d: SpendDecision, c: UuneCombatant) -> list[ReactionOption]:
    t, dice = tx.tables, d.roll.roll.dice
    hit_on, v = t.dice.hit_on, t.vitality
    have = c.health.now(t)
    out: list[ReactionOption] = []
    if have >= v.reroll_cost:
        for i in _firsts(dice, lambda face, lab: face < hit_on):
            out.append(
                _option(
                    f"vitality_reroll:{i + 1}", f"Reroll die {i + 1}", v.reroll_cost, "vitality"
                )
            )
    if have >= v.bump_cost:
        for i in _firsts(dice, lambda face, lab: face + v.bump_by == hit_on):
            out.append(
                _option(f"vitality_bump:{i + 1}", f"Bump die {i + 1} by 1", v.bump_cost, "vitality")
            )
    return out


def _settled(tx: Tx, d: SpendDecision) -> bool:
    """Whether the roll's outcome can only get worse for the actor by spending: it is already
    the best its purpose has, so more hits would change nothing — an Attack already lethal,
    an Observe that notices with every sense the text counts ("2 over: Three senses", rules
    version 5; before, any successful Observe counted as settled, though one more hit
    notices with one more sense), any other roll that succeeds."""
    r = d.roll
    if d.purpose == "attack":
        return r.hits >= max(1, 2 * r.required)
    if d.purpose == "observe" and tx.reads("observe_spends"):
        top = len(tx.tables.observe.senses_at_margin) - 1
        return r.margin >= top
    return r.success


def _firsts(dice: Sequence[RolledDie], keep: Callable[[int, str], bool]) -> list[int]:
    """The first die of each (face, kind) the test ``keep(value, label)`` accepts."""
    seen: set[tuple[int, bool]] = set()
    out: list[int] = []
    for i, x in enumerate(dice):
        key = (x.value, x.label == BASE_DIE)
        if key in seen or not keep(x.value, x.label):
            continue
        seen.add(key)
        out.append(i)
    return out


def _option(choice: str, label: str, cost: int, pool: str, *, gm: bool = False) -> ReactionOption:
    """A spend's button; ``gm``: only the GM may press it (an NPC's forced reroll). The label
    is the spend alone: the button shows its ``costs`` after it ("Reroll die 2 (5 vitality)",
    :func:`bot.services.decisions.button_label`)."""
    return ReactionOption(choice=choice, label=label, costs={pool: cost}, gm=gm)


def approval_options(tx: Tx, d: ApprovalDecision, cid: str) -> list[ReactionOption]:
    """The GM's buttons on ``d`` (keyed by the roller, whose roll it is; each marked ``gm``, so
    the services let only the GM press them, the roller's player is refused): approve or
    refuse each undecided resource (a bond's: grant or refuse the focus), approve all for the
    scene (not a bond's), approve all and refuse all when more than one is undecided (before
    version 4 refuse all was offered for one too); and while a plain action's difficulty is
    not named, one button per rung of the ladder. "Roll now" (a Defend with nothing proposed)
    is the roller's. None while the roller is out of the fight, but for an Incapacitated PC's
    Downtime (rules version 5)."""
    if cid != d.actor or (tx.is_out(tx.view(cid)) and not tx.rests_while_out(d.purpose)):
        return []
    out: list[ReactionOption] = []
    if d.difficulty is None:
        for rung in tx.tables.difficulty:
            label = f"GM: difficulty {rung.hits} ({rung.name})"[:80]
            out.append(ReactionOption(choice=f"difficulty:{rung.hits}", label=label, gm=True))
    undecided = d.undecided()
    if not undecided:
        if d.difficulty is not None:  # a Defend before its roller proposed anything
            out.append(ReactionOption(choice="all:approve", label="Roll now"))
        return out
    # Version 4: one undecided resource has one refuse button, as it has one approve button
    # (refuse all did what refusing it does); a bond's buttons grant or refuse the focus, as
    # its prompt asks. Versions 1 to 3 keep the buttons their prompts were posted with.
    several = len(undecided) > 1 or not tx.reads("approval_buttons_as_asked")
    if len(undecided) > 1:
        out.append(ReactionOption(choice="all:approve", label="GM: approve all", gm=True))
    if d.purpose != "bond":  # a bond's focus is once a scene: nothing to stand
        out.append(
            ReactionOption(choice="all:standing", label="GM: approve all for the scene", gm=True)
        )
    if several:
        out.append(ReactionOption(choice="all:refuse", label="GM: refuse all", gm=True))
    focus = d.purpose == "bond" and tx.reads("approval_buttons_as_asked")
    for r in undecided[:4]:
        what = "the focus" if focus else shown(tx, r)
        grant = "grant" if focus else "approve"
        out.append(ReactionOption(choice=f"approve:{r}", label=f"GM: {grant} {what}"[:80], gm=True))
        out.append(ReactionOption(choice=f"refuse:{r}", label=f"GM: refuse {what}"[:80], gm=True))
    return out
