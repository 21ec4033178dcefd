"""The Untitled ruleset (``untitled-combat.txt``, issue 13), planned — not registered yet
(``REGISTRY.plan("untitled", ...)``): its data side so far — the sheet (:mod:`.sheet`), the
GM-changeable tables (:mod:`.tables`), the dice (:mod:`.dice`) and the sheet create form
(:mod:`.form`). The ruleset itself (order, the round's actions, decisions) comes later
(``docs/rules/untitled.md``).
"""
