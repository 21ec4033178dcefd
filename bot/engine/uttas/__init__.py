"""The UTTAS ruleset (``uttas-gameplay.txt``). Import from the submodules; this package module
stays empty so that ``bot.engine.state`` can import the sheet model without import cycles."""
