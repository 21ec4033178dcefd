"""The fight in pictures (issue 18) on Discord: the chart of a fight as an attachment, its alt
text as the attachment's description and beside it in the message
(``docs/audiences.md``: the channel's chart shows NPCs whose numbers are hidden by wound level;
the GM's is exact). The picture is drawn by :mod:`bot.ui.chart_drawing`, in a worker thread.
"""

from __future__ import annotations

import asyncio
import io
import logging
from dataclasses import dataclass

import discord

from bot.engine.core.audience import Audience
from bot.engine.core.chart import ChartData
from bot.errors import DomainError, InvalidInput
from bot.services.encounters import Encounter, EncounterService
from bot.services.fight_chart import chart_for

log = logging.getLogger(__name__)

FILENAME = "fight-chart.png"
DESCRIPTION_MAX = 1024  # Discord's attachment description
MESSAGE_MAX = 2000  # Discord's message content


def require_fought(encounter: Encounter) -> None:
    """Raise :class:`~bot.errors.InvalidInput` before the first round: nothing to draw yet."""
    if encounter.state.round < 1:
        raise InvalidInput(
            "No round has been fought yet: the chart starts when the GM begins the fight "
            "(`/encounter begin`)."
        )


@dataclass(frozen=True, slots=True)
class ChartReply:
    """A chart ready to send: the attachment (its description the alt text) and ``data``."""

    file: discord.File
    data: ChartData

    @property
    def words(self) -> str:
        """The alt text, for the message beside the picture (at most 2,000 characters)."""
        return self.data.alt_text(MESSAGE_MAX)


async def chart_reply(
    service: EncounterService, encounter: Encounter, audience: Audience, limit: int
) -> ChartReply:
    """The chart of ``encounter``'s fight so far as ``audience`` may see it, as an attachment of
    at most ``limit`` bytes (the interaction's ``attachment_size_limit``). The log is read here;
    the states are parsed and the picture drawn in a worker thread. Raises
    :class:`~bot.errors.InvalidInput` before the first round (nothing to draw yet) and when
    the picture cannot fit ``limit``."""
    require_fought(encounter)
    entries = await service.log(encounter.id)

    def build() -> tuple[ChartData, bytes]:
        from bot.ui.chart_drawing import render_png  # matplotlib: loaded on the first chart

        data = chart_for(encounter, entries, audience)
        return data, render_png(data, limit)

    try:
        data, png = await asyncio.to_thread(build)
    except ValueError:
        raise InvalidInput(
            f"The chart does not fit in the {limit:,} bytes Discord allows an attachment here."
        ) from None
    file = discord.File(
        io.BytesIO(png), filename=FILENAME, description=data.alt_text(DESCRIPTION_MAX)
    )
    return ChartReply(file=file, data=data)


async def summary_chart(
    service: EncounterService, encounter: Encounter, audience: Audience, limit: int
) -> ChartReply | None:
    """:func:`chart_reply` for the end-of-fight summary, or None when there is nothing to draw
    (no round was fought) or the chart cannot be made (the summary is posted without it; the
    reason is logged)."""
    if encounter.state.round < 1:
        return None
    try:
        return await chart_reply(service, encounter, audience, limit)
    except DomainError as error:
        log.warning("no chart for encounter %s: %s", encounter.id, error)
        return None
