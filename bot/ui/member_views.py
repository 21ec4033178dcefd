"""Presentation for a member's data (``/me``, ``/server member-…``): the restart-proof Confirm /
Cancel buttons of a delete and the texts it shows.

The buttons are :class:`~bot.ui.id_button.IdButton` s carrying the prompt's id
(``me:delp:yes:<id>``), so a prompt still works after a restart; the service checks at click
time that the clicking member is the one who asked.
"""

from __future__ import annotations

import io
import logging
from dataclasses import dataclass
from typing import Any

import discord

from bot.errors import InvalidInput, NotFound
from bot.services.combat import CombatService
from bot.services.encounters import EncounterService
from bot.services.member_data import (
    DeletePreview,
    DeleteReport,
    MemberDataService,
    MemberExport,
    Released,
)
from bot.services.member_sources import SOURCES
from bot.ui.combat_flow import refresh_channel
from bot.ui.id_button import IdButton
from bot.ui.interaction import actor_of
from bot.ui.prompt_messages import PromptKeeper
from bot.ui.replies import guarded
from bot.ui.text import fit_text
from bot.words import counted

log = logging.getLogger(__name__)

NONE = discord.AllowedMentions.none()
_WHAT = {s.key: s.what for s in SOURCES}


def member_service(interaction: discord.Interaction[Any]) -> MemberDataService:
    service: MemberDataService = interaction.client.services.member_data
    return service


def guild_id_of(interaction: discord.Interaction[Any]) -> int:
    """Member data and server settings are per server; refuse direct messages."""
    if interaction.guild_id is None:
        raise InvalidInput("This works in a server channel: your data is kept per server.")
    return interaction.guild_id


def whose(subject_id: int, actor_id: int) -> str:
    return "you" if subject_id == actor_id else f"<@{subject_id}>"


def counts_lines(counts: dict[str, int]) -> str:
    """One line per source that holds something: "• 2 — your character sheets"."""
    lines = [f"• {n} — {_WHAT.get(key, key)}" for key, n in counts.items() if n]
    return "\n".join(lines) or "• nothing: the bot keeps no records of this member here."


def delete_question(preview: DeletePreview, actor_id: int) -> str:
    """The text of a delete prompt: what will go and what happens to the rest."""
    who = whose(preview.subject_id, actor_id)
    return (
        f"Erase everything the bot keeps about {who} in this server? It holds:\n"
        f"{counts_lines(preview.counts)}\n"
        "Characters are deleted; fights keep their events with the name replaced by "
        "\u201ca former member\u201d; combatants in live fights are run by their GM from then on. "
        "This cannot be undone."
    )[:2000]


def deleted_text(report: DeleteReport, actor_id: int) -> str:
    """The prompt after Confirm: what was done."""
    who = whose(report.subject_id, actor_id)
    done = [f"Done: the bot no longer keeps {who} in this server's records."]
    characters = report.changed.get("characters", 0)
    done.append(f"• {counted(characters, 'character sheet')} deleted.")
    for fight in report.released:
        names = ", ".join(f"**{discord.utils.escape_markdown(n)}**" for n in fight.combatants)
        done.append(f"• In <#{fight.channel_id}> the GM now runs {names}.")
    if report.changed.get("encounter_log", 0):
        done.append(
            f"• {report.changed['encounter_log']} encounter-log entries keep their events, "
            "with the name replaced."
        )
    return fit_text("\n".join(done))


async def channel_of(client: Any, channel_id: int) -> Any:
    """A channel the bot can post in, from its cache or Discord."""
    channel = client.get_channel(channel_id)
    if channel is None:
        channel = await client.fetch_channel(channel_id)
    return channel


async def tell_tables(
    client: Any, released: list[Released], waiting: dict[int, Waiting] | None = None
) -> None:
    """Tell each live fight which combatants its GM runs now, and ping the GM where an attack
    now waits on their decision (``waiting``, by channel id; see :func:`readdress_decisions`).
    Best effort: a channel the bot cannot post in is logged, and the erasure stands."""
    waiting = waiting or {}
    for fight in released:
        names = ", ".join(f"**{discord.utils.escape_markdown(n)}**" for n in fight.combatants)
        text = (
            f"{names} no longer {'has' if len(fight.combatants) == 1 else 'have'} a player "
            "in this fight: the GM runs them from now on."
        )
        mentions = NONE
        now = waiting.get(fight.channel_id)
        if now is not None:
            several = len(now.abouts) > 1
            text += (
                f"\n<@{now.gm_id}>, {' and '.join(now.abouts)} now "
                f"{'wait' if several else 'waits'} for your decision: use the buttons on "
                f"{'their prompts' if several else 'its prompt'}."
            )
            mentions = discord.AllowedMentions(
                everyone=False, roles=False, users=[discord.Object(id=now.gm_id)]
            )
        try:
            channel = await channel_of(client, fight.channel_id)
            await channel.send(text[:2000], allowed_mentions=mentions)
        except discord.HTTPException as error:
            log.warning("could not tell channel %s: %s", fight.channel_id, error)


@dataclass(frozen=True)
class Waiting:
    """Decisions that wait, after an erasure, on the fight's GM (``abouts``: what each is, in
    its ruleset's words, names escaped; oldest first)."""

    gm_id: int
    abouts: tuple[str, ...]


async def readdress_decisions(client: Any, released: list[Released]) -> dict[int, Waiting]:
    """After a member's data was erased: each live fight in ``released`` with a waiting
    decision that the member's combatants had a part in gets its prompts re-rendered to ask
    whoever decides now (the GM runs the member's combatants), with the buttons they have now
    (see :meth:`PromptKeeper.refresh`; the ping comes with :func:`tell_tables`). Returns, by
    channel id, the decisions among those that the GM now decides. Never raises (each failure
    is logged; the erasure stands)."""
    encounters: EncounterService = client.services.encounters
    combat: CombatService = client.services.combat
    keeper: PromptKeeper = client.prompts
    waiting: dict[int, Waiting] = {}
    for fight in released:
        try:
            encounter = await encounters.live(fight.channel_id)
            theirs = {
                d.ref
                for d in combat.decisions(encounter)
                if any(person.name in fight.combatants for person in d.people.values())
            }
            if not theirs:
                continue
            await keeper.refresh(fight.channel_id, ping=False)
            encounter = await encounters.live(fight.channel_id)  # as the prompts show it now
            gm_id = encounter.row.gm_id
            abouts = tuple(
                d.words.about
                for d in combat.decisions(encounter)
                if d.ref in theirs and gm_id in d.members(gm_id)
            )
            if abouts:
                waiting[fight.channel_id] = Waiting(gm_id=gm_id, abouts=abouts)
        except NotFound:  # the fight ended meanwhile
            continue
        except Exception:
            log.exception("could not re-address the prompt in channel %s", fight.channel_id)
    return waiting


async def show_away_changes(client: Any, report: DeleteReport) -> None:
    """After an erasure that changed away marks (``report.away_channels``): each live fight's
    tracker shows them as they stand, and where the member stood in for an away player, a
    waiting decision's prompt asks the GM, who stands in now, and pings them (the released
    fights' prompts were re-addressed, and their GM told, by :func:`readdress_decisions` and
    :func:`tell_tables`). Never raises."""
    released = {fight.channel_id for fight in report.released}
    for channel_id in report.away_channels:
        if channel_id in released:
            await client.trackers.refresh(channel_id)
        else:
            await refresh_channel(client, channel_id)


class MemberDeleteConfirm(IdButton, template=r"me:delp:yes:(?P<id>\d{1,19})"):
    """Erases the member's data; only the member who asked (or the server GM who asked about a
    member who left) may answer."""

    PREFIX = "me:delp:yes:"
    LABEL = "Confirm: erase it"
    STYLE = discord.ButtonStyle.danger

    @guarded
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        actor = actor_of(interaction)
        report = await member_service(interaction).confirm_delete(
            guild_id_of(interaction), actor, self.item_id
        )
        await interaction.response.edit_message(
            content=deleted_text(report, actor.user_id), view=None, allowed_mentions=NONE
        )
        waiting = await readdress_decisions(interaction.client, report.released)
        await tell_tables(interaction.client, report.released, waiting)
        await show_away_changes(interaction.client, report)


class MemberDeleteCancel(IdButton, template=r"me:delp:no:(?P<id>\d{1,19})"):
    """Answers a member-data delete prompt with no: nothing is erased."""

    PREFIX = "me:delp:no:"
    LABEL = "Cancel"

    @guarded
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        actor = actor_of(interaction)
        subject = await member_service(interaction).cancel_delete(
            guild_id_of(interaction), actor, self.item_id
        )
        await interaction.response.edit_message(
            content=f"Cancelled: nothing about {whose(subject, actor.user_id)} was erased.",
            view=None,
            allowed_mentions=NONE,
        )


def member_delete_prompt(prompt_id: int) -> discord.ui.View:
    """Confirm / Cancel for one member-data delete prompt (routed by custom_id)."""
    view = discord.ui.View(timeout=None)
    view.add_item(MemberDeleteConfirm(prompt_id))
    view.add_item(MemberDeleteCancel(prompt_id))
    return view


async def send_export(
    interaction: discord.Interaction[Any], result: MemberExport, who: str
) -> None:
    """Send an export (after a thinking defer) to the member who asked, only."""
    await interaction.followup.send(
        export_text(result, who),
        file=discord.File(io.BytesIO(result.data), filename=result.filename),
        ephemeral=True,
        allowed_mentions=NONE,
    )


def export_text(result: MemberExport, subject: str) -> str:
    """The message sent with an export file."""
    text = f"Everything the bot keeps about {subject} in this server (JSON):\n"
    text += counts_lines(result.counts)
    if result.omitted_log_entries:
        text += (
            f"\nThe file holds the newest log entries only: the {result.omitted_log_entries} "
            "oldest were left out to stay within Discord's file size limit here."
        )
    if result.templates_shortened:
        text += "\nNPC templates are listed by name only, to stay within that limit."
    return text[:2000]
