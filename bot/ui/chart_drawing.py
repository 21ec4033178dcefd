"""The fight in pictures (issue 18): :class:`~bot.engine.core.chart.ChartData` drawn as a PNG
with matplotlib's Agg backend (no display; the object API, so it is safe off the event loop in
a worker thread); ``bot.ui.fight_chart`` sends it as a Discord attachment with its alt text.

Readable on Discord's dark and light themes alike: the picture has its own opaque background
(:data:`BACKGROUND`), and every text colour and line colour has a contrast ratio of at least
4.5:1 against it (WCAG 2's formula, :func:`contrast`). Lines use the Okabe-Ito colour-blind-safe
palette (the colours that reach 4.5:1 on the background) and, so that no one needs the colours
at all, each combatant also has its own line style and marker (:func:`line_style`).

The PNG must fit the interaction's ``attachment_size_limit`` (discord.py's
``Interaction.filesize_limit``): :func:`render_png` lowers the resolution until it does.
matplotlib is imported only with this module, which ``bot.ui.fight_chart`` loads the first time
a chart is drawn, so the bot starts without it.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Literal

from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.ticker import MaxNLocator

from bot.engine.core.chart import ChartData, Panel

BACKGROUND = "#000000"
"""The chart's opaque background (black: every Okabe-Ito colour but blue and black reaches
4.5:1 on it)."""
TEXT = "#FFFFFF"
"""Titles, labels, ticks and the legend's text."""
GRID = "#4D4D4D"
"""Grid lines: a guide only, deliberately faint (they carry no data)."""
PALETTE = ("#E69F00", "#56B4E9", "#009E73", "#F0E442", "#D55E00", "#CC79A7", "#FFFFFF")
"""Okabe & Ito's colour-blind-safe palette (orange, sky blue, bluish green, yellow,
vermillion, reddish purple), with white for black; its blue is left out (under 4.5:1 on
black)."""
LineStyleName = Literal["-", "--", "-.", ":"]
STYLES: tuple[LineStyleName, ...] = ("-", "--", "-.", ":")
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*", "<", ">")
DPI = 100
ROW_IN = 0.19  # inches per row of the legend
MAX_X_LABELS = 25  # round labels on the x axis at most
MIN_DPI = 20


def _linear(channel: int) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def luminance(colour: str) -> float:
    """WCAG 2 relative luminance of ``#RRGGBB`` (0 black … 1 white)."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * _linear(r) + 0.7152 * _linear(g) + 0.0722 * _linear(b)


def contrast(a: str, b: str) -> float:
    """WCAG 2 contrast ratio of two ``#RRGGBB`` colours (1 … 21)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


@dataclass(frozen=True, slots=True)
class LineStyle:
    """How one combatant's lines look: colour, line style and marker."""

    colour: str
    style: LineStyleName
    marker: str


def line_style(index: int) -> LineStyle:
    """The look of the ``index``-th combatant's lines (0-based): colour by ``index`` mod 7,
    marker by ``index`` mod 10 and line style by ``index // 10`` — no two of the first 70 look
    alike, and no two of the first 40 even without colour."""
    return LineStyle(
        colour=PALETTE[index % len(PALETTE)],
        style=STYLES[(index // len(MARKERS)) % len(STYLES)],
        marker=MARKERS[index % len(MARKERS)],
    )


def colours_used() -> tuple[str, ...]:
    """Every colour text or a data line is drawn in (for the contrast check)."""
    return (TEXT, *PALETTE)


def _plain(text: str) -> str:
    """``text`` drawn as typed: matplotlib reads ``$…$`` as mathematics."""
    return text.replace("$", r"\$")


def _legend_columns(count: int) -> int:
    return 1 if count <= 4 else 2 if count <= 12 else 3 if count <= 30 else 4


def _draw_panel(ax: Axes, panel: Panel, data: ChartData, looks: dict[str, LineStyle]) -> None:

    ax.set_facecolor(BACKGROUND)
    xs = list(range(len(data.x_labels)))
    count = len(panel.series)
    for k, series in enumerate(panel.series):
        look = looks[series.combatant]
        offset = (k - (count - 1) / 2) * (0.5 / max(count, 1)) if panel.wound_levels else 0.0
        points = [(x, y + offset) for x, y in zip(xs, series.values, strict=True) if y is not None]
        ax.plot(
            [x for x, _ in points],
            [y for _, y in points],
            color=look.colour,
            linestyle=look.style,
            marker=look.marker,
            markersize=4,
            linewidth=1.4,
        )
    ax.set_title(_plain(panel.title), color=TEXT, fontsize=11, loc="left")
    step = -(-len(xs) // MAX_X_LABELS)  # a long fight: every step-th round named
    shown = [i for i in xs if i % step == 0 or i == xs[-1]]
    ax.set_xticks(shown, [_plain(data.x_labels[i]) for i in shown])
    if panel.wound_levels:
        ax.set_yticks(range(len(data.levels)), [_plain(w) for w in data.levels])
        ax.set_ylim(-0.6, len(data.levels) - 0.4)
    else:
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))  # points: whole numbers
    ax.tick_params(colors=TEXT, labelcolor=TEXT, labelsize=8)
    ax.grid(True, color=GRID, linewidth=0.5)
    for spine in ax.spines.values():
        spine.set_color(TEXT)


def figure(data: ChartData) -> Figure:
    """The chart as a matplotlib :class:`Figure` (one panel per pool, then the wound levels;
    one legend of combatants below)."""
    order = list(data.order)
    names = {s.combatant: s.name for p in data.panels for s in p.series}
    looks = {cid: line_style(i) for i, cid in enumerate(order)}
    columns = _legend_columns(len(order))
    legend_rows = -(-len(order) // columns)
    panels = max(len(data.panels), 1)
    height = 2.6 * panels + ROW_IN * legend_rows + 1.0
    fig = Figure(figsize=(10, height), facecolor=BACKGROUND)
    FigureCanvasAgg(fig)
    axes = fig.subplots(panels, 1, sharex=True, squeeze=False)[:, 0]
    for ax, panel in zip(axes, data.panels, strict=False):
        _draw_panel(ax, panel, data, looks)
    axes[-1].set_xlabel("Round (Start: the first round begins; n: round n ends)", color=TEXT)
    kind = "exact numbers (GM only)" if data.exact else "as the channel sees it"
    fig.suptitle(_plain(f"{data.title[:80]} — {kind}"), color=TEXT, fontsize=13)
    handles = [
        Line2D(
            [],
            [],
            color=looks[c].colour,
            linestyle=looks[c].style,
            marker=looks[c].marker,
            label=_plain(names[c][:32]),
        )
        for c in order
    ]
    legend_share = (ROW_IN * legend_rows + 0.2) / height
    if handles:
        legend = fig.legend(
            handles=handles,
            loc="lower center",
            ncol=columns,
            fontsize=8,
            frameon=False,
            bbox_to_anchor=(0.5, 0.0),
        )
        for text in legend.get_texts():
            text.set_color(TEXT)
    fig.subplots_adjust(
        left=0.08, right=0.98, top=1 - 0.7 / height, bottom=legend_share + 0.45 / height
    )
    return fig


def render_png(data: ChartData, limit: int) -> bytes:
    """The chart as PNG bytes of at most ``limit`` bytes: drawn at :data:`DPI`, then at lower
    resolutions until it fits. Raises :class:`ValueError` when even :data:`MIN_DPI` does not."""
    fig = figure(data)
    dpi = DPI
    while True:
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", dpi=dpi, facecolor=BACKGROUND)
        png = buffer.getvalue()
        if len(png) <= limit:
            return png
        if dpi <= MIN_DPI:
            raise ValueError(f"the chart does not fit in {limit} bytes")
        dpi = max(MIN_DPI, int(dpi * min(0.8, (limit / len(png)) ** 0.5)))
