"""What ``/me reactions`` shows (issue 17, "Standing reactions"): ephemeral text only."""

from __future__ import annotations

from bot.services.member_settings import MemberSettings
from bot.services.standing import MANAGER, Standing, StandingChange
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
            "that it can afford is taken; otherwise the window lapses as usual. "
            f"{_while(change, entry)}"
        )
    if change.action == "cleared":
        return (
            f"**{shown_name(entries[0].name)}** has no standing reaction now: a reaction "
            "window that runs out lapses as usual."
        )
    listed = [f"**{shown_name(e.name)}**: {_listed(e)}" for e in entries]
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


def _listed(entry: Standing) -> str:
    """A combatant's standing reaction in the list, saying who set it — and, when it no
    longer applies, why."""
    if entry.rule is None:
        return "none"
    if entry.set_by is None:
        return _rule(entry.rule.text)
    said = f"{_rule(entry.rule.text)} (set by <@{entry.set_by}>)"
    if entry.applies:
        return said
    return (
        f"{said} — does not apply now: <@{entry.set_by}> no longer acts for "
        f"**{shown_name(entry.name)}** (their stand-in ended, they handed the GM seat on, or "
        "the GM role changed); "
        "set one anew or `off` clears it"
    )


def _while(change: StandingChange, entry: Standing) -> str:
    """How long a standing reaction just set applies (:func:`bot.services.standing.applies`)."""
    by = entry.set_by
    encounter = change.encounter
    combatant = encounter.state.get(entry.combatant_id)
    controller = combatant.controller_id
    if by is None or by == controller:
        return "It applies until you change it or clear it."
    if not entry.applies:
        return (
            f"It does not apply while <@{encounter.row.gm_id}> holds the GM seat: a standing "
            "reaction applies while whoever set it holds the seat, controls the combatant, "
            "stands in for its player, or is a GM by the server's GM role or Manage Channels."
        )
    if entry.set_as == MANAGER and entry.applies:
        return "It applies while you may manage this channel (a GM by Manage Channels)."
    if entry.set_as.startswith("role:") and entry.applies:
        return f"It applies while <@&{encounter.row.gm_role_id}> is this fight's GM role."
    if controller is not None and controller in encounter.away:
        return (
            f"It applies while you stand in for <@{controller}>: it ends when they are back "
            "(they can set their own)."
        )
    return "It applies while you hold this fight's GM seat."


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
