"""What ``/campaign`` shows: characters' records and the outcome of a rest, healing or the end
of a period, within Discord's 2,000 characters."""

from __future__ import annotations

from bot.services.campaign import CampaignResult, RecordView
from bot.ui.embeds import fit_lines
from bot.ui.text import shown_name

REPLY_MAX = 2000
REST_KIND = (
    "Short or long (UTTAS: 1 h twice a day, 8 h once a day; Utopia: short, unless /tables "
    "adds a long)"
)
"""The ``kind:`` of ``/gm time rest`` and ``/campaign rest``: it read "Short (1 hour, twice a
day) or long (8 hours, once a day)" — UTTAS's rests, where Utopia gives a short rest only
(``bot.engine.utopia.rest``); Untitled and Uune refuse a rest in their own words."""


def record_text(views: list[RecordView]) -> str:
    """Each character's record under its name, owner and game system — and, for one a live
    encounter carries, that these are its numbers from before that fight (the fight writes its
    state back when the encounter ends, ``/gm end-fight`` or not)."""
    blocks = []
    for v in views:
        head = f"**{shown_name(v.character)}** (<@{v.owner_id}>, {v.ruleset})"
        lines = [head, *(f"- {shown_name(line)}" for line in v.lines)]
        if v.fighting is not None:
            name, channel_id = v.fighting
            lines.append(
                f"In **{shown_name(name)}** (<#{channel_id}>), still open: these are its numbers "
                "from before that fight, which writes its state back when the encounter ends "
                "(`/encounter end`); `/encounter status` there shows it now."
            )
        blocks.append("\n".join(lines))
    return fit_lines(blocks, REPLY_MAX, empty="No characters.")


def result_text(title: str, result: CampaignResult) -> str:
    """The title, the campaign time and who was left out always show; what happened to each
    character fills the rest of Discord's 2,000 characters ("… and N more")."""
    days, rest = divmod(result.clock_s, 86_400)
    head = [
        f"**{title}** · campaign time: day {days + 1}, {rest // 3600:02d}:{rest % 3600 // 60:02d}"
    ]
    if result.skipped:
        head.append(fit_lines([f"Left out: {s}" for s in result.skipped], REPLY_MAX // 2))
    room = REPLY_MAX - sum(len(line) + 1 for line in head)
    return "\n".join([*head, fit_lines(result.lines, room, empty="")]).rstrip()
