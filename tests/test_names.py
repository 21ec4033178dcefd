"""Names as people type them (bot/names.py): one normal form, compared case-insensitively;
control characters and blank names refused when typed, never when read back from storage."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from bot import names
from bot.engine.commands import AddCombatant, Attack
from bot.engine.state import EncounterState
from bot.engine.uttas.sheet import UttasSheet
from bot.errors import InvalidInput
from bot.ui.text import inline_code, labelled_choices, name_choices, shown_name

ZWSP = "\u200b"


@pytest.mark.parametrize(
    ("typed", "normal"),
    [
        ("Willow", "Willow"),
        (f"Willow{ZWSP}", "Willow"),
        (f"Wil{ZWSP}low", "Willow"),
        ("  Willow   the\u00a0Brave ", "Willow the Brave"),
        ("\u202eWillow\u202c", "Willow"),  # right-to-left override and its pop
        ("\u2066Willow\u2069", "Willow"),  # isolates
        ("\ufeffWillow\u200d", "Willow"),  # byte-order mark, zero-width joiner
        ("Wi\u00adllow", "Willow"),  # soft hyphen
        ("Willow\ufe0f", "Willow"),  # variation selector
        ("Willow\U000e0041", "Willow"),  # tag character
        ("Ｗｉｌｌｏｗ", "Willow"),  # full-width
        ("\ufb01re", "fire"),  # ligature
        ("Willow\u3000Two", "Willow Two"),  # ideographic space
        ("||Willow||", "||Willow||"),  # Markdown is kept (escaped where shown)
        ("`Bob`", "`Bob`"),
        ("Zoë", "Zoë"),
        ("Zoe\u0308", "Zoë"),  # composed
        ("Ærwyn 2", "Ærwyn 2"),
        ("名前", "名前"),
    ],
)
def test_normal_form(typed: str, normal: str) -> None:
    assert names.clean(typed) == normal
    assert names.key(typed) == normal.casefold()
    assert names.same(typed, normal.upper())


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        (ZWSP, "blank once invisible characters"),
        ("\u202e\u200d\ufe0f", "blank once invisible characters"),
        ("   ", "blank"),
        ("", "blank"),
        ("Wil\x00low", "control characters (found NUL, U+0000)"),
        ("Wil\nlow", "line breaks or other control characters (found a line break"),
        ("Wil\tlow", "a tab, U+0009"),
        ("Wil\x1blow", "U+001B"),
        ("Wil\x85low", "U+0085"),
        ("W" * 81, "81 characters long; names are at most 80 characters"),
        ("\ufdfa" * 5, "is 90 characters long"),  # NFKC expands it: counted after normalising
    ],
)
def test_refused_when_typed(typed: str, message: str) -> None:
    with pytest.raises(names.InvalidName) as caught:
        names.clean(typed)
    assert message in str(caught.value)
    with pytest.raises(InvalidInput, match=r"^The NPC's name "):
        names.require(typed, what="the NPC's name")


@pytest.mark.parametrize(
    ("stored", "normal"),
    [
        (ZWSP, names.PLACEHOLDER),
        ("Wil\x00low", "Wil low"),
        ("Wil\nlow", "Wil low"),
        ("W" * 90, "W" * 80),
        (f"Willow{ZWSP}", "Willow"),
    ],
)
def test_stored_names_are_normalised_never_refused(stored: str, normal: str) -> None:
    assert names.clean_stored(stored) == normal


INVISIBLE = st.sampled_from([ZWSP, "\u200c", "\u200d", "\u200e", "\u202e", "\u2066", "\ufeff"])


@given(st.text(max_size=100))
def test_normalising_is_idempotent_and_leaves_nothing_invisible(text: str) -> None:
    stored = names.clean_stored(text, max_length=200)
    assert names.clean_stored(stored, max_length=200) == stored
    assert stored == stored.strip() and "  " not in stored and stored
    assert not any(unicodedata.category(c) in ("Cc", "Cf") for c in stored)
    try:
        typed = names.clean(text, max_length=200)
    except names.InvalidName as error:
        assert str(error)
    else:
        assert typed == stored
        assert names.clean(typed, max_length=200) == typed


@given(st.text(st.characters(codec="utf-8"), min_size=1, max_size=30), INVISIBLE)
def test_an_invisible_character_never_makes_a_new_name(text: str, invisible: str) -> None:
    middle = len(text) // 2
    assert names.key(text[:middle] + invisible + text[middle:]) == names.key(text)


def test_numbered_and_unique() -> None:
    taken = {names.key("Willow"), names.key("Willow 2")}
    assert names.numbered("Willow", taken) == "Willow 3"
    assert names.numbered("Bear", taken) == "Bear"
    assert names.numbered("W" * 80, {names.key("W" * 80)}) == "W" * 78 + " 2"
    assert names.unique(["Strike", "Club", "strike", f"Strike{ZWSP}", ZWSP]) == ["Strike", "Club"]


def test_escaped_and_shown_names_format_nothing() -> None:
    for name in ("||boo||", "**Bold**", "`code`", "_x_", "~~s~~", "> quote", "@everyone"):
        assert names.escaped(name) != name
        assert shown_name(name) != name
    assert shown_name("@everyone") == "@\u200beveryone"
    assert shown_name(f"Willow{ZWSP}") == "Willow"
    assert inline_code("a`b") == "``a`b``"
    assert inline_code("`x") == "`` `x ``"


def test_autocomplete_offers_each_name_once() -> None:
    choices = name_choices(["Strike", "Club", "strike", f"Strike{ZWSP}", "Grapple"], "")
    assert [c.name for c in choices] == ["Club", "Grapple", "Strike"]
    choices = name_choices([f"Bear {i}" for i in range(40)], "bear")
    assert len(choices) == 25
    labelled = labelled_choices([("Willow", "w1"), ("willow", "w2"), ("Bear", "b")])
    assert [(c.name, c.value) for c in labelled] == [("Willow", "w1"), ("Bear", "b")]


# --- the models: no path stores a name that is not normal ---------------------------------------


def test_sheet_names_are_normalised_and_refused_at_the_model() -> None:
    sheet = UttasSheet(
        name=f"Willow{ZWSP}",
        stances=["Steady\u200d"],
        skills={"Stealth\u00a0 ": 2},
        weapons=[{"name": "\u202eClub", "damage_type": "FIRE\u200b"}],
        armor={"Fire\ufe0f": 2},
    )
    assert sheet.name == "Willow"
    assert sheet.stances == ("Steady",)
    assert sheet.skills == {"Stealth": 2}
    assert (sheet.weapons[0].name, sheet.weapons[0].damage_type) == ("Club", "fire")
    assert sheet.armor == {"fire": 2}
    for bad in (ZWSP, "a\x00b", "||x||\n"):
        with pytest.raises(ValidationError):
            UttasSheet(name=bad)
    with pytest.raises(ValidationError, match="must be unique"):
        UttasSheet(name="W", weapons=[{"name": "Club"}, {"name": f"club{ZWSP}"}])


def test_commands_normalise_names() -> None:
    command = Attack(actor="c1", target="c2", attack=f"Strike{ZWSP}")
    assert command.attack == "Strike"
    with pytest.raises(ValidationError):
        AddCombatant(name=ZWSP, sheet=UttasSheet(name="W"))


def test_a_stored_state_with_old_names_still_loads() -> None:
    sheet = {"name": "Club\x00man", "weapons": [{"name": "Club"}, {"name": f"club{ZWSP}"}]}
    combatant = {"side": "party", "sheet": sheet, "health": 10, "stamina": 20}
    raw = {
        "ruleset": "uttas",
        "name": f"Ambush{ZWSP}",
        "combatants": [
            {**combatant, "id": "c1", "name": "Willow"},
            {**combatant, "id": "c2", "name": f"Willow{ZWSP}"},
            {**combatant, "id": "c3", "name": ZWSP},
        ],
    }
    with pytest.raises(ValidationError):
        EncounterState.model_validate(raw)
    state = EncounterState.model_validate(raw, context=names.STORED)
    assert state.name == "Ambush"
    assert [c.name for c in state.combatants] == ["Willow", "Willow 2", names.PLACEHOLDER]
    first = state.combatants[0].sheet
    assert first.name == "Club man"
    assert [w.name for w in first.weapons] == ["Club", "club 2"]
    assert state.find("WILLOW").id == "c1" and state.find(f"willow{ZWSP} 2").id == "c2"
