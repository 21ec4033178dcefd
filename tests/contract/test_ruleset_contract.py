"""The ruleset contract suite (issue 10 §7): every registered, implemented ruleset runs the same
checks, through a Hypothesis state machine that draws every command kind the ruleset parses (the
Game Master's tools included) so a failure shrinks to a short story:

* a command never changes the state it was given; a refused one rolls no dice and leaves the
  state as it was, with a readable message;
* action pools never go negative; exactly one combatant holds the turn during a fight, and it is
  in the order; the dead and incapacitated never act;
* states round-trip through JSON; the same commands with the same seed replay to the same state;
* play goes on from a state parsed back from its JSON (``restart``: compact, as the bot reads a
  stored row after a restart — its empty containers refuse changes in place, issue 15), so a
  command that changes the state it was given fails here, not in production;
* every event renders for the public, the GM and a controller within Discord's limits, and no
  public line shows an NPC's hidden numbers while the encounter hides them.

A ruleset needs a harness (``tests/contract/harness.py``) to run it: one without fails here.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    rule,
)
from pydantic import TypeAdapter

from bot.engine import get_ruleset
from bot.engine.core.audience import GM, PUBLIC, controller
from bot.engine.core.commands import CommandBase
from bot.engine.core.dice import RandomRoller
from bot.engine.core.effects import SCOPES, Effect
from bot.engine.core.rehearse import rehearse
from bot.engine.core.verbs import ActInput
from bot.engine.registry import REGISTRY
from bot.errors import DomainError, InvalidInput
from tests.contract.harness import HARNESSES, UTTAS_KINDS, RulesetHarness, _uttas_command
from tests.contract.harness_untitled import UNTITLED_KINDS
from tests.contract.harness_utopia import UTOPIA_KINDS
from tests.contract.harness_uune import UUNE_KINDS
from tests.engine.helpers import NOW

LINE_MAX = 1024  # an embed field's value (descriptions hold 4096: a line must fit a field)
DIGITS = re.compile(r"-?\d+")


class CountingRoller(RandomRoller):
    """A seeded roller that counts the dice it rolled."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed=seed)
        self.rolled = 0

    def roll(self, count: int, sides: int) -> list[int]:
        self.rolled += count
        return super().roll(count, sides)


def command_kinds(key: str) -> set[str]:
    """Every command kind the ruleset parses (its discriminated union's mapping)."""
    adapter: TypeAdapter[Any] = get_ruleset(key).command_adapter
    return set(adapter.json_schema()["discriminator"]["mapping"])


def test_every_implemented_ruleset_has_a_harness() -> None:
    assert set(REGISTRY.implemented) <= set(HARNESSES), (
        "a registered ruleset has no contract harness: add one to tests/contract/harness.py"
    )


def test_each_harness_draws_every_command_kind_of_its_ruleset() -> None:
    assert set(UTTAS_KINDS) == command_kinds("uttas") == get_ruleset("uttas").command_kinds
    assert set(UTOPIA_KINDS) == command_kinds("utopia") == get_ruleset("utopia").command_kinds
    assert set(UNTITLED_KINDS) == command_kinds("untitled") == get_ruleset("untitled").command_kinds
    assert set(UUNE_KINDS) == command_kinds("uune") == get_ruleset("uune").command_kinds


@pytest.mark.parametrize("key", sorted(HARNESSES))
def test_every_declared_action_builds_one_of_the_rulesets_commands(key: str) -> None:
    """Decision D: ``/act`` offers what ``actions`` declares (≤ 25, for autocomplete; unique
    keys; names that fit a choice), and each builds a command the ruleset accepts — or asks,
    by name, for the option it needs."""
    rules = get_ruleset(key)
    harness = HARNESSES[key]
    state = rules.new_encounter(name="Surface", seed=1)
    for command in harness.setup([harness.example_sheet(), harness.example_sheet()], [False, True]):
        state = rules.apply(state, command, RandomRoller(seed=1), NOW).state
    me = state.combatants[0]
    specs = rules.actions(state, me)
    assert 0 < len(specs) <= 25 and len({s.key for s in specs}) == len(specs)
    for spec in specs:
        assert len(spec.choice_name()) <= 100 and spec.key == spec.key.casefold()
        target = state.combatants[1].id if spec.target == "required" else None
        try:
            command = rules.act(state, me, ActInput(key=spec.key, target=target))
        except InvalidInput as asked:
            assert "needs" in asked.message, (spec.key, asked.message)
            continue
        assert command.kind in rules.command_kinds, spec.key
    with pytest.raises(InvalidInput):
        rules.act(state, me, ActInput(key="no-such-action"))


@pytest.mark.parametrize("key", sorted(HARNESSES))
def test_a_systems_encounter_rules_build_its_commands_and_others_are_refused_by_name(
    key: str,
) -> None:
    """``/gm settings rule:`` offers what ``encounter_rules`` declares (unique names that fit a
    choice); each builds a command the ruleset accepts (or asks for its combatant), and a rule
    the system does not have is refused naming the system."""
    rules = get_ruleset(key)
    harness = HARNESSES[key]
    state = rules.new_encounter(name="Rules", seed=1)
    for command in harness.setup([harness.example_sheet(), harness.example_sheet()], [False, True]):
        state = rules.apply(state, command, RandomRoller(seed=1), NOW).state
    declared = rules.encounter_rules()
    assert len({r.name.casefold() for r in declared}) == len(declared) <= 25
    for one in declared:
        assert len(one.name) <= 40
        target = state.combatants[0].id if one.per_combatant else None
        value = "refused" if one.per_combatant else "3d12"
        command = rules.rule_command(one.name, value, target)
        assert command.kind in rules.command_kinds, one.name
        rules.apply(state, command, RandomRoller(seed=1), NOW)
    assert isinstance(rules.rule_lines(state), list)
    with pytest.raises(InvalidInput, match=rules.title):
        rules.rule_command("No such rule", "1", None)


def machine_for(harness: RulesetHarness) -> type[RuleBasedStateMachine]:
    """A state machine playing random fights of ``harness``'s ruleset under the contract."""

    class ContractMachine(RuleBasedStateMachine):
        def __init__(self) -> None:
            super().__init__()
            self.ruleset = get_ruleset(harness.key)
            self.state: Any = None
            self.applied: list[CommandBase] = []
            self.seed = 0
            self.roller = CountingRoller(0)

        @initialize(
            party=st.lists(harness.sheets(), min_size=2, max_size=5),
            seed=st.integers(0, 2**32),
            data=st.data(),
        )
        def begin(self, party: list[Any], seed: int, data: Any) -> None:
            self.seed = seed
            self.roller = CountingRoller(seed)
            self.state = self.ruleset.new_encounter(name="Contract", seed=seed)
            npcs = [i % 2 == 1 for i in range(len(party))]
            for command in harness.setup(party, npcs):
                self.apply(command)
            assert self.state.phase == "active"

        def apply(self, command: CommandBase) -> bool:
            """Apply ``command`` under the contract; whether it was accepted."""
            before = self.state
            before_json = before.model_dump_json()
            rolled = self.roller.rolled
            try:
                outcome = self.ruleset.apply(before, command, self.roller, NOW)
            except DomainError as refusal:
                assert str(refusal), f"{command.kind}: a refusal without a message"
                self.check_refusal(before, command, refusal)
                assert self.roller.rolled == rolled, f"refused {command.kind} rolled dice"
                assert before.model_dump_json() == before_json, f"refused {command.kind} changed"
                return False
            assert before.model_dump_json() == before_json, f"{command.kind} mutated its input"
            self.check_events(before, outcome.state, outcome.events)
            if command.kind == "remove_combatant":  # who left is said before whose turn it is
                kinds = [e.kind for e in outcome.events]
                turns = [i for i, k in enumerate(kinds) if k in ("turn_started", "round_started")]
                assert not turns or kinds.index("combatant_left") < turns[0], kinds
            self.state = outcome.state
            self.applied.append(command)
            return True

        def check_refusal(self, before: Any, command: CommandBase, refusal: DomainError) -> None:
            """A refusal of a player character's command, as its player reads it (the
            ``withheld`` text when it names a number of a combatant they may not see:
            :func:`bot.services.combat.as_seen_by`), names no hidden number of an NPC."""
            actor_id = getattr(command, "actor", None)
            actor = next((c for c in before.combatants if c.id == actor_id), None)
            if actor is None or actor.is_npc or not before.settings.hide_npc_numbers:
                return
            shown = str(refusal)
            player = self.ruleset.view(before, controller(actor.controller_id or 0))
            if refusal.about is not None and not player.reveals(refusal.about):
                assert refusal.withheld, f"{command.kind}: no withheld refusal"
                shown = refusal.withheld
            # A number the player gave in the command itself (a range: of 120 m, say) is theirs
            # to be told again, even when it equals a hidden one.
            typed = {
                int(v)
                for v in command.model_dump().values()
                if isinstance(v, int | float) and not isinstance(v, bool)
            }
            leaked = {int(n) for n in DIGITS.findall(shown)} & harness.hidden_numbers(before)
            leaked -= typed
            assert not leaked, f"{command.kind} refused with {leaked}: {shown}"
            # Nor does it say the state of a hidden NPC's pools ("has no Health damage to heal"
            # told a player a hurt NPC's damage was Stamina only).
            target = next(
                (c for c in before.combatants if c.id == getattr(command, "target", None)), None
            )
            if target is None or not target.is_npc or player.reveals(target.id):
                return
            for pattern in harness.pool_states:
                said = re.search(pattern, shown, re.IGNORECASE)
                assert said is None, (
                    f"{command.kind} on a hidden NPC says {said.group(0)!r}: {shown}"
                )

        def check_events(self, before: Any, after: Any, events: list[Any]) -> None:
            secret = harness.hidden_numbers(before) | harness.hidden_numbers(after)
            hiding = after.settings.hide_npc_numbers
            public = self.ruleset.view(after, PUBLIC)
            for event in events:
                actor = harness.actor_of(event)
                if actor is not None:
                    was = next((c for c in before.combatants if c.id == actor), None)
                    assert was is None or not harness.is_out(was), f"{was} acted while out"
                for audience in (PUBLIC, GM, controller(1)):
                    for line in event.render(self.ruleset.view(after, audience)):
                        assert len(line) <= LINE_MAX, f"{event.kind}: a line too long"
                if hiding:
                    subject = getattr(event, "target", None) or event.combatant
                    if subject is not None and not public.reveals(subject):
                        for line in event.render(public):
                            shown = {int(n) for n in DIGITS.findall(line)}
                            assert not shown & secret, f"{event.kind} shows {shown & secret}"

        @rule(data=st.data())
        def act(self, data: Any) -> None:
            """A declared ``/act`` action, built by the ruleset from a member's options."""
            if not self.state.combatants:
                return
            me = data.draw(st.sampled_from(self.state.combatants))
            specs = self.ruleset.actions(self.state, me)
            spec = data.draw(st.sampled_from(specs))
            given = ActInput(
                key=spec.key,
                target=data.draw(st.sampled_from([None, *[c.id for c in self.state.combatants]])),
                detail=data.draw(st.sampled_from([None, *harness.details()])) or None,
                amount=data.draw(st.sampled_from([None, 0.0, 2.0, 7.5, 30.0])),
            )
            try:
                command = self.ruleset.act(self.state, me, given)
            except DomainError as refusal:
                assert str(refusal)
                return
            assert command.kind in self.ruleset.command_kinds
            self.apply(command)

        @rule()
        def restart(self) -> None:
            """The bot restarted (or let the parsed state go): the next commands run on the
            state parsed from its stored JSON (compact, :func:`bot.engine.core.compact.compact`),
            not on the one the engine built."""
            if self.state is not None:
                self.state = self.ruleset.load_state(self.state.model_dump_json())

        @rule(data=st.data())
        def play(self, data: Any) -> None:
            """A command for the fight as it stands (after it ended too: those are refused)."""
            self.apply(harness.command(self.state, data.draw))

        @invariant()
        def the_fight_holds_together(self) -> None:
            s = self.state
            if s is None:
                return
            for c in s.combatants:
                assert all(v >= 0 for v in c.pools.values()), f"{c.name}'s pools {c.pools}"
            if s.phase == "active":
                assert s.turn is not None and s.order.count(s.turn) == 1
            else:
                assert s.turn is None
                assert s.pending is None or self.ruleset.decides_between_fights
            ids = {c.id for c in s.combatants}
            seen: set[str] = set()
            for group in s.positions.engaged:
                assert len(group) >= 2 and set(group) <= ids and not seen & set(group)
                seen |= set(group)
            for pair, meters in s.positions.distances.items():
                a, b = pair.split("|")
                assert a < b and {a, b} <= ids and meters >= 0, pair
            again = self.ruleset.load_state(s.model_dump_json())
            assert json.loads(again.model_dump_json()) == json.loads(s.model_dump_json())

        @invariant()
        def open_decisions_can_be_answered_and_lapse(self) -> None:
            """Decisions, generalised: open decisions are numbered uniquely (below
            ``next_decision``), a nested one opens after its parent; each one's words fit a
            prompt; every choice offered builds one of the ruleset's commands; nobody out of
            the fight has a choice; and its lapse — what expiry sends — settles it."""
            s = self.state
            if s is None:
                return
            rules, seen = self.ruleset, set()
            public = rules.view(s, PUBLIC)
            for d in s.decisions:
                assert d.id not in seen and 0 < d.id < s.next_decision, d
                assert d.parent is None or d.parent in seen, d
                seen.add(d.id)
                deciders = rules.decision_options(s, d)
                looked_at = {c.id for c in rules.decision_candidates(s, d)}
                for c in s.combatants:  # the narrowed candidates leave out nobody who decides
                    if c.id not in looked_at:
                        assert not rules.reaction_options(s, c.id, d), (c.id, d)
                        assert not rules.may_be_asked(s, c.id, d), (c.id, d)
                words = rules.decision_words(s, d, deciders, public)
                assert len(words.ask) <= 1500 and len(words.title) <= 256, words
                for cid, options in deciders.items():
                    if options:
                        assert not harness.is_out(s.get(cid)), f"{cid} is out but may decide"
                    for option in options:
                        answer = rules.answer(s, s.get(cid), option, d)
                        assert answer.kind in rules.command_kinds, option
                lapsed = rules.apply(s, rules.lapse(s, d), RandomRoller(seed=0), NOW).state
                assert lapsed.decision(d.id) is None, f"lapsing {d} left it open"

        @invariant()
        def campaign_records_round_trip_and_carry_over(self) -> None:
            """Decision A: what a combatant takes from the fight reads back the same, and a
            character joining with it takes the same from its next fight (unless the ruleset
            refuses to seat it, e.g. dead)."""
            if self.state is None:
                return
            rules = self.ruleset
            for c in self.state.combatants:
                record = rules.record_of(c)
                assert rules.parse_record(record.model_dump_json()) == record
                fresh = rules.new_encounter(name="Next", seed=0)
                join = rules.add_command(name=c.name, sheet=c.sheet, character_id=1, record=record)
                try:
                    seated = rules.apply(fresh, join, RandomRoller(seed=0), NOW).state
                except DomainError:
                    continue
                assert rules.record_of(seated.combatants[0]) == record, c.name

        def teardown(self) -> None:
            if self.state is None:
                return
            replayed = self.ruleset.new_encounter(name="Contract", seed=self.seed)
            roller = RandomRoller(seed=self.seed)
            for command in self.applied:
                replayed = self.ruleset.apply(replayed, command, roller, NOW).state
            assert replayed.model_dump_json() == self.state.model_dump_json(), "no replay"

    ContractMachine.__name__ = f"Contract_{harness.key}"
    return ContractMachine


CONTRACT_SETTINGS = settings(
    max_examples=25,
    stateful_step_count=75,  # a third of the steps are restarts: ~50 commands, as before
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)

CHECK_SETTINGS = settings(
    max_examples=12,
    stateful_step_count=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
"""For machines built on :func:`machine_for` that check one more thing after each step."""


def machine_tests(
    prefix: str, make: Callable[[str], Any], chosen: settings = CHECK_SETTINGS
) -> dict[str, Any]:
    """Each ruleset's test case of the machine ``make(key)`` (a :func:`machine_for` machine or
    a subclass of one) with the ``chosen`` settings, named ``{prefix}_{key}``: for a test
    module's ``globals().update(...)``, so pytest collects one test per ruleset."""
    found = {}
    for key in HARNESSES:
        machine = make(key)
        machine.TestCase.settings = chosen
        found[f"{prefix}_{key}"] = machine.TestCase
    return found


globals().update(
    machine_tests("TestContract", lambda key: machine_for(HARNESSES[key]), CONTRACT_SETTINGS)
)


@pytest.mark.parametrize("key", sorted(HARNESSES))
def test_the_gms_vitals_at_their_extremes_leave_a_fight_and_a_record_that_read_back(
    key: str,
) -> None:
    """Guard (attack 18): the engine changes a state without validating it, so a value past
    its model's bound stayed in play — Utopia's DHP lowered by −99,999 twice, Uune's wounds
    past 100 — and the stored fight (after a restart) and the campaign record could not be
    read back: `/encounter end` failed. Every vital `/gm vital` names, changed by the most
    it takes (±100,000, twice), is refused or leaves a state and a record that read back."""
    rules, harness = get_ruleset(key), HARNESSES[key]
    sheet = harness.example_sheet()
    join = rules.add_command(name="Edge", sheet=sheet, character_id=1)
    state = rules.apply(rules.new_encounter(name="Edge", seed=0), join, RandomRoller(0), NOW).state
    target = state.combatants[0].id
    for vital in rules.vital_names():
        for amount in (100_000, -100_000):
            changed = state
            for _ in range(2):
                try:
                    command = rules.vitals_command(target, {vital: (amount, True)})
                    changed = rules.apply(changed, command, RandomRoller(0), NOW).state
                except (DomainError, ValueError):
                    break
            loaded = rules.load_state(changed.model_dump_json())
            record = rules.record_of(loaded.combatants[0])
            assert rules.parse_record(record.model_dump_json()) == record, (vital, amount)


@pytest.mark.parametrize("key", sorted(HARNESSES))
def test_a_campaign_record_shows_every_effect_it_keeps(key: str) -> None:
    """Guard (attack 18): a condition given "for the campaign" (or for the day, quest, arc)
    outlasts the fight in the record, yet Uune's, Utopia's and Untitled's record lines never
    named it — `/campaign show` and the join after hid it until a roll suffered it. Each
    ruleset's record lines name every effect its record keeps."""
    rules, harness = get_ruleset(key), HARNESSES[key]
    sheet = harness.example_sheet()
    join = rules.add_command(name="Kept", sheet=sheet, character_id=1)
    seated = rules.apply(rules.new_encounter(name="Kept", seed=0), join, RandomRoller(0), NOW)
    record = rules.record_of(seated.state.combatants[0])
    if "effects" not in type(record).model_fields:
        return
    kept = tuple(Effect(name=f"Markcond{n}", scope=scope) for n, scope in enumerate(SCOPES))
    shown = " ".join(rules.record_lines(sheet, record.model_copy(update={"effects": kept})))
    for e in kept:
        assert e.name in shown, (e, shown)


@settings(max_examples=10, deadline=None)
@given(data=st.data())
def test_every_kind_the_harness_lists_is_a_command_of_that_kind(data: Any) -> None:
    """The machines draw kinds uniformly from the harness's list (checked above to be the
    ruleset's own); each kind must really produce a command of that kind."""
    rules = get_ruleset("uttas")
    state = rules.new_encounter(name="Kinds", seed=1)
    roller = RandomRoller(seed=1)
    harness = HARNESSES["uttas"]
    for command in harness.setup([data.draw(harness.sheets()) for _ in range(2)], [False, True]):
        state = rules.apply(state, command, roller, NOW).state
    for kind in UTTAS_KINDS:
        command = _uttas_command(kind, state, data.draw, "c1", "c2", "c1")
        assert command.kind == kind


@pytest.mark.parametrize("key", sorted(HARNESSES))
def test_rehearsal_plays_each_systems_fight(key: str) -> None:
    """``/rehearse`` (issue 18) through the contract's hook: every implemented system lists
    policies and plays its own fight with each (the state untouched, the figures adding up, a
    seed repeating them) and refuses an unknown policy by name. (The contract's default for a
    system without a policy says it is planned: ``tests/engine/test_rehearse.py``.)"""
    rules, harness = get_ruleset(key), HARNESSES[key]
    assert rules.rehearsal_policies, f"{rules.title} has no rehearsal policy"
    with pytest.raises(InvalidInput, match="no rehearsal policy"):
        rules.rehearsal("nonsense")
    sheet = harness.example_sheet()
    state = rules.new_encounter(name="Contract", seed=3)
    roller = RandomRoller(seed=3)
    for command in harness.setup([sheet, sheet, sheet], [False, True, True]):
        state = rules.apply(state, command, roller, NOW).state
    before = state.model_dump_json()
    for policy in rules.rehearsal_policies:
        found = rehearse(rules, state, fights=8, policy=policy, seed=1, max_rounds=10)
        assert found == rehearse(rules, state, fights=8, policy=policy, seed=1, max_rounds=10)
        assert sum(s.wins for s in found.sides) + found.draws == found.fights == 8
        assert len(found.downs) == 1
        # The round cap and the expected rounds count from where the fight stands: the same
        # fight in its 61st round plays the same fights (it was all draws, nothing played).
        later = state.model_copy(update={"round": state.round + 60})
        assert rehearse(rules, later, fights=8, policy=policy, seed=1, max_rounds=10) == found
    assert state.model_dump_json() == before
