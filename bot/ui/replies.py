"""Turning errors into ephemeral replies, for commands (via :class:`CombatTree`) and for
components (via :func:`guarded`, since discord.py only logs a dynamic item's errors).

A :class:`~bot.errors.DomainError` is shown as it is; anything else is logged with the guild,
channel, user and command ids and answered with a short apology, so no member ever sees a
traceback or Discord's "This interaction failed" — unless the answer came after Discord's 3 s,
when nothing can answer it any more: its channel is then brought up to date instead (see
:func:`report`). Autocomplete code, which must always answer, uses :func:`autocomplete_guard`
the same way.
"""

from __future__ import annotations

import contextlib
import functools
import logging
from collections.abc import Callable, Coroutine, Iterator
from typing import Any, TypeVar

import discord
from discord import app_commands

from bot.errors import DomainError
from bot.ui.combat_flow import refresh_channel
from bot.ui.late_answers import token_dead
from bot.ui.text import fit_text

log = logging.getLogger(__name__)

UNEXPECTED = (
    "Something went wrong on our side; it has been logged. "
    "Check `/encounter status` before you try again."
)

S = TypeVar("S")


async def send_ephemeral(interaction: discord.Interaction[Any], content: str) -> None:
    """Reply only to the member who acted, whether or not the interaction was answered yet."""
    content = fit_text(content)
    if interaction.response.is_done():
        await interaction.followup.send(content, ephemeral=True)
    else:
        await interaction.response.send_message(content, ephemeral=True)


def user_message(error: BaseException) -> str | None:
    """The text to show for an expected error, or ``None`` for a bug."""
    if isinstance(error, app_commands.CommandInvokeError | app_commands.TransformerError):
        inner = error.__cause__ or getattr(error, "original", None)
        if isinstance(inner, DomainError):
            return str(inner)
    if isinstance(error, DomainError):
        return str(error)
    if isinstance(error, app_commands.CheckFailure):
        return str(error) or "You are not allowed to use this command here."
    return None


def describe(interaction: discord.Interaction[Any]) -> str:
    """Ids that locate an interaction in the logs (never its token)."""
    command = interaction.command.qualified_name if interaction.command else None
    custom_id = (interaction.data or {}).get("custom_id") if interaction.data else None
    return (
        f"guild={interaction.guild_id} channel={interaction.channel_id} "
        f"user={interaction.user.id} command={command} custom_id={custom_id} "
        f"interaction={interaction.id}"
    )


async def report(interaction: discord.Interaction[Any], error: BaseException) -> None:
    """Answer ``error`` ephemerally; log it with ids when it is not a domain error. An
    interaction whose token died before its answer (:func:`bot.ui.late_answers.token_dead`: it
    took Discord's 3 s) can take no reply, but what it did may be stored: its channel is brought
    up to date (tracker, waiting prompts, turn pings) instead."""
    message = user_message(error)
    original = getattr(error, "original", error)
    if message is None and token_dead(original):
        log.warning("answered too late, the channel is refreshed (%s)", describe(interaction))
        if interaction.channel_id is not None:
            await refresh_channel(interaction.client, interaction.channel_id)
        return
    if message is None:
        log.error(
            "unexpected error (%s)",
            describe(interaction),
            exc_info=(type(original), original, original.__traceback__),
        )
        message = UNEXPECTED
    try:
        await send_ephemeral(interaction, message)
    except discord.HTTPException:
        log.warning("could not deliver an error reply (%s)", describe(interaction))


@contextlib.contextmanager
def autocomplete_guard(interaction: discord.Interaction[Any], what: str) -> Iterator[None]:
    """For autocomplete code, which must always answer: a :class:`~bot.errors.DomainError`
    inside the block (no encounter here, no such sheet, not allowed) is expected and swallowed;
    anything else is a bug, logged with the interaction's ids (``what`` names the lookup) and
    swallowed too. Code after the ``with`` runs in both cases, so it returns the empty answer::

        with autocomplete_guard(interaction, "sheet names"):
            return await service.name_choices(...)
        return []
    """
    try:
        yield
    except DomainError:
        pass
    except Exception:  # an autocomplete must answer even after a bug: logged with its ids
        log.exception("%s failed in an autocomplete (%s)", what, describe(interaction))


def guarded(
    callback: Callable[[S, discord.Interaction[Any]], Coroutine[Any, Any, None]],
) -> Callable[[S, discord.Interaction[Any]], Coroutine[Any, Any, None]]:
    """Decorate a component callback so its errors become ephemeral replies."""

    @functools.wraps(callback)
    async def wrapper(self: S, interaction: discord.Interaction[Any]) -> None:
        try:
            await callback(self, interaction)
        except Exception as error:  # noqa: BLE001 - every error becomes a reply; bugs are logged
            await report(interaction, error)

    return wrapper


class CombatTree(app_commands.CommandTree[Any]):
    """The bot's command tree: every command error becomes an ephemeral reply."""

    async def on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        await report(interaction, error)
