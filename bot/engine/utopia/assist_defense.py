"""Assist on a Block or a Dodge (``utopia-actions.txt`` "Assist": "A creature may spend an
interrupt action to add 1d4 to a blocking creature's Block Rating or 1d12 to a dodging
creature's Dodge Rating, any number of times per event. Creatures aided this way must be within
1 meter").

When the target of damage chooses Block or Dodge and some ally could assist, the choice is paid
and the damage decision gives way to an :class:`~bot.engine.utopia.state.AssistDecision` (the
way Take Cover gives way to a covered one): its deciders are those allies — each click "Assist"
spends 1 IA and adds a die — and the defender, whose "Roll now" rolls with the Assists given;
the window running out rolls the same way. With no possible helper the defense rolls at once.

A possible helper: on the defender's side, not the defender or the attacker, in the fight (not
Down), within ``assist.within_m`` (1 m) of the defender — engaged with it or at a declared
distance; (the bot's default) with no distance known it is not offered — and able to pay 1 IA
now (off its turn an IA or a held IA; on its turn 1 TA as 1 IA, "Interchanging Actions")."""

from __future__ import annotations

from collections.abc import Mapping

from bot import names
from bot.engine.core.audience import View
from bot.engine.core.contract import ReactionOption
from bot.engine.core.decisions import DecisionWords
from bot.engine.core.economy import Cost
from bot.engine.utopia import combat
from bot.engine.utopia.commands import AssistDefense, Defend
from bot.engine.utopia.core import Tx
from bot.engine.utopia.defenses import assist_candidates, can_assist
from bot.engine.utopia.pay_words import paid_with
from bot.engine.utopia.state import AssistDecision, DamageDecision, UtopiaCombatant
from bot.errors import RuleViolation

_NOUN = {"block": "Block", "dodge": "Dodge"}


def defend(tx: Tx, cmd: Defend) -> None:
    """The target's Block, Dodge, Take Cover or no defense (:func:`combat.defend`); a Block or
    Dodge that an ally could assist opens the Assist decision instead of rolling."""
    p = tx.open_decision_named(cmd.decision)
    if isinstance(p, AssistDecision):
        raise RuleViolation(
            f"{names.escaped(tx.view(p.hit.target).name)} already chose to {p.defense}: they wait "
            "for Assists or their Roll now."
        )
    if cmd.choice not in ("block", "dodge") or not helpers(tx, p):
        combat.defend(tx, cmd)
        return
    combat.pay_defense(tx, p, cmd)
    tx.settle_decision(p.id)
    tx.open_decision(AssistDecision(hit=p, defense=cmd.choice))
    t = tx.view(p.target)
    tx.note(
        f"{t.name} chooses to {cmd.choice}: allies within "
        f"{tx.scale.show(tx.tables.assist.within_m)} may Assist before "
        + tx.of_them("it rolls.", "they roll."),
        t.id,
    )


def answer(tx: Tx, cmd: AssistDefense) -> None:
    """An ally's Assist (1 IA: one more die, "any number of times per event") or the
    defender's Roll now. Raises :class:`RuleViolation` for a creature that may not."""
    p = tx.open_decision_named(cmd.decision)
    if not isinstance(p, AssistDecision):
        raise RuleViolation("No Block or Dodge is waiting for Assists right now.")
    if cmd.choice == "roll":
        if cmd.actor != p.hit.target:
            raise RuleViolation(
                f"Only {names.escaped(tx.view(p.hit.target).name)} rolls their {_NOUN[p.defense]}."
            )
        roll(tx, p)
        return
    a = tx.view(cmd.actor)
    if a.id not in {c.id for c in helpers(tx, p.hit)}:
        raise RuleViolation(
            f"{names.escaped(a.name)} cannot Assist {names.escaped(tx.view(p.hit.target).name)} "
            "now."
        )
    rule = tx.tables.assist
    die = rule.block_die if p.defense == "block" else rule.dodge_die
    t = tx.view(p.hit.target)
    tx.pay(a.id, Cost(kind="interrupt", amount=rule.ia), f"assist {t.name}'s {p.defense}")
    tx.c(a.id).aim = 0
    given = {**p.assists, a.id: p.assists.get(a.id, 0) + 1}
    tx.settle_decision(p.id)
    tx.open_decision(AssistDecision(hit=p.hit, defense=p.defense, assists=given))
    tx.note(f"{a.name} assists {t.name}'s {_NOUN[p.defense]}: +1d{die}.", a.id)


def roll(tx: Tx, p: AssistDecision) -> None:
    """Roll ``p``'s Block or Dodge with one assist die per interrupt action spent on it."""
    tx.settle_decision(p.id)
    rule = tx.tables.assist
    die = rule.block_die if p.defense == "block" else rule.dodge_die
    count = sum(p.assists.values())
    who = ", ".join(tx.view(cid).name for cid in p.assists)
    extra = (who, count, die) if count else None
    combat.roll_defense(tx, p.hit.model_copy(update={"id": 0}), p.defense, extra)


def settle_for_the_fallen(tx: Tx) -> None:
    """After every command: damage still waiting on a creature that is out of the fight (Down,
    or removed by the GM) is taken at once with no defense — it cannot Block, Dodge or roll the
    Assists given (a Down creature acts no more). From rules version 4, damage whose attacker
    is out of the fight before it is dealt (a GM tool put it Down while the target chose its
    defense) is called off: the damage "would be dealt" only once the defense is taken
    ("Block", "Dodge"), and a Down creature deals none."""
    if not tx.state.decisions:
        return
    here = {c.id for c in tx.state.combatants}
    for p in list(tx.state.decisions):
        hit = p.hit if isinstance(p, AssistDecision) else p
        if tx.state.decision(p.id) is None:
            continue
        if hit.target in here and not tx.is_out(tx.view(hit.target)):
            if tx.reads("fallen_attacker_deals_nothing") and hit.attacker in here:
                _call_off_if_attacker_fell(tx, p, hit)
            continue
        tx.settle_decision(p.id)
        if hit.target in here:
            why = f"{tx.view(hit.target).name} is out of the fight"
            combat.settle(tx, hit.model_copy(update={"id": 0}), "unable", None, why=why)


def _call_off_if_attacker_fell(
    tx: Tx, p: DamageDecision | AssistDecision, hit: DamageDecision
) -> None:
    """``p``'s damage is called off when its attacker is out of the fight (rules version 4)."""
    a = tx.view(hit.attacker)
    why = next((e.name for e in a.effects if e.name in tx.OUT_CONDITIONS), None)
    if why is None or a.id == hit.target:
        return
    tx.settle_decision(p.id)
    t = tx.view(hit.target)
    tx.note(f"{a.name}'s attack on {t.name} with {hit.source} is called off: {a.name} is {why}.")


def helpers(tx: Tx, p: DamageDecision) -> list[UtopiaCombatant]:
    """The creatures that could Assist ``p``'s target now (see the module docstring)."""
    return [c for c in candidates(tx, p) if can_assist(tx, c)]


def candidates(tx: Tx, p: DamageDecision) -> list[UtopiaCombatant]:
    """The helpers by what everyone sees (side, Down, distance): whether each can pay is not
    judged (a hidden NPC's pools are its secret)."""
    return assist_candidates(tx, p.target, p.attacker)


def options(tx: Tx, p: AssistDecision, cid: str) -> list[ReactionOption]:
    """``cid``'s buttons on ``p``: an ally's Assist (its cost as it would be paid) or the
    defender's Roll now."""
    t = tx.view(p.hit.target)
    if cid == t.id:
        return [ReactionOption(choice="roll", label=f"Roll the {_NOUN[p.defense]} now")]
    c = tx.view(cid)
    if c not in helpers(tx, p.hit):
        return []
    rule = tx.tables.assist
    die = rule.block_die if p.defense == "block" else rule.dodge_die
    costs = paid_with(tx, c, Cost(kind="interrupt", amount=rule.ia))
    label = f"Assist {t.name}'s {_NOUN[p.defense]}: +1d{die}"
    return [ReactionOption(choice="assist", label=label[:60], costs=costs)]


ANSWERS = ("assist", "roll")
"""The choices an Assist decision takes (:class:`~bot.engine.utopia.commands.AssistDefense`)."""


def chosen_already(p: AssistDecision, decider_name: str) -> str:
    """The refusal of any other answer to ``p`` — a typed ``/dodge`` or ``/block`` once the
    defender has chosen (``decider_name``: who typed it, escaped for Discord): the defense is
    chosen, what remains is to roll it (or Assist it)."""
    noun = _NOUN[p.defense]
    return (
        f"The defense against {names.escaped(p.hit.source)} is already chosen: a {noun}, "
        f"waiting for Assists. {decider_name} cannot change the choice; to roll the {noun}, "
        f"press **Roll the {noun} now** on the prompt (or the GM uses `/gm resolve`)."
    )


def may_be_asked(tx: Tx, p: AssistDecision, cid: str) -> bool:
    """The defender, or a helper by what everyone sees."""
    return cid == p.hit.target or cid in {c.id for c in candidates(tx, p.hit)}


def words(
    tx: Tx, p: AssistDecision, deciders: Mapping[str, list[ReactionOption]], public: View
) -> DecisionWords:
    """``p`` in words: who may Assist, what was given, how it ends."""
    hit = p.hit
    target = public.name(hit.target)
    noun = _NOUN[p.defense]
    rule = tx.tables.assist
    die = rule.block_die if p.defense == "block" else rule.dodge_die
    allies = [public.name(cid) for cid in deciders if cid != hit.target]
    given = ", ".join(f"**{public.name(cid)}** +{n}d{die}" for cid, n in p.assists.items())
    so_far = f" Given so far: {given}." if given else ""
    who = " or ".join(f"**{a}**" for a in allies) or "nobody"
    amount = f"{hit.damage} damage" if public.reveals(hit.target) else "the damage"
    return DecisionWords(
        title=f"Assist {tx.view(hit.target).name}'s {noun} against {hit.source}"[:256],
        ask=(
            f"**{target}** will {p.defense} {amount} from **{public.escape(hit.source)}**: "
            f"{who} may Assist (+1d{die} per IA, as often as they like); **{target}** rolls "
            f"when ready.{so_far}"
        ),
        # the ping goes to whoever is newly asked — an ally, or the defender handed back
        # the decision (`/back`), whose part is the roll: it names both
        ping=(
            f"**{target}** will {p.defense}: {who} may Assist (+1d{die} per IA), "
            f"**{target}** rolls when ready"
        ),
        about=f"the Assists on **{target}**'s {noun}",
        noun="Assist",
        waiting_on=f"**{target}**'s {noun} (Assists)",
        lapse=f"the {noun} is rolled with the Assists given",
        ran_out=f"The window ran out: the {noun} is rolled with the Assists given",
        gm_chooses="Assist",
        window="Assist",
    )
