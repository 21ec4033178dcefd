"""The buttons of a decision prompt: one per choice any decider has, each carrying
``rx:<encounter id>:<pending version>.<decision number>:<option code>`` so that
:class:`bot.ui.reaction_buttons.ReactionButton` routes a click from its ``custom_id`` alone —
after a restart too — and a click on a decision already made is refused by the service.
(Buttons posted before decisions had numbers carry ``rx:<encounter>:<version>:<code>``; they
name the decision that opened at that version and keep working.)"""

from __future__ import annotations

import discord

from bot.services.combat import Decision, option_code
from bot.services.decisions import button_label as button_label
from bot.services.decisions import public_deciders, shown_label
from bot.services.encounters import Encounter

MAX_BUTTONS = 25  # 5 action rows × 5 buttons

_STYLES = {
    "none": discord.ButtonStyle.secondary,
    "evade": discord.ButtonStyle.primary,
    "block": discord.ButtonStyle.primary,
    "move": discord.ButtonStyle.primary,
    "counter": discord.ButtonStyle.danger,
    "stance": discord.ButtonStyle.secondary,
    "intercept": discord.ButtonStyle.success,
    "surrender": discord.ButtonStyle.secondary,
    "complete": discord.ButtonStyle.danger,
    "stop": discord.ButtonStyle.secondary,
}


def decision_key(pending_version: int, ref: int | None) -> str:
    """How a button names its decision: ``<version it opened at>.<its number>`` (just the
    version for a button made before decisions had numbers)."""
    return str(pending_version) if ref is None else f"{pending_version}.{ref}"


def reaction_custom_id(
    encounter_id: int, pending_version: int, code: str, ref: int | None = None
) -> str:
    """The ``custom_id`` of one choice's button (matched by ``ReactionButton``'s template)."""
    return f"rx:{encounter_id}:{decision_key(pending_version, ref)}:{code}"


def reaction_button(
    encounter_id: int, pending_version: int, code: str, label: str, ref: int | None = None
) -> discord.ui.Button[discord.ui.View]:
    """One choice's button, styled by its kind of choice."""
    choice = code.split("@")[0].split(".")[0]
    return discord.ui.Button(
        label=label,
        style=_STYLES.get(choice, discord.ButtonStyle.secondary),
        custom_id=reaction_custom_id(encounter_id, pending_version, code, ref),
    )


def gm_chooser_custom_id(
    encounter_id: int, pending_version: int, combatant_id: str, ref: int | None = None
) -> str:
    """The ``custom_id`` of the button that shows the GM one hidden NPC's choices."""
    return f"rxg:{encounter_id}:{decision_key(pending_version, ref)}:{combatant_id}"


def decision_view(encounter: Encounter, decision: Decision) -> discord.ui.View:
    """Buttons for every choice any decider has, at most 25. A choice only one decider has is
    one button whoever presses it; a choice several have (two allies who may take the hit)
    gets a button per decider, named for it and carrying its id, so the press decides for that
    one. An NPC whose numbers the channel may not see gets one "GM: choose …" button instead
    of its reactions: which it can afford would tell players its Stamina and actions; the GM's
    click shows them its options privately. (An attacker's complete-or-stop after a surrender
    is always shown: both are always open.)"""
    view = discord.ui.View(timeout=None)
    # Choices that reveal nothing (UTTAS: an attacker's complete-or-stop) are shown to all.
    shown = public_deciders(encounter, decision)
    holders: dict[str, int] = {}
    for cid in shown:
        for code in {option_code(option) for option in decision.deciders[cid]}:
            holders[code] = holders.get(code, 0) + 1
    seen: set[str] = set()
    for cid, options in decision.deciders.items():
        if len(view.children) >= MAX_BUTTONS:
            break
        if cid not in shown:
            name = decision.people[cid].name if cid in decision.people else "the NPC"
            view.add_item(
                discord.ui.Button(
                    label=f"GM: choose {name}'s {decision.words.gm_chooses}"[:80],
                    style=discord.ButtonStyle.secondary,
                    custom_id=gm_chooser_custom_id(
                        encounter.id, decision.pending_version, cid, decision.ref
                    ),
                )
            )
            continue
        for option in options:
            code = option_code(option)
            if holders.get(code, 0) > 1:
                code = option_code(option, cid)
            if code in seen or len(view.children) >= MAX_BUTTONS:
                continue
            seen.add(code)
            # what the button reads is what an undo of its press names (one function)
            label = shown_label(encounter, decision, cid, option)
            view.add_item(
                reaction_button(encounter.id, decision.pending_version, code, label, decision.ref)
            )
    return view


def options_view(encounter_id: int, decision: Decision, combatant_id: str) -> discord.ui.View:
    """One decider's own options as buttons (the GM's private view of a hidden NPC's), each
    carrying the decider's id: the press decides for that NPC and no other."""
    view = discord.ui.View(timeout=None)
    for option in decision.deciders.get(combatant_id, [])[:MAX_BUTTONS]:
        code = option_code(option, combatant_id)
        view.add_item(
            reaction_button(
                encounter_id, decision.pending_version, code, button_label(option), decision.ref
            )
        )
    return view
