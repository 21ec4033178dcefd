"""``/me settings``: a member's time zone and quiet hours in a server (issue 17, "Reminders").

A reminder for a member inside their quiet hours waits until they end (the expiry loop checks
again on each pass) and never fires after its deadline (:mod:`bot.services.reminders`). Time
zones are IANA names read with :mod:`zoneinfo`; quiet hours are local wall-clock times, so a
span keeps its meaning across daylight-saving changes.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from importlib import resources
from zoneinfo import ZoneInfo

from bot import names
from bot.errors import InvalidInput
from bot.store import member_settings as repo
from bot.store.base import Store

OFF_WORDS = frozenset({"off", "none", "clear"})
_SPAN = re.compile(r"^(\d{1,2}):(\d{2})\s*[-–—]\s*(\d{1,2}):(\d{2})$")  # a hyphen or a dash


@dataclass(frozen=True)
class MemberSettings:
    """A member's settings as shown: ``timezone`` (None: UTC) and quiet hours as minutes
    after local midnight (``quiet``: ``(start, end)`` or None)."""

    timezone: str | None
    quiet: tuple[int, int] | None

    @property
    def zone(self) -> ZoneInfo:
        """The member's time zone (UTC when none is set)."""
        return ZoneInfo(self.timezone or "UTC")

    def quiet_text(self) -> str:
        """``22:00-08:00`` or ``none``."""
        if self.quiet is None:
            return "none"
        start, end = self.quiet
        return f"{start // 60:02d}:{start % 60:02d}-{end // 60:02d}:{end % 60:02d}"

    def is_quiet(self, now: datetime) -> bool:
        """Whether ``now`` (aware) falls inside the member's quiet hours, in their zone."""
        if self.quiet is None:
            return False
        local = now.astimezone(self.zone)
        minute = local.hour * 60 + local.minute
        start, end = self.quiet
        if start < end:
            return start <= minute < end
        return minute >= start or minute < end


@cache
def iana_zones() -> dict[str, str]:
    """The IANA time zone names, by their casefolded form: the ``zones`` list of the
    ``tzdata`` package (the tz database itself). Not the machine's zoneinfo folder, which also
    holds files such as ``localtime`` (this machine's own zone) and ``posixrules``."""
    listed = resources.files("tzdata").joinpath("zones").read_text(encoding="utf-8").split()
    return {name.casefold(): name for name in listed}


def parse_zone(text: str) -> str:
    """An IANA time zone name (``Europe/Berlin``, ``America/New_York``, ``UTC``; any case:
    ``europe/berlin`` is ``Europe/Berlin``), as the tz database spells it. Raises
    :class:`InvalidInput` for any other text — a path, a file of the zoneinfo folder that is
    no zone (``zone.tab``), or one naming the machine's own zone (``localtime``)."""
    name = text.strip()
    found = iana_zones().get(name.casefold())
    if found is None:
        raise InvalidInput(
            f"{names.code(name[:60])} is not a time zone: use an IANA name such as "
            "`Europe/Berlin`, `America/New_York` or `UTC`."
        )
    return found


def parse_quiet_hours(text: str) -> tuple[int, int] | None:
    """``22:00-08:00`` → minutes after midnight ``(1320, 480)``; ``off`` → None. Raises
    :class:`InvalidInput` for another form, an hour over 23, minutes over 59 or an empty
    span."""
    cleaned = text.strip().lower()
    if cleaned in OFF_WORDS:
        return None
    match = _SPAN.match(cleaned)
    if match is None:
        raise InvalidInput("Write quiet hours as `22:00-08:00` (local times), or `off`.")
    h1, m1, h2, m2 = (int(g) for g in match.groups())
    if h1 > 23 or h2 > 23 or m1 > 59 or m2 > 59:
        raise InvalidInput("Quiet hours are times from `00:00` to `23:59`.")
    start, end = h1 * 60 + m1, h2 * 60 + m2
    if start == end:
        raise InvalidInput("Quiet hours must start and end at different times.")
    return start, end


class MemberSettingsService:
    """Reads and changes members' settings."""

    def __init__(self, db: Store, *, clock: Callable[[], datetime]) -> None:
        self._db = db
        self._clock = clock

    async def of(self, guild_id: int, user_id: int) -> MemberSettings:
        """The member's settings (the defaults when they set none). A stored time zone that
        is not in the tz database's list (stored where another name loaded, or dropped by a
        later tz database) counts as unset — UTC — so the member's reminders still come; it
        is never handed to :class:`~zoneinfo.ZoneInfo`."""
        async with self._db.read() as conn:
            row = await repo.get(conn, guild_id, user_id)
        if row is None:
            return MemberSettings(None, None)
        quiet = (
            (row.quiet_start, row.quiet_end)
            if row.quiet_start is not None and row.quiet_end is not None
            else None
        )
        zone = iana_zones().get(row.timezone.casefold()) if row.timezone else None
        return MemberSettings(zone, quiet)

    async def change(
        self, guild_id: int, user_id: int, timezone: str | None, quiet_hours: str | None
    ) -> MemberSettings:
        """``/me settings``: set the time zone and/or quiet hours given (the other keeps its
        value); nothing given only shows them. Raises :class:`InvalidInput` (nothing is
        stored)."""
        current = await self.of(guild_id, user_id)
        if timezone is None and quiet_hours is None:
            return current
        zone = parse_zone(timezone) if timezone is not None else current.timezone
        quiet = parse_quiet_hours(quiet_hours) if quiet_hours is not None else current.quiet
        row = repo.MemberSettingsRow(
            guild_id,
            user_id,
            zone,
            quiet[0] if quiet else None,
            quiet[1] if quiet else None,
        )
        async with self._db.transaction() as conn:
            await repo.put(conn, row, self._clock())
        return MemberSettings(zone, quiet)
