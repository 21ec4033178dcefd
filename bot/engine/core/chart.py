"""The fight in pictures (issue 18): what a chart of a fight shows, per audience, ruleset-neutral.

A fight is sampled at the start of its first round and at the end of every round
(:class:`Sample`, read from the log by ``bot.services.fight_chart``). Each ruleset says which
pools a combatant has and what they hold (:meth:`ChartHooks.chart_pools`: UTTAS Health and
Stamina, Utopia SHP, DHP and Stamina, Untitled Health, Uune Vitality). :func:`chart_data` turns
the samples into :class:`ChartData` for one audience — the plain numbers a plot draws — and
decides what may be drawn through :meth:`~bot.engine.core.audience.View.reveals`, the one place
that decides who sees what (``docs/audiences.md``):

* a combatant whose numbers the audience may see in every sample gets one line per pool, with
  the exact values;
* any other (an NPC whose numbers are hidden from the channel) gets one line on the **wound
  level** panel — the index of its wound level (:meth:`~bot.engine.core.contract.Ruleset.
  wound_level`) in :attr:`ChartHooks.wound_levels`, never a number of its own.

The picture itself (matplotlib) is drawn by the presentation layer (``bot.ui.fight_chart``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict

from bot.engine.core.audience import Audience, View
from bot.engine.core.state import AnyState

WOUND_PANEL = "Wound level"
"""The title of the panel that shows combatants whose numbers are hidden."""


class PoolReading(BaseModel):
    """One pool of one combatant at one moment: what it holds (``value``) and its
    ``maximum``, in the pool's own units (points of Health, Stamina, Vitality, …)."""

    model_config = ConfigDict(frozen=True)

    value: int
    maximum: int


class ChartHooks:
    """The contract's chart hooks: which pools a combatant's line shows, and the order of the
    wound levels shown for a combatant whose numbers are hidden."""

    wound_levels: ClassVar[tuple[str, ...]] = ("Unhurt", "Hurt", "Bloodied", "Down", "Dead")
    """Every word :meth:`~bot.engine.core.contract.Ruleset.wound_level` may return, from
    unhurt to worst: the wound-level panel's scale, bottom to top."""

    def chart_pools(self, state: Any) -> dict[str, dict[str, PoolReading]]:
        """Every combatant's pools in ``state``: combatant id → pool label (as the rules text
        writes it, e.g. ``"Health"``) → :class:`PoolReading`, in the state's order, each
        combatant's pools in the same order. By default each combatant's
        :meth:`combatant_pools`."""
        return {c.id: self.combatant_pools(c) for c in state.combatants}

    def combatant_pools(self, combatant: Any) -> dict[str, PoolReading]:
        """One combatant's pools (:meth:`chart_pools`); a ruleset overrides this. By default
        none: the chart shows only wound levels."""
        return {}


@dataclass(frozen=True, slots=True)
class Sample:
    """The fight at one moment the chart shows: ``label`` (``"Start"``: the first round's
    start; ``"1"``, ``"2"``…: the end of that round, or the latest state of a round still
    being fought) and the engine ``state`` then."""

    label: str
    state: AnyState


class Series(BaseModel):
    """One line: ``name`` (the combatant's, plain text), its ``pool`` (a pool label, or
    :data:`WOUND_PANEL`), and one value per sample (None where the combatant was not in the
    fight). On the wound-level panel the values are indexes into :attr:`ChartData.levels`."""

    model_config = ConfigDict(frozen=True)

    combatant: str
    name: str
    pool: str
    values: tuple[float | None, ...]
    last: str
    """How the line ends, in words the audience may read (``"10/16"``, ``"Bloodied"``)."""


class Panel(BaseModel):
    """One plot: its ``title`` (a pool label or :data:`WOUND_PANEL`) and its lines."""

    model_config = ConfigDict(frozen=True)

    title: str
    series: tuple[Series, ...]
    wound_levels: bool = False


class ChartData(BaseModel):
    """Everything a chart draws for one audience: ``title``, one label per sample
    (``x_labels``), the ``panels`` (one per pool, then the wound-level panel when someone's
    numbers are hidden) and the wound ``levels`` that panel's scale names."""

    model_config = ConfigDict(frozen=True)

    title: str
    x_labels: tuple[str, ...]
    panels: tuple[Panel, ...]
    levels: tuple[str, ...]
    exact: bool
    """Whether every line is exact (the GM's chart, or nobody's numbers are hidden)."""
    order: tuple[str, ...] = ()
    """Every combatant drawn (ids), in the order they first appear in the fight."""

    @property
    def combatants(self) -> int:
        return len(self.order)

    def alt_text(self, limit: int = 1024) -> str:
        """The chart in words, at most ``limit`` characters (Discord's attachment description
        takes 1,024): what it plots, over which samples, and how each line ends — exact numbers
        only where the chart draws them."""
        pools = [p.title for p in self.panels if not p.wound_levels]
        what = _listed(pools) if pools else "wound levels"
        head = (
            f"Line chart of {self.title}: {what} of {self.combatants} combatants, "
            f"{_span(self.x_labels)}."
        )
        if any(p.wound_levels for p in self.panels):
            head += " Combatants whose numbers are hidden are shown by wound level."
        ends: dict[str, list[str]] = {}
        names: dict[str, str] = {}
        for panel in self.panels:
            for s in panel.series:
                names[s.combatant] = s.name
                pool = "" if panel.wound_levels else f"{panel.title} "
                ends.setdefault(s.combatant, []).append(f"{pool}{s.last}")
        parts = [f"{names[c]} {', '.join(ends[c])}" for c in self.order if c in ends]
        return _fit(head + " At the end: ", parts, limit)


def _listed(words: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _span(labels: Sequence[str]) -> str:
    rounds = [x for x in labels if x.isdigit()]
    if not rounds:
        return "before the first round ended"
    return f"from the start to the end of round {rounds[-1]}"


def _fit(head: str, parts: list[str], limit: int) -> str:
    text = head
    for i, part in enumerate(parts):
        sep = "" if i == 0 else "; "
        more = f"; and {len(parts) - i} more."
        if len(text) + len(sep) + len(part) + len(more) + 1 > limit:
            return (text + more.removeprefix("; " if i == 0 else ""))[:limit]
        text += sep + part
    return (text + ".")[:limit]


def _hidden_anywhere(rules: Any, samples: Sequence[Sample], audience: Audience) -> set[str]:
    hidden: set[str] = set()
    for sample in samples:
        view: View = rules.view(sample.state, audience)
        hidden |= {c.id for c in sample.state.combatants if not view.reveals(c.id)}
    return hidden


def _level(rules: Any, combatant: Any) -> tuple[float, str]:
    word = str(rules.wound_level(combatant))
    levels: tuple[str, ...] = rules.wound_levels
    return (float(levels.index(word)) if word in levels else float(len(levels) - 1)), word


def chart_data(
    rules: Any, samples: Sequence[Sample], audience: Audience, *, title: str
) -> ChartData:
    """What the chart of ``samples`` (oldest first, at least one) shows ``audience``, drawn by
    the rules of ``rules`` (a :class:`~bot.engine.core.contract.Ruleset`). Combatants come in
    the order they first appear; a combatant's name is its latest. See the module docstring
    for who is drawn how."""
    hidden = _hidden_anywhere(rules, samples, audience)
    order: dict[str, str] = {}
    for sample in samples:
        for c in sample.state.combatants:
            order[c.id] = c.name
    n = len(samples)
    values: dict[tuple[str, str], list[float | None]] = {}
    last: dict[tuple[str, str], str] = {}
    for i, sample in enumerate(samples):
        pools = rules.chart_pools(sample.state)
        for c in sample.state.combatants:
            if c.id in hidden:
                key = (c.id, WOUND_PANEL)
                level, word = _level(rules, c)
                values.setdefault(key, [None] * n)[i] = level
                last[key] = word
                continue
            for pool, reading in pools.get(c.id, {}).items():
                key = (c.id, pool)
                values.setdefault(key, [None] * n)[i] = float(reading.value)
                last[key] = f"{reading.value}/{reading.maximum}"
    titles = list(dict.fromkeys(pool for _, pool in values if pool != WOUND_PANEL))
    if any(pool == WOUND_PANEL for _, pool in values):
        titles.append(WOUND_PANEL)
    panels = []
    for panel_title in titles:
        series = tuple(
            Series(
                combatant=cid,
                name=name,
                pool=panel_title,
                values=tuple(values[(cid, panel_title)]),
                last=last[(cid, panel_title)],
            )
            for cid, name in order.items()
            if (cid, panel_title) in values
        )
        panels.append(
            Panel(title=panel_title, series=series, wound_levels=panel_title == WOUND_PANEL)
        )
    return ChartData(
        title=title,
        x_labels=tuple(s.label for s in samples),
        panels=tuple(panels),
        levels=tuple(rules.wound_levels),
        exact=not hidden,
        order=tuple(order),
    )
