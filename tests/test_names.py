"""Names as people type them (bot/names.py): one normal form, compared case-insensitively;
control characters and blank names refused when typed, never when read back from storage."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from pydantic import ValidationError

from bot import names
from bot.engine.uttas.commands import AddCombatant, Attack
from bot.engine.uttas.sheet import UttasSheet
from bot.engine.uttas.state import UttasState
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
    assert names.key(typed) == names.key(normal)
    assert names.same(typed, normal.upper())
    if normal.isascii():
        assert names.key(typed) == normal.casefold()  # a keyboard name's key is itself, folded


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
        # Names that show as blank: marks with no letter to sit on, blank-rendering symbols.
        ("\u0301", "shows as blank: it has no letter, digit or symbol, only marks that need one"),
        ("\u0308", "(found combining diaeresis, U+0308)"),
        (f"{ZWSP}\u0308", "(found combining diaeresis, U+0308)"),
        ("\u20dd", "(found combining enclosing circle, U+20DD)"),
        (" \u0301\u0301 ", "shows as blank"),
        ("\U0001d159", "blank once invisible characters"),  # musical symbol null notehead
        ("\u2800\u3164\u115f\u1160\uffa0\u303f", "blank once invisible characters"),
        ("\U00016fe4", "blank once invisible characters"),  # Khitan filler (a mark)
        # Code points that are not characters (yet), or mean something else on every device.
        ("\u1cbc", "contains an unassigned code point, U+1CBC, which shows as nothing"),
        ("Willow\u1cbc", "unassigned code point, U+1CBC"),
        ("\U000e0000Bob\U0010fffd", "a private-use character, U+10FFFD"),
        ("Wil\ue000low", "a private-use character, U+E000"),
        ("Wil\ud800low", "a lone surrogate (half of a broken character), U+D800"),
        ("\ufdd0Bob", "an unassigned code point, U+FDD0"),  # a noncharacter
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
        ("\u0301", names.PLACEHOLDER),
        (f"{ZWSP}\u0308", names.PLACEHOLDER),
        ("\u20dd", names.PLACEHOLDER),
        ("\U0001d159", names.PLACEHOLDER),
        ("\u1cbc", names.PLACEHOLDER),
        ("\ue000", names.PLACEHOLDER),
        ("Wil\ue000low\u1cbc", "Willow"),
        ("Willow\U0001d159", "Willow"),
    ],
)
def test_stored_names_are_normalised_never_refused(stored: str, normal: str) -> None:
    assert names.clean_stored(stored) == normal
    assert names.clean_stored(normal) == normal


@pytest.mark.parametrize(
    ("typed", "normal"),
    [
        ("e\u0301", "\u00e9"),  # a combining mark on a letter: NFKC composes it
        ("Zoe\u0308y", "Zoëy"),
        ("x\u0301", "x\u0301"),  # no precomposed form: still a letter with its accent
        ("Bob \u0301", "Bob \u0301"),  # a mark after a space: the name still shows "Bob"
        ("Willow\U0001d159", "Willow"),  # a blank-rendering symbol is removed like a ZWSP
        ("\u2800Willow\u3164", "Willow"),
        ("\u20ac\u20dd", "\u20ac\u20dd"),  # a symbol in an enclosing circle
    ],
)
def test_marks_on_a_visible_character_are_kept(typed: str, normal: str) -> None:
    assert names.clean(typed) == normal


@given(st.text(max_size=40))
def test_an_accepted_name_always_shows_something(text: str) -> None:
    try:
        name = names.clean(text, max_length=200)
    except names.InvalidName:
        return
    categories = [unicodedata.category(c) for c in name]
    assert any(c[0] in "LNPS" for c in categories), name
    assert not {"Cc", "Cf", "Cn", "Co", "Cs"} & set(categories), name
    assert names.key(name)


# --- lookalikes: Unicode's confusables skeleton (UTS #39) --------------------------------------


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Willow", "W\u0456llow"),  # Cyrillic small i
        ("WILLOW", "W\u0406LLOW"),  # Cyrillic capital I
        ("Thug 1", "\u0422\u04bbug 1"),  # Cyrillic capital Te, small shha
        ("Bob", "\u0392\u03bf\u0432"),  # Greek capital beta, Greek small omicron, Cyrillic ve
        ("Kai", "\u039a\u0430\u0456"),  # Greek capital kappa, Cyrillic a, i
        ("Paypal", "\u0420\u0430\u0443\u0440\u0430l"),  # Cyrillic capital Er, a, u, er
        ("Willow", "\U0001d416illow"),  # mathematical bold W (NFKC)
        ("Willow", "\u13b3illow"),  # Cherokee letter WE
        ("Straße", "STRASSE"),
        ("Ærwyn", "AErwyn"),
    ],
)
def test_names_that_look_the_same_are_the_same_name(a: str, b: str) -> None:
    assert names.same(a, b)
    assert names.key(a) == names.key(b.lower()) == names.key(b.upper())
    assert names.numbered(b, {names.key(a)}) == f"{b} 2"
    assert names.unique([a, b]) == [a]


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Tom", "Torn"),  # UTS #39 would merge rn and m: keyboard names stay as typed
        ("Thug 1", "Thug l"),
        ("Thug 10", "Thug IO"),
        ("Dan", "Daniel"),
        ("Zoë", "Zoe"),
        ("Eli", "Ell"),
        ("名前", "名刺"),
    ],
)
def test_names_that_differ_stay_different(a: str, b: str) -> None:
    assert not names.same(a, b)


def test_keyboard_names_keep_their_order() -> None:
    typed = ["Thug 10", "Mira", "Thug 2", "Thug 1", "Anna", "Lily"]
    assert sorted(typed, key=names.key) == sorted(typed, key=str.casefold)


NAME_TEXT = st.text(st.characters(categories=["L", "M", "N", "Zs", "Pd"]), min_size=1, max_size=20)


def _between_characters(name: str, cut: int) -> bool:
    """Whether ``cut`` falls between two characters, not inside one character's combining
    marks (a part someone types starts and ends at a character: NFD reorders the marks of one
    character, so half of them is not a part of the name)."""
    return cut in (0, len(name)) or not unicodedata.combining(name[cut])


@given(NAME_TEXT, st.data())
def test_a_part_of_a_name_finds_the_name(name: str, data: st.DataObject) -> None:
    start = data.draw(st.integers(0, len(name)))
    end = data.draw(st.integers(start, len(name)))
    assume(_between_characters(name, start) and _between_characters(name, end))
    assert names.key(name[start:end]) in names.key(name)


def test_a_part_cut_inside_a_characters_marks_is_not_a_part() -> None:
    """The case Hypothesis found: ``À`` followed by a Syriac mark, cut between the marks. NFD
    puts the Syriac mark (class 220) before the grave accent (230), so the cut-off half is not
    a substring of the key — and no one types half a character."""
    name = "00000000\u00c0\u0734" + "0"
    assert names.key("\u0734" + "0") not in names.key(name)
    assert not _between_characters(name, 9) and _between_characters(name, 10)


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


def test_escaped_leaves_what_discord_reads_only_at_a_line_start_elsewhere() -> None:
    """A refusal quoting "Tree-trunk club" reads as typed without a backslash before the hyphen
    (Discord reads ``-``, ``#`` and ``>`` only where a line starts: a list item, a heading, a
    quote); at the start of a line they are escaped."""
    assert names.escaped("Tree-trunk club") == "Tree-trunk club"
    assert names.escaped("Wren #2 > Brask") == "Wren #2 > Brask"
    assert names.escaped("- Wren") == "\\- Wren"
    assert names.escaped("# Big") == "\\# Big"
    assert names.escaped("-# small\n> quote") == "\\-# small\n\\> quote"
    assert names.escaped("*Wren* [x] <y>") == "\\*Wren\\* \\[x\\] \\<y>"


def test_autocomplete_offers_each_name_once() -> None:
    choices = name_choices(["Strike", "Club", "strike", f"Strike{ZWSP}", "Grapple"], "")
    assert [c.name for c in choices] == ["Club", "Grapple", "Strike"]
    choices = name_choices([f"Bear {i}" for i in range(40)], "bear")
    assert len(choices) == 25
    labelled = labelled_choices([("Willow", "w1"), ("willow", "w2"), ("Bear", "b")])
    assert [(c.name, c.value) for c in labelled] == [("Willow", "w1"), ("Bear", "b")]
    # Lookalikes are one entry, and a lookalike typed finds the name.
    choices = name_choices(["Willow", "W\u0456llow", "\u0422\u04bbug 1", "Thug 1"], "")
    assert [c.name for c in choices] == ["\u0422\u04bbug 1", "Willow"]
    assert [c.name for c in name_choices(["Willow", "Bear"], "W\u0456l")] == ["Willow"]
    assert name_choices([f"{ZWSP}\u0308", "\u0301", "Bear"], "") == name_choices(["Bear"], "")


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
        UttasState.model_validate(raw)
    state = UttasState.model_validate(raw, context=names.STORED)
    assert state.name == "Ambush"
    assert [c.name for c in state.combatants] == ["Willow", "Willow 2", names.PLACEHOLDER]
    first = state.combatants[0].sheet
    assert first.name == "Club man"
    assert [w.name for w in first.weapons] == ["Club", "club 2"]
    assert state.find("WILLOW").id == "c1" and state.find(f"willow{ZWSP} 2").id == "c2"


def test_a_stored_state_with_lookalikes_and_blank_looking_names_still_loads() -> None:
    combatant = {"side": "party", "sheet": {"name": "X"}, "health": 10, "stamina": 20}
    raw = {
        "ruleset": "uttas",
        "name": "Ambush",
        "combatants": [
            {**combatant, "id": "c1", "name": "Willow"},
            {**combatant, "id": "c2", "name": "W\u0456llow"},
            {**combatant, "id": "c3", "name": "\u0301"},
            {**combatant, "id": "c4", "name": "Bob\ue000"},
        ],
    }
    with pytest.raises(ValidationError):
        UttasState.model_validate(raw)
    state = UttasState.model_validate(raw, context=names.STORED)
    assert [c.name for c in state.combatants] == [
        "Willow",
        "W\u0456llow 2",
        names.PLACEHOLDER,
        "Bob",
    ]
    assert state.find("W\u0456LLOW").id == "c1" and state.find("willow 2").id == "c2"


@pytest.mark.parametrize(
    ("typed", "shown"),
    [
        ("\x00", "\u2400"),  # NUL: ␀
        ("Thug\t1", "Thug\u24091"),  # a tab: ␉
        ("a\nb", "a\u240ab"),  # a line break: ␊
        ("\x1b[31mred", "\u241b[31mred"),  # escape: ␛
        ("x\x7f\x85", "x\u2421\ufffd"),  # delete: ␡; a C1 control: �
        ("\u202eThug 1", "Thug 1"),  # a direction override reorders what follows: removed
        ("Bob\ue000\ud800", "Bob\ufffd\ufffd"),  # private use, a lone surrogate
        ("👨\u200d👩\u200d👧", "👨\u200d👩\u200d👧"),  # the joiner that makes one emoji stays
        ("🏳\ufe0f\u200d🌈", "🏳\ufe0f\u200d🌈"),  # after the emoji variation selector too
        ("Thug\u200d1\u200d", "Thug1"),  # a joiner between letters or at the end: invisible
        ("\u200d👧 a\u200d👩", "👧 a👩"),
        ("\u2060Thug\ufeff\u200b\u180e", "Thug"),  # word joiner, BOM, ZWSP, Mongolian VS
        ("Willow", "Willow"),
    ],
)
def test_what_a_member_typed_is_echoed_without_control_or_invisible_characters(
    typed: str, shown: str
) -> None:
    """A refusal quoting what a member typed (``quoted``, ``code``, ``escaped``) echoed NUL,
    escape, direction overrides and the like as they were (untitled5): each now shows as its
    Control Picture or is removed (:func:`bot.names.printable`)."""
    assert names.printable(typed) == shown
    assert names.quoted(typed) == f"'{names.escaped(shown)}'"
    assert names.code(typed) == f"`{shown}`"
    assert names.escaped("a\nb\x00") == "a\nb\u2400"  # escaped keeps line breaks
