"""UTTAS's rules version 6 (``UttasRuleset.rules_version``): the texts count in plain English —
"spends 1 action", "spends 3 actions", "the chase ends after 2 rounds" — where versions 1–5
wrote "action(s)" and "round(s)". A fight started at version 5 keeps its words, so its log
replays as it was played (``tests/fixtures/golden/uttas-v5.json`` is unchanged)."""

from __future__ import annotations

import pytest

from bot.engine.core.commands import EndTurn
from bot.engine.uttas.commands import Attack, EndChase, React, StartChase
from bot.engine.uttas.ruleset import UttasRuleset
from tests.engine.helpers import RULES, Fight


def test_versions_1_to_5_are_still_known_after_6() -> None:
    assert RULES.version == UttasRuleset.rules_version >= 6
    assert UttasRuleset.known_versions[:6] == (1, 2, 3, 4, 5, 6)


def _attack_texts(rules: UttasRuleset, flurry: int) -> str:
    f = Fight(rules)
    w = f.add("Willow", agility=14, speed=6, weapons=[{"name": "Sword", "max_hits": 3}])
    t = f.add("Thug", npc=True)
    f.begin()
    assert f.state.turn == w
    shown = f.do(Attack(actor=w, target=t, attack="Sword", hits=flurry)).text
    return shown + f.do(React(actor=t, choice="none")).text


@pytest.mark.parametrize(("flurry", "words"), [(1, "1 action on"), (3, "3 actions on")])
def test_an_attack_counts_its_actions_in_plain_english(flurry: int, words: str) -> None:
    text = _attack_texts(RULES, flurry)
    assert f"Willow spends {words} Sword" in text, text
    assert "(s)" not in text


def test_version_5_keeps_its_words() -> None:
    text = _attack_texts(UttasRuleset(version=5), 1)
    assert "Willow spends 1 action(s) on Sword" in text, text


@pytest.mark.parametrize(("version", "words"), [(6, "1 round"), (5, "1 round(s)")])
def test_a_chase_counts_its_rounds_as_its_version_did(version: int, words: str) -> None:
    f = Fight(UttasRuleset(version=version))
    a = f.add("Arsonist", npc=True, agility=13, movement={"run": 12})
    w = f.add("Willow", movement={"run": 12})
    f.begin()
    f.do(StartChase(quarry=a, pursuer=w, gap_m=20))
    f.do(EndTurn(actor=a))
    out = f.do(EndChase(outcome="escaped"))
    assert f"The chase ends after {words}: Arsonist escapes." in out.text, out.text


@pytest.mark.parametrize("version", [6, 5])
def test_a_turn_spent_recovering_from_stunned_is_said_before_the_recovery(version: int) -> None:
    """Version 6 says what happens in order: the turn goes on recovering, then Stunned ends
    (``"stun_lost_after_the_turn"``, as Uune 7); version 5 said the recovery first."""
    rules = UttasRuleset(version=version)
    f = Fight(rules)
    w = f.add("Willow", agility=14)
    t = f.add("Thug", npc=True)
    f.begin()
    assert f.state.turn == w
    f.do(rules.condition_command(t, "Stunned", present=True))  # type: ignore[arg-type]
    texts = f.do(EndTurn(actor=w)).text
    spent = texts.index("Thug spends the turn recovering from Stunned.")
    recovered = texts.index("Thug is no longer Stunned (spent an action to recover).")
    assert (spent < recovered) == (version == 6), texts
    assert not f.state.get(t).has("Stunned")
