"""What ``/away`` and ``/back`` need to know of the server's fights (issue 17, "Away players"):
whether the member is a bystander of the channel's fight — their ``/away`` or ``/back`` is
answered privately, not posted to a table they are not at — and, on ``/back``, what waits on
them now in each live fight (their turn, a decision that asked whoever stood in for them),
found as ``/encounter recap`` finds it (:func:`bot.services.recap.waits_on`).

Apart from :mod:`bot.services.away`, which :mod:`bot.services.encounters` reads its marks from.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot import names
from bot.errors import NotFound
from bot.services.acting import runs
from bot.services.actor import Actor
from bot.services.encounters import EncounterService
from bot.services.recap import waits_on


async def is_bystander(encounters: EncounterService, channel_id: int | None, actor: Actor) -> bool:
    """Whether a fight runs in the channel and ``actor`` has no stake in it: not its GM seat,
    no combatant of theirs nor one they stand in for (:func:`~bot.services.acting.runs`).
    Without a fight there, nobody is (an ``/away`` between sessions is told the channel)."""
    if channel_id is None:
        return False
    try:
        encounter = await encounters.live(channel_id)
    except NotFound:
        return False
    if encounter.is_gm(actor):
        return False
    return not any(runs(encounter, actor, c) for c in encounter.state.combatants)


@dataclass(frozen=True)
class Waiting:
    """One thing that waits on a member in the live fight of ``channel_id``: ``what`` (what a
    decision asks, :attr:`~bot.services.decisions.Decision.asks`, or whose turn it is, in
    Markdown, names escaped), by when (``deadline``: None without one, or while the fight is
    paused)."""

    channel_id: int
    what: str
    deadline: datetime | None
    turn: bool = False


async def waiting_on(
    encounters: EncounterService, channel_ids: tuple[int, ...], actor: Actor
) -> list[Waiting]:
    """What waits on ``actor`` now in the live fights of ``channel_ids`` (their turn first,
    then each decision that asks them), read after their away mark ended: what waited on
    whoever stood in for them waits on them again."""
    found: list[Waiting] = []
    for channel_id in channel_ids:
        try:
            encounter = await encounters.live(channel_id)
        except NotFound:  # ended meanwhile
            continue
        your_turn, decisions = waits_on(encounter, actor)
        current = encounter.state.current
        if your_turn and current is not None:
            turn = f"**{names.escaped(current.name)}**'s turn"
            found.append(Waiting(channel_id, turn, None, turn=True))
        paused = encounter.row.paused
        found.extend(Waiting(channel_id, d.asks, None if paused else d.deadline) for d in decisions)
    return found
