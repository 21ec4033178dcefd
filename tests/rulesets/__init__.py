"""Rulesets that exist only for tests: variants that exercise what the shipped systems do not
yet (several decisions open at once), plugged in through the registry like any other."""
