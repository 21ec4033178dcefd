"""``/rehearse [fights] [policy] [seed]`` (issue 18): the GM plays the channel's fight from
where it stands many times and reads each side's chance to win, ephemeral. A top-level command
because ``/gm`` already holds Discord's limit of 25 subcommands and groups. A thin adapter:
the checks and the worker processes are :class:`~bot.services.rehearsal.RehearsalService`'s,
the words :func:`bot.ui.rehearsal.rehearsal_text`'s."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine.core.rehearse import FIGHTS_MAX
from bot.services.rehearsal import SEED_MAX, RehearsalService
from bot.ui.interaction import actor_of, channel_ids
from bot.ui.rehearsal import queued_text, rehearsal_text
from bot.ui.text import fit_text


class RehearseCog(commands.Cog):
    """``/rehearse``."""

    def __init__(self, service: RehearsalService) -> None:
        self.service = service

    @app_commands.command(
        name="rehearse",
        description="GM: play this fight from now many times, each side's chance to win",
    )
    @app_commands.guild_only()
    @app_commands.describe(
        fights=f"How many fights to play (1-{FIGHTS_MAX:,}; default 1,000)",
        policy="How every combatant plays (default: simple; docs/rehearse.md)",
        seed="Dice seed, to repeat a rehearsal exactly (default: a new one, shown in the reply)",
    )
    @app_commands.choices(
        policy=[
            app_commands.Choice(name="simple: attack, react, breathe when low", value="simple"),
            app_commands.Choice(name="reckless: attack only", value="reckless"),
        ]
    )
    async def rehearse(
        self,
        interaction: discord.Interaction[Any],
        fights: app_commands.Range[int, 1, FIGHTS_MAX] = 1_000,
        policy: app_commands.Choice[str] | None = None,
        seed: app_commands.Range[int, 0, SEED_MAX] | None = None,
    ) -> None:
        guild_id, channel_id = channel_ids(interaction)
        job = await self.service.prepare(
            channel_id,
            guild_id,
            actor_of(interaction),
            fights=fights,
            policy=policy.value if policy else None,
            seed=seed,
        )
        try:  # the job holds its place in the server's queue until it ran or failed
            await interaction.response.defer(ephemeral=True, thinking=True)
            if job.ahead:
                await interaction.followup.send(
                    queued_text(job.ahead, self.service.time_limit_s), ephemeral=True
                )
            found = await self.service.run(job)
        finally:
            self.service.leave(job)
        text = rehearsal_text(found, round_now=job.encounter.state.round)
        await interaction.followup.send(fit_text(text), ephemeral=True)
