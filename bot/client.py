"""The discord.py client: wires cogs, dynamic buttons and command sync to the services."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar, cast

import discord
from discord.ext import commands

from bot.errors import DomainError, RulesVersionUnknown
from bot.services.away import marks_read_fresh
from bot.services.combat import CombatResult
from bot.services.container import Services
from bot.services.reminders import Reminder
from bot.services.turn_deadlines import TurnLapse
from bot.settings import Settings
from bot.store.base import Store
from bot.store.server_clock import ServerClock
from bot.sync import sync_if_changed
from bot.ui.channel_permissions import warn_gm_if_blind
from bot.ui.combat_flow import announce, window_over
from bot.ui.deadlines import announce_deadline, post_reminder
from bot.ui.encounter_end import EndCancelButton, EndConfirmButton
from bot.ui.member_views import MemberDeleteCancel, MemberDeleteConfirm
from bot.ui.notices import deliver_notices
from bot.ui.prompt_messages import PromptKeeper
from bot.ui.reaction_buttons import GmReactionChooser, ReactionButton
from bot.ui.replies import CombatTree
from bot.ui.server_views import ServerEndCancel, ServerEndConfirm
from bot.ui.sheets_views import SheetDeleteCancel, SheetDeleteConfirm
from bot.ui.stale_prompt import StalePromptButton
from bot.ui.tracker_keeper import TrackerKeeper, cannot_post, removed_notice, tell_gm
from bot.ui.turn_buttons import TurnMoveButton, TurnTargetSelect
from bot.ui.turn_pings import TurnPingKeeper
from cogs.act import ActCog
from cogs.away import AwayCog
from cogs.campaign import CampaignCog
from cogs.character import CharacterCog
from cogs.combat import CombatCog
from cogs.dice import DiceCog
from cogs.encounter import EncounterCog
from cogs.gm import GmCog
from cogs.help import HelpCog
from cogs.me import MeCog
from cogs.npc import NpcCog
from cogs.odds import OddsCog
from cogs.reactions import ReactionsCog
from cogs.rehearse import RehearseCog
from cogs.server import ServerCog
from cogs.tables import TablesCog

log = logging.getLogger(__name__)

NOTICE_TASK = "discord.py: on_app_command_completion"
EXPIRY_PASS = "expiry-pass"
RECOVERY = "start-up-recovery"
IN_FLIGHT = (
    NOTICE_TASK,  # a member's notices, delivered after a command
    "CommandTree-invoker",  # a slash command (discord.py's name for its task)
    "discord-ui-",  # a button, select or modal: discord.py's dynamic-item, view and modal tasks
    EXPIRY_PASS,  # a pass of the expiry loop (:meth:`CombatBot._expire_decisions`)
    RECOVERY,  # what a stop left unsaid, posted at start-up (:meth:`CombatBot._recover`)
    "discord.py: on_guild_remove",  # pausing the fights of a server the bot was removed from
    "discord.py: on_ready",  # the same, for a server it was removed from while stopped
    "discord.py: on_guild_role_delete",  # forgetting a deleted GM or starter role
)
"""Names (prefixes) of the tasks :meth:`CombatBot.close` lets finish before the database
closes: each may have committed a change and still be posting it or noting what it posted."""
SHUTDOWN_GRACE = 5.0  # seconds close() waits for the work in flight (IN_FLIGHT)

DYNAMIC_ITEMS = (
    EndConfirmButton,
    EndCancelButton,
    SheetDeleteConfirm,
    SheetDeleteCancel,
    StalePromptButton,
    ReactionButton,
    GmReactionChooser,
    MemberDeleteConfirm,
    MemberDeleteCancel,
    ServerEndConfirm,
    ServerEndCancel,
    TurnMoveButton,
    TurnTargetSelect,
)


Pass = TypeVar("Pass", bound=Callable[..., Awaitable[Any]])


def _away_marks_read_fresh(method: Pass) -> Pass:
    """A pass of the background loop reads away marks from the database where other processes
    share it (:func:`bot.services.away.marks_read_fresh`): it works on every server's fights,
    and a server's ``/away`` or ``/back`` drops the marks kept only in the process of its
    shard."""

    @functools.wraps(method)
    async def reading_fresh(self: CombatBot, *args: Any, **kwargs: Any) -> Any:
        with marks_read_fresh(self.db.shared_by_processes):
            return await method(self, *args, **kwargs)

    return cast(Pass, reading_fresh)


class GatewayUnreachable(Exception):
    """The first connection to Discord's gateway failed (``error``; README, "Running")."""

    def __init__(self, error: BaseException) -> None:
        super().__init__(str(error))
        self.error = error


class CombatBot(commands.Bot):
    """The bot. Everything it needs comes in through the constructor.

    One unsharded gateway connection; a sharded process is a :class:`ShardedCombatBot` (see
    :func:`bot_class`). ``expiry_interval`` is the pause (seconds) between two passes of the
    background loop that expires reaction windows (:meth:`expire_due`) and retries refused
    trackers and prompts; ``None`` starts no loop, and whoever holds the bot runs the passes
    (tests, with the services' injected clock)."""

    def __init__(
        self,
        *,
        settings: Settings,
        db: Store,
        services: Services,
        guild_ready_timeout: float = 2.0,
        expiry_interval: float | None = 1.0,
    ) -> None:
        # The bot never joins voice: no warnings about the voice libraries it does not need.
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
        self._stopping = False  # set by close(): no new notice deliveries
        intents = discord.Intents.none()
        intents.guilds = True
        shards: dict[str, Any] = {}
        if settings.shard_count is not None:  # only AutoShardedClient reads these
            shards["shard_count"] = settings.shard_count
            if settings.shard_ids is not None:
                shards["shard_ids"] = list(settings.shard_ids)
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            tree_cls=CombatTree,
            help_command=None,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            guild_ready_timeout=guild_ready_timeout,
            **shards,
        )
        self.settings = settings
        self.db = db
        self.services = services
        self.expiry_interval = expiry_interval
        self._expiry_task: asyncio.Task[None] | None = None
        self._pass: asyncio.Task[None] | None = None  # the expiry loop's pass running now
        # The database server's clock, every service's where processes share the database
        # (set by bot.__main__.build): read again by the background loop now and then.
        self.server_clock: ServerClock | None = None
        self._recovery: asyncio.Task[None] | None = None  # the start-up recovery (_recover)
        self.trackers = TrackerKeeper(self)
        self.prompts = PromptKeeper(self)
        self.turn_pings = TurnPingKeeper(self)

    async def connect(self, *, reconnect: bool = True) -> None:
        """discord.py's, its first connection's failure raised as :class:`GatewayUnreachable`.
        Unsharded, discord.py retries a failed connection with its backoff — but the first one
        (no session yet) fails again as soon as it has waited, with ``AttributeError:
        'NoneType' object has no attribute 'sequence'`` (discord.py 2.7.1, issue #10520), and
        the process ended on that traceback. A gateway lost later is retried by discord.py as
        long as it takes (:mod:`bot.reconnect_log` keeps each try to one line)."""
        try:
            await super().connect(reconnect=reconnect)
        except AttributeError as error:
            failed = error.__context__
            if self.ws is not None or failed is None:  # not discord.py's #10520
                raise
            raise GatewayUnreachable(failed) from None

    async def setup_hook(self) -> None:
        """After login, before the gateway: cogs, buttons that outlive restarts, command sync."""
        await self.add_cog(
            EncounterCog(self.services.encounters, self.services.sheets, self.services.combat)
        )
        await self.add_cog(CharacterCog(self.services.sheets, self.services.encounters))
        await self.add_cog(NpcCog(self.services.sheets, self.services.encounters))
        await self.add_cog(
            GmCog(
                self.services.encounters,
                self.services.sheets,
                self.services.combat,
                self.services.moderation,
            )
        )
        await self.add_cog(CombatCog(self.services.combat, self.services.encounters))
        await self.add_cog(ActCog(self.services.combat, self.services.encounters))
        await self.add_cog(OddsCog(self.services.combat, self.services.encounters))
        await self.add_cog(RehearseCog(self.services.rehearsal))
        await self.add_cog(ReactionsCog(self.services.combat))
        await self.add_cog(DiceCog())
        await self.add_cog(HelpCog(self.services.encounters))
        await self.add_cog(TablesCog(self.services.tables, self.services.encounters))
        await self.add_cog(ServerCog(self.services.server_admin, self.services.member_data))
        await self.add_cog(
            MeCog(
                self.services.member_data,
                self.services.combat.standing,
                self.services.member_settings,
            )
        )
        await self.add_cog(CampaignCog(self.services.campaign))
        await self.add_cog(AwayCog(self.services.away, self.services.encounters))
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        assert self.application_id is not None
        if self.settings.syncs_commands:
            await sync_if_changed(
                self.tree,
                self.db,
                application_id=self.application_id,
                dev_guild_id=self.settings.dev_guild_id,
            )
        else:
            log.info(
                "shards %s: slash commands are synced by the process that runs shard 0",
                ",".join(map(str, self.settings.shard_ids or ())),
            )
        if self.expiry_interval is not None:
            # Read before the gateway brings any command: a turn a command of this process
            # begins is its own post's to show, never posted twice.
            owed = await self.turn_pings.owed()
            self._expiry_task = asyncio.create_task(
                self._expire_decisions(self.expiry_interval, owed), name="reaction-expiry"
            )

    def dispatch(self, event: str, /, *args: Any, **kwargs: Any) -> None:
        if event == "app_command_completion" and self._stopping:
            return  # no notice delivery starts while the bot shuts down
        super().dispatch(event, *args, **kwargs)

    async def close(self) -> None:
        """Stop: no new notice delivery or expiry pass starts; the commands, clicks, notice
        deliveries, expiry pass and start-up recovery in flight (:data:`IN_FLIGHT`) get
        :data:`SHUTDOWN_GRACE` seconds to finish — a change they committed is still announced,
        and what they posted still noted — before the loop stops and the gateway closes (the
        caller then closes the database: ``bot.__main__.run``, on SIGTERM too). A start-up
        recovery still running then is cut off, giving back the ping it claimed and did not
        post: owed again at the next start, never half done."""
        self._stopping = True
        # Rehearsals stop now, so their GMs are told within the grace (they take up to 60 s).
        self.services.rehearsal.close()
        me = asyncio.current_task()
        in_flight = [
            task
            for task in asyncio.all_tasks()
            if task is not me and not task.done() and task.get_name().startswith(IN_FLIGHT)
        ]
        if in_flight:
            await asyncio.wait(in_flight, timeout=SHUTDOWN_GRACE)
        if self._expiry_task is not None:
            self._expiry_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._expiry_task
        if self._recovery is not None and not self._recovery.done():
            # Past the grace: cut off now, while the database is open, so that it gives back
            # the ping it claimed and did not post (owed again at the next start).
            self._recovery.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._recovery
        await super().close()

    async def _expire_decisions(self, interval: float, owed: list[tuple[int, int]]) -> None:
        """Every ``interval`` seconds, resolve the decisions whose reaction window ran out (with
        no reaction) and post the result, then try again the trackers and decision prompts
        Discord refused (and post the prompt of any decision that has none). Deadlines live in
        the database: a window that ran out while the bot was down is applied as soon as it is
        back — by any process of the bot: a pass serves every server in the database, not only
        those of this process's shards (see :meth:`expire_due`) — and one claimed by another
        process that died before expiring it is taken again when the claim lapses
        (:data:`bot.store.expiry.LEASE`).

        First, what a stop left unsaid: the ping of each turn in ``owed`` — the running turns no
        posted result showed (:meth:`bot.ui.turn_pings.TurnPingKeeper.owed`, read at start-up)
        — and then the lost decision prompts (where other processes share the database, each
        only once a post under way in one of them would have been noted:
        :attr:`bot.settings.Settings.shares_database`); each pass also posts such a ping Discord
        refused (until it posts or its turn is shown otherwise) and takes the buttons off turn
        pings whose turn is over where that was refused or skipped
        (:meth:`bot.ui.turn_pings.TurnPingKeeper.retry`)."""
        await self.wait_until_ready()
        if self._stopping:
            return  # everything owed stays owed to the next start
        # A task of its own, which close() lets finish (SHUTDOWN_GRACE) as it does a pass.
        self._recovery = asyncio.create_task(self._recover(owed), name=RECOVERY)
        await asyncio.shield(self._recovery)
        while not self.is_closed() and not self._stopping:
            # A task of its own, which close() lets finish: cancelled between committing an
            # expiry and posting it, a pass would leave the result unannounced for good.
            self._pass = asyncio.create_task(self._expiry_pass(), name=EXPIRY_PASS)
            await asyncio.shield(self._pass)
            await asyncio.sleep(interval)

    @property
    def stopping(self) -> bool:
        """Whether :meth:`close` began: work that can wait for the next start stops here."""
        return self._stopping

    @_away_marks_read_fresh
    async def _recover(self, owed: list[tuple[int, int]]) -> None:
        """What a stop left unsaid (see :meth:`_expire_decisions`). A shutdown during it lets
        the ping being posted finish (:data:`SHUTDOWN_GRACE`) and claims no more: what is
        left stays owed to the next start (:meth:`bot.ui.turn_pings.TurnPingKeeper.recover`)."""
        await self.turn_pings.recover(owed)
        if self._stopping:
            return
        # Prompts lost while the bot was away, right away — unless other processes share the
        # database: one of them may be posting a prompt right now (its decision committed,
        # its answer on the way), so a prompt unnoted at start-up gets the usual grace.
        await self.prompts.retry(grace=None if self.settings.shares_database else 0)

    @_away_marks_read_fresh
    async def _expiry_pass(self) -> None:
        if self.server_clock is not None:
            await self.server_clock.sync_if_due()
        await self.expire_due()
        await self.trackers.retry_stale()
        await self.prompts.retry()
        await self.turn_pings.retry()

    @_away_marks_read_fresh
    async def expire_due(self) -> list[CombatResult]:
        """One expiry pass: every decision whose window has run out by the services' clock and
        that this process claimed (:meth:`bot.services.combat.CombatService.due`; with several
        processes on one database each goes to one of them) is expired — committed first — and
        announced in its channel, each on its own, so one channel's failure (a lost
        permission, Discord errors) never holds up the others. Returns the results this pass
        committed; a decision settled meanwhile (a click, another pass, a pause) is skipped and
        nothing changes (logged at INFO). When expiring fails the claim is let go, and the next
        pass (of any process) tries again. Never raises (failures are logged).

        Every due decision in the database may be this pass's, whichever shard owns its server:
        several processes (PostgreSQL, issue 16) each run the loop, each due decision is claimed
        by one of them (``FOR UPDATE SKIP LOCKED``), and the versioned change lets at most one
        expire it. The result is posted through Discord's REST API, which any process may use
        for any channel."""
        try:
            due = await self.services.combat.due()
        except Exception:
            log.exception("could not read the due decisions; retrying")
            return []
        expired = [await self._expire_one(encounter_id, version) for encounter_id, version in due]
        await self.fire_turn_deadlines()
        return [result for result in expired if result is not None]

    @_away_marks_read_fresh
    async def fire_turn_deadlines(self) -> list[TurnLapse]:
        """Fire every passed turn deadline (issue 17), each on its own and at most once: the
        turn ends and the result is posted, or the GM is told. Never raises."""
        await self.send_reminders()
        try:
            due = await self.services.combat.deadlines.due()
        except Exception:
            log.exception("could not read the due turn deadlines; retrying")
            return []
        fired = [await self._fire_one(encounter_id, timer) for encounter_id, timer in due]
        return [lapse for lapse in fired if lapse is not None]

    @_away_marks_read_fresh
    async def send_reminders(self) -> list[Reminder]:
        """Mention each member whose turn or reaction reached a reminder point (issue 17), each
        point at most once per window, outside the member's quiet hours. Never raises."""
        reminders = self.services.reminders
        try:
            due = await reminders.due()
        except Exception:
            log.exception("could not read the due reminders; retrying")
            return []
        sent: list[Reminder] = []
        for encounter_id, timer_id in due:
            try:
                reminder = await reminders.remind(encounter_id, timer_id)
            except DomainError:
                continue  # sent by another pass, or the turn ended meanwhile
            except Exception:
                log.exception("could not claim the reminder in encounter %s", encounter_id)
                continue
            sent.append(reminder)
            try:
                await post_reminder(self, reminder)
            except discord.Forbidden:  # the point counts as sent: the GM hears why it was not
                channel = reminder.encounter.row.channel_id
                await tell_gm(self, reminder.encounter, cannot_post(channel, "a reminder"))
            except Exception:
                log.exception("could not post the reminder in encounter %s", encounter_id)
        return sent

    async def _fire_one(self, encounter_id: int, timer_id: int) -> TurnLapse | None:
        try:
            lapse = await self.services.combat.deadlines.fire(encounter_id, timer_id)
        except DomainError:
            return None  # the turn ended meanwhile, or another pass fired it
        except Exception:
            log.exception("could not fire the turn deadline of encounter %s", encounter_id)
            return None
        try:
            await announce_deadline(self, lapse)
        except discord.Forbidden:  # the turn ended all the same: the GM hears why it is unsaid
            channel = lapse.encounter.row.channel_id
            await tell_gm(self, lapse.encounter, cannot_post(channel, "a passed turn deadline"))
        except Exception:
            log.exception("could not announce the turn deadline in encounter %s", encounter_id)
        return lapse

    async def _expire_one(self, encounter_id: int, pending_version: int) -> CombatResult | None:
        """Expire one decision (committed first) and announce it; a failed announcement is
        logged and, when the bot may not post there, told to the GM. ``None``: nothing was
        committed (decided meanwhile, or the change failed)."""
        try:
            result = await self.services.combat.expire(encounter_id, pending_version)
        except RulesVersionUnknown as error:  # a newer bot's fight: tried again when the claim
            log.warning(  # lapses (bot.store.expiry.LEASE)
                "the decision of encounter %s opened at version %s cannot expire here: %s",
                encounter_id,
                pending_version,
                error,
            )
            return None
        except DomainError as error:  # a click, another pass or process settled it meanwhile
            log.info(
                "the decision of encounter %s opened at version %s was settled meanwhile "
                "(a click, another pass or process): %s",
                encounter_id,
                pending_version,
                error,
            )
            return None
        except Exception:
            log.exception("could not expire the decision of encounter %s", encounter_id)
            return None
        try:
            await announce(self, result)
        except discord.Forbidden:
            channel = result.encounter.row.channel_id
            await tell_gm(
                self, result.encounter, cannot_post(channel, f"the post “{window_over(result)}”")
            )
        except Exception:
            log.exception("could not announce the expiry in encounter %s", encounter_id)
        return result

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """The bot was removed from ``guild`` (not a server gone unavailable in an outage):
        its live encounters pause (:meth:`ModerationService.pause_for_removal`) and each GM is
        left a notice for their next command there, once the bot is back. Its data stays
        (README, "Removing the bot"). Never raises."""
        assert self.user is not None
        try:
            paused = await self.services.moderation.pause_for_removal(guild.id, self.user.id)
        except Exception:
            log.exception("could not pause the encounters of server %s the bot left", guild.id)
            return
        log.info("removed from server %s: paused %d live encounter(s)", guild.id, len(paused))
        for encounter in paused:
            await tell_gm(self, encounter, removed_notice(encounter))

    async def pause_where_removed(self) -> None:
        """Once the gateway said which servers the bot is in (READY; a server unavailable in
        an outage is listed too): the bot was removed while it was stopped from each server of
        this process's shards that has a running encounter and is not listed, and those pause
        as :meth:`on_guild_remove` pauses them, each GM left the same notice
        (:meth:`ModerationService.pause_where_absent`). Never raises."""
        assert self.user is not None
        present = {guild.id for guild in self.guilds}
        try:
            paused = await self.services.moderation.pause_where_absent(
                present, self.settings.runs_guild, self.user.id
            )
        except Exception:
            log.exception("could not pause the encounters of servers the bot left while stopped")
            return
        log.info(
            "in %d server(s) at start-up: paused %d encounter(s) of servers it left while stopped",
            len(present),
            len(paused),
        )
        for encounter in paused:
            log.info(
                "removed from server %s while stopped: paused encounter %s",
                encounter.row.guild_id,
                encounter.id,
            )
            await tell_gm(self, encounter, removed_notice(encounter))

    async def on_guild_role_delete(self, role: discord.Role) -> None:
        """A role was deleted on Discord: forget it as the server's GM or starter role
        (:meth:`ModerationService.forget_role`). Never raises."""
        try:
            cleared = await self.services.moderation.forget_role(role.guild.id, role.id)
        except Exception:
            log.exception(
                "could not forget the deleted role %s of server %s", role.id, role.guild.id
            )
            return
        if cleared:
            log.info("server %s: deleted role %s was its %s role", role.guild.id, role.id, cleared)

    async def on_app_command_completion(
        self, interaction: discord.Interaction[CombatBot], command: object
    ) -> None:
        """After a slash command was answered: the member's pending notices, as an ephemeral
        followup (never raises; see :func:`bot.ui.notices.deliver_notices`)."""
        await deliver_notices(self.services.notices, interaction)
        await warn_gm_if_blind(self, interaction)

    async def on_interaction(self, interaction: discord.Interaction[CombatBot]) -> None:
        """Every interaction, as it arrives: its snowflake is the latest issue mark seen, and
        how long after its creation it arrives tells Discord's clock; both date the turns and
        decisions that begin from now on (so a command typed for one that has just ended is
        refused, even if Discord delivers it a moment after)."""
        self.services.encounters.observe(interaction.id, arrived=True)

    async def on_ready(self) -> None:
        assert self.user is not None
        log.info("ready as %s (%s) in %d server(s)", self.user, self.user.id, len(self.guilds))
        await self.pause_where_removed()


class ShardedCombatBot(CombatBot, commands.AutoShardedBot):
    """The bot on discord.py's ``AutoShardedClient``: it runs the shards ``SHARD_IDS`` of
    ``SHARD_COUNT`` (all of them when SHARD_IDS is unset), one gateway connection each, and
    Discord sends it the events of exactly the servers those shards own
    (``(guild_id >> 22) % shard_count``).

    A stop during start-up stops it: discord.py connects the shards one after another (each
    waits its turn to identify) and retries one that failed to connect every 5 s, forever, even
    once the client is closed — a ``SIGTERM`` or Ctrl+C while the shards connected left the
    process running, logging a traceback per retry. :meth:`close` cancels the launch."""

    _launch: asyncio.Task[None] | None = None

    async def launch_shards(self) -> None:
        """discord.py's, as a task :meth:`close` can cancel."""
        self._launch = asyncio.create_task(super().launch_shards(), name="launch-shards")
        try:
            await self._launch
        except asyncio.CancelledError:
            if not self.is_closed():
                raise  # cancelled from outside, not by close()

    async def close(self) -> None:
        await super().close()
        if self._launch is not None and not self._launch.done():
            self._launch.cancel()

    async def on_ready(self) -> None:
        assert self.user is not None
        log.info(
            "ready as %s (%s) in %d server(s), shards %s of %s",
            self.user,
            self.user.id,
            len(self.guilds),
            ",".join(map(str, sorted(self.shards))),
            self.shard_count,
        )
        await self.pause_where_removed()


def bot_class(settings: Settings) -> type[CombatBot]:
    """:class:`ShardedCombatBot` when ``SHARD_COUNT`` is set, else :class:`CombatBot` (one
    unsharded connection, as the bot always ran)."""
    return ShardedCombatBot if settings.shard_count is not None else CombatBot
