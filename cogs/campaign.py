"""``/campaign``: characters' state between fights — see it, rest, heal over weeks, end a day,
quest or arc, start a record afresh (issue 10, decision A). Thin adapter over
:class:`bot.services.campaign.CampaignService`; changes are server GMs' (checked there)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine.core.commands import CommandBase, EndPeriod
from bot.engine.core.contract import Ruleset
from bot.engine.core.effects import Period
from bot.errors import InvalidInput
from bot.services.campaign import CampaignService
from bot.ui.campaign_views import REST_KIND, record_text, result_text
from bot.ui.interaction import actor_of
from bot.ui.text import shown_name
from bot.words import counted

NONE = discord.AllowedMentions.none()
Name = app_commands.Range[str, 1, 80]
REPLY_MAX = 2000


def _guild(interaction: discord.Interaction[Any]) -> int:
    if interaction.guild_id is None:
        raise InvalidInput("Campaign records belong to a server; use this in a server channel.")
    return interaction.guild_id


@app_commands.guild_only()
class CampaignCog(
    commands.GroupCog,
    group_name="campaign",
    group_description="Characters between fights: Health, rests, lasting conditions",
):
    """``/campaign show|rest|heal|end-of|reset``."""

    def __init__(self, service: CampaignService) -> None:
        self.service = service
        super().__init__()

    @app_commands.command(name="show", description="A character's state between fights")
    @app_commands.describe(
        character="The character's exact name (default: all of the member's)",
        member="Whose characters (default: yours; another member's: server GMs)",
    )
    async def show(
        self,
        interaction: discord.Interaction[Any],
        character: Name | None = None,
        member: discord.Member | None = None,
    ) -> None:
        views = await self.service.show(
            _guild(interaction),
            actor_of(interaction),
            member_id=member.id if member else None,
            character=character,
        )
        await interaction.response.send_message(
            record_text(views), ephemeral=True, allowed_mentions=NONE
        )

    async def _run(
        self,
        interaction: discord.Interaction[Any],
        title: str,
        action: str,
        command: Callable[[Ruleset[Any]], CommandBase],
        member: discord.Member | None,
        character: str | None,
        *,
        can_name: bool = True,
    ) -> None:
        result = await self.service.run(
            _guild(interaction),
            actor_of(interaction),
            action=action,
            make=command,
            member_id=member.id if member else None,
            character=character,
            can_name=can_name,
        )
        await interaction.response.send_message(result_text(title, result), allowed_mentions=NONE)

    @app_commands.command(name="rest", description="Characters rest between fights (server GMs)")
    @app_commands.describe(
        kind=REST_KIND,
        member="Only this member's characters (default: every character with a record)",
        character="Only this character of the member",
    )
    @app_commands.choices(
        kind=[
            app_commands.Choice(name="short", value="short"),
            app_commands.Choice(name="long", value="long"),
        ]
    )
    async def rest(
        self,
        interaction: discord.Interaction[Any],
        kind: app_commands.Choice[str],
        member: discord.Member | None = None,
        character: Name | None = None,
    ) -> None:
        how: Literal["short", "long"] = "short" if kind.value == "short" else "long"
        await self._run(
            interaction,
            f"A {kind.value} rest",
            "call a rest",
            lambda rules: rules.rest_command(how),
            member,
            character,
        )

    @app_commands.command(name="heal", description="Weeks pass: wounds heal (server GMs)")
    @app_commands.describe(
        weeks="How many weeks pass (1-520)",
        member="Only this member's characters (default: every character with a record)",
        character="Only this character of the member",
    )
    async def heal(
        self,
        interaction: discord.Interaction[Any],
        weeks: app_commands.Range[int, 1, 520],
        member: discord.Member | None = None,
        character: Name | None = None,
    ) -> None:
        title = f"{counted(weeks, 'week')} of natural healing"
        await self._run(
            interaction,
            title,
            "let weeks pass",
            lambda rules: rules.healing_command(weeks),
            member,
            character,
        )

    @app_commands.command(
        name="end-of", description="A day, quest or arc ends: its lasting effects end (server GMs)"
    )
    @app_commands.describe(period="What ends: effects that last that long (or less) end too")
    @app_commands.choices(
        period=[app_commands.Choice(name=p, value=p) for p in ("day", "quest", "arc")]
    )
    async def end_of(
        self, interaction: discord.Interaction[Any], period: app_commands.Choice[str]
    ) -> None:
        ending = EndPeriod(period=cast(Period, period.value))
        title = f"The {period.value} ends"
        await self._run(
            interaction,
            title,
            "end a day, quest or arc",
            lambda rules: ending,
            None,
            None,
            can_name=False,  # no member: or character: here
        )

    @app_commands.command(
        name="reset", description="Start a character's record afresh: full Health (server GMs)"
    )
    @app_commands.describe(member="Whose character", character="The character's exact name")
    async def reset(
        self, interaction: discord.Interaction[Any], member: discord.Member, character: Name
    ) -> None:
        view = await self.service.reset(
            _guild(interaction), actor_of(interaction), member_id=member.id, character=character
        )
        await interaction.response.send_message(
            f"**{shown_name(view.character)}**'s campaign record starts afresh:\n"
            + record_text([view]),
            allowed_mentions=NONE,
        )
