"""The ruleset-neutral core of the engine: what every game system shares (state, turn cycle,
decisions, effects, dice, events and audiences) and the contract a ruleset implements. Nothing
here imports a ruleset."""
