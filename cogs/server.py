"""``/server``: server-wide administration for server GMs — who may start encounters and the
cap (``settings``), the live encounters (``encounters``), ending one anywhere (``end``), and a
departed member's data (``member-export``, ``member-delete``).

Thin adapter over :class:`bot.services.server_admin.ServerAdminService` and
:class:`bot.services.member_data.MemberDataService`; who may do what is checked there.
"""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import names
from bot.errors import Conflict, InvalidInput, NotAllowed
from bot.services.member_data import MemberDataService
from bot.services.server_admin import MAX_CAP, ServerAdminService
from bot.store.guild_settings import StartPolicy
from bot.ui.encounter_end import end_question
from bot.ui.interaction import actor_of
from bot.ui.member_views import (
    NONE,
    delete_question,
    guild_id_of,
    member_delete_prompt,
    send_export,
)
from bot.ui.server_views import encounters_embed, server_end_prompt, settings_text

_USER_ID = re.compile(r"<@!?(\d{17,20})>|(\d{17,20})")
SNOWFLAKE_MAX = 2**63 - 1
POLICIES: dict[str, StartPolicy] = {"everyone": "everyone", "gms": "gms"}


def parse_user_id(text: str) -> int:
    """A Discord user id typed as digits (or pasted as a mention). Raises
    :class:`InvalidInput` unless it is a 17-20 digit snowflake."""
    match = _USER_ID.fullmatch(text.strip())
    value = int(match.group(1) or match.group(2)) if match else 0
    if not 0 < value <= SNOWFLAKE_MAX:
        raise InvalidInput(
            f"{names.code(text.strip()[:40])} is not a user id: give the "
            "17-20 digits (Developer Mode on, then right-click the member → Copy User ID)."
        )
    return value


class EncounterChannel(app_commands.Transformer):
    """A channel option offering the channels an encounter can run in (text, announcement,
    voice and stage chats, threads); the callback gets the channel's id."""

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.channel

    @property
    def channel_types(self) -> list[discord.ChannelType]:
        kinds = discord.ChannelType
        return [
            kinds.text,
            kinds.news,
            kinds.voice,
            kinds.stage_voice,
            kinds.public_thread,
            kinds.private_thread,
            kinds.news_thread,
        ]

    async def transform(self, interaction: discord.Interaction[Any], value: Any) -> int:
        return int(value.id)


async def ensure_departed(interaction: discord.Interaction[Any], user_id: int) -> None:
    """Refuse (:class:`NotAllowed`) when ``user_id`` is still a member of this server: members
    export and erase their own data with ``/me``."""
    assert interaction.guild_id is not None
    try:
        await interaction.client.http.get_member(interaction.guild_id, user_id)
    except discord.NotFound:
        return
    except discord.HTTPException as error:
        raise Conflict(
            f"Discord did not say whether <@{user_id}> is still a member ({error.status}); "
            "try again in a moment."
        ) from None
    raise NotAllowed(
        f"<@{user_id}> is still a member of this server: they can use `/me export` and "
        "`/me delete` themselves."
    )


@app_commands.guild_only()
class ServerCog(
    commands.GroupCog, group_name="server", group_description="Server-wide settings (server GMs)"
):
    """The ``/server`` command group."""

    def __init__(self, admin: ServerAdminService, members: MemberDataService) -> None:
        self.admin = admin
        self.members = members
        super().__init__()

    @app_commands.command(
        name="settings", description="Who may start encounters, and the cap per member"
    )
    @app_commands.describe(
        who_can_start="Everyone, or only server GMs (and the starter role)",
        starter_role="Members with this role may start encounters too (when only GMs may)",
        clear_starter_role="True: no starter role any more",
        max_encounters=f"Live encounters one member may run as GM at once (0 = no cap, ≤{MAX_CAP})",
    )
    @app_commands.choices(
        who_can_start=[
            app_commands.Choice(name="Everyone", value="everyone"),
            app_commands.Choice(name="Server GMs (and the starter role)", value="gms"),
        ]
    )
    async def settings(
        self,
        interaction: discord.Interaction[Any],
        who_can_start: app_commands.Choice[str] | None = None,
        starter_role: discord.Role | None = None,
        clear_starter_role: bool | None = None,
        max_encounters: app_commands.Range[int, 0, MAX_CAP] | None = None,
    ) -> None:
        guild_id, actor = guild_id_of(interaction), actor_of(interaction)
        if (
            who_can_start is None
            and starter_role is None
            and max_encounters is None
            and not (clear_starter_role)
        ):
            current = await self.admin.settings(guild_id, actor)
            text = settings_text(current)
        else:
            changed = await self.admin.change_settings(
                guild_id,
                actor,
                who_can_start=POLICIES[who_can_start.value] if who_can_start else None,
                starter_role_id=starter_role.id if starter_role else None,
                clear_starter_role=bool(clear_starter_role),
                max_live_encounters=max_encounters,
            )
            text = settings_text(changed, changed=True)
        await interaction.response.send_message(text, ephemeral=True, allowed_mentions=NONE)

    @app_commands.command(name="encounters", description="This server's live encounters")
    @app_commands.describe(page="Which page (15 encounters a page)")
    async def encounters(
        self,
        interaction: discord.Interaction[Any],
        page: app_commands.Range[int, 1, 1000] | None = None,
    ) -> None:
        live = await self.admin.live_encounters(guild_id_of(interaction), actor_of(interaction))
        try:
            embed = encounters_embed(live, page or 1)
        except ValueError as error:
            raise InvalidInput(str(error)) from None
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="end", description="End the live encounter in any channel")
    @app_commands.describe(channel="The channel whose encounter ends")
    async def end(
        self,
        interaction: discord.Interaction[Any],
        channel: app_commands.Transform[int, EncounterChannel],
    ) -> None:
        encounter, prompt_id = await self.admin.open_end(
            guild_id_of(interaction), actor_of(interaction), channel
        )
        await interaction.response.send_message(
            end_question(encounter, f" in <#{channel}>", f" (GM: <@{encounter.row.gm_id}>)"),
            view=server_end_prompt(prompt_id),
            ephemeral=True,
            allowed_mentions=NONE,
        )

    @app_commands.command(
        name="member-export", description="A departed member's data, as a JSON file"
    )
    @app_commands.describe(user_id="The member's user id (they left, so they cannot be picked)")
    async def member_export(
        self, interaction: discord.Interaction[Any], user_id: app_commands.Range[str, 1, 40]
    ) -> None:
        guild_id, actor = guild_id_of(interaction), actor_of(interaction)
        await self.admin.require_server_gm(guild_id, actor)  # before the user id is read
        subject = parse_user_id(user_id)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await ensure_departed(interaction, subject)
        result = await self.members.export(
            guild_id, actor, subject, size_limit=interaction.filesize_limit
        )
        await send_export(interaction, result, f"<@{subject}>")

    @app_commands.command(
        name="member-delete", description="Erase a departed member's data (asks first)"
    )
    @app_commands.describe(user_id="The member's user id (they left, so they cannot be picked)")
    async def member_delete(
        self, interaction: discord.Interaction[Any], user_id: app_commands.Range[str, 1, 40]
    ) -> None:
        guild_id, actor = guild_id_of(interaction), actor_of(interaction)
        await self.admin.require_server_gm(guild_id, actor)  # before the user id is read
        subject = parse_user_id(user_id)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await ensure_departed(interaction, subject)
        preview = await self.members.open_delete(guild_id, interaction.channel_id, actor, subject)
        await interaction.followup.send(
            delete_question(preview, actor.user_id),
            view=member_delete_prompt(preview.prompt_id),
            ephemeral=True,
            allowed_mentions=NONE,
        )
