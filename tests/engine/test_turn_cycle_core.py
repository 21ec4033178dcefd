"""The core's turn cycle calls the ruleset's economy for every combatant whenever any turn
starts or ends, with ``own`` telling whose turn it is (docs/architecture.md, "Action
economies")."""

from __future__ import annotations

from bot.engine.core.commands import Begin, EndTurn, NextTurn
from bot.engine.core.economy import Cost, Pools, SpeedPool, Timing
from bot.engine.core.events import TurnEnded, TurnStarted
from bot.engine.uttas.commands import AddCombatant, Attack, React
from bot.engine.uttas.ruleset import UttasRuleset
from tests.engine.helpers import NOW, RULES, sheet


class SpyEconomy(SpeedPool):
    """UTTAS's Speed pool, recording every hook call; as an economy whose hooks may change
    anyone's pools (Utopia's do), it must be told of every turn for every combatant."""

    others_change = True

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[str, int, bool]] = []
        self.ids: dict[int, str] = {}

    def on_turn_start(self, pools: Pools, *, own: bool, capacity: int) -> Pools:
        self.calls.append(("start", id(pools), own))
        return super().on_turn_start(pools, own=own, capacity=capacity)

    def on_turn_end(self, pools: Pools, *, own: bool, capacity: int) -> Pools:
        self.calls.append(("end", id(pools), own))
        return super().on_turn_end(pools, own=own, capacity=capacity)

    def pay(self, pools: Pools, cost: Cost, timing: Timing, capacity: int) -> Pools:
        self.calls.append(("pay", id(pools), timing == "turn"))
        return super().pay(pools, cost, timing, capacity)


def test_every_turn_start_and_end_reaches_every_combatant_with_own() -> None:
    spy = SpyEconomy()
    rules = UttasRuleset(RULES.tables)
    rules.economy = spy
    state = rules.new_encounter(name="Spy", seed=3)
    from bot.engine import RandomRoller

    roller = RandomRoller(seed=3)
    for name, agility in (("Ann", 14), ("Bob", 12), ("Cat", 10)):
        state = rules.apply(
            state, AddCombatant(name=name, sheet=sheet(name, agility=agility)), roller, NOW
        ).state
    n = len(state.combatants)
    script = [Begin(), EndTurn(actor="c1"), NextTurn(), EndTurn(actor="c3")]
    for command in script:
        spy.calls.clear()
        out = rules.apply(state, command, roller, NOW)
        starts = [e for e in out.events if isinstance(e, TurnStarted)]
        ends = [e for e in out.events if isinstance(e, TurnEnded)]
        hooks = [c for c in spy.calls if c[0] in ("start", "end")]
        assert sum(1 for c in hooks if c[0] == "start") == n * len(starts), command
        assert sum(1 for c in hooks if c[0] == "end") == n * len(ends), command
        # Exactly one combatant is told "own" per turn start and per turn end.
        assert sum(1 for c in hooks if c[0] == "start" and c[2]) == len(starts)
        assert sum(1 for c in hooks if c[0] == "end" and c[2]) == len(ends)
        state = out.state
    # A reaction pays off turn: the pool is told it is not the payer's turn.
    spy.calls.clear()
    holder = state.turn
    assert holder is not None
    target = next(c.id for c in state.combatants if c.id != holder)
    state = rules.apply(
        state, Attack(actor=holder, target=target, attack="Sword"), roller, NOW
    ).state
    spy.calls.clear()
    rules.apply(state, React(actor=target, choice="evade"), roller, NOW)
    assert ("pay", spy.calls[0][1], False) == spy.calls[0]
