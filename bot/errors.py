"""The one domain error tree.

Every error raised on purpose by the engine, the store or a service derives from
:class:`DomainError`. Its ``str()`` is written for the member who ran the command and is safe to
show in an ephemeral reply: it never contains a traceback, a token, SQL or an internal id that
would mean nothing to a player. Anything that is *not* a ``DomainError`` is a bug: the Discord
layer logs it with the guild, channel, user and command ids and shows a generic apology.

This module imports nothing from discord.py so that ``bot.engine`` may raise these errors too.
"""

from __future__ import annotations


class DomainError(Exception):
    """Base of every expected, user-facing error. ``str(error)`` is shown to the member.

    A refusal that names a number of one combatant (``about``, its id) that the member may not
    see — an NPC's, while the encounter hides them — carries the same refusal without it
    (``withheld``); the service that applied the command shows that one to such a member
    (:func:`bot.services.combat.as_seen_by`)."""

    def __init__(
        self, message: str, *, about: str | None = None, withheld: str | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.about = about
        self.withheld = withheld

    def __str__(self) -> str:
        return self.message


class InvalidInput(DomainError):
    """An option, file or expression the member typed is malformed or out of bounds."""


class NotFound(DomainError):
    """A named thing (encounter, combatant, sheet, template) does not exist."""


class NoEncounter(NotFound):
    """The encounter itself is gone: none is live in the channel, or the one named ended or was
    deleted. A caller that means "the fight ended meanwhile" catches this, not every
    :class:`NotFound` (an unknown combatant inside the rules is another matter)."""


class NotAllowed(DomainError):
    """The member may not do this (not the GM, not the controller of that combatant)."""


class Conflict(DomainError):
    """The request clashes with the current state (an encounter already runs here, a decision was
    already made, the state changed underneath a stale button)."""


class RuleViolation(DomainError):
    """The rules of the encounter's ruleset forbid the action (not your turn, no actions left)."""


class RulesetNotImplemented(DomainError):
    """The ruleset exists in the product's plan but cannot run encounters yet."""


class RulesVersionUnknown(DomainError):
    """An encounter plays by a reading of its rules this version of the bot does not know
    (it was started by a newer bot)."""


class ConcurrentUpdate(Conflict):
    """Another command changed the encounter between our read and our write (version mismatch)."""


class StorageUnavailable(DomainError):
    """The database refused a write for a reason outside the command: the disk is full, a disk
    error, the file became read-only, or another program held it locked past the busy timeout.
    Raised by :mod:`bot.store.db` (from the statement or the COMMIT); nothing of the command was
    changed. ``reason`` is SQLite's error name (e.g. ``SQLITE_FULL``) for the log."""

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason
