"""Turn deadlines for play-by-chat (issue 17, "Turn deadlines"): the duration format a GM
types (``12h``, ``1d6h``, ``90m``, ``off``) and what happens when a turn's deadline passes.

A duration is validated by a strict pattern (days, hours, minutes, seconds, each at most once,
in that order); it must lie between :data:`MIN_DEADLINE_S` and :data:`MAX_DEADLINE_S`.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Literal

from bot import names
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
_UTC_SUFFIX = re.compile(r"\s*(?:UTC|GMT)$", re.IGNORECASE)
_UNITS = {"d": 86_400, "h": 3_600, "m": 60, "s": 1}


def parse_duration(
    text: str, *, what: str = "A turn deadline", max_days: int = 30, least_s: int = MIN_DEADLINE_S
) -> int:
    """Seconds in a duration such as ``12h``, ``1d6h``, ``45m`` or ``off`` (0: no deadline).

    Raises :class:`InvalidInput` for any other text, or a duration outside ``least_s`` seconds
    (one minute unless given) to ``max_days`` days (30 for a turn deadline); ``what`` names the
    duration in that refusal (``/away until:`` and ``/gm settings reaction_window:`` use it too)."""
    cleaned = text.strip().lower().replace(" ", "")
    if cleaned in OFF_WORDS:
        return 0
    if names.blank(cleaned):
        raise InvalidInput(
            f"{what} is blank, which is not a duration: write it like `12h`, `1d6h`, `90m`, "
            "or `off`."
        )
    match = _PATTERN.match(cleaned)
    if match is None or not any(match.groupdict().values()):
        raise InvalidInput(
            f"{names.code(text[:40])} is not a duration: write it like `12h`, `1d6h`, `90m`, "
            "or `off`."
        )
    seconds = sum(int(v) * _UNITS[k] for k, v in match.groupdict().items() if v)
    if not least_s <= seconds <= max_days * 86_400:
        least = "1 minute (`1m`)" if least_s == 60 else f"`{format_duration(least_s)}`"
        raise InvalidInput(f"{what} lies between {least} and {max_days} days (`{max_days}d`).")
    return seconds


REACTION_WINDOW_S = (5, 86_400)
"""A reaction window's bounds in seconds (the engine's ``reaction_window_s``)."""


def parse_reaction_window(text: str) -> int:
    """Seconds in a reaction window typed like a deadline (``30m``, ``12h``, ``1d``) or as plain
    seconds (``300``), 5 seconds to 1 day. Raises :class:`InvalidInput` otherwise (``off`` too:
    a reaction window always ends)."""
    cleaned = text.strip()
    least, most = REACTION_WINDOW_S
    if cleaned.isdecimal():
        seconds = int(cleaned) if len(cleaned) <= 9 else most + 1
        if not least <= seconds <= most:
            raise InvalidInput("A reaction window lies between `5s` and 1 day (`1d`).")
        return seconds
    seconds = parse_duration(cleaned, what="A reaction window", max_days=1, least_s=least)
    if seconds == 0:
        raise InvalidInput("A reaction window always ends: give a duration such as `5m` or `12h`.")
    return seconds


def parse_moment(text: str, *, example: str, duration: str) -> datetime | None:
    """The UTC moment ``text`` names as an ISO 8601 date or date and time (``2026-12-24``,
    ``2026-12-24 18:00``; UTC unless it carries an offset; a trailing ``UTC`` as the commands'
    help writes it, ``2026-12-24 18:00 UTC``, is read too), or None when ``text`` does not
    look like a date (it starts with no digit or has no ``-``: a duration, say). ``example``
    (a date) and ``duration`` (e.g. ``2d``) show the forms in the refusal.

    Raises :class:`InvalidInput` for text that looks like a date but is none, and for one whose
    offset puts it outside the calendar (``0001-01-01T00:00+01:00``) — every such moment is
    refused in words, never as an ``OverflowError``."""
    cleaned = text.strip()
    if not (cleaned[:1].isdecimal() and "-" in cleaned):
        return None
    refusal = (
        f"{names.code(cleaned[:40])} is not a date: write it like `{example}` or "
        f"`{example} 18:00` (UTC), "
        f"or give a duration such as `{duration}`."
    )
    iso = _UTC_SUFFIX.sub("", cleaned)
    try:
        moment = datetime.fromisoformat(iso)
        if iso != cleaned and moment.tzinfo is not None:
            raise ValueError("an offset and UTC")
        return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
    except (ValueError, OverflowError):
        raise InvalidInput(refusal) from None


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
                raise InvalidInput(f"{names.code(point[:20])}: a share of the window is 1% to 99%.")
            shares.append(share)
            continue
        duration = _PATTERN.match(point)
        if duration is None or not any(duration.groupdict().values()):
            raise InvalidInput(
                f"{names.code(point[:20])} is not a reminder point: write a share of the window "
                "gone by (`50%`) or the time left before the deadline (`6h`, `90m`)."
            )
        seconds = sum(int(v) * _UNITS[k] for k, v in duration.groupdict().items() if v)
        if not MIN_DEADLINE_S <= seconds <= MAX_DEADLINE_S:
            raise InvalidInput(
                f"{names.code(point[:20])}: a time left lies between `1m` and `30d`."
            )
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
