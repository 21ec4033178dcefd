"""A button that carries one id in its ``custom_id`` and survives restarts.

Subclasses give a ``template`` with a group named ``id`` (e.g. ``enc:end:yes:(?P<id>\\d+)``), a
``PREFIX`` that the id is appended to, ``LABEL`` and ``STYLE``, and a ``callback``. discord.py
routes a click to the subclass whose template matches, from the ``custom_id`` alone.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar, Self

import discord


class IdButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"(?!)"):
    """Base of the one-id dynamic buttons (its own template never matches; never register it)."""

    PREFIX: ClassVar[str]
    LABEL: ClassVar[str]
    STYLE: ClassVar[discord.ButtonStyle] = discord.ButtonStyle.secondary

    def __init__(self, item_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=self.LABEL, style=self.STYLE, custom_id=f"{self.PREFIX}{item_id}"
            )
        )
        self.item_id = item_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Self:
        return cls(int(match["id"]))
