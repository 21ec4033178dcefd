"""No two of one decider's buttons on a decision do the same thing: on the states random fights
of every ruleset go through (the contract suite's machines), each choice a decider has is
answered from the same state with the same dice, and no two answers may leave the same
state and say the same. Two such buttons (Uune's "GM: refuse all" beside "GM: refuse Bond 1"
on a bond's only claim) make a member wonder which one they want, for nothing."""

from __future__ import annotations

from typing import Any

from hypothesis.stateful import invariant

from bot.engine.core.dice import RandomRoller
from bot.errors import DomainError
from tests.contract.harness import HARNESSES
from tests.contract.test_ruleset_contract import machine_for, machine_tests
from tests.engine.helpers import NOW


def distinct_machine(key: str) -> Any:
    """The contract machine of ``key`` answering, after every step, every open decision with
    each of its deciders' choices in turn."""

    class DistinctMachine(machine_for(HARNESSES[key])):  # type: ignore[misc]
        @invariant()
        def no_two_choices_of_one_decider_do_the_same(self) -> None:
            s = self.state
            if s is None:
                return
            rules = self.ruleset
            for d in s.decisions:
                for cid, options in rules.decision_options(s, d).items():
                    seen: dict[tuple[str, tuple[str, ...]], str] = {}
                    for option in options:
                        try:
                            answer = rules.answer(s, s.get(cid), option, d)
                            outcome = rules.apply(s, answer, RandomRoller(seed=0), NOW)
                        except DomainError:
                            continue
                        texts = tuple(getattr(e, "text", "") or "" for e in outcome.events)
                        made = (outcome.state.model_dump_json(), texts)
                        assert made not in seen, (
                            f"{option.label!r} does what {seen[made]!r} does: {d}"
                        )
                        seen[made] = option.label

    DistinctMachine.__name__ = f"Distinct_{key}"
    return DistinctMachine


globals().update(machine_tests("TestDistinctChoices", distinct_machine))
