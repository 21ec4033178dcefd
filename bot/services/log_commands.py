"""What a logged command was, in the words members know it by: the slash command they typed
(``/gm add-npc``), the button they pressed, or what the bot did by itself.

The encounter log names each change by a short internal label (``add_npcs``, ``hp``,
``react``, ``expire``); replay and the log files keep those labels as they are. Whatever shows a
logged command to members — an undo or redo ("Undid **/gm add-npc** by …") — goes through
:func:`shown_command`, so nobody reads ``add_npcs`` where they typed ``/gm add-npc``.
``tests/services/test_log_commands.py`` checks that every label the bot logs has its words
here and that every slash command named here exists."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

TYPED: dict[str, str] = {
    # /encounter
    "start": "/encounter start",
    "join": "/encounter join",
    "begin": "/encounter begin",
    "end": "/encounter end",
    # turn commands
    "act": "/act",
    "attack": "/attack",
    "breather": "/breather",
    "check": "/check",
    "endturn": "/endturn",
    "escape": "/escape",
    "move": "/move",
    "power": "/power",
    "ready": "/ready",
    "skill": "/skill",
    "sprint": "/sprint",
    "stance": "/stance",
    "stand": "/stand",
    "surrender": "/surrender",
    # the GM's
    "add_npc": "/gm add-npc",
    "add_npcs": "/gm add-npc",
    "adjust": "/gm adjust",
    "advantage": "/gm advantage",
    "chase end": "/gm chase end",
    "chase start": "/gm chase start",
    "condition": "/gm condition",
    "damage": "/gm damage",
    "disengage": "/gm place apart",
    "end-fight": "/gm end-fight",
    "end-of": "/gm time end-of",
    "engage": "/gm place engage",
    "hp": "/gm hp",
    "minutes": "/gm time minutes",
    "next": "/gm next",
    "order": "/gm order",
    "pause": "/gm pause",
    "place": "/gm place distance",
    "redo": "/gm redo",
    "refresh": "/gm refresh",
    "remove": "/gm remove",
    "resolve": "/gm resolve",
    "rest": "/gm time rest",
    "resume": "/gm resume",
    "roll-order": "/gm roll-order",
    "settings": "/gm settings",
    "skip": "/gm skip",
    "transfer": "/gm seat transfer",
    "undo": "/gm undo",
    "vital": "/gm vital",
    # a member's
    "forget_member": "/me delete",
}
"""Each label logged for a slash command: the command as members type it."""

PRESSED: dict[str, str] = {
    "endturn": "the turn's End turn button",
    "attack": "the turn's Attack… button",
    "breather": "the turn's Take a Breather button",
    "deep breath": "the turn's Deep Breath button",
}
"""The labels of the turn ping's buttons (logged with the turn they belong to, ``turn``):
the button pressed."""

DECIDED = "react"
"""The label of a decision answered: a decision's button (a reaction, a Uune approval or
spend…; logged with the ``button`` as it read, costs and all — "the “Evade (1 action)”
button", :func:`bot.services.decisions.shown_label`; before session 20, the option's bare
label, "the “Evade” button", which older logs keep), or a typed
``/dodge`` or ``/block`` (logged with ``choice`` and no ``pending_version``)."""

BY_ITSELF: dict[str, str] = {
    "expire": "a decision window that ran out",
    "deadline": "a passed turn deadline",
}
"""Labels that are no member's command: what the bot does by itself when a decision's window
or a turn deadline runs out."""


def shown_command(command: str, options: Mapping[str, Any]) -> str:
    """The logged ``command`` (its label) with its ``options`` as members know it: ``/gm
    add-npc``, ``/act action:attack``, "the turn's End turn button", "the “Evade (1 action)”
    button" (as logged; an older log's: "a decision's button"). A label
    with no words here (an older log's) is shown as it is."""
    if "turn" in options and command in PRESSED:
        return PRESSED[command]
    if command == DECIDED:
        typed = options.get("choice")
        if "pending_version" not in options and typed in ("dodge", "block"):
            return f"/{typed}"
        button = options.get("button")
        if isinstance(button, str) and button:  # logged since session 19; older: unnamed
            return f"the “{button}” button"
        return "a decision's button"
    if command in BY_ITSELF:
        return BY_ITSELF[command]
    typed = TYPED.get(command)
    if typed is None:
        return command
    action = options.get("action")
    if command == "act" and isinstance(action, str) and action:
        return f"{typed} action:{action}"
    return typed


BOOKKEEPING = frozenset({"pending_version"})
"""Logged options that are the bot's bookkeeping in any command, not something a member typed
(and dice logged as ``…_rolled``)."""


def typed_options(command: str, options: Mapping[str, Any]) -> dict[str, str]:
    """The options a member typed with the logged ``command``, as an undo or redo shows them to
    the GM ("Undid **/attack** (target: Thug 2, with: Club)"): none for a button pressed (the
    turn ping's, whose ``turn`` and ``target`` are ids, or a decision's, whose ``choice``,
    ``button`` and ``decision`` are its bookkeeping and the label already says what was
    pressed) or for what the bot did by itself (a passed deadline's ``for_turn``: nobody typed
    it), and no bookkeeping (``pending_version``, dice) in a typed one, nor an option left out
    (``limb: None``)."""
    if command in BY_ITSELF or command == DECIDED or ("turn" in options and command in PRESSED):
        return {}
    return {
        str(k): str(v)[:100]
        for k, v in options.items()
        if v is not None and not str(k).endswith("_rolled") and k not in BOOKKEEPING
    }


def by_the_bot(actor_id: int) -> bool:
    """Whether a logged change was made by the bot itself (a window or deadline that ran out:
    actor 0), not by a member to mention."""
    return actor_id == 0
