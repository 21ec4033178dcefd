"""What ``/me reactions`` shows (issue 17, "Standing reactions"): ephemeral text only."""

from __future__ import annotations

from bot.services.member_settings import MemberSettings
from bot.services.standing import StandingChange
from bot.ui.embeds import fit_lines
from bot.ui.text import shown_name

MESSAGE_MAX = 2000
"""Discord's limit on a message's content."""


def standing_text(change: StandingChange) -> str:
    """The reply to ``/me reactions``: the standing reaction set or cleared, or the list of the
    member's combatants' with the words this game system understands — at most
    :data:`MESSAGE_MAX` characters (a GM lists every combatant: the list ends with "… and N
    more" where it would not fit, and the help line always shows)."""
    entries = change.entries
    if change.action == "set":
        [entry] = entries
        assert entry.rule is not None
        return (
            f"Standing reaction for **{shown_name(entry.name)}**: {_rule(entry.rule.text)}\n"
            "When a reaction window would run out unanswered, the first step that fits and "
            "that it can afford is taken; otherwise the window lapses as usual."
        )
    if change.action == "cleared":
        return (
            f"**{shown_name(entries[0].name)}** has no standing reaction now: a reaction "
            "window that runs out lapses as usual."
        )
    listed = [
        f"**{shown_name(e.name)}**: {_rule(e.rule.text) if e.rule else 'none'}" for e in entries
    ]
    lines: list[str] = []
    if change.choices:
        lines.append(
            "Set one with `/me reactions rule:` using "
            + ", ".join(f"`{w}`" for w in change.choices)
            + (
                ", each step optionally `against` " + ", ".join(f"`{w}`" for w in change.conditions)
                if change.conditions
                else ""
            )
            + f" — e.g. `{change.example}`; `off` clears it."
        )
    else:
        lines.append(f"{change.encounter.rules.title} has no standing reactions.")
    [help_line] = lines
    return fit_lines(listed, MESSAGE_MAX - len(help_line) - 1) + "\n" + help_line


def _rule(text: str) -> str:
    return f"“{shown_name(text)}”"


def settings_text(settings: MemberSettings) -> str:
    """The reply to ``/me settings``: the member's time zone and quiet hours."""
    zone = settings.timezone or "UTC (not set)"
    quiet = settings.quiet_text()
    lines = [f"Your time zone: **{shown_name(zone)}**", f"Quiet hours: **{quiet}**"]
    if settings.quiet is not None:
        lines.append(
            "A reminder that falls inside your quiet hours waits until they end (and never "
            "comes after its deadline)."
        )
    return "\n".join(lines)
