"""The words of a ``/rehearse`` reply (issue 18), for the GM only: each side's chance to
win with its 95 % interval, the draws, the expected rounds and each player character's chance
to go down."""

from __future__ import annotations

from bot.engine.core.rehearse import RehearsalReport
from bot.ui.text import shown_name

POLICY_WORDS = {
    "simple": "attack the most hurt enemy in reach, take the best affordable reaction, "
    "take a breather when low (where the system has one)",
    "reckless": "attack the most hurt enemy in reach, never react or rest",
}


def pct(p: float) -> str:
    """``p`` (0..1) as a percentage to one decimal (``"58.3 %"``)."""
    return f"{p * 100:.1f} %"


def rehearsal_text(found: RehearsalReport, *, round_now: int) -> str:
    """The reply: a heading naming the fights, the policy, the seed and the round cap; one line
    per side; the draws; the expected rounds; each player character's chance to go down; and
    how to repeat it."""
    n = found.fights
    lines = [
        f"**Rehearsal** of this fight from round {round_now}: {n:,} "
        f"{'fight' if n == 1 else 'fights'}, policy "
        f"`{found.policy}`, seed {found.seed}, at most {found.max_rounds} rounds each "
        f"({found.seconds:.1f} s)."
    ]
    if found.timed_out:
        lines.append(
            f"Stopped at the time bound after {n:,} of {found.asked:,} fights: the figures are "
            "for those (a seed repeats exactly only when the bound is not reached)."
        )
    for side in found.sides:
        lines.append(
            f"- **{shown_name(side.side)}** win {pct(side.chance)} "
            f"(95 %: {pct(side.low)} to {pct(side.high)}; {side.wins:,} of {n:,})"
        )
    lines.append(
        f"- Draws (nobody left standing, or no side won within {found.max_rounds} rounds): "
        f"{found.draws:,} "
        f"({pct(found.draws / n)})"
    )
    lines.append(f"Expected rounds: {found.mean_rounds:.1f}")
    if found.downs:
        lines.append("Chance each player character is down (out of the fight) when it ends:")
        lines.extend(
            f"- {shown_name(d.name)}: {pct(d.chance)} (95 %: {pct(d.low)} to {pct(d.high)})"
            for d in found.downs
        )
    words = POLICY_WORDS.get(found.policy, found.policy)
    lines.append(
        f"Every combatant plays `{found.policy}`: {words}. Repeat it with "
        f"`/rehearse fights:{found.asked} policy:{found.policy} seed:{found.seed}`."
    )
    return "\n".join(lines)


def queued_text(ahead: int, time_limit_s: float) -> str:
    """What a GM whose rehearsal waits reads: behind how many, and for at most how long
    (``ahead`` rehearsals of at most ``time_limit_s`` seconds each)."""
    which = "one rehearsal" if ahead == 1 else f"{ahead} rehearsals"
    return (
        f"⏳ Queued behind {which} on this server (one at a time): yours starts when "
        f"{'it finishes' if ahead == 1 else 'they finish'}, in at most "
        f"{round(ahead * time_limit_s)} s; the result follows here."
    )
