"""Before ``python -m bot`` imports the bot: the files it ships under ``data/`` are there.

The rules tables, help texts and example sheets live in the project's ``data/`` folder, beside
the default SQLite file, and the bot reads some of them while it is imported. A host volume
mounted over ``data/`` to keep the database (what "keep data/ on a persistent disk" invites)
hides them, and ``python -m bot`` died in a traceback from deep inside an import
(``FileNotFoundError: …/data/uttas/tables.json``). Imported first by ``bot/__main__.py``, this
module checks them when it runs as ``python -m bot`` and prints one line (exit status 2)."""

from __future__ import annotations

import sys
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "data"
SHIPPED = (
    "help",
    "sheets",
    "uttas/tables.json",
    "utopia/tables.json",
    "untitled/tables.json",
    "uune/tables.json",
)


def missing(data: Path = DATA) -> list[Path]:
    """The shipped files and folders absent from ``data``."""
    return [data / name for name in SHIPPED if not (data / name).exists()]


def problem(data: Path = DATA) -> str | None:
    """The one line to print when shipped files are missing, else ``None``."""
    gone = missing(data)
    if not gone:
        return None
    return (
        f"The bot's own files are missing from {data} (first: {gone[0]}): the project's data "
        "folder holds the rules tables, help texts and example sheets. Was a volume mounted over "
        "it to keep the database? Mount the volume at a folder of its own and point "
        "DATABASE_PATH there (README, 'Settings'), or restore the folder from the repository."
    )


def _run_as_python_m_bot() -> bool:
    main = sys.modules.get("__main__")
    spec = getattr(main, "__spec__", None)
    return getattr(spec, "name", None) == "bot.__main__"


if _run_as_python_m_bot():  # pragma: no branch - imported first by bot/__main__.py
    _line = problem()
    if _line is not None:
        print(_line, file=sys.stderr)
        sys.exit(2)
