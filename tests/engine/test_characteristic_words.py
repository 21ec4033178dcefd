"""`/gm adjust` names a UTTAS characteristic as the rules text does ("Willow's Agility is now
16"), every one of them: it said "agility", the command's lower-case key."""

from __future__ import annotations

import pytest

from bot.engine.uttas.commands import AdjustCharacteristic
from bot.engine.uttas.sheet import CHARACTERISTICS
from tests.engine.helpers import Fight

RULES_WORDS = ("Agility", "Body", "Charisma", "Dexterity", "Ego", "Intelligence", "Strength")
"""The characteristics as ``uttas-gameplay.txt`` writes them (Agility, Body, Dexterity, Strength;
the sheet's others, which the text does not name, in the same form: the sheet's labels)."""


@pytest.mark.parametrize(
    ("characteristic", "word"), list(zip(CHARACTERISTICS, RULES_WORDS, strict=True))
)
def test_an_adjusted_characteristic_is_named_in_the_rules_texts_words(
    characteristic: str, word: str
) -> None:
    f = Fight()
    w = f.add("Willow", agility=12)
    f.add("Thug", npc=True)
    f.begin(dice=[])
    out = f.do(AdjustCharacteristic(target=w, characteristic=characteristic, delta=2), [])
    assert f"Willow's {word} is now " in out.text, out.text
