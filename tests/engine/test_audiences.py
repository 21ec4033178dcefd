"""Hidden numbers stay hidden: every event type, rendered for the public, never shows an NPC's
numbers when the encounter hides them — checked per event type with sentinel values in every
field that is not declared public, and over random fights against NPCs with distinctive
Health and Stamina."""

from __future__ import annotations

import itertools
import random
import re
import types
import typing
from typing import Any, Literal, get_args, get_origin

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import EncounterState, RandomRoller
from bot.engine.core.audience import GM, PUBLIC, View, controller
from bot.engine.core.commands import Begin
from bot.engine.core.dice import Roll
from bot.engine.core.events import Event, InitiativeLine, Note, parse_event
from bot.engine.uttas.commands import AddCombatant
from bot.engine.uttas.events import EVENT_TYPES
from bot.engine.uttas.sheet import UttasSheet
from bot.errors import DomainError
from tests.engine.helpers import NOW, RULES
from tests.engine.test_properties import pick

NPC, PC = "c1", "c2"
SENTINEL_START = 9_100_001
SECRET_STRINGS = {"detail"}  # string fields that carry the combatant's numbers


def state() -> EncounterState:
    s = RULES.new_encounter(name="Audience", seed=1)
    roller = RandomRoller(seed=1)
    for name, npc in (("Thug", True), ("Ann", False)):
        sheet = UttasSheet.model_validate({"name": name, "health": 30, "stamina": 40})
        s = RULES.apply(s, AddCombatant(name=name, sheet=sheet, is_npc=npc), roller, NOW).state
    s.combatants[0].controller_id = 77  # a member who controls the NPC (not the GM)
    return s


class Sentinels:
    """Distinct 7-digit numbers for every non-public field of an event, each remembered with
    the combatant it belongs to (``owner``, set while a field is built)."""

    def __init__(self) -> None:
        self._next = itertools.count(SENTINEL_START)
        self.used: list[tuple[int, str]] = []
        self.owner = NPC

    def take(self) -> int:
        n = next(self._next)
        self.used.append((n, self.owner))
        return n


def build(cls: type[Event], about: dict[str, str], sentinels: Sentinels) -> Event:
    """An instance of ``cls`` whose every non-public number is a sentinel, whose combatant
    fields name ``about``'s ids, and whose exact ``text`` holds a sentinel too."""
    values: dict[str, Any] = {}
    for name, info in cls.model_fields.items():
        if name in ("kind", "text"):
            continue
        sentinels.owner = about.get(cls.NUMBER_OWNERS.get(name, "combatant"), NPC)
        if name in about:
            values[name] = about[name]
        elif name in SECRET_STRINGS:
            values[name] = f"the numbers {sentinels.take()}"
        else:
            values[name] = _value(name, info.annotation, cls.PUBLIC_NUMBERS, sentinels)
    # The exact text carries hidden numbers only where the event has any: an event whose
    # numbers are all public (a move's meters, a round) has a public text.
    sentinels.owner = NPC if any(owner == NPC for _, owner in sentinels.used) else PC
    values["text"] = f"exact text {sentinels.take() if sentinels.used else 'with no number'}"
    return cls.model_validate(values)


def _value(name: str, annotation: Any, public: frozenset[str], sentinels: Sentinels) -> Any:
    if isinstance(annotation, str):
        annotation = typing.get_type_hints(Event)[name] if name in Event.model_fields else str
    origin = get_origin(annotation)
    args = get_args(annotation)
    if origin in (typing.Union, types.UnionType):
        first = next(a for a in args if a is not type(None))
        return _value(name, first, public, sentinels)
    if origin is Literal:
        return args[0]
    if origin is tuple:
        inner = args[0]
        return (_value(name, inner, public, sentinels),)
    if annotation is Roll:
        modifier = sentinels.take()
        return Roll(
            purpose="a roll",
            base_dice=3,
            dice=(2, 3, 4),
            modifier=modifier,
            total=9 + modifier,
        )
    if annotation is InitiativeLine:
        return InitiativeLine(
            combatant=NPC,
            name="Thug",
            agility=sentinels.take(),
            roll=_value("roll", Roll, public, sentinels),
            place=1,
        )
    if annotation is bool:
        return True
    if annotation is int:
        return 1 if name in public else sentinels.take()
    if annotation is float:
        return 1.0 if name in public else float(sentinels.take())
    return "words"


def npc_numbers(sentinels: Sentinels) -> list[str]:
    """The sentinels that belong to the NPC (and the roll totals they make)."""
    mine = [n for n, owner in sentinels.used if owner == NPC]
    return [str(n) for n in mine] + [str(9 + n) for n in mine]


def render(event: Event, s: EncounterState, audience: Any) -> str:
    return "\n".join(event.render(RULES.view(s, audience)))


def variants(cls: type[Event]) -> list[dict[str, str]]:
    """Whose numbers the event is about: the NPC as its combatant, and for two-sided events
    the NPC on each side in turn."""
    fields = set(cls.model_fields)
    sides = [f for f in ("attacker", "target", "opponent") if f in fields]
    out = [{"combatant": NPC, **{f: NPC for f in sides}}]
    for side in sides:
        out.append({"combatant": PC, **{f: PC for f in sides}, side: NPC})
    return out


def test_every_event_type_hides_an_npcs_numbers_from_the_public() -> None:
    s = state()
    assert set(EVENT_TYPES) >= {"attack_resolved", "note", "vitals_set", "turn_started"}
    for kind, cls in EVENT_TYPES.items():
        for about in variants(cls):
            sentinels = Sentinels()
            event = build(cls, about, sentinels)
            if isinstance(event, Note):
                event = event.model_copy(update={"secret": True, "public_text": "public"})
            public = render(event, s, PUBLIC)
            for number in npc_numbers(sentinels):
                assert number not in public, f"{kind} {about} shows {number}: {public!r}"
            # The NPC's controller sees them, as does the GM: the hiding is the view's doing.
            gm = render(event, s, GM)
            mine = render(event, s, controller(77))
            assert gm == mine, kind
            # With hiding off, the public sees what the GM sees.
            open_state = s.model_copy(
                update={"settings": s.settings.model_copy(update={"hide_npc_numbers": False})}
            )
            assert render(event, open_state, PUBLIC) == render(event, open_state, GM), kind


def test_every_event_type_hides_the_numbers_of_an_npc_that_left() -> None:
    """An event about an NPC rendered again after the NPC left the encounter (``/gm remove``;
    a recap renders logged events over the state now): the state no longer says it was an
    NPC, so its numbers are the GM's only — they were shown to everyone."""
    s = state()
    gone = s.model_copy(update={"combatants": [c for c in s.combatants if c.id != NPC]})
    for kind, cls in EVENT_TYPES.items():
        for about in variants(cls):
            sentinels = Sentinels()
            event = build(cls, about, sentinels)
            if isinstance(event, Note):
                event = event.model_copy(update={"secret": True, "public_text": "public"})
            for audience in (PUBLIC, controller(77)):
                shown = render(event, gone, audience)
                for number in npc_numbers(sentinels):
                    assert number not in shown, f"{kind} {about} shows {number}: {shown!r}"


def test_logged_events_read_back_and_render_the_same() -> None:
    s = state()
    for cls in EVENT_TYPES.values():
        event = build(cls, variants(cls)[0], Sentinels())
        again = parse_event(event.model_dump(mode="json"), EVENT_TYPES)
        assert type(again) is cls
        assert render(again, s, PUBLIC) == render(event, s, PUBLIC)
    unknown = parse_event({"kind": "from_the_future", "text": "Thug has 9 Health"}, EVENT_TYPES)
    assert render(unknown, s, PUBLIC) == "" and "9 Health" in render(unknown, s, GM)


LETTERS = "ABCDEF"


def npc_sheet(i: int) -> UttasSheet:
    return UttasSheet.model_validate(
        {
            "name": f"Ogre {LETTERS[i]}",
            "health": 131 + 17 * i,
            "stamina": 173 + 19 * i,
            "body": 30,
            "speed": 3,
            "agility": 8,
            "armor": {"physical": 2},
            "defense": {"physical": 3},
            "weapons": [{"name": "Blade", "damage_dice": 3, "max_hits": 2}],
            "stances": ["Steady", "Bracing"],
        }
    )


def pc_sheet(i: int) -> UttasSheet:
    return UttasSheet.model_validate(
        {
            "name": f"Hero {LETTERS[i]}",
            "health": 30,
            "stamina": 60,
            "speed": 4,
            "agility": 12,
            "weapons": [
                {"name": "Blade", "damage_dice": 30, "max_hits": 3},
                {"name": "Sling", "kind": "thrown", "range_m": 10},
            ],
            "stances": ["Steady", "Bracing"],
        }
    )


def hidden_numbers(s: EncounterState) -> set[int]:
    """Health and Stamina of every NPC (maximum and current) that are ≥ 100 here, so a match in
    public text is never a die face, a round or a distance."""
    out: set[int] = set()
    for c in s.combatants:
        if c.is_npc:
            out |= {c.health, c.stamina, c.sheet.health, c.sheet.stamina}
    return {n for n in out if abs(n) >= 100}


ALLOWED = re.compile(
    r"\[[\d, ]*\]"  # the faces of a roll
    r"|\d+d\d+"  # a pool: 3d6
    r"|[+−-]\d+ (?:adv|disadv)"  # Advantage dice
    r"|[Rr]ound \d+"
    r"|hit \d+(?: of \d+)?|\d+ hits"
    r"|\d+(?:\.\d+)? m\b"  # meters moved
    r"|\d+ actions?\b"  # what a stance change costs (a rule, not a pool)
    r"|= \d+ \w+$"  # damage dice summed (no bonus)
)


def npc_only_lines(event: Event, view: View) -> list[str]:
    """Lines of an event about a hidden NPC alone (two-sided attacks are checked field by field
    above)."""
    if event.kind in ("attack_resolved", "attack_declared", "reaction_chosen"):
        return []
    if event.combatant is None or view.reveals(event.combatant):
        return []
    return event.render(view)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), npcs=st.integers(1, 3), pcs=st.integers(1, 3))
def test_random_fights_never_show_an_npcs_numbers_to_the_public(
    seed: int, npcs: int, pcs: int
) -> None:
    """Against NPCs with distinctive Health and Stamina, hit hard enough to fall: no public line
    shows those numbers, and a line about an NPC alone has no digit but dice, rounds, hits and
    meters."""
    s = RULES.new_encounter(name="Hidden", seed=seed)
    roller = RandomRoller(seed=seed)
    rng = random.Random(seed)
    cast = [
        AddCombatant(name=f"Ogre {LETTERS[i]}", sheet=npc_sheet(i), is_npc=True)
        for i in range(npcs)
    ]
    cast += [AddCombatant(name=f"Hero {LETTERS[i]}", sheet=pc_sheet(i)) for i in range(pcs)]
    for command in [*cast, Begin()]:
        s = RULES.apply(s, command, roller, NOW).state
    for _ in range(80):
        if s.phase != "active":
            break
        command = pick(s, rng)
        try:
            out = RULES.apply(s, command, roller, NOW)
        except DomainError:
            continue
        secret = hidden_numbers(s) | hidden_numbers(out.state)
        view = View(out.state, PUBLIC, wound_level=RULES.wound_level)
        for event in out.events:
            about_npc = not view.reveals(getattr(event, "target", event.combatant))
            for line in event.render(view) if about_npc else []:
                found = {int(n) for n in re.findall(r"-?\d+", ALLOWED.sub("", line))}
                assert not found & secret, f"{type(event).__name__}: {line!r}"
            for line in npc_only_lines(event, view):
                rest = ALLOWED.sub("", line)
                assert not re.search(r"\d", rest), f"{type(event).__name__}: {line!r}"
        s = out.state
