"""``/encounter``: start, look at and end the channel's encounter.

Thin adapter: options → one service call → embed → reply. Rules live in ``bot.engine``, state
changes in ``bot.services``.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine.core.audience import GM, controller
from bot.engine.core.commands import Begin, CommandBase
from bot.errors import InvalidInput
from bot.services.combat import CombatService
from bot.services.encounters import NAME_MAX, Encounter, EncounterService
from bot.services.recap import gather as gather_recap
from bot.services.sheets import SheetService
from bot.ui import embeds, tracker
from bot.ui.channel_permissions import require_channel_permissions
from bot.ui.combat_flow import refresh_channel, respond
from bot.ui.embeds import joined_as_left, order_places
from bot.ui.encounter_end import end_prompt, end_question
from bot.ui.fight_chart import chart_reply, require_fought
from bot.ui.interaction import actor_of, channel_ids
from bot.ui.recap import recap_embed
from bot.ui.replies import autocomplete_guard
from bot.ui.text import name_choices, shown_name

NO_MENTIONS = discord.AllowedMentions.none()
RULESET_CHOICES = [
    app_commands.Choice(name="UTTAS (default)", value="uttas"),
    app_commands.Choice(name="Utopia", value="utopia"),
    app_commands.Choice(name="Untitled", value="untitled"),
    app_commands.Choice(name="Uune", value="uune"),
]


@app_commands.guild_only()
class EncounterCog(
    commands.GroupCog, group_name="encounter", group_description="Run this channel's encounter"
):
    """The ``/encounter`` command group."""

    def __init__(
        self,
        service: EncounterService,
        sheets: SheetService | None = None,
        combat: CombatService | None = None,
    ) -> None:
        self.service = service
        self.sheets = sheets
        self.combat = combat
        super().__init__()

    @app_commands.command(name="start", description="Start an encounter in this channel")
    @app_commands.describe(
        ruleset="The rule system (UTTAS if you leave it out)",
        name="A name for the fight, e.g. Ambush at the ford",
    )
    @app_commands.choices(ruleset=RULESET_CHOICES)
    async def start(
        self,
        interaction: discord.Interaction[Any],
        ruleset: app_commands.Choice[str] | None = None,
        name: app_commands.Range[str, 1, NAME_MAX] | None = None,
    ) -> None:
        guild_id, channel_id = channel_ids(interaction)
        require_channel_permissions(interaction, "start an encounter")
        encounter = await self.service.start(
            guild_id=guild_id,
            channel_id=channel_id,
            actor=actor_of(interaction),
            ruleset=ruleset.value if ruleset else "uttas",
            name=name,
        )
        await interaction.response.send_message(
            f"<@{interaction.user.id}> started an encounter. Players join with "
            "`/encounter join`; the GM adds NPCs with `/gm add-npc` and begins the fight with "
            "`/encounter begin`.",
            embed=embeds.tracker(encounter),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @app_commands.command(name="status", description="Show this channel's encounter")
    @app_commands.describe(
        page="A page of the full initiative order (25 combatants a page)",
        chart="Attach a chart of everyone's pools round by round so far",
    )
    async def status(
        self,
        interaction: discord.Interaction[Any],
        page: app_commands.Range[int, 1, 100] | None = None,
        chart: bool = False,
    ) -> None:
        _, channel_id = channel_ids(interaction)
        encounter = await self.service.live(channel_id)
        actor = actor_of(interaction)
        for_gm = encounter.is_gm(actor)
        if page is not None:
            try:
                embed = tracker.tracker_page(encounter, page, for_gm=for_gm)
            except ValueError as error:
                raise InvalidInput(str(error)) from None
        elif encounter.state.phase == "active":
            embed = tracker.tracker_embed(encounter, for_gm=for_gm)
        else:
            embed = embeds.tracker(encounter)
        if not chart:
            await interaction.response.send_message(embed=embed, ephemeral=True)
            return
        require_fought(encounter)
        await interaction.response.defer(ephemeral=True, thinking=True)
        audience = GM if for_gm else controller(actor.user_id)
        drawn = await chart_reply(self.service, encounter, audience, interaction.filesize_limit)
        await interaction.followup.send(
            drawn.words,
            embed=embed,
            file=drawn.file,
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @app_commands.command(
        name="recap", description="What happened since your last action, and what waits on you"
    )
    @app_commands.describe(
        since="From when instead: 12h, 2d… back, or a date (2026-12-04 18:00, UTC)"
    )
    async def recap(
        self,
        interaction: discord.Interaction[Any],
        since: app_commands.Range[str, 1, 40] | None = None,
    ) -> None:
        _, channel_id = channel_ids(interaction)
        found = await gather_recap(self.service, channel_id, actor_of(interaction), since)
        await interaction.response.send_message(
            embed=recap_embed(found),
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @app_commands.command(
        name="begin", description="Set the turn order and begin the fight (GM only)"
    )
    @app_commands.describe(
        initiative="UTTAS: order by Agility (ties rolled) or roll Agility dice (ties by Agility)"
    )
    @app_commands.choices(
        initiative=[
            app_commands.Choice(name="By Agility (default)", value="agility"),
            app_commands.Choice(name="Roll Agility dice", value="roll"),
        ]
    )
    async def begin(
        self,
        interaction: discord.Interaction[Any],
        initiative: app_commands.Choice[str] | None = None,
    ) -> None:
        _, channel_id = channel_ids(interaction)
        if self.combat is None:
            raise InvalidInput("Combat is not available on this bot.")
        require_channel_permissions(interaction, "begin the fight")
        mode = initiative.value if initiative else None

        def make(current: Encounter) -> CommandBase:
            order = current.rules.turn_order
            to_begin = current.state.phase == "setup"  # else the engine says it has begun
            if mode is not None and not order.takes_initiative_mode and to_begin:
                # it was dropped without a word: the GM asked for rolled Agility dice in a
                # Utopia fight and got its Speed tests (refused here, not in the engine, so
                # a Begin logged with it still replays)
                raise InvalidInput(f"{order.words}: `initiative:` is UTTAS's. Begin without it.")
            return Begin(initiative_mode=mode)

        result = await self.combat.gm_command(
            channel_id,
            actor_of(interaction),
            "begin",
            {"initiative": mode},
            make,
            action="begin the fight",
        )
        await respond(interaction, dataclasses.replace(result, label="The fight begins!"))

    @app_commands.command(name="end", description="End this channel's encounter (GM only)")
    async def end(self, interaction: discord.Interaction[Any]) -> None:
        _, channel_id = channel_ids(interaction)
        encounter, prompt_id = await self.service.open_end(channel_id, actor_of(interaction))
        await interaction.response.send_message(
            end_question(encounter),
            view=end_prompt(prompt_id),
            ephemeral=True,
        )

    @app_commands.command(name="join", description="Bring one of your characters into the fight")
    @app_commands.describe(
        character="Your character's exact name (join again with a companion, e.g. your bear)"
    )
    async def join(self, interaction: discord.Interaction[Any], character: str) -> None:
        guild_id, channel_id = channel_ids(interaction)
        actor = actor_of(interaction)
        if self.sheets is None:
            raise InvalidInput("Character sheets are not available on this bot.")
        live = await self.service.live(channel_id)
        sheet = await self.sheets.get_own(
            guild_id, actor, "character", character, ruleset=live.row.ruleset
        )
        encounter = await self.service.join(
            channel_id, actor, name=sheet.name, sheet=sheet.model, character_id=sheet.id
        )
        await interaction.response.send_message(
            f"<@{actor.user_id}> brings **{shown_name(sheet.name)}** into the fight"
            f"{joined_as_left(encounter, sheet.name)}.{order_places(encounter, [sheet.name])}",
            embed=embeds.tracker(encounter),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        await refresh_channel(interaction.client, channel_id)

    @join.autocomplete("character")
    async def join_character(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """Your own sheets for this encounter's ruleset (never another member's; at most 25)."""
        if self.sheets is None or interaction.guild_id is None or interaction.channel_id is None:
            return []
        with autocomplete_guard(interaction, "your character names"):
            live = await self.service.live(interaction.channel_id)
            names = await self.sheets.name_choices(
                interaction.guild_id,
                actor_of(interaction),
                "character",
                current,
                ruleset=live.row.ruleset,
            )
            return name_choices(names, current)
        return []
