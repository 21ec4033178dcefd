"""Quiet hours as members type them (issue 17, ``/me settings quiet_hours:``)."""

from __future__ import annotations

import pytest

from bot.errors import InvalidInput
from bot.services.member_settings import parse_quiet_hours


def test_quiet_hours_take_a_hyphen_or_the_dash_phones_type() -> None:
    """A phone keyboard often turns ``-`` into a dash."""
    for typed in ("22:00-08:00", "22:00–08:00", "22:00 — 08:00"):
        assert parse_quiet_hours(typed) == (1320, 480), typed
    with pytest.raises(InvalidInput, match="22:00-08:00"):
        parse_quiet_hours("22:00~08:00")
