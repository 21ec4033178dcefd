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
from dataclasses import dataclass
from typing import Any

import discord

from bot.errors import NotFound
from bot.services.combat import CombatService, Decision
from bot.services.encounters import Encounter, EncounterService
from bot.ui.backoff import Backoff
from bot.ui.combat import decision_prompt
from bot.ui.decision_view import decision_view
from bot.ui.prompt_recovery import recover
from bot.ui.text import shown_name

log = logging.getLogger(__name__)

REFUSED_FIRST = 30.0  # seconds before trying a message or channel that refused the bot again
REFUSED_MAX = 900.0
GRACE = 10.0  # seconds a decision may go without a noted prompt before one is recovered

GONE = "No longer waiting: it was settled or taken back before this prompt was posted."


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
        self.stale: set[int] = set()  # channels whose waiting prompt could not be re-rendered
        self._unprompted_since: dict[tuple[int, int], float] = {}
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

    async def note(
        self,
        encounter: Encounter,
        decision: Decision,
        message_id: int,
        *,
        gone: str = GONE,
    ) -> bool:
        """Record ``message_id`` as the prompt of ``decision`` (of ``encounter``, as posted).
        When that decision is no longer the one waiting (settled, expired or undone before its
        prompt was recorded), the prompt's text becomes ``gone`` and its buttons go (its embed
        stays). Returns whether it was recorded. Never raises (logged)."""
        try:
            recorded = await self._encounters.set_prompt_message(
                encounter.id, decision.pending_version, message_id
            )
        except Exception:
            log.exception("could not note prompt %s of encounter %s", message_id, encounter.id)
            return False
        if recorded:
            self._shown[message_id] = render(encounter, decision)[2]
            return True
        await self.retire(encounter.row.channel_id, message_id, gone, keep_embed=True)
        return False

    # -- keeping the waiting prompt current ------------------------------------------------

    async def refresh(self, channel_id: int, *, ping: bool = True) -> None:
        """Show the channel's waiting decision as it stands now in its prompt: edited only when
        its text or buttons changed, and a new message pings whoever is newly asked (unless
        ``ping`` is off: the caller tells them). Never raises; a failure is tried again by
        :meth:`retry`."""
        lock = self._channel_locks.setdefault(channel_id, asyncio.Lock())
        async with lock:
            try:
                await self._refresh(channel_id, ping=ping)
            except discord.Forbidden:
                self.stale.discard(channel_id)
                self.refused_channels.refused(channel_id)
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
        message_id = encounter.row.prompt_message_id
        if message_id is None or encounter.row.pending_version is None:
            return
        async with self.editing(message_id):
            # Read inside the message's lock: a decision settled before this point is seen as
            # settled; one settled after it is retired by an edit that waits for this one.
            encounter = await self._encounters.live(channel_id)
            decision = self._combat.decision(encounter)
            if decision is None or encounter.row.prompt_message_id != message_id:
                return
            content, view, shown = render(encounter, decision)
            before = self._shown.get(message_id)
            if (
                before is not None
                and before.content == shown.content
                and (before.buttons == shown.buttons)
            ):
                return
            channel = self._client.get_partial_messageable(channel_id)
            try:
                await channel.get_partial_message(message_id).edit(
                    content=content, view=view, allowed_mentions=discord.AllowedMentions.none()
                )
            except discord.NotFound:
                return
            self._shown[message_id] = shown
        newly = shown.members - before.members if before is not None else frozenset()
        if newly and ping:
            await self._ping(encounter, decision, message_id, newly)

    async def _ping(
        self, encounter: Encounter, decision: Decision, message_id: int, members: frozenset[int]
    ) -> None:
        """Tell the newly asked members (a mention added by an edit notifies nobody)."""
        mentions = " ".join(f"<@{uid}>" for uid in sorted(members))
        link = jump_url(encounter.row.guild_id, encounter.row.channel_id, message_id)
        what = (
            f"**{shown_name(decision.target.name)}** surrendered to "
            f"**{shown_name(decision.attacker.name)}**"
            if decision.awaiting == "attacker"
            else f"**{shown_name(decision.attacker.name)}** attacks "
            f"**{shown_name(decision.target.name)}** with **{shown_name(decision.attack)}**"
        )
        channel = self._client.get_partial_messageable(encounter.row.channel_id)
        try:
            await channel.send(
                f"{mentions} you now have a choice to make: {what}. The buttons are on its "
                f"prompt: {link}"[:2000],
                allowed_mentions=discord.AllowedMentions(
                    everyone=False, roles=False, users=[discord.Object(id=u) for u in members]
                ),
            )
        except discord.HTTPException:
            log.exception("could not ping the newly asked in channel %s", encounter.row.channel_id)

    # -- a decision is settled -------------------------------------------------------------

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
        done; never raises. Refused (no access, Discord errors), it is tried again by
        :meth:`retry` until it is done or the message is gone."""
        retirement = _Retirement(channel_id, content[:2000], embed, keep_embed)
        self._shown.pop(message_id, None)
        async with self.editing(message_id):
            done = await self._retire(message_id, retirement)
        if done:
            self._retirements.pop(message_id, None)
            self.refused_messages.cleared(message_id)
        else:
            self._retirements[message_id] = retirement
        return done

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
        """An encounter ended while a decision waited: its prompt says so and loses its
        buttons."""
        message_id = ended.row.prompt_message_id
        if message_id is None or ended.state.pending is None:
            return
        await self.retire(
            ended.row.channel_id, message_id, "The encounter ended before this attack was decided."
        )

    # -- the background loop --------------------------------------------------------------

    async def retry(self, *, grace: float | None = None) -> None:
        """Try again whatever was refused: retirements, waiting prompts that could not be
        re-rendered, and decisions with no noted prompt (after ``grace`` seconds unnoted, so a
        prompt being posted right now is not posted twice; 0 at start-up). Never raises."""
        for message_id, retirement in list(self._retirements.items()):
            if self.refused_messages.waiting(message_id):
                continue
            async with self.editing(message_id):
                done = await self._retire(message_id, retirement)
            if done:
                self._retirements.pop(message_id, None)
                self.refused_messages.cleared(message_id)
        for channel_id in [*self.stale, *self.refused_channels.due()]:
            await self.refresh(channel_id)
        await self._recover_unprompted(self.grace if grace is None else grace)

    async def _recover_unprompted(self, grace: float) -> None:
        try:
            unprompted = await self._encounters.unprompted()
        except Exception:
            log.exception("could not read the decisions without a prompt")
            return
        now = asyncio.get_running_loop().time()
        current = {(e.id, e.row.pending_version or 0): e for e in unprompted}
        for key in list(self._unprompted_since):
            if key not in current:
                del self._unprompted_since[key]
        for key, encounter in current.items():
            since = self._unprompted_since.setdefault(key, now)
            channel_id = encounter.row.channel_id
            if now - since < grace or self.refused_channels.waiting(channel_id):
                continue
            try:
                await recover(self._client, encounter)
            except discord.HTTPException as error:
                self.refused_channels.refused(channel_id)
                log.warning(
                    "could not recover the prompt of encounter %s in channel %s: %s",
                    encounter.id,
                    channel_id,
                    error,
                )
            except Exception:
                log.exception("could not recover the prompt of encounter %s", encounter.id)


def keeper_of(interaction: discord.Interaction[Any]) -> PromptKeeper:
    """The bot's :class:`PromptKeeper`."""
    keeper: PromptKeeper = interaction.client.prompts
    return keeper
