"""Takes the buttons off turn pings whose turn is over (issue 17, "Act from the ping";
:mod:`bot.services.turn_pings` keeps which pings carry them), and keeps what the running turn's
ping says of its deadline true as a pause, a resume or a waiting decision moves it (fix19).

:func:`bot.ui.combat_flow.refresh_channel` runs :meth:`TurnPingKeeper.refresh` after every
change in a channel, so a ping loses its buttons when the turn moves on however it moved — a
click on the ping itself, a typed ``/endturn`` or attack that ended it, ``/gm next``, a passed
deadline, ``/encounter end``. An edit Discord refuses is tried again after the next change, and
by the bot's background loop (:meth:`TurnPingKeeper.retry`; every channel with pings once at
start-up, so a removal a stop skipped or Discord refused before it is made good).

A result the bot committed but was stopped before posting showed nobody the turn it began:
at start-up :meth:`TurnPingKeeper.recover` posts the ping of each such turn (fix20b); a post
Discord refuses then (a 5xx, a 429 past discord.py's own retries) is tried again by the
background loop's later passes, with a growing wait, until it posts or the turn is shown
otherwise (a command moved it on, or posted a result showing it): exactly once (fix21). A turn
left unshown only just now may be another process's to show — it committed the change and its
post is under way (several processes on one PostgreSQL database) —, so where others share the
database, such a turn is looked at again once its post had :data:`SHOWN_WITHIN` seconds, and
pinged only if still unshown then (attack21a).

The post is claimed first, so two processes never both post it; the claim is a lease
(:data:`bot.services.turn_pings.LEASE`): a process killed between its claim and its post leaves
a claim that lapses, and the turn's ping is owed again — at the next start, or to any process's
background loop (:meth:`TurnPingKeeper.retry`), as a post that failed is (fix22)."""

from __future__ import annotations

import asyncio
import logging
import uuid
from datetime import datetime
from typing import Any

import discord

from bot.services.acting import answering
from bot.services.encounters import Encounter
from bot.services.turn_pings import TurnPings
from bot.ui.backoff import Backoff
from bot.ui.combat import ping_deadline_words, running_turn_announcement
from bot.ui.turn_view import running_turn_view

log = logging.getLogger(__name__)

REFUSED_FIRST = 30.0  # seconds before the buttons of a channel's pings are tried again
REFUSED_MAX = 900.0
OWED_FIRST = 30.0  # seconds before a lost turn's ping Discord refused is posted again
POST_BOUND = 60.0
"""Seconds a lost turn's ping may take to post before it is given up (and owed again): well
within the claim's lease (:data:`bot.services.turn_pings.LEASE`), so a claim that holds is one
whose post may still come, never one another process may take while this one still posts."""


SHOWN_WITHIN = 10.0
"""Seconds after the change that began a turn within which its own post is taken to show it
(and note it shown): a start-up pings a turn unshown for less only once that time is over, and
only where other processes share the database (:attr:`bot.settings.Settings.shares_database`;
alone, a process at its start has no post under way)."""

REWORD_AGAIN = 3
"""Times :meth:`TurnPingKeeper._reword` looks again at the pings it reworded where other
processes share the database (a turn over meanwhile, a deadline moved again); then the next
change's refresh does."""

NOTED_MAX = 10_000
"""Encounters whose last noted turn :class:`TurnPingKeeper` keeps in memory (then it forgets
them all and notes afresh: a write each, nothing lost)."""


class TurnPingKeeper:
    """Records the turn pings the bot posts and retires those whose turn is over."""

    def __init__(self, client: Any) -> None:
        self._client = client
        self._locks: dict[int, asyncio.Lock] = {}
        # Channels where Discord refused to take a ping's buttons off: tried again by retry().
        self.refused_channels: Backoff[int] = Backoff(REFUSED_FIRST, REFUSED_MAX)
        self._looked_after_start = False
        # (channel, turn_seq) of lost turns whose recovered ping could not be posted: tried
        # again by retry() until it posts or the turn is shown otherwise.
        self.owed_pings: Backoff[tuple[int, int]] = Backoff(OWED_FIRST, REFUSED_MAX)
        # encounter id → (the turn this process noted shown last, the version of the last
        # result it showed there) (announced): most results show the turn the last one
        # showed, and need no write of their own.
        self._noted: dict[int, tuple[int, int]] = {}
        # (channel id, turn) left unshown at start-up only just now → the loop time to look
        # at it again (recover): its post may be under way in another process.
        self._later: dict[tuple[int, int], float] = {}
        self.shown_within = SHOWN_WITHIN
        # Names this process's claims on lost turns' pings (one word).
        self.claimer = f"pings-{uuid.uuid4().hex[:12]}"
        # Recovered pings posted whose claim could not be confirmed yet (the database failed):
        # confirmed by retry(), before the claim lapses and the ping would be owed again.
        self.unconfirmed: list[tuple[Encounter, str]] = []

    @property
    def _pings(self) -> TurnPings:
        return TurnPings(self._client.services.encounters)

    async def posted(
        self,
        encounter: Encounter,
        message_id: int,
        content: str | None = None,
        deadline_words: str | None = None,
    ) -> None:
        """``message_id`` carries the buttons of ``encounter``'s current turn and reads
        ``content``, with ``deadline_words`` saying when the turn's deadline passes. Never
        raises."""
        try:
            await self._pings.posted(encounter, message_id, content, deadline_words)
        except Exception:
            log.exception("could not note turn ping %s of encounter %s", message_id, encounter.id)

    async def refresh(self, channel_id: int) -> None:
        """Take the buttons off the channel's pings whose turn is over. Never raises."""
        lock = self._locks.setdefault(channel_id, asyncio.Lock())
        async with lock:
            try:
                over = await self._pings.over(channel_id)
            except Exception:
                log.exception("could not read the turn pings of channel %s", channel_id)
                return
            channel = self._client.get_partial_messageable(channel_id)
            refused = False
            for ping in over:
                words = ping.deadline_words  # its turn is over: no deadline of it holds
                if not await self._take_off(channel, ping.message_id, ping.content, words):
                    refused = True
            if refused:
                self.refused_channels.refused(channel_id)
            else:
                self.refused_channels.cleared(channel_id)
            await self._reword(channel_id)

    async def retry(self) -> None:
        """Take the buttons off the pings whose turn is over where Discord refused it (once
        their wait is over) — and, the first time, in every channel that has pings: a stop
        between a change and its refresh, or a refusal before a restart, left them. Never
        raises. First, the recovered pings posted whose claim a failed write left unconfirmed
        (:attr:`unconfirmed`); then the lost turns whose recovered ping Discord refused
        (:meth:`recover`), once their wait is over, those whose ping a process claimed and did
        not post before its claim lapsed (it was killed in between:
        :meth:`bot.services.turn_pings.TurnPings.lapsed`), and those a start-up left to a post
        under way, once their time is over."""
        for encounter, claim in list(self.unconfirmed):
            if await self._confirm(encounter, claim):
                self.unconfirmed.remove((encounter, claim))
        due = self.owed_pings.due()
        try:
            lapsed = await self._pings.lapsed()
        except Exception:
            log.exception("could not read the lost turns' lapsed claims")
            lapsed = []
        now = asyncio.get_running_loop().time()
        later = [key for key, when in self._later.items() if when <= now]
        for key in later:
            del self._later[key]
        for key in dict.fromkeys(due + lapsed + later):
            if key in due or key in later or not self.owed_pings.waiting(key):
                await self._recover_or_wait(*key)
        again = self.refused_channels.due()
        if not self._looked_after_start:
            self._looked_after_start = True
            try:
                again += await self._pings.channels()
            except Exception:
                log.exception("could not read the channels with turn pings")
        for channel_id in dict.fromkeys(again):
            await self.refresh(channel_id)

    async def announced(self, encounter: Encounter) -> None:
        """A result of ``encounter`` was posted, showing its running turn: noted unless this
        process noted that turn last and the result follows the last one it showed there
        (most results show the turn the one before showed, and a transaction each would double
        the commits of play). A change in between that this process did not show — another
        process sharing the database (PostgreSQL) may have moved the fight on and noted a
        later turn, which an undo here then takes back — is noted again. Never raises."""
        seq, version = encounter.state.turn_seq, encounter.version
        noted = self._noted.get(encounter.id)
        if noted is not None and noted[0] == seq and noted[1] + 1 == version:
            self._noted[encounter.id] = (seq, version)
            return
        try:
            await self._pings.announced(encounter)
        except Exception:
            log.exception("could not note the turn shown in encounter %s", encounter.id)
            return
        if len(self._noted) >= NOTED_MAX:
            self._noted.clear()
        self._noted[encounter.id] = (seq, version)

    async def owed(self) -> list[tuple[int, int]]:
        """``(channel_id, turn_seq)`` of the running turns no posted result showed (read
        before this process takes any command: :meth:`recover` posts them). Never raises."""
        try:
            return await self._pings.owed()
        except Exception:
            log.exception("could not read the turns left unannounced")
            return []

    async def recover(self, owed: list[tuple[int, int]]) -> None:
        """Post the ping of each turn in ``owed`` (:meth:`owed`) that still runs unshown —
        whoever holds it mentioned (the GM for an NPC, a stand-in for an away player), with
        its deadline and its buttons (none while a decision waits: its prompt asks first) —
        and note it shown. A turn a command moved on since is left to that command's post. A
        ping that could not be posted (Discord refused it) is tried again by :meth:`retry`.
        When other processes share the database, a turn whose change is younger than
        :data:`SHOWN_WITHIN` may be being posted by the process that made it: it is looked at
        again (by :meth:`retry`) once that time is over. Once the bot is stopping it claims
        no more: the rest stay owed to the next start, as nothing noted them shown; cut off
        while posting one (the shutdown's grace ran out), the claim is given back unless the
        post went out (then it is noted shown). Never raises but :class:`asyncio.CancelledError`."""
        for channel_id, turn_seq in owed:
            if self._client.stopping:
                log.info("stopping: %d lost turn ping(s) left to the next start", len(owed))
                return
            await self._recover_or_wait(channel_id, turn_seq)

    async def _recover_or_wait(self, channel_id: int, turn_seq: int) -> None:
        """:meth:`_recover_one`, noting a failure for :meth:`retry` (with a growing wait) and
        forgetting it once the ping is posted or no longer owed. Never raises."""
        key = (channel_id, turn_seq)
        try:
            await self._recover_one(channel_id, turn_seq)
        except Exception:
            log.exception("could not post the lost turn ping in channel %s yet", channel_id)
            self.owed_pings.refused(key)
        else:
            self.owed_pings.cleared(key)

    async def _recover_one(self, channel_id: int, turn_seq: int) -> None:
        async with self._locks.setdefault(channel_id, asyncio.Lock()):
            found = await self._pings.still_owed(channel_id, turn_seq)
            if found is None:
                log.info(
                    "turn %s in channel %s was shown meanwhile, or is over: no ping of it",
                    turn_seq,
                    channel_id,
                )
                return
            encounter, was = found
            wait = self._unshown_for_less(encounter)
            if wait > 0:
                log.info(
                    "turn %s in channel %s went unshown %.1f s ago only: its post may be under"
                    " way in another process; looked at again in %.1f s",
                    turn_seq,
                    channel_id,
                    self.shown_within - wait,
                    wait,
                )
                later = asyncio.get_running_loop().time() + wait
                self._later[(channel_id, turn_seq)] = later
                return
            claim = await self._pings.claim(encounter, was, self.claimer)
            if claim is None:
                return  # another process of the bot posts it
            sent: list[int] = []
            try:
                await asyncio.wait_for(self._post_running(encounter, sent), POST_BOUND)
            except asyncio.CancelledError:  # a shutdown cut it off
                if sent:  # the ping is out: noted shown, before the database closes
                    await self._confirm(encounter, claim)
                else:  # owed again at the next start, not once the lease lapses
                    await self._give_back(encounter, claim)
                raise
            except Exception:
                await self._pings.release(encounter, claim)  # owed again: retry() tries it
                raise
        if not await self._confirm(encounter, claim):
            self.unconfirmed.append((encounter, claim))  # posted: retry() confirms it
        # Its turn may have ended while it was posted — another process's change, whose own
        # refresh came before this ping was noted: it loses its buttons as every ping does.
        await self.refresh(channel_id)

    async def _give_back(self, encounter: Encounter, claim: str) -> None:
        """Release ``claim`` (its ping was not posted). Never raises: one that fails lapses
        (:data:`bot.services.turn_pings.LEASE`)."""
        try:
            await self._pings.release(encounter, claim)
        except Exception:
            log.exception("could not give back the lost turn ping of encounter %s", encounter.id)

    async def _confirm(self, encounter: Encounter, claim: str) -> bool:
        """Note the recovered ping ``claim`` was for posted (its turn shown); whether it could
        be. Never raises."""
        try:
            await self._pings.confirm(encounter, claim)
        except Exception:
            log.exception("could not note the lost turn ping of encounter %s", encounter.id)
            return False
        return True

    def _unshown_for_less(self, encounter: Encounter) -> float:
        """Seconds left before a post of the change that began ``encounter``'s running turn —
        its last change, or one before — counts as lost: 0 when no other process shares the
        database (none can be posting it) or the change is old enough."""
        if not self._client.settings.shares_database:
            return 0.0
        now: datetime = self._client.services.encounters.now()
        age = (now - encounter.row.updated_at).total_seconds()
        return max(0.0, self.shown_within - age)

    async def _post_running(self, encounter: Encounter, sent: list[int]) -> None:
        """Post the ping of ``encounter``'s running turn (nothing when the public may not see
        who holds it, as its own result would not have said); its message id goes into
        ``sent`` as soon as Discord took it."""
        deadline = await self._client.services.combat.deadlines.running(encounter.id)
        content = running_turn_announcement(encounter, deadline)
        current = encounter.state.current
        if not content or current is None:
            return
        who = answering(encounter, current.controller_id)
        view = None if encounter.state.decisions else running_turn_view(encounter)
        channel = self._client.get_partial_messageable(encounter.row.channel_id)
        message = await channel.send(
            content,
            view=view or discord.utils.MISSING,
            allowed_mentions=discord.AllowedMentions(
                everyone=False, roles=False, users=[discord.Object(id=who)]
            ),
        )
        sent.append(message.id)
        if view is not None:
            words = ping_deadline_words(encounter, deadline)
            said = words if words and words in content else ""
            await self.posted(encounter, message.id, content, said)

    async def _take_off(
        self, channel: Any, message_id: int, content: str | None, words: str | None
    ) -> bool:
        """Take the buttons off the ping ``message_id`` whose turn is over — and the words in
        its text ``content`` that say when that turn's deadline passes (``words``: none holds
        any more) — and forget it. Whether it was done (False: Discord refused, tried again
        later)."""
        gone = content.replace(words, "", 1) if words and content else None
        try:
            message = channel.get_partial_message(message_id)
            if gone is not None:
                await message.edit(view=None, content=gone)
            else:
                await message.edit(view=None)
        except discord.NotFound:
            pass  # deleted: nothing to take off
        except discord.HTTPException:
            log.info("could not take the buttons off turn ping %s yet", message_id)
            return False
        try:
            await self._pings.forget(message_id)
        except Exception:
            log.exception("could not forget turn ping %s", message_id)
        return True

    async def _reword(self, channel_id: int) -> None:
        """Edit the running turn's pings whose deadline moved (a pause or its resume, a
        decision that opened or was settled, a new setting): each says when the deadline
        passes now, or that it stands still (:func:`bot.ui.combat.ping_deadline_words`) — as
        the resume message and a decision's prompt do. Never raises; an edit Discord refuses
        is tried again after the next change.

        Where other processes share the database, the edit is kept only while its ping is the
        live one: another process may take the ping's buttons and deadline words off (its turn
        ended there: a passed deadline its expiry loop fired) while this edit is on its way,
        and an edit that lands after that put the words back. So once the edits landed, the
        pings are read again as :meth:`refresh` reads them: one whose turn is over now loses
        what this edit wrote (:meth:`_take_off`), and one whose deadline moved again meanwhile
        (the other process reworded it first) is reworded again — :data:`REWORD_AGAIN` times at
        most, then the next change's."""
        edited = await self._reword_once(channel_id, {})
        if not self._client.settings.shares_database:
            return
        channel = self._client.get_partial_messageable(channel_id)
        for _ in range(REWORD_AGAIN):
            if not edited:
                return
            try:
                found = await self._pings.running(channel_id, worded=False)
            except Exception:
                log.exception("could not read the turn pings of channel %s again", channel_id)
                return
            live = {ping.message_id for ping in found[1]} if found is not None else set()
            for message_id, (content, words) in edited.items():
                if message_id not in live:  # its turn ended meanwhile, in another process
                    await self._take_off(channel, message_id, content, words)
            edited = {key: said for key, said in edited.items() if key in live}
            if edited:
                edited = await self._reword_once(channel_id, edited)

    async def _reword_once(
        self, channel_id: int, wrote: dict[int, tuple[str, str]]
    ) -> dict[int, tuple[str, str]]:
        """One pass of :meth:`_reword`: the pings it edited, each with the text it gave it and
        the deadline words in that text. A ping in ``wrote`` (what an edit of this process
        gave it last) is edited unless those were the words to say: another process may have
        noted newer words since while this edit landed last."""
        edited: dict[int, tuple[str, str]] = {}
        try:
            found = await self._pings.running(channel_id)
            if found is None:
                return edited
            encounter, pings = found
            deadline = await self._client.services.combat.deadlines.running(encounter.id)
        except Exception:
            log.exception("could not read the turn pings' deadline in channel %s", channel_id)
            return edited
        words = ping_deadline_words(encounter, deadline)
        if words is None:
            return edited
        channel = self._client.get_partial_messageable(channel_id)
        for ping in pings:
            old = ping.deadline_words or ""
            said = wrote[ping.message_id][1] if ping.message_id in wrote else old
            if words == said or ping.content is None or old not in ping.content:
                continue
            content = ping.content.replace(old, words, 1)
            try:
                await channel.get_partial_message(ping.message_id).edit(content=content)
            except discord.NotFound:
                continue  # deleted: its row goes when its turn is over
            except discord.HTTPException:
                log.info("could not reword turn ping %s yet", ping.message_id)
                continue
            edited[ping.message_id] = (content, words)
            try:
                await self._pings.reworded(ping.message_id, content, words)
            except Exception:
                log.exception("could not note turn ping %s reworded", ping.message_id)
        return edited
