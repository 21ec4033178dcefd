"""The board's unit of distance: where distances are typed and shown, in meters or in feet
(issue 11, Missing 8). The rules always count in meters; a :class:`Scale` converts at the edges
only — what a member types becomes meters before any command is built (:meth:`Scale.to_meters`)
and every distance the bot writes goes through :meth:`Scale.show`.

UTTAS "Range Modifiers": "If the game board is operating in feet instead of meters, the side of
one square is assumed to be 5 feet" — and "Game Scale": a square is 2 m. So on a feet board one
square is 5 ft and 2 m at once: 1 ft of the board is 0.4 m of the rules, and the range
increments, counted in squares, stay the text's (5 squares = 10 m = 25 ft).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field


class Scale(BaseModel):
    """``unit``: the word shown after a distance (``m`` or ``ft``); ``meters_per_unit``: the
    rules' meters in one typed unit (1 for meters, 0.4 on a 5-ft-square board)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    unit: Literal["m", "ft"] = "m"
    meters_per_unit: Annotated[float, Field(gt=0, le=100)] = 1.0

    @property
    def word(self) -> str:
        """The unit in words, for option help and messages: ``meters`` or ``feet``."""
        return "feet" if self.unit == "ft" else "meters"

    def to_meters(self, value: float) -> float:
        """A typed distance (in this board's unit) in the rules' meters."""
        return round(value * self.meters_per_unit, 6)

    def from_meters(self, meters: float) -> float:
        """The rules' ``meters`` in this board's unit (rounded to 2 decimals)."""
        return round(meters / self.meters_per_unit, 2)

    def show(self, meters: float) -> str:
        """The rules' ``meters`` as the board shows them: ``"6 m"``, or ``"15 ft"``."""
        return f"{self.from_meters(meters):g} {self.unit}"


METERS = Scale()
"""Distances in meters, as the rules count them (every ruleset's default)."""


def feet_board(meters_per_square: float, feet_per_square: float) -> Scale:
    """A board in feet whose square is ``feet_per_square`` ft and ``meters_per_square`` m."""
    return Scale(unit="ft", meters_per_unit=meters_per_square / feet_per_square)
