"""Decision prompt messages after they are posted, kept right until their decision is settled.

:class:`PromptKeeper` (``client.prompts``) owns every edit of a decision's prompt:

* **noting** a posted prompt (:meth:`PromptKeeper.note`): if its decision was settled or taken
  back before the message was even recorded, the prompt loses its buttons at once;
* **keeping it current** (:meth:`PromptKeeper.refresh`, after every change in its channel): the
  waiting prompt is re-rendered — who decides, with which buttons, by when (or "paused") — and a
  member who is newly asked (an ally back on their feet, a new GM) gets a new message that pings
  them, since Discord notifies nobody of a mention added by an edit;
* **retiring it** (:meth:`PromptKeeper.retire`) once its decision is settled: it says how and
  its buttons go.

Edits of one message are serialised (:meth:`PromptKeeper.editing`), and an edit that re-renders
a waiting prompt reads the state inside that lock, so it can never land after the edit that
retired it and bring its buttons back. Whatever Discord refused (no access, errors past
discord.py's retries) is tried again by :meth:`PromptKeeper.retry`, run by the bot's background
loop — including decisions that have no prompt at all (the bot stopped, or could not post, between
storing a decision and noting its prompt; see :mod:`bot.ui.prompt_recovery`).
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import discord

from bot.errors import NotFound, RulesVersionUnknown
from bot.services.combat import CombatService, Decision
from bot.services.encounters import Encounter, EncounterService
from bot.store.decisions import DecisionRow
from bot.ui.backoff import Backoff
from bot.ui.combat import decision_prompt
from bot.ui.decision_view import decision_view
from bot.ui.prompt_recovery import recover

log = logging.getLogger(__name__)

REFUSED_FIRST = 30.0  # seconds before trying a message or channel that refused the bot again
REFUSED_MAX = 900.0
GRACE = 10.0  # seconds a decision may go without a noted prompt before one is recovered

GONE = "No longer waiting: it was settled or taken back before this prompt was posted."
LOST = "This decision is no longer waiting: it was settled while the bot was away."
SETTLED = "This decision is no longer waiting: it was settled."


@dataclass(frozen=True)
class Shown:
    """What a waiting prompt shows: its text, its buttons (custom id and label) and the members
    it asks."""

    content: str
    buttons: tuple[tuple[str, str], ...]
    members: frozenset[int]


@dataclass(frozen=True)
class _Retirement:
    channel_id: int
    content: str
    embed: discord.Embed | None
    keep_embed: bool


def render(encounter: Encounter, decision: Decision) -> tuple[str, discord.ui.View, Shown]:
    """A waiting decision's prompt as it stands: text, buttons and what that shows."""
    content = decision_prompt(encounter, decision)[:2000]
    view = decision_view(encounter, decision)
    buttons = tuple(
        (str(getattr(item, "custom_id", "")), str(getattr(item, "label", "")))
        for item in view.children
    )
    members = frozenset(decision.members(encounter.row.gm_id))
    return content, view, Shown(content, buttons, members)


def jump_url(guild_id: int, channel_id: int, message_id: int) -> str:
    """A link to a message."""
    return f"https://discord.com/channels/{guild_id}/{channel_id}/{message_id}"


def _unprompted_seen(encounter: Encounter, grace: float) -> None:
    """Log a decision first seen with no prompt noted, left ``grace`` seconds to its post."""
    if grace > 0:
        log.info(
            "encounter %s in channel %s: a decision has no prompt noted; its post may be under"
            " way, else it is recovered in %.0f s",
            encounter.id,
            encounter.row.channel_id,
            grace,
        )


class PromptKeeper:
    """The decision prompts of one bot process (see the module docstring)."""

    def __init__(self, client: Any) -> None:
        self._client = client
        self._channel_locks: dict[int, asyncio.Lock] = {}
        self._message_locks: weakref.WeakValueDictionary[int, asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )
        self._shown: dict[int, Shown] = {}  # by prompt message id
        self._retirements: dict[int, _Retirement] = {}  # by message id: retirements refused
        # Messages whose retirement, and channels whose prompt, the bot was refused.
        self.refused_messages: Backoff[int] = Backoff(REFUSED_FIRST, REFUSED_MAX)
        self.refused_channels: Backoff[int] = Backoff(REFUSED_FIRST, REFUSED_MAX)
        # Channels where posting a lost prompt was refused (its own wait: a re-render that
        # works there must not reset it).
        self.refused_posts: Backoff[int] = Backoff(REFUSED_FIRST, REFUSED_MAX)
        self._looked_after_start = False
        self.stale: set[int] = set()  # channels whose waiting prompt could not be re-rendered
        self._unprompted_since: dict[tuple[int, tuple[tuple[int, int], ...]], float] = {}
        # Encounter id → how many of its results this process is posting now, with the
        # prompts of the decisions they opened (:meth:`posting`).
        self._posting: dict[int, int] = {}
        self.grace = GRACE

    @property
    def _encounters(self) -> EncounterService:
        service: EncounterService = self._client.services.encounters
        return service

    @property
    def _combat(self) -> CombatService:
        service: CombatService = self._client.services.combat
        return service

    def editing(self, message_id: int) -> asyncio.Lock:
        """The lock every edit of prompt ``message_id`` holds (a button's own edit included)."""
        lock = self._message_locks.get(message_id)
        if lock is None:
            lock = asyncio.Lock()
            self._message_locks[message_id] = lock
        return lock

    # -- a prompt is posted ----------------------------------------------------------------

    @asynccontextmanager
    async def posting(self, encounter_id: int) -> AsyncIterator[None]:
        """This process posts a result of encounter ``encounter_id`` — with the prompts of the
        decisions it opened — and notes them until the block ends: :meth:`retry` recovers none
        of its decisions' prompts meanwhile, however long Discord takes to take the post (a
        rate limit, a loaded host), and their grace starts once the block ends (a post that
        failed). The grace alone told a post under way here from a lost one: a post slower
        than it had a copy of its prompt posted beside it (the CI flake of
        ``test_a_start_up_leaves_the_turn_another_process_is_posting_to_its_post``: an answer
        held while another process started, longer than the grace on a loaded machine)."""
        self._posting[encounter_id] = self._posting.get(encounter_id, 0) + 1
        try:
            yield
        finally:
            left = self._posting.pop(encounter_id) - 1
            if left:
                self._posting[encounter_id] = left

    async def note(
        self,
        encounter: Encounter,
        decision: Decision,
        message_id: int,
        *,
        gone: str = GONE,
    ) -> bool:
        """Record ``message_id`` as the prompt of ``decision`` (of ``encounter``, as posted),
        with the members it asked. When that decision is no longer the one waiting (settled,
        expired or undone before its prompt was recorded), the prompt's text becomes ``gone``;
        when another message already shows it (posted twice: a slow post and a recovered one),
        this one says so; either way its buttons go and its embed stays. Returns whether it was
        recorded. Never raises (logged)."""
        shown = render(encounter, decision)[2]
        try:
            noted = await self._encounters.set_prompt_message(
                encounter.id,
                decision.pending_version,
                message_id,
                sorted(shown.members),
                decision.ref,
            )
        except Exception:
            log.exception("could not note prompt %s of encounter %s", message_id, encounter.id)
            return False
        if noted == "recorded":
            self._shown[message_id] = shown
            return True
        if noted == "other":
            gone = "A copy of this decision's prompt: its buttons are on the other one."
        await self.retire(encounter.row.channel_id, message_id, gone, keep_embed=True)
        return False

    # -- keeping the waiting prompt current ------------------------------------------------

    async def refresh(self, channel_id: int, *, ping: bool = True) -> None:
        """Show each of the channel's waiting decisions as it stands now in its prompt: edited
        when its text or buttons changed, and a new message pings whoever is newly asked (unless
        ``ping`` is off: the caller tells them) — judged against the members the decision's row
        says were told, so after a restart too. Never raises; a refused edit or ping is tried
        again by :meth:`retry`."""
        lock = self._channel_locks.setdefault(channel_id, asyncio.Lock())
        async with lock:
            try:
                await self._refresh(channel_id, ping=ping)
            except discord.Forbidden:
                self.stale.discard(channel_id)
                self.refused_channels.refused(channel_id)
            except RulesVersionUnknown as error:  # a newer bot's fight: trying again changes
                self.stale.discard(channel_id)  # nothing until it is ended here (or run there)
                log.warning("the prompt in channel %s is left as it is: %s", channel_id, error)
            except Exception:
                self.stale.add(channel_id)
                log.exception("could not re-render the prompt in channel %s", channel_id)
            else:
                self.stale.discard(channel_id)
                self.refused_channels.cleared(channel_id)

    async def _refresh(self, channel_id: int, *, ping: bool) -> None:
        try:
            encounter = await self._encounters.live(channel_id)
        except NotFound:
            return
        for opened in encounter.row.decisions:
            if opened.prompt_message_id is not None:
                await self._refresh_one(channel_id, opened.ref, opened.prompt_message_id, ping)

    async def _refresh_one(self, channel_id: int, ref: int, message_id: int, ping: bool) -> None:
        async with self.editing(message_id):
            # Read inside the message's lock: a decision settled before this point is seen as
            # settled; one settled after it is retired by an edit that waits for this one.
            try:
                encounter = await self._encounters.live(channel_id)
            except NotFound:
                return
            decision = self._combat.decision(encounter, ref)
            if decision is None or decision.prompt_message_id != message_id:
                return
            content, view, shown = render(encounter, decision)
            before = self._shown.get(message_id)
            if before is None or (before.content, before.buttons) != (
                shown.content,
                shown.buttons,
            ):
                channel = self._client.get_partial_messageable(channel_id)
                try:
                    await channel.get_partial_message(message_id).edit(
                        content=content,
                        view=view,
                        allowed_mentions=discord.AllowedMentions.none(),
                    )
                except discord.NotFound:
                    return
                self._shown[message_id] = shown
                edited = True
            else:
                edited = False
        if edited and self._shared and await self._retired_meanwhile(channel_id, message_id):
            return
        await self._tell_newly_asked(encounter, decision, message_id, shown.members, ping=ping)

    async def _retired_meanwhile(self, channel_id: int, message_id: int) -> bool:
        """After an edit of a waiting prompt: whether its decision was settled meanwhile — by
        another process, whose retirement the edit, answered late, may have undone — and the
        prompt is retired again (with what it was retired with, kept in the decision's row)."""
        try:
            closed = await self._encounters.closed_prompt(message_id)
        except Exception:
            log.exception("could not read whether prompt %s still waits", message_id)
            return False
        if closed is None:
            return False
        await self._retire_as_kept(channel_id, message_id, closed, SETTLED)
        return True

    async def _tell_newly_asked(
        self,
        encounter: Encounter,
        decision: Decision,
        message_id: int,
        members: frozenset[int],
        *,
        ping: bool,
    ) -> None:
        """Ping, in a new message, the members the decision asks now and had not asked before
        (a mention added by an edit notifies nobody); then the row remembers who is asked. A
        refused ping raises :class:`discord.Forbidden` (tried again later), nothing recorded."""
        decision_id = decision.row_id
        if decision_id is None:
            return
        asked = decision.asked
        newly = members - set(asked) if asked is not None else frozenset()
        if newly and ping:
            await self._ping(encounter, decision, message_id, newly)
        if asked is None or set(asked) != members:
            await self._encounters.set_asked(
                decision_id, sorted(members), encounter_id=encounter.id
            )

    async def _ping(
        self, encounter: Encounter, decision: Decision, message_id: int, members: frozenset[int]
    ) -> None:
        """Tell the newly asked members (raises :class:`discord.HTTPException` if refused)."""
        mentions = " ".join(f"<@{uid}>" for uid in sorted(members))
        link = jump_url(encounter.row.guild_id, encounter.row.channel_id, message_id)
        what = decision.words.ping
        channel = self._client.get_partial_messageable(encounter.row.channel_id)
        await channel.send(
            f"{mentions} you now have a choice to make: {what}. The buttons are on its "
            f"prompt: {link}"[:2000],
            allowed_mentions=discord.AllowedMentions(
                everyone=False, roles=False, users=[discord.Object(id=u) for u in members]
            ),
        )

    # -- a decision is settled -------------------------------------------------------------

    async def _retire_as_kept(
        self, channel_id: int, message_id: int, row: DecisionRow, otherwise: str
    ) -> bool:
        """:meth:`retire` with what ``row`` (a closed decision) keeps for its prompt — its text,
        else ``otherwise``; its embed, else the prompt's own."""
        embed = discord.Embed.from_dict(row.retire_embed) if row.retire_embed else None
        return await self.retire(
            channel_id,
            message_id,
            row.retire_text or otherwise,
            embed,
            keep_embed=row.retire_text is None or row.retire_embed is None,
        )

    async def retire(
        self,
        channel_id: int,
        message_id: int,
        content: str,
        embed: discord.Embed | None = None,
        *,
        keep_embed: bool = False,
    ) -> bool:
        """Edit a decision's prompt to say how it was settled (``content``, with ``embed`` —
        or its own embed kept, ``keep_embed``) and remove its buttons. Returns whether it was
        done; never raises. Refused (no access, Discord errors), what it should say is kept —
        in the decision's row, so across restarts — and :meth:`retry` does it later."""
        retirement = _Retirement(channel_id, content[:2000], embed, keep_embed)
        self._shown.pop(message_id, None)
        if self._shared:  # kept first: another process's late edit can be undone with it
            await self._retired(message_id, retirement, False)
        async with self.editing(message_id):
            done = await self._retire(message_id, retirement)
        await self._retired(message_id, retirement, done)
        return done

    @property
    def _shared(self) -> bool:
        """Whether other processes share the database (and edit this one's prompts too)."""
        return bool(self._client.settings.shares_database)

    async def retired_by_click(self, message_id: int) -> None:
        """A button's own answer replaced prompt ``message_id`` (its buttons gone)."""
        self._shown.pop(message_id, None)
        await self._retired(message_id, None, True)

    async def _retired(self, message_id: int, retirement: _Retirement | None, done: bool) -> None:
        try:
            if done:
                self._retirements.pop(message_id, None)
                self.refused_messages.cleared(message_id)
                await self._encounters.prompt_retired(message_id, keep=self._shared)
                return
            assert retirement is not None
            embed: dict[str, Any] | None = None  # None: keep the prompt's own embed
            if not retirement.keep_embed:  # {}: no embed at all
                embed = dict(retirement.embed.to_dict()) if retirement.embed is not None else {}
            kept = await self._encounters.retire_later(message_id, retirement.content, embed)
            if kept:
                self._retirements.pop(message_id, None)
            else:  # not a decision's prompt (a copy, or one noted too late): kept here
                self._retirements[message_id] = retirement
        except Exception:
            log.exception("could not note the retirement of prompt %s", message_id)

    async def _retire(self, message_id: int, retirement: _Retirement) -> bool:
        channel = self._client.get_partial_messageable(retirement.channel_id)
        fields: dict[str, Any] = {"content": retirement.content, "view": None}
        if not retirement.keep_embed:
            fields["embed"] = retirement.embed
        try:
            await channel.get_partial_message(message_id).edit(
                **fields, allowed_mentions=discord.AllowedMentions.none()
            )
        except discord.NotFound:
            return True  # nothing left to retire
        except discord.Forbidden as error:
            log.info("may not retire prompt %s yet: %s", message_id, error)
            self.refused_messages.refused(message_id)
            return False
        except discord.HTTPException:
            log.exception(
                "could not retire prompt %s in channel %s", message_id, retirement.channel_id
            )
            return False
        return True

    async def retire_ended(self, ended: Encounter) -> None:
        """An encounter ended while decisions waited: each prompt says so and loses its
        buttons."""
        for decision in self._combat.decisions(ended):
            if decision.prompt_message_id is None:
                continue
            await self.retire(
                ended.row.channel_id,
                decision.prompt_message_id,
                f"The encounter ended before this {decision.words.noun} was decided.",
            )

    # -- the background loop --------------------------------------------------------------

    async def retry(self, *, grace: float | None = None) -> None:
        """Try again whatever was refused or lost: retirements (those kept in the decisions'
        rows, those of decisions closed ``grace`` seconds ago or more whose prompt nobody
        retired — the bot stopped in between — and copies kept here), waiting prompts that
        could not be re-rendered or pings that could not be sent, and decisions with no noted
        prompt (``grace`` seconds unnoted, so a prompt another process is posting right now is
        not posted twice; 0 at start-up; never one this process is posting, :meth:`posting`).
        Never raises."""
        wait = self.grace if grace is None else grace
        await self._retry_retirements(wait)
        again = [*self.stale, *self.refused_channels.due()]
        if not self._looked_after_start:  # every waiting prompt once: a ping refused or an
            self._looked_after_start = True  # edit lost before a restart is made good
            again += await self._waiting_channels()
        for channel_id in dict.fromkeys(again):
            await self.refresh(channel_id)
        await self._recover_unprompted(wait)

    async def _waiting_channels(self) -> list[int]:
        try:
            return await self._encounters.channels_waiting()
        except Exception:
            log.exception("could not read the channels whose decision waits")
            return []

    async def _retry_retirements(self, grace: float) -> None:
        try:
            kept = await self._encounters.to_retire()
        except Exception:
            log.exception("could not read the prompts left to retire")
            kept = []
        cutoff = self._clock() - timedelta(seconds=grace)
        for channel_id, row in kept:
            message_id = row.prompt_message_id
            assert message_id is not None
            lost = row.retire_text is None and row.closed_at is not None and row.closed_at <= cutoff
            if (row.retire_text is None and not lost) or self.refused_messages.waiting(message_id):
                continue
            await self._retire_as_kept(channel_id, message_id, row, LOST)
        for message_id, retirement in list(self._retirements.items()):
            if self.refused_messages.waiting(message_id):
                continue
            async with self.editing(message_id):
                done = await self._retire(message_id, retirement)
            if done:
                self._retirements.pop(message_id, None)
                self.refused_messages.cleared(message_id)

    def _clock(self) -> datetime:
        return self._encounters.now()

    async def _recover_unprompted(self, grace: float) -> None:
        try:
            unprompted = await self._encounters.unprompted()
        except Exception:
            log.exception("could not read the decisions without a prompt")
            return
        now = asyncio.get_running_loop().time()
        current = {
            (e.id, tuple((d.ref, d.opened_version) for d in e.row.decisions)): e
            for e in unprompted
            if e.id not in self._posting  # its prompt is being posted here (posting)
        }
        for key in list(self._unprompted_since):
            if key not in current:
                del self._unprompted_since[key]
        for key, encounter in current.items():
            since = self._unprompted_since.get(key)
            channel_id = encounter.row.channel_id
            if since is None:
                since = self._unprompted_since[key] = now
                _unprompted_seen(encounter, grace)
            if now - since < grace or self.refused_posts.waiting(channel_id):
                continue
            try:
                await recover(self._client, encounter)
            except discord.HTTPException as error:
                self.refused_posts.refused(channel_id)
                log.warning(
                    "could not recover the prompt of encounter %s in channel %s: %s",
                    encounter.id,
                    channel_id,
                    error,
                )
            except Exception:
                log.exception("could not recover the prompt of encounter %s", encounter.id)
            else:
                self.refused_posts.cleared(channel_id)


def keeper_of(interaction: discord.Interaction[Any]) -> PromptKeeper:
    """The bot's :class:`PromptKeeper`."""
    keeper: PromptKeeper = interaction.client.prompts
    return keeper
