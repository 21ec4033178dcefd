"""Uune (issue 14), planned: the sheets, tables, dice and vitality rules of the Uune SRD, built
as pure data and functions before the ruleset that plays them. The core never imports this
package (import-linter)."""
