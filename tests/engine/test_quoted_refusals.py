"""A refusal that repeats what a member typed shows it as typed: quoted with Markdown and
mentions escaped (``bot.names.quoted``), in every game system — ``*Bob*`` reads as ``*Bob*``,
not an italic "Bob", and a typed ``@everyone`` pings nobody. (The Utopia QA round fixed its
own refusals; these are the same class in the core, UTTAS, Untitled and Uune.)"""

from __future__ import annotations

import pytest

from bot.engine.untitled.combat import weapon_of
from bot.engine.uttas.commands import ChangeStance
from bot.engine.uune.conditions import effect_named
from bot.errors import DomainError
from tests.engine.helpers import Fight
from tests.engine.test_rehearse import untitled_fight

TYPED = "*Bob* @everyone"
SHOWN = "'\\*Bob\\* @\u200beveryone'"


def test_the_core_quotes_an_unknown_combatant_as_typed() -> None:
    f = Fight()
    f.add("Ann")
    with pytest.raises(DomainError) as refused:
        f.state.find(TYPED)
    assert SHOWN in str(refused.value)


def test_uttas_quotes_an_unknown_stance_as_typed() -> None:
    f = Fight()
    f.add("Ann")
    f.add("Thug", npc=True)
    f.begin()
    with pytest.raises(DomainError) as refused:
        f.do(ChangeStance(actor=f.state.turn, stance=TYPED))
    assert SHOWN in str(refused.value)


def test_untitled_quotes_an_unknown_weapon_as_typed() -> None:
    _rules, state = untitled_fight()
    with pytest.raises(DomainError) as refused:
        weapon_of(state.combatants[0], TYPED)
    assert SHOWN in str(refused.value)


def test_uune_quotes_an_unknown_effect_as_typed() -> None:
    with pytest.raises(DomainError) as refused:
        effect_named(TYPED)
    assert SHOWN in str(refused.value)
