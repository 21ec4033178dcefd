"""The Utopia ruleset (``utopia-actions.txt``, issue 12), registered in
:mod:`bot.engine.registry`: the sheet (:mod:`.sheet`), the GM-changeable tables (:mod:`.tables`),
the import of Foundry VTT actor exports (:mod:`.foundry`) and the engine (:mod:`.ruleset` and the
modules it dispatches to). The standard actions not built yet are refused by name
(:data:`.verbs.PLANNED`; ``docs/rules/utopia.md``).
"""
