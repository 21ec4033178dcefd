"""The Utopia ruleset (``utopia-actions.txt``, issue 12), registered in
:mod:`bot.engine.registry`: the sheet (:mod:`.sheet`), the GM-changeable tables (:mod:`.tables`),
the import of Foundry VTT actor exports (:mod:`.foundry`) and the engine (:mod:`.ruleset` and the
modules it dispatches to). ``/act`` offers every standard action of the text
(:data:`.verbs.ACTIONS`; ``docs/rules/utopia.md``); one Utopia does not have is refused, listing
those it has (:func:`.verbs.act`).
"""
