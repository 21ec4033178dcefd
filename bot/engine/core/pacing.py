"""Turn deadlines for play-by-chat (issue 17, "Turn deadlines"): the duration format a GM
types (``12h``, ``1d6h``, ``90m``, ``off``) and what happens when a turn's deadline passes.

A duration is validated by a strict pattern (days, hours, minutes, seconds, each at most once,
in that order); it must lie between :data:`MIN_DEADLINE_S` and :data:`MAX_DEADLINE_S`.
"""

from __future__ import annotations

import re
from typing import Literal

from bot.errors import InvalidInput

DeadlineAction = Literal["end_turn", "notify_gm", "default_action"]
"""What a passed turn deadline does: ``end_turn`` — the turn ends as if the GM had used
``/gm next``; ``notify_gm`` — the fight waits and the GM is told (once per turn);
``default_action`` — the combatant takes the action the GM set for it (``/gm settings
combatant: default_action:``; one of :meth:`~bot.engine.core.contract.Ruleset.deadline_actions`,
e.g. UTTAS's Take a Breather), then the turn ends (a combatant without one, or whose action the
rules refuse then, just ends the turn)."""

MIN_DEADLINE_S = 60
MAX_DEADLINE_S = 30 * 86_400
OFF_WORDS = frozenset({"off", "none", "0"})
_PATTERN = re.compile(
    r"^(?:(?P<d>\d{1,3})d)?(?:(?P<h>\d{1,4})h)?(?:(?P<m>\d{1,6})m)?(?:(?P<s>\d{1,7})s)?$"
)
_UNITS = {"d": 86_400, "h": 3_600, "m": 60, "s": 1}


def parse_duration(text: str, *, what: str = "A turn deadline", max_days: int = 30) -> int:
    """Seconds in a duration such as ``12h``, ``1d6h``, ``45m`` or ``off`` (0: no deadline).

    Raises :class:`InvalidInput` for any other text, or a duration outside one minute to
    ``max_days`` days (30 for a turn deadline); ``what`` names the duration in that refusal
    (``/away until:`` uses it too)."""
    cleaned = text.strip().lower().replace(" ", "")
    if cleaned in OFF_WORDS:
        return 0
    match = _PATTERN.match(cleaned)
    if not cleaned or match is None or not any(match.groupdict().values()):
        raise InvalidInput(
            f"`{text[:40]}` is not a duration: write it like `12h`, `1d6h`, `90m`, or `off`."
        )
    seconds = sum(int(v) * _UNITS[k] for k, v in match.groupdict().items() if v)
    if not MIN_DEADLINE_S <= seconds <= max_days * 86_400:
        raise InvalidInput(
            f"{what} lies between 1 minute (`1m`) and {max_days} days (`{max_days}d`)."
        )
    return seconds


def format_duration(seconds: int) -> str:
    """``43200`` → ``12h``; ``0`` → ``off`` (the inverse of :func:`parse_duration`)."""
    if seconds <= 0:
        return "off"
    parts = []
    for unit, size in _UNITS.items():
        amount, seconds = divmod(seconds, size)
        if amount:
            parts.append(f"{amount}{unit}")
    return "".join(parts)


DEFAULT_REMINDERS = "50%"
"""Reminder points by default: once, at half the window (issue 17, "Reminders")."""

MAX_REMINDERS = 5
_PERCENT = re.compile(r"^(?P<p>\d{1,3})%$")


def parse_reminders(text: str) -> str:
    """The reminder points a GM types, normalised: comma-separated, each a share of the
    window gone by (``50%``, 1–99) or a time left before the deadline (``6h``, ``90m``,
    ``1d``; at least one minute); ``off`` for none. ``"90%, 50%"`` → ``"50%,90%"``.

    Raises :class:`InvalidInput` naming the point not understood, or for more than
    :data:`MAX_REMINDERS` points."""
    cleaned = text.strip().lower().replace(" ", "")
    if cleaned in OFF_WORDS:
        return "off"
    points = [p for p in cleaned.split(",") if p]
    if not points:
        raise InvalidInput("Write reminder points like `50%,90%` or `6h,1h`, or `off`.")
    if len(points) > MAX_REMINDERS:
        raise InvalidInput(f"At most {MAX_REMINDERS} reminder points.")
    shares: list[int] = []
    lefts: list[int] = []
    for point in points:
        match = _PERCENT.match(point)
        if match is not None:
            share = int(match["p"])
            if not 1 <= share <= 99:
                raise InvalidInput(f"`{point[:20]}`: a share of the window is 1% to 99%.")
            shares.append(share)
            continue
        duration = _PATTERN.match(point)
        if duration is None or not any(duration.groupdict().values()):
            raise InvalidInput(
                f"`{point[:20]}` is not a reminder point: write a share of the window gone by "
                "(`50%`) or the time left before the deadline (`6h`, `90m`)."
            )
        seconds = sum(int(v) * _UNITS[k] for k, v in duration.groupdict().items() if v)
        if not MIN_DEADLINE_S <= seconds <= MAX_DEADLINE_S:
            raise InvalidInput(f"`{point[:20]}`: a time left lies between `1m` and `30d`.")
        lefts.append(seconds)
    ordered = [f"{s}%" for s in sorted(set(shares))]
    ordered += [format_duration(s) for s in sorted(set(lefts), reverse=True)]
    return ",".join(ordered)


def remind_before(points: str, window_s: float) -> list[float]:
    """Seconds before the deadline at which each of ``points`` (:func:`parse_reminders`'
    form) falls for a window of ``window_s`` seconds, earliest first; points that fall outside
    the window are left out."""
    if points == "off" or window_s <= 0:
        return []
    found: set[float] = set()
    for point in points.split(","):
        match = _PERCENT.match(point)
        if match is not None:
            found.add(window_s * (100 - int(match["p"])) / 100)
            continue
        seconds = float(parse_duration(point))
        if seconds < window_s:
            found.add(seconds)
    return sorted(found, reverse=True)
