"""Exact odds of an attack before it is made (issue 18, ``/odds``): ruleset-neutral arithmetic.

Every figure here is computed over the exact distributions :meth:`Pool.distribution` gives
(``icepool``), never sampled. A ruleset builds its pools (its own modifiers, reactions and
damage) and uses these helpers through its :meth:`~bot.engine.core.contract.Ruleset.odds`
hook; the default hook says the odds are planned for that system.

* :func:`chance_to_beat` — the chance an attack result beats a fixed number or an opposed pool,
  equal results going by a :data:`~bot.engine.core.pools.TieRule` (Untitled: "A tie will go to
  the defender" → ``tie="second"``).
* :func:`percentile` and :func:`damage_summary` — the damage's median and its 10th and 90th
  percentiles.
* :class:`Odds` — what ``/odds`` shows: one :class:`OddsLine` per reaction the target could
  take, the modifiers that applied, and the damage per pool (UTTAS: Health and Stamina apart).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field

from bot.engine.core.dice import Roll
from bot.engine.core.pools import DiceGroup, Pool, TieRule
from bot.errors import InvalidInput, RulesetNotImplemented, RuleViolation
from bot.names import escaped

Distribution = dict[int, Fraction]


def _distribution(side: Pool | int | Distribution) -> Distribution:
    if isinstance(side, Pool):
        return side.distribution()
    if isinstance(side, int):
        return {side: Fraction(1)}
    return side


def chance_to_beat(
    attack: Pool | Distribution, against: Pool | int | Distribution, tie: TieRule
) -> Fraction:
    """The exact probability that ``attack``'s result wins against ``against`` (a fixed number
    such as a Defense, an opposed pool, or a distribution already computed).

    Equal results go by ``tie``: ``"first"`` — the attack wins (UTTAS's "equal to or higher
    than"), ``"second"`` — the defender wins (Untitled, "A tie will go to the defender"),
    ``"tie"`` — nobody wins, so ties count as not winning here. Raises :class:`InvalidInput`
    for a pool past the dice limits."""
    mine, theirs = _distribution(attack), _distribution(against)
    won = Fraction(0)
    for defense, p_defense in theirs.items():
        for result, p_result in mine.items():
            if result > defense or (result == defense and tie == "first"):
                won += p_result * p_defense
    return won


def roll_pool(roll: Roll) -> Pool:
    """The pool ``roll`` was rolled from: as many dice of ``roll.sides`` sides as were rolled
    (Advantage, Disadvantage, favor and extra dice already counted) plus ``roll.modifier``."""
    return Pool(groups=(DiceGroup(count=len(roll.dice), sides=roll.sides),), modifier=roll.modifier)


def roll_chance(roll: Roll, against: int, tie: TieRule) -> Fraction:
    """The exact chance ``roll``'s dice had, before they were rolled, to beat ``against`` (a
    fixed number: UTTAS's Dodge or Discipline): :func:`roll_pool`; equal results go by ``tie``
    (:func:`chance_to_beat`). For the "Odds: … to hit" line of an attack's result."""
    return chance_to_beat(roll_pool(roll), against, tie)


def result_odds(
    view: View, attacker: str | None, target: str | None, chance: Callable[[], Fraction], words: str
) -> list[str]:
    """The odds line of an attack's result (issue 18), one mechanism for every system:
    ``["Odds: 37.5 % to hit against Evade"]`` (``percent(chance())`` then ``words``) for an
    audience :meth:`View.shows_odds` lets read the odds ``attacker`` had against ``target``
    (the GM always; others as for ``/odds``, ``docs/audiences.md``), else ``[]`` — ``chance``
    is then never computed."""
    if not view.shows_odds(attacker, target):
        return []
    return [f"Odds: {percent(chance())} {words}"]


def sum_of(*distributions: Distribution) -> Distribution:
    """The distribution of the sum of independent results (a Combat Defense roll plus a
    shield's, say)."""
    total: Distribution = {0: Fraction(1)}
    for dist in distributions:
        out: Distribution = {}
        for x, p in total.items():
            for y, q in dist.items():
                out[x + y] = out.get(x + y, Fraction(0)) + p * q
        total = out
    return total


def percentile(distribution: Distribution, q: Fraction) -> int:
    """The smallest result whose cumulative probability reaches ``q`` (0 < q ≤ 1): the median
    is ``q = 1/2``. Raises :class:`InvalidInput` for an empty distribution or ``q`` outside
    (0, 1]."""
    if not distribution:
        raise InvalidInput("There is no distribution to take a percentile of.")
    if not Fraction(0) < q <= Fraction(1):
        raise InvalidInput(f"A percentile needs 0 < q ≤ 1, not {q}.")
    running = Fraction(0)
    for outcome in sorted(distribution):
        running += distribution[outcome]
        if running >= q:
            return outcome
    return max(distribution)


class DamageSummary(BaseModel):
    """One damage pool's spread: the ``median`` and the 10th (``low``) and 90th (``high``)
    percentiles, in the pool's units (points of Health, Stamina, …), never below 0."""

    model_config = ConfigDict(frozen=True)

    pool: str = Field(max_length=40)
    low: int
    median: int
    high: int

    @property
    def text(self) -> str:
        return f"{self.pool}: median {self.median} (10 %: {self.low}, 90 %: {self.high})"


def damage_summary(label: str, damage: Pool | Distribution) -> DamageSummary:
    """:class:`DamageSummary` of ``damage`` (negative results count as 0 damage)."""
    floored: Distribution = {}
    for outcome, p in _distribution(damage).items():
        floored[max(outcome, 0)] = floored.get(max(outcome, 0), Fraction(0)) + p
    return DamageSummary(
        pool=label,
        low=percentile(floored, Fraction(1, 10)),
        median=percentile(floored, Fraction(1, 2)),
        high=percentile(floored, Fraction(9, 10)),
    )


class OddsLine(BaseModel):
    """The chance of ``outcome`` if the target answers with ``reaction`` (``"none"``,
    ``"Evade"``, ``"Block"``, …), exact; ``note`` says what the reaction costs or changes.
    ``outcome`` is what the chance is of: "to hit" where the roll decides whether the attack
    hits; Utopia's melee always lands and its defenses take off or negate damage, so its
    figure is the chance "damage gets through" — a line never says "0 % to hit" of an attack
    that cannot miss."""

    model_config = ConfigDict(frozen=True)

    reaction: str = Field(max_length=40)
    chance: Fraction
    note: str = Field(default="", max_length=120)
    outcome: str = Field(default="to hit", max_length=40)

    @property
    def text(self) -> str:
        note = f" — {self.note}" if self.note else ""
        return f"{self.reaction}: {percent(self.chance)} {self.outcome}{note}"


class Odds(BaseModel):
    """What ``/odds`` shows for one attack: ``attack`` (its words), the ``modifiers`` that
    apply now, one line per reaction, and each damage pool's spread on a hit."""

    model_config = ConfigDict(frozen=True)

    attack: str = Field(max_length=120)
    modifiers: tuple[str, ...] = ()
    lines: tuple[OddsLine, ...]
    damage: tuple[DamageSummary, ...] = ()

    def text(self) -> list[str]:
        """The lines a player reads (percentages to one decimal)."""
        out = [self.attack]
        if self.modifiers:
            out.append("Modifiers: " + "; ".join(self.modifiers))
        out.extend(line.text for line in self.lines)
        if self.damage:
            out.append("Damage on a hit — " + "; ".join(d.text for d in self.damage))
        return out


def percent(p: Fraction) -> str:
    """``p`` as a percentage to one decimal (``"41.7 %"``); exactly 0 and 1 stay whole."""
    if p == 0 or p == 1:
        return f"{int(p * 100)} %"
    return f"{float(p) * 100:.1f} %"


if TYPE_CHECKING:
    from bot.engine.core.audience import View


class OddsHooks:
    """The contract's odds hook (issue 18): a ruleset that computes exact odds overrides
    :meth:`odds`; the rest say they are planned. A ruleset whose odds depend on the resources
    the GM approves (Uune) sets :attr:`odds_count_resources` and overrides
    :meth:`resource_odds`."""

    title: ClassVar[str]
    odds_count_resources: ClassVar[bool] = False
    """Whether ``/odds resources:`` means something here (Uune: the approved resources)."""
    odds_out: ClassVar[tuple[str, ...]] = ()
    """The conditions that take a combatant out of the fight (the ruleset's ``OUT``): no odds
    against it (:meth:`odds_target`)."""
    odds_out_words: ClassVar[str] = "out of the fight"
    """How the system's attack says its target is out ("Thug 1 is already *Down*.")."""
    odds_range_refusal: ClassVar[str | None] = None
    """Why ``/odds range:`` is refused, where the system's rules set no distances (Uune);
    None: the odds read it."""

    def odds_target(self, attacker: Any, target: Any) -> None:
        """Refuse odds for an attack the system's attack command would refuse whoever asked
        (fix23): on the attacker itself, or on a target already out of the fight — in the
        words that command uses. Raises :class:`InvalidInput` or :class:`RuleViolation`."""
        if attacker.id == target.id:
            raise InvalidInput(f"{escaped(attacker.name)} cannot attack themselves.")
        if any(target.has(condition) for condition in self.odds_out):
            raise RuleViolation(f"{escaped(target.name)} is already {self.odds_out_words}.")

    def resource_odds(
        self, state: Any, attacker: Any, target: Any, attack: str, resources: str | None
    ) -> Odds:
        """:meth:`odds` for a stated set of approved ``resources`` (a count, or names from the
        roller's sheet; None: a line per count). Raises :class:`InvalidInput` where the system
        counts none (this default)."""
        raise InvalidInput(f"{self.title} odds do not count resources: leave `resources:` out.")

    def odds(
        self, state: Any, attacker: Any, target: Any, attack: str, *, range_m: float | None = None
    ) -> Odds:
        """The exact odds of ``attacker`` (a combatant of ``state``) attacking ``target`` with
        ``attack`` (a name from ``attack_names``) at ``range_m`` meters (None: where they stand),
        with every modifier that applies now. Raises :class:`InvalidInput` for an attack the
        attacker does not have, and :class:`RulesetNotImplemented` where the system's odds are
        planned (this default)."""
        raise RulesetNotImplemented(
            f"Exact odds for {self.title} are planned: this system cannot compute them yet."
        )
