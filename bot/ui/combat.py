"""What members see of combat: result embeds, NPC descriptors, turn announcements.

Pure presentation from the engine's typed events. NPC numbers (remaining Health and Stamina,
Stamina spent or recovered) are hidden from players when the encounter hides them; the GM gets
exact values in an ephemeral reply and in ``/encounter status``.
"""

from __future__ import annotations

from datetime import datetime

import discord

from bot.engine import Event
from bot.engine.events import AttackResolved, Recovered, StaminaSpent, TurnStarted, VitalsSet
from bot.engine.state import Combatant, EncounterState
from bot.services.combat import CombatResult, Decision
from bot.ui.embeds import fit_lines

DESCRIPTION_MAX = 4096
EMBED_TOTAL_MAX = 6000


def descriptor(combatant: Combatant) -> str:
    """How an NPC looks to players: Unhurt, Hurt, Bloodied (half Health or Stamina gone), Down
    (Unconscious) or Dead."""
    if combatant.has("Dead"):
        return "Dead"
    if combatant.has("Unconscious") or combatant.stamina <= 0:
        return "Down"
    health = combatant.health / max(combatant.sheet.health, 1)
    stamina = combatant.stamina / max(combatant.sheet.stamina, 1)
    if health >= 1 and stamina >= 1:
        return "Unhurt"
    if health <= 0.5 or stamina <= 0.5:
        return "Bloodied"
    return "Hurt"


def hides(state: EncounterState, combatant_id: str | None, *, for_gm: bool) -> bool:
    """Whether numbers about ``combatant_id`` are hidden in this view."""
    if for_gm or combatant_id is None or not state.settings.hide_npc_numbers:
        return False
    return any(c.id == combatant_id and c.is_npc for c in state.combatants)


def _attack_lines(event: AttackResolved, state: EncounterState, *, for_gm: bool) -> list[str]:
    names = {c.id: c for c in state.combatants}
    attacker = names[event.attacker].name if event.attacker in names else event.attacker
    target = names.get(event.target)
    target_name = target.name if target else event.target
    hit_of = f" (hit {event.hit_index})" if event.hit_index > 1 else ""
    lines = [f"**{attacker}** → **{target_name}** with {event.attack}{hit_of}"]
    if event.accuracy is not None:
        lines.append(
            f"🎲 {event.accuracy.text} vs {event.target_stat.title()} {event.target_number}"
        )
    for why in event.advantages:
        lines.append(f"  + Advantage: {why}")
    for why in event.disadvantages:
        lines.append(f"  − Disadvantage: {why}")
    if event.auto == "hit":
        lines.append("Automatic hit.")
    elif event.auto == "miss":
        lines.append("Automatic miss.")
    if not event.hit:
        lines.append("**Miss.**")
        return lines
    lines.append("**Hit!**")
    if event.damage is not None:
        lines.append(
            f"💥 {event.damage.text} {event.damage_type}: "
            f"{event.health_damage} Health (after Armor {event.armor}), "
            f"{event.stamina_damage} Stamina (after Defense {event.defense})"
        )
    if target is not None:
        if hides(state, target.id, for_gm=for_gm):
            lines.append(f"{target.name} looks **{descriptor(target)}**.")
        else:
            lines.append(
                f"{target.name}: Health {event.health_left}/{target.sheet.health}, "
                f"Stamina {event.stamina_left}/{target.sheet.stamina}"
            )
    return lines


def event_lines(events: list[Event], state: EncounterState, *, for_gm: bool) -> list[str]:
    """One or more display lines per event, numbers hidden as the view requires."""
    names = {c.id: c.name for c in state.combatants}
    lines: list[str] = []
    for event in events:
        hidden = hides(state, event.combatant, for_gm=for_gm)
        if isinstance(event, AttackResolved):
            lines.extend(_attack_lines(event, state, for_gm=for_gm))
        elif isinstance(event, StaminaSpent) and hidden:
            lines.append(
                f"{names.get(event.combatant or '', '?')} spends Stamina ({event.reason})."
            )
        elif isinstance(event, Recovered) and hidden:
            lines.append(f"{names.get(event.combatant or '', '?')} recovers ({event.source}).")
        elif isinstance(event, VitalsSet) and hidden:
            who = next(c for c in state.combatants if c.id == event.combatant)
            lines.append(f"The GM adjusts {who.name}, who looks **{descriptor(who)}**.")
        else:
            lines.append(event.text)
    return lines


def result_embed(
    result: CombatResult, *, for_gm: bool = False, title: str | None = None
) -> discord.Embed:
    """The embed for one resolved command: every die, target number, hit or miss, damage after
    Armor and Defense, Stamina spent and conditions — within Discord's limits."""
    state = result.encounter.state
    lines = event_lines(result.events, state, for_gm=for_gm)
    embed = discord.Embed(
        title=(title or result.label)[:256],
        description=fit_lines(lines, DESCRIPTION_MAX, empty="Nothing happened."),
        colour=discord.Colour.orange() if result.decision else discord.Colour.dark_red(),
    )
    if result.expired:
        embed.set_footer(text="The reaction window ran out: resolved with no reaction.")
    return embed


def has_hidden_numbers(result: CombatResult) -> bool:
    """Whether the player view of ``result`` hides something the GM should see exactly."""
    state = result.encounter.state
    return any(
        hides(state, e.combatant, for_gm=False)
        or (isinstance(e, AttackResolved) and hides(state, e.target, for_gm=False))
        for e in result.events
    )


def shown(name: str) -> str:
    """A combatant's name made safe to put in message content: a name written like a mention
    (``<@123…>``, ``@everyone``) shows as text and pings nobody."""
    return discord.utils.escape_mentions(name)


def turn_announcement(result: CombatResult) -> str:
    """A line mentioning the controller of each turn that started (the GM for NPCs)."""
    state = result.encounter.state
    parts: list[str] = []
    for event in result.events:
        if isinstance(event, TurnStarted) and event.combatant:
            combatant = next((c for c in state.combatants if c.id == event.combatant), None)
            if combatant is None:
                continue
            who = combatant.controller_id or result.encounter.row.gm_id
            parts.append(
                f"<@{who}> it is **{shown(combatant.name)}**'s turn "
                f"(round {event.round}, {event.actions_left} action(s) left)."
            )
    return "\n".join(parts[-3:])


def decision_prompt(decision: Decision, encounter_gm: int) -> str:
    """Who must decide, and by when."""
    deadline = (
        f" Decide by {discord.utils.format_dt(decision.deadline, 'R')}; after that it resolves "
        "with no reaction."
        if isinstance(decision.deadline, datetime)
        else ""
    )
    if decision.awaiting == "attacker":
        who = decision.attacker.controller_id or encounter_gm
        return (
            f"<@{who}> **{shown(decision.target.name)}** surrendered: complete the attack "
            f"with **{shown(decision.attack)}** or stop?{deadline}"
        )
    who = decision.target.controller_id or encounter_gm
    return (
        f"<@{who}> **{shown(decision.attacker.name)}** attacks **{shown(decision.target.name)}**"
        f" with **{shown(decision.attack)}**: react with a button (or `/dodge`, `/block`)."
        f"{deadline}"
    )


def pinged(result: CombatResult, *, new_decision: bool) -> list[int]:
    """The members a result's content means to ping: whoever's turn started, and whoever must
    decide a new waiting attack. Only they are allowed to be mentioned."""
    state, gm = result.encounter.state, result.encounter.row.gm_id
    ids: list[int] = []
    for event in result.events:
        if isinstance(event, TurnStarted) and event.combatant:
            combatant = next((c for c in state.combatants if c.id == event.combatant), None)
            if combatant is not None:
                ids.append(combatant.controller_id or gm)
    decision = result.decision
    if decision is not None and new_decision:
        decider = decision.attacker if decision.awaiting == "attacker" else decision.target
        ids.append(decider.controller_id or gm)
    return list(dict.fromkeys(ids))
