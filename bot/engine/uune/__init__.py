"""Uune (issue 14), registered in :mod:`bot.engine.registry`: the sheets, tables, dice and
vitality rules of the Uune SRD, and the ruleset that plays them (:mod:`.ruleset`). The core
never imports this package (import-linter)."""
