"""Buttons of Confirm / Cancel prompts posted before prompts were recorded.

Those carried a sheet or encounter id (``sheet:del:yes:<sheet id>``, ``enc:end:no:<encounter
id>``); today's carry a prompt id under other prefixes (``sheet:delp:``, ``enc:endp:``), so an
old button can never be read as a prompt id that happens to match a newer, unrelated prompt. A
click on one changes nothing and tells the member to run the command again.
"""

from __future__ import annotations

import re
from typing import Any, Self

import discord

from bot.errors import NotFound
from bot.services.prompts import PROMPT_GONE
from bot.ui.replies import guarded


class StalePromptButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"(?:enc:end|sheet:del):(?:yes|no):\d{1,19}",
):
    """Any button of an old-format end or delete prompt: answers that it is no longer valid."""

    def __init__(self, custom_id: str) -> None:
        super().__init__(discord.ui.Button(label="Stale", custom_id=custom_id))

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Self:
        return cls(match.group(0))

    @guarded
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        raise NotFound(PROMPT_GONE)
