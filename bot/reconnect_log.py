"""discord.py's reconnect lines, one line each (README, "Running"). When the gateway cannot be
reached — ``DISCORD_GATEWAY_URL`` wrong, or Discord's gateway down while its API answers —
discord.py tries again with its own backoff and logs each try with the traceback of the
failed connection (``Attempting a reconnect in 1.23s`` and some 30 lines of aiohttp's; a
sharded process: ``Failed to connect for shard_id: 0. Retrying...`` every 5 s). The retries are
discord.py's; :class:`OneLineRetries` keeps its line, with the reason after it, and drops the
traceback."""

from __future__ import annotations

import logging

RETRY_LINES = {
    "discord.client": ("Attempting a reconnect in",),
    "discord.shard": ("Attempting a reconnect for shard ID", "Failed to connect for shard_id"),
}
"""discord.py's loggers and the start of each of their lines that says it tries again."""


def reason(error: BaseException) -> str:
    """``Type: message`` of ``error``, on one line."""
    text = " ".join(str(error).split())
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


class OneLineRetries(logging.Filter):
    """Turns a retry line of discord.py's (:data:`RETRY_LINES`) logged with a traceback into
    that line and the failure's reason, ``… in 1.23s (ClientConnectorError: Cannot connect to
    host …)``; other records pass as they are."""

    def __init__(self, starts: tuple[str, ...]) -> None:
        super().__init__()
        self.starts = starts

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if error is not None and str(record.msg).startswith(self.starts):
            record.msg = f"{record.getMessage()} ({reason(error)})"
            record.args = None
            record.exc_info = None
            record.exc_text = None
        return True


def quiet_reconnects() -> None:
    """Install :class:`OneLineRetries` on discord.py's loggers (once)."""
    for name, starts in RETRY_LINES.items():
        logger = logging.getLogger(name)
        if not any(isinstance(f, OneLineRetries) for f in logger.filters):
            logger.addFilter(OneLineRetries(starts))
