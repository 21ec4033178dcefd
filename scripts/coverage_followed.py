"""After ``scripts/coverage.sh``: did coverage follow the bot into its subprocesses?

bot/__main__.py's settings-error exit (``main()`` printing one line and returning 2) runs only
when ``python -m bot`` starts without a token (tests/test_settings.py), always as a subprocess:
it is covered exactly when subprocesses are measured. Prints the answer; with ``--strict`` (the
whole suite ran) a "no" fails.
"""

from __future__ import annotations

import sys
from pathlib import Path

import coverage

SOURCE = Path("bot/__main__.py")
MARKER = "print(error.one_line(), file=sys.stderr)"


def main(argv: list[str]) -> int:
    lines = SOURCE.read_text().splitlines()
    line = next(n for n, text in enumerate(lines, start=1) if text.strip() == MARKER)
    data = coverage.CoverageData()
    data.read()
    executed = set(data.lines(str(SOURCE.resolve())) or ())
    followed = line in executed
    print(
        f"Subprocesses measured: {'yes' if followed else 'NO'} — {SOURCE}:{line} "
        f"({MARKER}) runs only in a `python -m bot` subprocess and is "
        f"{'covered' if followed else 'not covered'}."
    )
    return 0 if followed or "--strict" not in argv else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
