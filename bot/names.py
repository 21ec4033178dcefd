"""Names as people type them: one normal form for every name the bot stores or compares.

A name (a character, an NPC template or one-off NPC, a combatant, an encounter, a weapon, a
stance, a power, a martial art, a skill, …) is normalised the same way everywhere:

1. characters that show as nothing are removed: every format character (Unicode category
   ``Cf``: zero-width space and joiners, left-to-right/right-to-left marks, overrides and
   isolates, the byte-order mark, soft hyphens, tag characters), the other
   *default-ignorable* code points (variation selectors, Hangul fillers, the combining grapheme
   joiner, …) and the few characters that are not default-ignorable but render blank (the
   blank Braille cell, the null notehead, …) — :data:`_BLANK_RANGES` lists them with sources;
2. Unicode NFKC: compatibility forms become their plain letters (full-width ``Ｗｉｌｌｏｗ`` is
   ``Willow``, ``ﬁ`` is ``fi``, no-break and other spaces are plain spaces; ``e`` followed by a
   combining acute accent becomes ``é``);
3. control characters (category ``Cc``: NUL, tab, line breaks, escape, …) are refused, and so
   are code points that show as nothing or differently on every device: unassigned ones
   (``Cn``, e.g. U+1CBC), private-use ones (``Co``) and lone surrogates (``Cs``);
4. runs of whitespace become one space, and leading and trailing whitespace goes;
5. a name that is blank after that is refused, and so is one with no visible base character —
   no letter, digit, punctuation mark or symbol, only combining marks such as a lone U+0301
   (an accent needs a letter to sit on) — and one longer than its limit.

Names are compared by :func:`key`: the normal form, case-folded, then mapped to Unicode's
*confusables skeleton* (UTS #39) so that names that look the same are the same name:
``Willow``, ``willow``, ``Willow<U+200B>`` and ``Wіllow`` (with a Cyrillic ``і``) are one name.
The name itself is stored and shown as typed (normalised); only the comparison uses the key.

In pydantic models, :data:`Name` (or ``Annotated[str, validator(n)]``) is a ``str`` that
applies all of this, so no path can store a name that is not normal. Data the bot stored
before these rules existed is validated with the context :data:`STORED`
(``model_validate_json(raw, context=STORED)``): the same normal form, but never a refusal —
control characters become spaces, unassigned, private-use and surrogate code points are
dropped, a name with nothing visible becomes :data:`PLACEHOLDER` and a long one is cut — so an
old encounter or sheet always loads.

Pure: no Discord, no I/O beyond reading the bundled confusables data once (Markdown escaping for
display lives in :mod:`bot.ui.text`).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable, Mapping
from importlib import resources
from typing import Annotated, Any

from pydantic import AfterValidator, ValidationInfo

from bot.errors import InvalidInput

NAME_MAX = 80
PLACEHOLDER = "Unnamed"
STORED: dict[str, Any] = {"names": "stored"}
"""Pydantic validation context for data read back from the database (normalise, never refuse)."""

# Characters removed from every name because they show as nothing (step 1). Every character of
# category Cf is removed as well, so the Cf members of the lists are here only for completeness.
# Source 1: Default_Ignorable_Code_Point, Unicode 16.0 DerivedCoreProperties.txt (all of it).
# Source 2: characters that are not default-ignorable but render as blank space — the
# "invisible character" tricks used for blank user names (Hangul fillers are in source 1):
#   U+2800 BRAILLE PATTERN BLANK (So; "no dots raised", shown as a blank cell),
#   U+303F IDEOGRAPHIC HALF FILL SPACE (So; a half-width blank in CJK fonts),
#   U+16FE4 KHITAN SMALL SCRIPT FILLER (Mn; a filler with no glyph),
#   U+1D159 MUSICAL SYMBOL NULL NOTEHEAD (So; a notehead placeholder drawn as nothing).
_BLANK_RANGES: tuple[tuple[int, int], ...] = (
    (0x00AD, 0x00AD),  # soft hyphen (Cf)
    (0x034F, 0x034F),  # combining grapheme joiner
    (0x061C, 0x061C),  # Arabic letter mark (Cf)
    (0x115F, 0x1160),  # Hangul choseong/jungseong fillers
    (0x17B4, 0x17B5),  # Khmer inherent vowels
    (0x180B, 0x180F),  # Mongolian free variation selectors and vowel separator
    (0x200B, 0x200F),  # zero-width space, joiners, directional marks (Cf)
    (0x202A, 0x202E),  # directional embeddings and overrides (Cf)
    (0x2060, 0x206F),  # word joiner, invisible operators, isolates, deprecated formats
    (0x2800, 0x2800),  # Braille pattern blank (source 2)
    (0x303F, 0x303F),  # ideographic half fill space (source 2)
    (0x3164, 0x3164),  # Hangul filler
    (0xFE00, 0xFE0F),  # variation selectors
    (0xFEFF, 0xFEFF),  # byte-order mark / zero-width no-break space (Cf)
    (0xFFA0, 0xFFA0),  # half-width Hangul filler
    (0xFFF0, 0xFFF8),  # unassigned specials
    (0x16FE4, 0x16FE4),  # Khitan small script filler (source 2)
    (0x1BCA0, 0x1BCA3),  # shorthand format controls (Cf)
    (0x1D159, 0x1D159),  # musical symbol null notehead (source 2)
    (0x1D173, 0x1D17A),  # musical symbol format characters
    (0xE0000, 0xE0FFF),  # tags and variation selectors supplement
)
_VISIBLE_CATEGORIES = ("L", "N", "P", "S")  # letters, numbers, punctuation, symbols
_NOT_CHARACTERS = {
    "Cn": "an unassigned code point",
    "Co": "a private-use character",
    "Cs": "a lone surrogate (half of a broken character)",
}

_MARKDOWN = re.compile(r"([\\*_~|`\[\]<])|^([>#-])", re.MULTILINE)
_MENTION = re.compile(r"@(everyone|here|[!&]?[0-9]{17,20})")


class InvalidName(ValueError):
    """A name that cannot be stored: control characters, unassigned or private-use code points,
    blank (or nothing visible), or too long. A ``ValueError`` so that pydantic reports it as a
    validation error of the field."""


def _ignorable(char: str) -> bool:
    if unicodedata.category(char) == "Cf":
        return True
    point = ord(char)
    return any(low <= point <= high for low, high in _BLANK_RANGES)


def _is_plain(text: str) -> bool:
    """ASCII, printable, single-spaced and trimmed: already normal (the common, fast case)."""
    return (
        text.isascii()
        and text.isprintable()
        and text == text.strip()
        and "  " not in text
        and bool(text)
    )


def _has_base(text: str) -> bool:
    """Whether ``text`` has a visible base character: a letter, number, punctuation mark or
    symbol (combining marks, spaces and the removed blank characters do not count)."""
    return any(unicodedata.category(char)[0] in _VISIBLE_CATEGORIES for char in text)


def _normal_form(text: str, *, strict: bool) -> str:
    """Steps 1 to 4 above. ``strict`` refuses control characters and non-characters
    (:class:`InvalidName`); otherwise control characters become spaces and non-characters
    (unassigned, private-use, surrogates) are dropped."""
    visible = "".join(char for char in text if not _ignorable(char))
    folded = unicodedata.normalize("NFKC", visible)
    if any(_ignorable(char) for char in folded):  # NFKC never makes one, but be exact
        folded = "".join(char for char in folded if not _ignorable(char))
    kept: list[str] = []
    for char in folded:
        category = unicodedata.category(char)
        if category == "Cc":
            if strict:
                raise InvalidName(
                    f"may not contain line breaks or other control characters (found "
                    f"{_describe(char)}); use letters, digits, spaces and punctuation"
                )
            kept.append(" ")
        elif category in _NOT_CHARACTERS:
            if strict:
                raise InvalidName(
                    f"contains {_NOT_CHARACTERS[category]}, U+{ord(char):04X}, which shows as "
                    f"nothing or differently on every device; use letters, digits, spaces and "
                    f"punctuation"
                )
        else:
            kept.append(char)
    return " ".join("".join(kept).split())


def _describe(char: str) -> str:
    name = unicodedata.name(char, "")
    point = f"U+{ord(char):04X}"
    known = {0: "NUL", 9: "a tab", 10: "a line break", 13: "a line break"}
    label = known.get(ord(char), name.lower() if name else "a control character")
    return f"{label}, {point}"


def clean(text: str, *, max_length: int = NAME_MAX) -> str:
    """The normal form of a typed name (see the module docstring).

    Raises :class:`InvalidName` (a ``ValueError``) when it holds control characters or
    unassigned, private-use or surrogate code points, is blank once invisible characters are
    removed, has no visible base character (only combining marks), or is longer than
    ``max_length`` characters."""
    if _is_plain(text) and len(text) <= max_length:
        return text
    result = _normal_form(text, strict=True)
    if not result:
        raise InvalidName("is blank once invisible characters and spaces are removed")
    if not _has_base(result):
        raise InvalidName(
            f"shows as blank: it has no letter, digit or symbol, only marks that need one to "
            f"sit on (found {_describe(result[0])})"
        )
    if len(result) > max_length:
        raise InvalidName(
            f"is {len(result)} characters long; names are at most {max_length} characters"
        )
    return result


def visible(text: str) -> str:
    """The normal form of any text (a name or not) without refusing anything: invisible
    characters removed, NFKC, control characters as spaces, unassigned, private-use and
    surrogate code points dropped, whitespace collapsed; ``""`` when nothing visible is left
    (only spaces and combining marks)."""
    if _is_plain(text):
        return text
    result = _normal_form(text, strict=False)
    return result if _has_base(result) else ""


BLANK = "is blank once invisible characters and spaces are removed"


def blank(text: str) -> bool:
    """Whether typed text shows as nothing: only spaces, invisible or control characters and
    lone combining marks. A name typed to look something up that is blank names nothing, and
    its refusal says so rather than quoting an empty (or placeholder) name."""
    return not visible(text)


def clean_stored(text: str, *, max_length: int = NAME_MAX) -> str:
    """The normal form of a name read back from storage: like :func:`clean`, but it never
    refuses — control characters become spaces, unassigned, private-use and surrogate code
    points are dropped, a name with nothing visible becomes :data:`PLACEHOLDER`, and a name over
    ``max_length`` characters is cut."""
    if _is_plain(text) and len(text) <= max_length:
        return text
    result = _normal_form(text, strict=False)[:max_length].rstrip()
    return result if _has_base(result) else PLACEHOLDER


# --- the comparison key: Unicode's confusables skeleton (UTS #39) -------------------------------


@functools.cache
def _confusables() -> dict[str, str]:
    """Unicode's confusables mapping (``bot/unicode/confusables.txt``, UTS #39 version 16.0.0,
    Unicode License v3): each source character to its prototype (one or more characters)."""
    table: dict[str, str] = {}
    data = resources.files("bot").joinpath("unicode/confusables.txt").read_text("utf-8-sig")
    for line in data.splitlines():
        fields = line.split("#", 1)[0].split(";")
        if len(fields) < 2 or not fields[0].strip():
            continue
        source = chr(int(fields[0], 16))
        table[source] = "".join(chr(int(point, 16)) for point in fields[1].split())
    return table


@functools.cache
def _skeleton_char(char: str) -> str:
    """One case-folded character's contribution to :func:`key` (see :func:`key`)."""
    if char.isascii():
        return char
    table = _confusables()

    def skeleton(text: str) -> str:
        mapped = "".join(table.get(c, c) for c in unicodedata.normalize("NFD", text))
        return unicodedata.normalize("NFD", mapped)

    lower = skeleton(char)
    if lower.isascii():
        return lower.casefold()
    upper = skeleton(char.upper())
    if upper.isascii():
        return upper.casefold()
    return unicodedata.normalize("NFD", lower.casefold())


def _skeleton(text: str) -> str:
    """:func:`_skeleton_char` over ``text`` (case-folded), repeated until nothing changes."""
    current = unicodedata.normalize("NFD", text.casefold())
    for _ in range(8):  # a mapping's output is mapped again; two rounds settle every entry
        mapped = unicodedata.normalize("NFD", "".join(_skeleton_char(c) for c in current))
        if mapped == current:
            break
        current = mapped
    return current


def key(text: str) -> str:
    """The key names are compared on (``""`` for a name with nothing visible, which matches
    nothing stored). Never raises: typed text may be anything.

    It is the name's normal form (:func:`visible`), case-folded, with every character outside
    ASCII replaced by its prototype in Unicode's confusables data (UTS #39 section 4, the
    *skeleton*; NFD before and after, repeated until stable). So a character from another
    script or a compatibility form that looks like a plain letter counts as that letter:
    ``Wіllow`` with a Cyrillic ``і`` and ``Тһug 1`` with a Cyrillic ``Т`` and ``һ`` are
    ``willow`` and ``thug 1``. Two adaptations of UTS #39, both so that ordinary names behave
    as people expect:

    * case-insensitive: the skeleton is taken of the case-folded character; where that is not
      plain ASCII but the upper-case form's skeleton is (Cyrillic ``т`` maps to a small capital
      ``ᴛ``, its capital ``Т`` to ``T``), the latter is used, so ``Т`` and ``т`` are both ``t``;
    * plain ASCII characters are their own skeleton: UTS #39 also maps ``m`` to ``rn``, ``1``
      to ``l`` and ``0`` to ``O``, which would make ``Tom`` and ``Torn`` (or ``Thug 1`` and
      ``Thug l``) one name and sort ``Thug 10`` after ``Thug 9``; names typed on a keyboard
      that differ stay different.

    The key is character by character, so a typed part of a name has the key of that part
    (autocomplete matches by substring) — a part cut between characters: NFD reorders the
    combining marks of one character, so half of a character's marks may not be found."""
    if _is_plain(text):
        return text.casefold()
    return _skeleton(visible(text))


def same(a: str, b: str) -> bool:
    """Whether two names are the same name (compared by :func:`key`)."""
    return key(a) == key(b)


def require(text: str, *, what: str = "name", max_length: int = NAME_MAX) -> str:
    """:func:`clean` for a typed option, with the refusal as :class:`InvalidInput` naming
    ``what`` (e.g. ``"The NPC's name"``)."""
    try:
        return clean(text, max_length=max_length)
    except InvalidName as error:
        raise InvalidInput(f"{what[:1].upper()}{what[1:]} {error}.") from None


def is_stored(info: ValidationInfo | None) -> bool:
    """Whether a pydantic validation runs with the :data:`STORED` context."""
    context = info.context if info is not None else None
    return isinstance(context, Mapping) and context.get("names") == STORED["names"]


def validator(max_length: int = NAME_MAX, *, lower: bool = False) -> AfterValidator:
    """The pydantic validator behind :data:`Name`: use it as
    ``Annotated[str, validator(40)]`` for a name of at most 40 characters (after normalising);
    ``lower`` also lower-cases it (damage types). Under the :data:`STORED` context it applies
    :func:`clean_stored`, else :func:`clean`."""

    def validate(value: str, info: ValidationInfo) -> str:
        if is_stored(info):
            result = clean_stored(value, max_length=max_length)
        else:
            result = clean(value, max_length=max_length)
        return result.lower() if lower else result

    return AfterValidator(validate)


Name = Annotated[str, validator(NAME_MAX)]
"""A name of at most :data:`NAME_MAX` characters, normalised (see :func:`validator`)."""


_ZWJ = "\u200d"  # joins emoji into one (a family): kept where text is shown


def _pictograph(char: str) -> bool:
    """Whether ``char`` may stand on either side of a zero-width joiner in an emoji sequence
    (👨‍👩‍👧, 🏳️‍🌈): a symbol (So), a skin-tone modifier (Sk) or the emoji variation selector."""
    return char == "\ufe0f" or unicodedata.category(char) in ("So", "Sk")


def _joins_emoji(text: str, index: int) -> bool:
    """Whether the zero-width joiner at ``text[index]`` joins two emoji into one."""
    return (
        0 < index < len(text) - 1
        and _pictograph(text[index - 1])
        and (_pictograph(text[index + 1]))
    )


def _shown_char(char: str, lines: bool) -> str:
    category = unicodedata.category(char)
    if category == "Cc":
        if lines and char == "\n":
            return char
        point = ord(char)
        # Unicode's Control Pictures (U+2400-U+2421): NUL shows as ␀, a line break as ␊,
        # escape as ␛, delete as ␡; the C1 controls have none.
        return chr(0x2400 + point) if point < 0x20 else "\u2421" if point == 0x7F else "\ufffd"
    if category == "Cf":  # (variation selectors, Mn, stay: an emoji's presentation)
        return ""  # (the joiner of an emoji sequence is kept by printable itself)
    return "\ufffd" if category in _NOT_CHARACTERS else char


def printable(text: str, *, lines: bool = False) -> str:
    """``text`` (what a member typed) made safe to echo in a message: each control character
    shown as its Control Picture (NUL as ``␀``, a tab as ``␉``, a line break as ``␊`` unless
    ``lines`` keeps it; ``�`` for the C1 controls), format characters removed (direction
    overrides and isolates, which reorder what follows them on screen, zero-width spaces, the
    byte-order mark, a zero-width joiner elsewhere…; not the joiner that makes one emoji of
    two, between them) and unassigned, private-use and surrogate code points shown as ``�``.
    Text that holds none of them (every stored name) is returned as it is. :func:`escaped`,
    :func:`quoted` and :func:`code` apply it: a refusal that quotes what a member typed echoes
    none of them."""
    if text.isascii() and text.isprintable():
        return text
    return "".join(
        char if char == _ZWJ and _joins_emoji(text, index) else _shown_char(char, lines)
        for index, char in enumerate(text)
    )


def _backslashed(match: re.Match[str]) -> str:
    return "\\" + match.group(0)


def escaped(text: str) -> str:
    """``text`` with every Markdown character backslash-escaped and ``@everyone``-style mentions
    broken, for domain messages built below the Discord layer (refusals that quote a name). The
    Discord layer uses :func:`bot.ui.text.shown_name` (discord.py's escapers). ``>``, ``#``
    and ``-`` are escaped only where a line starts, the only place Discord reads them (a
    quote, a heading, a list item), as discord.py's escaper does: ``Tree-trunk club`` stays
    as it is.

    Every name a refusal (a :class:`~bot.errors.DomainError`) quotes goes through this (or
    :func:`quoted`, or :func:`code` inside a code span): refusals are shown as they are, and
    ``tests/test_refusal_names.py`` fails on one that quotes a name raw. Control and invisible
    characters are made visible or removed first (:func:`printable`; line breaks kept)."""
    return _MENTION.sub("@\u200b\\1", _MARKDOWN.sub(_backslashed, printable(text, lines=True)))


def quoted(text: str, limit: int = NAME_MAX) -> str:
    """What a member typed, quoted in a refusal: its first ``limit`` characters between single
    quotes, Markdown and mentions escaped (:func:`escaped`), so the reply shows the characters
    typed (``'\\*Longbow\\*'`` reads as ``'*Longbow*'``, not an italic ``'Longbow'``), and its
    control and invisible characters made visible or removed (:func:`printable`: NUL as ``␀``,
    a line break as ``␊``). Text that shows as nothing (:func:`blank`: a pasted zero-width
    character; a NUL shows, as ``␀``) is not quoted as an empty ``''`` — "no characteristic
    ''" names nothing a member can see — but said to be blank: "(what you typed is blank
    once …)"."""
    shown = printable(text[:limit])
    if blank(shown):
        return f"(what you typed {BLANK})"
    return f"'{escaped(shown)}'"


def code(text: str) -> str:
    """``text`` as a Markdown code span for domain messages (a command to copy, with a name in
    it: ``names.code(f"/attack with:{power.name}")``). Markdown is not read inside a code span,
    so nothing in it is escaped (a backslash would show); the fence is one backtick longer than
    the longest run of backticks inside, padded with spaces when the text touches it, so a name
    holding a backtick does not end the span (the Discord layer's :func:`bot.ui.text.inline_code`
    is this). Control and invisible characters are made visible or removed (:func:`printable`:
    NUL as ``␀``, a line break as ``␊``), as a code span would show them raw."""
    text = printable(text)
    longest = run = 0
    for char in text:
        run = run + 1 if char == "`" else 0
        longest = max(longest, run)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") or not text.strip() else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def numbered(base: str, taken: Iterable[str], *, max_length: int = NAME_MAX) -> str:
    """``base`` itself if its key is not in ``taken`` (keys, see :func:`key`), else the first of
    ``base 2``, ``base 3``, … that is free; ``base`` is shortened so the result fits
    ``max_length``."""
    used = set(taken)
    if key(base) not in used:
        return base
    number = 2
    while True:
        suffix = f" {number}"
        candidate = base[: max_length - len(suffix)].rstrip() + suffix
        if key(candidate) not in used:
            return candidate
        number += 1


def unique(names: Iterable[str]) -> list[str]:
    """``names`` in order, keeping only the first of each :func:`key` (blank names dropped)."""
    seen: set[str] = set()
    result: list[str] = []
    for name in names:
        folded = key(name)
        if folded and folded not in seen:
            seen.add(folded)
            result.append(name)
    return result


def number_stored_duplicates(data: Any, fields: Iterable[str]) -> Any:
    """A stored sheet (raw ``data``) whose named entries in ``fields`` (weapons, powers…)
    became equal once normalised: the later ones are numbered (``Club 2``), so it still loads.
    Anything that is not a mapping of lists comes back as it is."""
    if not isinstance(data, dict):
        return data
    taken: set[str] = set()
    result = dict(data)
    for field in fields:
        entries = data.get(field)
        if not isinstance(entries, list | tuple):
            continue
        renamed: list[Any] = []
        for entry in entries:
            if isinstance(entry, dict) and isinstance(entry.get("name"), str):
                name = numbered(clean_stored(entry["name"]), taken)
                taken.add(key(name))
                entry = {**entry, "name": name}
            renamed.append(entry)
        result[field] = renamed
    return result
