"""UTTAS: the exact odds of each event of the rules text's worked example, "Combat in action".

The text (``uttas-gameplay.txt``, "Combat in action") narrates a fight between Willow, her bear
General Bearington and three thugs, and fixes only Agility and Speed; every other number comes
from the example sheets (``data/sheets/uttas/``; the thugs play three different ones,
:data:`THUGS`) and the GM-changeable tables (``data/uttas/tables.json``).
:func:`combat_in_action_odds` computes, for each narrated event, the EXACT probability (a
:class:`~fractions.Fraction`, from the dice distributions of
:meth:`~bot.engine.core.pools.Pool.distribution`, never sampling) that it happens given that
everything narrated before it happened. Stamina is carried between events as a distribution,
conditioned on the events so far, so "knocks him out" in round 3 depends on the blow of round 1.

Every attack is measured with the numbers the engine would roll with: the attack's profile
(:func:`~bot.engine.uttas.rules.attack_profile`), the Advantages, Disadvantages and Dodge of
:func:`~bot.engine.uttas.hits.accuracy_odds`, and Armor and Defense from
:func:`~bot.engine.uttas.hits.armor_and_defense` — so a table or sheet change moves these odds
exactly as it moves the fight. What the text leaves open about the situation (who reacts how,
what "nearly" means) is stated per event in :attr:`Event.model`; ``docs/rules/uttas.md`` lists
the events with their odds.

Pure: no I/O; the caller passes the tables and the sheets.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from bot.engine.core.dice import net_dice
from bot.engine.core.effects import Effect
from bot.engine.core.pools import DiceGroup, Pool
from bot.engine.uttas import rules
from bot.engine.uttas.hits import NO_DEFENCE, Defence, accuracy_odds, armor_and_defense
from bot.engine.uttas.sheet import UttasSheet
from bot.engine.uttas.state import SPRINTING, Combatant, PendingAttack
from bot.engine.uttas.tables import UttasTables

Dist = dict[int, Fraction]
"""A distribution: value → exact probability (the probabilities sum to 1)."""
Reaction = Literal["none", "evade", "block", "move"]

THUGS = ("brawler", "lackey", "ringleader")
"""The example sheets of the three thugs, by file stem of ``data/sheets/uttas/``: Thug 1 (the
one the bear beats on), Thug 2 (Willow's) and Thug 3 (the one who sprints away). The text fixes
only their Agility (10) and Speed (4); the sheets differ because the Stunned rule ("Stamina
damage greater than their Body") pulls Body two ways: Thug 1 takes half his Stamina in one blow
without being Stunned, Thug 2 is Stunned by a blow that leaves him conscious."""

SHEETS = ("willow", "general-bearington", *THUGS)
"""The sheets :func:`combat_in_action_odds` needs by default, by file stem of
``data/sheets/uttas/``."""


@dataclass(frozen=True, slots=True)
class Swing:
    """One attack's exact numbers: the chance it hits, what its Accuracy roll is made of, and
    the Stamina damage it deals when it hits (after Defense; Health damage is fixed: one point
    per die less Armor)."""

    hit: Fraction
    accuracy_dice: int
    accuracy_bonus: int
    target_number: int
    damage: Dist
    health_damage: int


@dataclass(frozen=True, slots=True)
class Event:
    """One narrated event: ``key`` (e.g. ``R2.1``), the text's words, how it is modelled (the
    situation the text leaves open, and what the words are taken to require) and its exact
    ``odds`` given every earlier event."""

    key: str
    text: str
    model: str
    odds: Fraction


def dice_sum(count: int, modifier: int = 0) -> Dist:
    """The exact distribution of ``count``d6 + ``modifier`` (UTTAS rolls only d6)."""
    pool = Pool(groups=(DiceGroup(count=count, sides=6),), modifier=modifier)
    return pool.distribution()


def swing(
    tables: UttasTables,
    a: Combatant,
    t: Combatant,
    attack: str,
    reaction: Reaction = "none",
    range_m: float = 2,
    *,
    advantage: int = 0,
    disadvantage: int = 0,
) -> Swing:
    """The exact odds of ``a``'s ``attack`` against ``t`` defending with ``reaction`` (the
    table's basic Evade, Block or Move; "none": no reaction) from ``range_m`` meters — UTTAS
    "Accuracy Checks" (3d6 ± Advantage dice + ``[key + Dexterity] / 2``, strictly above Dodge
    or Discipline) and "Damage" — with ``advantage``/``disadvantage`` dice the Game Master
    gave (``/gm advantage``). Raises :class:`~bot.errors.NotFound` for an unknown attack."""
    profile = rules.attack_profile(a, attack, tables)
    defence = NO_DEFENCE
    if reaction != "none":
        b = tables.reactions[reaction]
        defence = Defence(
            b.label, b.dodge_bonus, b.discipline_bonus, b.armor_bonus, b.defense_bonus
        )
    p = PendingAttack(
        attacker=a.id,
        target=t.id,
        attack=profile.name,
        range_m=range_m,
        advantage=advantage,
        disadvantage=disadvantage,
    )
    odds, beyond, tn = accuracy_odds(a, t, profile, p, defence, tables)
    more, fewer = net_dice(odds.n_adv, odds.n_dis)
    count = max(0, 3 + more - fewer)
    bonus = rules.accuracy_bonus(a, profile.key)
    failed = beyond >= tables.range.auto_fail_at
    hit = (
        Fraction(0)
        if failed
        else Pool(groups=(DiceGroup(count=count, sides=6),), modifier=bonus).chance(tn + 1)
    )
    t_st = tables.stances.get(t.stance or "")
    armor, defense = armor_and_defense(t, profile, defence, t_st)
    damage: Dist = {}
    for total, q in dice_sum(profile.dice).items():
        dealt = rules.stamina_damage(total, defense)
        damage[dealt] = damage.get(dealt, Fraction(0)) + q
    return Swing(hit, count, bonus, tn, damage, rules.health_damage(profile.dice, armor))


def _cost(tables: UttasTables, c: Combatant, attack: str) -> int:
    return rules.attack_profile(c, attack, tables).stamina


class _Story:
    """The fight as narrated so far: the combatants (stance, conditions) and each one's
    Stamina as a distribution conditioned on the events so far."""

    def __init__(
        self,
        tables: UttasTables,
        sheets: Mapping[str, UttasSheet],
        thugs: tuple[str, str, str],
    ) -> None:
        self.tables = tables
        roster = {
            "willow": ("Willow", "willow", "party"),
            "bear": ("General Bearington", "general-bearington", "party"),
            **{f"t{n}": (f"Thug {n}", stem, "foes") for n, stem in enumerate(thugs, start=1)},
        }
        self.c: dict[str, Combatant] = {}
        self.stamina: dict[str, Dist] = {}
        for cid, (name, stem, side) in roster.items():
            sheet = sheets[stem]
            self.c[cid] = Combatant(
                id=cid,
                name=name,
                side=side,
                sheet=sheet,
                health=sheet.health,
                stamina=sheet.stamina,
                stance=tables.default_stance,
            )
            self.stamina[cid] = {sheet.stamina: Fraction(1)}

    def stance(self, cid: str, stance: str) -> None:
        self.c[cid] = self.c[cid].model_copy(update={"stance": stance})

    def gain(self, cid: str, condition: str) -> None:
        c = self.c[cid]
        self.c[cid] = c.model_copy(update={"effects": [*c.effects, Effect(name=condition)]})

    def body(self, cid: str) -> int:
        return rules.effective(self.c[cid], "body")

    def max_stamina(self, cid: str) -> int:
        return self.c[cid].sheet.stamina

    def pay(self, cid: str, amount: int) -> Fraction:
        """``cid`` spends ``amount`` Stamina and stays conscious (more than ``amount`` left):
        returns that chance and conditions on it (UTTAS "Stamina Costs")."""
        kept = {s - amount: q for s, q in self.stamina[cid].items() if s > amount}
        return self._condition(cid, kept)

    def land(
        self, cid: str, damage: Dist, accept: Callable[[int, int], bool]
    ) -> tuple[Fraction, Dist]:
        """The chance that a hit dealing ``damage`` leaves ``cid`` as ``accept(stamina
        before, damage)`` wants, and ``cid``'s Stamina afterwards given that (not applied)."""
        after: Dist = {}
        for s, q in self.stamina[cid].items():
            for d, r in damage.items():
                if accept(s, d):
                    after[s - d] = after.get(s - d, Fraction(0)) + q * r
        total = sum(after.values(), Fraction(0))
        return total, {k: v / total for k, v in after.items()} if total else {}

    def settle(self, cid: str, after: Dist) -> None:
        self.stamina[cid] = after

    def _condition(self, cid: str, kept: Dist) -> Fraction:
        total = sum(kept.values(), Fraction(0))
        if total:
            self.stamina[cid] = {k: v / total for k, v in kept.items()}
        return total

    def swing(
        self, a: str, t: str, attack: str, reaction: Reaction = "none", range_m: float = 2
    ) -> Swing:
        return swing(self.tables, self.c[a], self.c[t], attack, reaction, range_m)


def _up_and_able(body: int) -> Callable[[int, int], bool]:
    """The target stays conscious and is not Stunned (it acts again later in the text)."""
    return lambda s, d: s - d > 0 and d <= body


def _one_of_two(story: _Story, a1: str, a2: str, t: str, attack: str) -> Fraction:
    """Two attackers swing at ``t`` (no reaction): exactly one hits, and ``t`` stays conscious
    and not Stunned. Both attackers pay their Stamina."""
    paid = story.pay(a1, _cost(story.tables, story.c[a1], attack))
    paid *= story.pay(a2, _cost(story.tables, story.c[a2], attack))
    s1, s2 = story.swing(a1, t, attack), story.swing(a2, t, attack)
    w1, w2 = s1.hit * (1 - s2.hit), s2.hit * (1 - s1.hit)
    ok = _up_and_able(story.body(t))
    p1, after1 = story.land(t, s1.damage, ok)
    p2, after2 = story.land(t, s2.damage, ok)
    total = w1 * p1 + w2 * p2
    if total:
        keys = set(after1) | set(after2)
        story.settle(
            t,
            {k: (w1 * p1 * after1.get(k, 0) + w2 * p2 * after2.get(k, 0)) / total for k in keys},
        )
    return paid * total


def _attack(
    story: _Story,
    a: str,
    t: str,
    attack: str,
    reaction: Reaction = "none",
    *,
    accept: Callable[[int, int], bool] | None = None,
    range_m: float = 2,
) -> Fraction:
    """``a`` pays for ``attack`` on ``t``; with ``accept`` None the event is a miss, else a hit
    whose damage ``accept(stamina before, damage)`` allows."""
    paid = story.pay(a, _cost(story.tables, story.c[a], attack))
    s = story.swing(a, t, attack, reaction, range_m=range_m)
    if accept is None:
        return paid * (1 - s.hit)
    p, after = story.land(t, s.damage, accept)
    story.settle(t, after)
    return paid * s.hit * p


def _flurry(story: _Story) -> Fraction:
    """Round 4: the bear's three Claws hits at Thug 3 (3 actions). Thug 3 reacts to the first
    by shifting into his Bracing stance (it applies to that hit and stays), lets the second
    come and Evades the third — two reactions, so his Speed pool (4, one spent on his round-3
    attack) is not empty when his turn comes and he can sprint. Hits 1 and 2 land, 3 misses;
    neither hit Stuns him, together they take at least half his Stamina ("massive damage"), and
    he keeps more Stamina than his full sprint costs."""
    tables, t3 = story.tables, story.c["t3"]
    paid = story.pay("bear", 3 * _cost(tables, story.c["bear"], "Claws"))
    story.stance("t3", "Bracing")
    first, second = story.swing("bear", "t3", "Claws"), story.swing("bear", "t3", "Claws")
    third = story.swing("bear", "t3", "Claws", "evade")
    body, half = story.body("t3"), -(-story.max_stamina("t3") // 2)
    run = rules.even_floor(t3.sheet.movement.run)
    sprint = rules.move_stamina(2 * run, "run", t3.sheet, tables)
    both: Dist = {}
    for d1, q1 in first.damage.items():
        for d2, q2 in second.damage.items():
            if d1 <= body and d2 <= body:
                both[d1 + d2] = both.get(d1 + d2, Fraction(0)) + q1 * q2
    p, after = story.land("t3", both, lambda s, d: d >= half and s - d > sprint)
    story.settle("t3", after)
    return paid * first.hit * second.hit * (1 - third.hit) * p


def combat_in_action_odds(
    tables: UttasTables,
    sheets: Mapping[str, UttasSheet],
    thugs: tuple[str, str, str] = THUGS,
) -> list[Event]:
    """Every event "Combat in action" narrates, in order, with its exact odds given the ones
    before. ``sheets`` maps stems to sheets: ``willow``, ``general-bearington`` and the three
    stems of ``thugs`` (Thug 1, 2, 3; by default :data:`THUGS`; the same stem three times plays
    one sheet for all, e.g. ``("thug",) * 3``). Raises :class:`KeyError` for a stem ``sheets``
    lacks. Stances are the table's default (Neutral) unless the text names one; a defender
    reacts only where the text says so, unless :attr:`Event.model` says otherwise."""
    st = _Story(tables, sheets, thugs)
    ev: list[Event] = []

    def add(key: str, text: str, model: str, odds: Fraction) -> None:
        ev.append(Event(key, text, model, odds))

    half = -(-st.max_stamina("t1") // 2)
    add(
        "R1.1",
        "General Bearington charges one of the thugs and hits him, nearly knocking him out",
        "Claws, Thug 1 does not react; hits, takes at least half his Stamina, leaves him "
        "conscious and not Stunned (he attacks this round)",
        _attack(
            st,
            "bear",
            "t1",
            "Claws",
            accept=lambda s, d: d >= half and s - d > 0 and d <= st.body("t1"),
        ),
    )
    add(
        "R1.2",
        "Willow's Blast at a thug who dodges misses",
        "Blast at 10 m, Thug 2 Evades; misses",
        _attack(st, "willow", "t2", "Blast", "evade", range_m=10),
    )
    add(
        "R1.3",
        "Two thugs gang up on the bear, one hitting and the other missing",
        "Cudgels of Thug 1 and Thug 3, the bear does not react; exactly one hits, the bear "
        "stays conscious and not Stunned",
        _one_of_two(st, "t1", "t3", "bear", "Cudgel"),
    )
    add(
        "R1.4",
        "The thug Willow shot at charges her and misses",
        "Thug 2's Cudgel, Willow does not react; misses",
        _attack(st, "t2", "willow", "Cudgel"),
    )
    add(
        "R2.1",
        "Bearington attacks the same thug, who successfully blocks",
        "Claws, Thug 1 Blocks; misses",
        _attack(st, "bear", "t1", "Claws", "block"),
    )
    st.stance("willow", "Steady")
    add(
        "R2.2",
        "Willow in a Steady stance hits the thug who tries to dodge again",
        "Club with Steady's Advantage, Thug 2 Evades; hits, leaves him conscious and not "
        "Stunned (he attacks this round)",
        _attack(st, "willow", "t2", "Club", "evade", accept=_up_and_able(st.body("t2"))),
    )
    st.stance("t1", "Bracing")
    add(
        "R2.3",
        "The thugs attack the bear, one hitting and one missing; the bear's target braces",
        "Thug 1 takes Bracing (free at his turn's start) and swings with its Disadvantage, "
        "Thug 3 swings; exactly one hits, the bear stays conscious and not Stunned",
        _one_of_two(st, "t1", "t3", "bear", "Cudgel"),
    )
    add("R2.4", *_thanks_to_steady(st))
    add(
        "R3.1",
        "Bearington knocks the thug unconscious despite his attempt to minimise the damage",
        "Claws, Thug 1 in Bracing Blocks; hits and his Stamina reaches 0",
        _attack(st, "bear", "t1", "Claws", "block", accept=lambda s, d: s - d <= 0),
    )
    add(
        "R3.2",
        "Willow scores another blow, hard enough to Stun the thug",
        "Club, still Steady, Thug 2 does not react; hits, the Stamina damage exceeds his Body, "
        "he stays conscious",
        _attack(
            st,
            "willow",
            "t2",
            "Club",
            accept=lambda s, d: d > st.body("t2") and s - d > 0,
        ),
    )
    add(
        "R3.3",
        "The thug next to the bear hits, but doesn't knock it unconscious",
        "Thug 3's Cudgel, the bear does not react; hits, the bear stays conscious and not "
        "Stunned (it attacks next round)",
        _attack(st, "t3", "bear", "Cudgel", accept=_up_and_able(st.body("bear"))),
    )
    add(
        "R4.1",
        "Bearington's flurry hits the last thug twice for massive damage, missing the third",
        "Claws x3; Thug 3 shifts into Bracing against the first, lets the second come, Evades "
        "the third; see _flurry",
        _flurry(st),
    )
    st.stance("willow", "Mobile")
    add(
        "R4.2",
        "Willow, now in a mobile stance, hits the thug one last time, knocking him out",
        "Club in the Mobile stance, Thug 2 does not react; hits and his Stamina reaches 0",
        _attack(st, "willow", "t2", "Club", accept=lambda s, d: s - d <= 0),
    )
    st.gain("t3", SPRINTING)
    st.stance("t3", tables.default_stance)
    add(
        "R5.1",
        "Willow successfully Entangles the sprinting thug",
        "Entangle at 20 m; Thug 3 is Sprinting (Dexterity halved) and Evades; hits",
        _attack(st, "willow", "t3", "Entangle", "evade", accept=lambda s, d: True, range_m=20),
    )
    return ev


def _thanks_to_steady(st: _Story) -> tuple[str, str, Fraction]:
    """Round 2: Thug 2 hits Willow "because of her stance": with the Advantage Steady grants
    he hits, with the same three dice and no extra die he would have missed — the chance of
    that is P(hit with Advantage) - P(hit without), as a hit without the die is a hit with
    it. Willow stays conscious and not Stunned (she acts in round 3)."""
    paid = st.pay("t2", _cost(st.tables, st.c["t2"], "Cudgel"))
    steady = st.swing("t2", "willow", "Cudgel")
    plain = swing(
        st.tables,
        st.c["t2"],
        st.c["willow"].model_copy(update={"stance": st.tables.default_stance}),
        "Cudgel",
    )
    p, after = st.land("willow", steady.damage, _up_and_able(st.body("willow")))
    st.settle("willow", after)
    return (
        "The thug next to Willow attacks and hits because of her stance",
        "Thug 2's Cudgel, Willow in Steady does not react; hits only thanks to the Advantage "
        "Steady grants attackers, Willow stays conscious and not Stunned",
        paid * max(Fraction(0), steady.hit - plain.hit) * p,
    )
