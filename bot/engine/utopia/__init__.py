"""The Utopia ruleset (``utopia-actions.txt``, issue 12) — planned, not playable yet.

This package holds the data side so far: the sheet (:mod:`.sheet`), the GM-changeable tables
(:mod:`.tables`) and the import of Foundry VTT actor exports (:mod:`.foundry`). The registry
still lists Utopia as planned (``REGISTRY.plan``), so no encounter can start with it.
"""
