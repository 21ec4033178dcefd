"""The buttons on the message that says it is a combatant's turn (issue 17, "Act from the
ping"): ``tb:<encounter id>:<turn_seq>:<move>`` (``end``, ``rest``, ``atk``) and the Attack
button's target select ``tba:<encounter id>:<turn_seq>``. They carry the turn they were offered
for, so they keep working after a restart and are refused once that turn is over
(:mod:`bot.ui.turn_buttons` routes them)."""

from __future__ import annotations

import discord

from bot.engine.core.events import TurnStarted
from bot.services.combat import CombatResult
from bot.services.encounters import Encounter
from bot.services.turn_moves import AttackChoice, Move, quick_moves
from bot.ui.text import shown_name

_STYLES: dict[Move, discord.ButtonStyle] = {
    "end": discord.ButtonStyle.secondary,
    "rest": discord.ButtonStyle.success,
    "atk": discord.ButtonStyle.danger,
}


def move_custom_id(encounter_id: int, turn_seq: int, move: Move) -> str:
    """The ``custom_id`` of a turn button."""
    return f"tb:{encounter_id}:{turn_seq}:{move}"


def target_custom_id(encounter_id: int, turn_seq: int) -> str:
    """The ``custom_id`` of the Attack button's target select."""
    return f"tba:{encounter_id}:{turn_seq}"


def move_button(
    encounter_id: int, turn_seq: int, move: Move, label: str
) -> discord.ui.Button[discord.ui.View]:
    """One turn button."""
    return discord.ui.Button(
        label=label, style=_STYLES[move], custom_id=move_custom_id(encounter_id, turn_seq, move)
    )


def turn_view(result: CombatResult) -> discord.ui.View | None:
    """The buttons for the turn ``result`` started (None: it started none, or the fight does
    not run): End turn, the breather, Attack… — for whoever holds that turn."""
    encounter = result.encounter
    state = encounter.state
    started = [e for e in result.events if isinstance(e, TurnStarted) and e.combatant]
    if not started or state.current is None or started[-1].combatant != state.current.id:
        return None
    return running_turn_view(encounter)


def running_turn_view(encounter: Encounter) -> discord.ui.View | None:
    """The buttons of the turn running now (None: none runs, or it has no quick moves)."""
    state = encounter.state
    if state.current is None:
        return None
    moves = quick_moves(encounter)
    if not moves:
        return None
    view = discord.ui.View(timeout=None)
    for move in moves:
        view.add_item(move_button(encounter.id, state.turn_seq, move.move, move.label))
    return view


def target_view(choice: AttackChoice) -> discord.ui.View:
    """The Attack button's select: whom the usual attack targets."""
    view = discord.ui.View(timeout=None)
    state = choice.encounter.state
    select: discord.ui.Select[discord.ui.View] = discord.ui.Select(
        custom_id=target_custom_id(choice.encounter.id, state.turn_seq),
        placeholder=f"Attack with {choice.attack}"[:150],
        options=[discord.SelectOption(label=name[:100], value=cid) for cid, name in choice.targets],
    )
    view.add_item(select)
    return view


def target_question(choice: AttackChoice) -> str:
    """The text above the target select (only the clicker sees it)."""
    return (
        f"**{shown_name(choice.attacker.name)}** attacks with "
        f"**{shown_name(choice.attack)}**: whom? "
        f"(For another attack, or a range, use `{choice.command}`.)"
    )
