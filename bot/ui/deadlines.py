"""What the channel sees when a turn deadline passes (issue 17, "Turn deadlines")."""

from __future__ import annotations

from typing import Any

import discord

from bot.services.reminders import Reminder
from bot.services.turn_deadlines import TurnLapse
from bot.ui.combat_flow import announce
from bot.ui.text import shown_name, standing_in_for
from bot.ui.tracker_keeper import tell_gm
from bot.words import counted


def deadline_title(name: str, lapse: TurnLapse | None = None) -> str:
    """The title of the result posted when a turn ended at its deadline: with the default
    action the combatant took, or that it could not take it and why (the rules' refusal as it
    is: a refusal is Markdown whose names are escaped where it was written) — the why only
    where the channel may see the combatant's numbers (``refused_public``: an NPC's breathers
    and actions are the GM's, who is told it, :func:`refusal_notice`)."""
    who = shown_name(name)
    if lapse is not None and lapse.default is not None:
        action = shown_name(lapse.default)
        if lapse.refused is None:
            return f"Turn deadline passed: {who} takes their default action, {action}"[:256]
        if not lapse.refused_public:
            return f"Turn deadline passed: {who}'s turn ends ({action} was not possible)"[:256]
        why = lapse.refused
        return f"Turn deadline passed: {who}'s turn ends ({action} was not possible: {why})"[:256]
    return f"Turn deadline passed: {who}'s turn ends"[:256]


def refusal_notice(lapse: TurnLapse) -> str | None:
    """What the GM is told when the channel was not told why a default action was not
    possible (:func:`deadline_title`); None when the channel read it."""
    if lapse.refused is None or lapse.refused_public or lapse.default is None:
        return None
    return (
        f"⏰ **{shown_name(lapse.name)}**'s turn deadline passed and its default action, "
        f"{shown_name(lapse.default)}, was not possible: {lapse.refused}"
    )[:2000]


def notify_text(lapse: TurnLapse) -> str:
    """The message to the GM when the deadline's action is to tell them only."""
    gm = lapse.encounter.row.gm_id
    return (
        f"<@{gm}> ⏰ **{shown_name(lapse.name)}**'s turn deadline passed. The fight waits for"
        " you: `/gm next` ends the turn."
    )


async def announce_deadline(client: Any, lapse: TurnLapse) -> None:
    """Post the turn's end (the next turn's ping with it), or ping the GM in the channel and
    leave them a notice. Raises what Discord raises."""
    if lapse.result is not None:
        await announce(client, lapse.result, title=deadline_title(lapse.name, lapse))
        notice = refusal_notice(lapse)
        if notice is not None:
            await tell_gm(client, lapse.result.encounter, notice)
        return
    text = notify_text(lapse)
    await tell_gm(client, lapse.encounter, text)
    channel = client.get_partial_messageable(lapse.encounter.row.channel_id)
    await channel.send(text, allowed_mentions=discord.AllowedMentions(users=True))


def time_left(seconds: float) -> str:
    """``seconds`` as a reader says a time left: "about 6 hours", "1 hour 30 minutes",
    "45 minutes", "less than a minute"."""
    minutes = int(seconds // 60)
    if minutes < 1:
        return "less than a minute"
    hours, minutes = divmod(minutes, 60)
    if hours >= 6:
        return f"about {counted(hours + (minutes >= 30), 'hour')}"
    if hours:
        return counted(hours, "hour") + (f" {counted(minutes, 'minute')}" if minutes else "")
    return counted(minutes, "minute")


def reminder_text(reminder: Reminder) -> str:
    """The reminder's mention: the member whose turn it is, or the GM for an NPC's turn; for
    a reaction, each member who decides it (the GM for an NPC or an approval). It says how
    much time was left when it was sent, never the deadline itself: a pause or a decision that
    waits moves that, and a reminder is not edited — the turn's ping and the decision's prompt
    are, and say when it passes (:class:`bot.ui.turn_pings.TurnPingKeeper`,
    :class:`bot.ui.prompt_messages.PromptKeeper`)."""
    sent = reminder.sent_at
    left = time_left((reminder.deadline - sent).total_seconds()) if sent is not None else None
    name = shown_name(reminder.name)
    lead = "The fight waits on you" if reminder.gm else "Reminder"
    away = standing_in_for(reminder.for_away) if reminder.for_away is not None else ""
    who = " ".join(f"<@{m}>" for m in (reminder.members or (reminder.member_id,))) + away
    if reminder.kind == "reaction":
        waits = "needs your decision" if reminder.gm else "waits for your decision"
        when = f"{left} left to decide" if left else "its prompt says by when"
        return f"{who} ⏳ {lead}: **{name}** {waits} ({when})."
    when = f"{left} left on its clock" if left else "its ping says when it passes"
    return f"{who} ⏳ {lead}: it is **{name}**'s turn ({when})."


async def post_reminder(client: Any, reminder: Reminder) -> None:
    """Mention the members in the fight's channel. Raises what Discord raises."""
    channel = client.get_partial_messageable(reminder.encounter.row.channel_id)
    members = reminder.members or (reminder.member_id,)
    await channel.send(
        reminder_text(reminder),
        allowed_mentions=discord.AllowedMentions(users=[discord.Object(m) for m in members]),
    )
