"""One bot process per SQLite database file.

Several processes on one SQLite file lock each other out ("database is locked", multi-second
starvation) and, each connected to Discord, all answer every command — each committing it. So
``python -m bot`` holds an exclusive lock (``flock``) on ``<database>.lock`` beside the file
for as long as it runs, and a second process on the same file is refused at start
(:class:`DatabaseInUse`), naming the holder the lock file records. The kernel lets the lock go
when the process ends in any way (a crash or ``SIGKILL`` included), so it never goes stale;
the file itself stays. ``python -m bot copy-db`` holds it too while it reads the database.

PostgreSQL needs none of this: there, processes share one database by design."""

from __future__ import annotations

import contextlib
import errno
import fcntl
import logging
import os
import socket
from datetime import UTC, datetime
from pathlib import Path

log = logging.getLogger(__name__)


class DatabaseInUse(Exception):
    """Another process holds the SQLite database at ``path``; ``holder`` is what its lock file
    says of it (``pid 1234 on host, since …``), or empty."""

    def __init__(self, path: Path, holder: str) -> None:
        super().__init__(f"{path} is in use by another process ({holder or 'unknown'})")
        self.path = path
        self.holder = holder


def lock_path(database: Path) -> Path:
    """The lock file of the SQLite database ``database``: ``bot.sqlite3`` → ``bot.sqlite3.lock``,
    beside the file the path leads to (a symlink followed, as SQLite follows it), so that two
    paths to one file — the file and a link to it — lock each other out."""
    database = database.resolve()
    return database.with_name(database.name + ".lock")


class DatabaseLock:
    """The lock on one SQLite database, held from :meth:`take` until :meth:`release`."""

    def __init__(self, fd: int | None) -> None:
        self._fd = fd

    @classmethod
    def take(cls, database: Path) -> DatabaseLock:
        """Lock ``database`` for this process (creating its folder, like the database itself).

        Raises :class:`DatabaseInUse` when another process holds it, ``OSError`` when the lock
        file cannot be created. Where the file system has no locks (some network file systems)
        the bot runs unlocked, with a warning."""
        path = lock_path(database)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 512).decode("utf-8", "replace").strip()
            os.close(fd)
            raise DatabaseInUse(database, holder) from None
        except OSError as error:
            if error.errno not in (errno.ENOLCK, errno.EOPNOTSUPP, errno.ENOSYS):
                os.close(fd)
                raise
            log.warning(
                "cannot lock %s (%s): nothing stops a second process on this database", path, error
            )
            return cls(fd)
        since = datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"pid {os.getpid()} on {socket.gethostname()}, since {since}\n".encode(), 0)
        return cls(fd)

    def release(self) -> None:
        """Let the lock go (closing the lock file; the file stays for the next process)."""
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None
