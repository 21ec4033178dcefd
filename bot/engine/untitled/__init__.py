"""The Untitled ruleset (``untitled-combat.txt``, issue 13), registered in
:mod:`bot.engine.registry`: the sheet (:mod:`.sheet`), the GM-changeable tables (:mod:`.tables`),
the dice (:mod:`.dice`), the sheet create form (:mod:`.form`) and the engine (:mod:`.ruleset`
and the modules it dispatches to; ``docs/rules/untitled.md``).
"""
