"""GM moderation: the server's GM role, handing an encounter on, pausing it, undo and redo, the
log, and the GM's adjustments that need more than one engine command's worth of preparation
(Health and Stamina from dice expressions, one-off NPCs).

Undo and redo go through :meth:`EncounterService.change` like every other change, so they are
versioned, logged and serialised with everything else in the channel, and the pending-decision
bookkeeping retires reaction buttons of a decision the undo took back.

How undo works on the log (``encounter_log``, one row per version; the state of any version is
rebuilt from the nearest earlier snapshot by replaying the commands after it with their recorded
dice, :mod:`bot.services.replay`):

* the commands that can be undone are every logged command except the bookkeeping in
  :data:`~bot.store.encounters.NOT_UNDOABLE` (start, end, undo, redo, pause, resume, transfer);
* ``undo`` takes the newest such entry that still stands and writes a new version whose state is
  the state of the version just before it (so what was rolled stays rolled — nothing is
  re-rolled); the entry is marked ``undone_by`` that version;
* ``redo`` takes the entry undone most recently and writes a new version with the state it
  produced; it stands again;
* any new command clears the redo history (``redo_cleared_by``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from bot import names
from bot.engine import AnyState, get_ruleset
from bot.engine.core.commands import CommandBase
from bot.engine.core.contract import decision_window_s
from bot.engine.core.events import Event, TurnStarted
from bot.errors import Conflict, DomainError, InvalidInput, NoEncounter, NotAllowed, NotFound
from bot.services import event_log, rolls
from bot.services.actor import Actor
from bot.services.combat import CombatResult, CombatService, Replay, find_combatant, outcome_of
from bot.services.encounters import Encounter, EncounterService
from bot.services.gm_checks import ensure_gm, ensure_row_gm, not_gm_message
from bot.services.log_commands import shown_command, typed_options
from bot.services.replay import replay
from bot.services.start_policy import ensure_may_take_over
from bot.store import encounters as repo
from bot.store import guild_encounters, guild_settings
from bot.store.base import Store, StoreConnection
from bot.store.encounters import EncounterRow, LogEntry

NOTHING_TO_UNDO = (
    "There is nothing to undo: no command has changed the encounter since it started, or every "
    "one that did is undone (starting it, pausing and handing it on are not undone)."
)
NOTHING_TO_REDO = (
    "There is nothing to redo: nothing was undone, or a command since the last undo cleared "
    "the redo history."
)
_SIGNED = re.compile(r"^\s*([+-])\s*(.+)$")


@dataclass(frozen=True)
class Amount:
    """A Health or Stamina option: set to ``value`` or change by it (``relative``); ``rolled``
    shows the dice when it was an expression."""

    value: int
    relative: bool
    rolled: str | None = None


def parse_amount(text: str, what: str = "Health and Stamina") -> Amount:
    """``15`` sets, ``+5`` / ``-3`` change, ``2d6`` sets to a roll, ``-2d6`` / ``+1d4`` change by
    one. Dice are read as ``/roll`` reads them (:mod:`bot.services.rolls`: any letter case,
    ``d%``, a label after the expression such as ``-1D6 falling rock``, the same limits);
    ``rolled`` is then the roll with its label (``falling rock: 1d6 (4) = `4```). Amounts are
    whole numbers: a decimal typed anywhere (``2.7``, ``1d6+0.5``) is refused rather than cut.
    ``what`` names the vital (or vitals) in a refusal, as the game system writes it ("SHP",
    "light wounds": the refusal's wording agrees with either, "Amounts of … are"). Raises
    :class:`InvalidInput`."""
    match = _SIGNED.match(text)
    sign, body = (match.group(1), match.group(2)) if match else ("", text.strip())
    if re.fullmatch(r"\d{1,6}", body.strip()):
        total, rolled = int(body), None
    else:
        parsed = rolls.parse(body)
        if parsed.decimal is not None:
            raise InvalidInput(
                f"Amounts of {what} are whole numbers: "
                f"`{text.strip().replace('`', '')}` "
                f"has the decimal {parsed.decimal}. Give a whole number or dice (a roll's total "
                f"always is one)."
            )
        roll = rolls.roll(parsed)
        total, rolled = roll.total, roll.summary
    if abs(total) > 100_000:
        raise InvalidInput(f"Amounts of {what} stay within ±100000.")
    return Amount(value=-total if sign == "-" else total, relative=bool(sign), rolled=rolled)


class ModerationService:
    """GM-only use cases over :class:`EncounterService` and :class:`CombatService`."""

    def __init__(
        self,
        db: Store,
        encounters: EncounterService,
        combat: CombatService,
        *,
        clock: Callable[[], datetime],
    ) -> None:
        self._db = db
        self._encounters = encounters
        self._combat = combat
        self._clock = clock

    # -- the GM role ------------------------------------------------------------------------

    async def set_gm_role(self, guild_id: int, actor: Actor, role_id: int | None) -> None:
        """Make ``role_id`` the server's GM role (``None`` removes it). Manage Server only.
        Raises :class:`InvalidInput` for @everyone (its id is the server's): every member would
        be a GM of every encounter and see what only server GMs see (hidden NPC numbers, the
        rule tables, a departed member's data) — refused as it is as the starter role."""
        if not actor.manages_guild:
            raise NotAllowed("Only a member with Manage Server can choose the GM role.")
        if role_id == guild_id:
            raise InvalidInput(
                "@everyone cannot be the GM role: every member would be a GM of every "
                "encounter, see hidden NPC numbers and change the rule tables. Choose a role "
                "only your GMs have."
            )
        async with self._db.transaction() as conn:
            await guild_settings.set_gm_role(conn, guild_id, role_id, self._clock())

    async def forget_role(self, guild_id: int, role_id: int) -> list[str]:
        """A role of the server was deleted on Discord: the server's GM role or starter role, if
        it was that one, is no role any more — as if ``/gm seat role`` or ``/server settings
        clear_starter_role`` had cleared it (a standing reaction a GM by that role set ends with
        it; settings and refusals stop naming a role that is gone). Returns which it cleared:
        ``"gm"``, ``"starter"``."""
        cleared: list[str] = []
        async with self._db.transaction() as conn:
            if await guild_settings.gm_role(conn, guild_id) == role_id:
                await guild_settings.set_gm_role(conn, guild_id, None, self._clock())
                cleared.append("gm")
            start = await guild_settings.start_settings(conn, guild_id)
            if start.starter_role_id == role_id:
                updated = start.model_copy(update={"starter_role_id": None})
                await guild_settings.set_start_settings(conn, guild_id, updated, self._clock())
                cleared.append("starter")
        return cleared

    async def gm_role(self, guild_id: int) -> int | None:
        async with self._db.read() as conn:
            return await guild_settings.gm_role(conn, guild_id)

    # -- seat, pause -----------------------------------------------------------------------

    async def transfer(
        self, channel_id: int, actor: Actor, recipient: Actor, *, recipient_is_bot: bool = False
    ) -> Encounter:
        """Hand the encounter's GM seat to ``recipient`` (their permissions and roles as in this
        channel: a server GM is not capped). GM only.

        Raises :class:`NotAllowed` when ``actor`` is not the GM, when the recipient is a bot
        account (``recipient_is_bot``) or when the server's start policy or cap refuses them
        (:func:`~bot.services.start_policy.ensure_may_take_over`, checked in this transaction,
        so two quick hand-overs cannot both pass the cap), and :class:`Conflict` when they
        already hold the seat. Nothing changes on a refusal."""
        member_id = recipient.user_id
        action = "hand the encounter to someone else"
        # Asked of the row first (``/gm seat`` has no ``gm_first``): a member who is not the
        # GM is told so, not that a newer bot saved the fight (which reading it tells).
        ensure_row_gm(await self._encounters.live_row(channel_id), actor, action)

        async def prepare(conn: StoreConnection, current: Encounter) -> None:
            _ensure_gm(current, actor, action)
            if recipient_is_bot:
                raise NotAllowed(
                    f"<@{member_id}> is a bot: only a person can run an encounter. Name a member "
                    "of the table."
                )
            if current.row.gm_id == member_id:
                raise Conflict(
                    "You already run this encounter: name the member who should take it over."
                    if member_id == actor.user_id
                    else f"<@{member_id}> already runs this encounter."
                )
            await ensure_may_take_over(conn, current.row.guild_id, recipient)

        def step(current: Encounter) -> tuple[Any, dict[str, Any]]:
            return current.state, {"from": current.row.gm_id, "to": member_id}

        encounter, _ = await self._encounters.change(
            channel_id,
            actor,
            "transfer",
            {"member": member_id},
            step,
            prepare=prepare,
            gm_id=member_id,
        )
        return encounter

    async def set_paused(self, channel_id: int, actor: Actor, paused: bool) -> Encounter:
        """Pause (players' commands are refused, reaction windows stop) or resume (a waiting
        decision gets its whole reaction window again). GM only."""

        def step(current: Encounter) -> tuple[Any, dict[str, Any]]:
            _ensure_gm(current, actor, "pause or resume the encounter")
            if current.row.paused == paused:
                raise Conflict(
                    "The encounter is already paused." if paused else "The encounter is not paused."
                )
            return current.state, {}

        async def finish(conn: StoreConnection, saved: EncounterRow) -> None:
            # The turn deadline stops and runs on with the change itself
            # (:func:`bot.store.turn_timers.follow`: a paused fight's turn clock stands still).
            if paused or not saved.decisions:
                return
            state = get_ruleset(saved.ruleset).load_state(saved.stored_state)
            for opened in saved.decisions:
                decision = state.decision(opened.ref)
                window = timedelta(seconds=decision_window_s(state, decision))
                await repo.set_pending_deadline(conn, saved.id, opened.id, self._clock() + window)

        command = "pause" if paused else "resume"
        await self._encounters.change(
            channel_id, actor, command, {}, step, finish=finish, paused=paused
        )
        return await self._encounters.live(channel_id)

    async def pause_for_removal(self, guild_id: int, bot_id: int) -> list[Encounter]:
        """The bot was removed from the server: pause each of its live encounters not paused
        yet, as ``/gm pause`` does (by the bot, ``bot_id``), so that while nobody can see them
        or press their buttons no turn deadline or reaction window runs on and plays them —
        the expiry loop serves every server in the database, this one too. Each stays paused
        until its GM's ``/gm resume`` once the bot is back. Returns the encounters it paused;
        one ended or paused meanwhile is left as it is."""
        async with self._db.read() as conn:
            live = await guild_encounters.live_in_guild(conn, guild_id)
        the_bot = Actor(user_id=bot_id, manages_channel=True)
        paused: list[Encounter] = []
        for encounter in live:
            try:
                paused.append(await self.set_paused(encounter.channel_id, the_bot, True))
            except DomainError:
                continue
        return paused

    async def pause_where_absent(
        self, present: Collection[int], runs: Callable[[int], bool], bot_id: int
    ) -> list[Encounter]:
        """At start-up, once the gateway said which servers the bot is in (``present``): the
        bot was removed while it was stopped from each server with a running encounter that
        is not among them, so those pause as :meth:`pause_for_removal` pauses them. Only the
        servers ``runs`` says this process is sent the events of are judged (with shards, the
        gateway lists a process only its own shards' servers: another process's fights are
        never its to pause). Returns the encounters it paused."""
        async with self._db.read() as conn:
            running = await guild_encounters.guilds_with_running(conn)
        paused: list[Encounter] = []
        for guild_id in running:
            if guild_id not in present and runs(guild_id):
                paused += await self.pause_for_removal(guild_id, bot_id)
        return paused

    # -- undo / redo -------------------------------------------------------------------------

    async def undo(self, channel_id: int, actor: Actor) -> tuple[CombatResult, LogEntry]:
        """Restore the state before the newest command that still stands. GM only. Raises
        :class:`Conflict` when there is nothing left to undo."""
        return await self._travel(channel_id, actor, undo=True)

    async def redo(self, channel_id: int, actor: Actor) -> tuple[CombatResult, LogEntry]:
        """Re-apply the command undone most recently (its recorded result, not a re-roll)."""
        return await self._travel(channel_id, actor, undo=False)

    async def _travel(
        self, channel_id: int, actor: Actor, *, undo: bool
    ) -> tuple[CombatResult, LogEntry]:
        found: dict[str, Any] = {}

        async def prepare(conn: StoreConnection, current: Encounter) -> None:
            _ensure_gm(current, actor, "undo or redo commands")
            entry = await (repo.last_undoable if undo else repo.last_redoable)(conn, current.id)
            if entry is None:
                raise Conflict(NOTHING_TO_UNDO if undo else NOTHING_TO_REDO)
            # Snapshot + replay with the recorded dice (issue 15): the state before the entry
            # (undo brings it back) and the one it left (redo brings that back; both show it).
            states = self._encounters.state_at
            before = await states(conn, current, entry.version - 1)
            after = (
                current.rules.load_state(entry.state)
                if entry.state is not None
                else replay(current.rules, before, entry)
            )
            found["state"] = before if undo else after
            found["entry"], found["before"], found["shown"] = entry, current, after

        def step(current: Encounter) -> tuple[Any, dict[str, Any]]:
            entry: LogEntry = found["entry"]
            key = "undid" if undo else "redid"
            return found["state"], {key: entry.version, "command": entry.command}

        async def finish(conn: StoreConnection, saved: EncounterRow) -> None:
            entry: LogEntry = found["entry"]
            await repo.mark_undone(conn, saved.id, entry.version, saved.version if undo else None)

        command = "undo" if undo else "redo"
        encounter, _ = await self._encounters.change(
            channel_id, actor, command, {}, step, prepare=prepare, finish=finish
        )
        entry = found["entry"]
        old: Encounter = found["before"]
        result = CombatResult(
            encounter=encounter,
            events=turn_given_back(old, encounter),
            replay=(replayed := replay_of(entry, encounter, undo=undo, state=found["shown"])),
            label=f"The GM {'undoes' if undo else 'redoes'} {replayed.command}",
            **outcome_of(old, encounter),
        )
        return result, entry

    # -- the log -----------------------------------------------------------------------------

    async def log(self, channel_id: int, actor: Actor) -> tuple[Encounter, list[LogEntry]]:
        """The live encounter and its whole log, oldest first — with none live, the one that
        ended last in the channel (its summary says it is "kept in the log"; ``/encounter
        recap`` reads it too). Its GM only."""
        try:
            encounter = await self._encounters.live(channel_id)
        except NoEncounter:
            ended = await self._encounters.last_ended(channel_id)
            if ended is None:
                raise
            encounter = ended
        ensure_gm(encounter, actor, "export the log")
        return encounter, await self._encounters.log(encounter.id)

    # -- adjustments -------------------------------------------------------------------------

    async def set_vitals(
        self,
        channel_id: int,
        actor: Actor,
        combatant: str,
        amounts: dict[str, str | None],
        *,
        label: str = "hp",
    ) -> CombatResult:
        """``/gm hp`` and ``/gm vital``: each vital named in ``amounts`` (the ruleset's: UTTAS
        ``health``, ``stamina``) is set (``15``, ``2d6``) or changed (``-3``, ``+1d4``); dice
        are rolled here (with ``/roll``'s limits) and recorded in the log's options. GM only.
        Raises :class:`InvalidInput` when no amount is given or the ruleset has no such
        vital."""
        given = {name: text for name, text in amounts.items() if text is not None}
        if not given:
            raise InvalidInput(f"Give an amount for {' or '.join(f'`{n}`' for n in amounts)}.")
        changes: dict[str, tuple[int, bool]] = {}
        options: dict[str, Any] = {"combatant": combatant}
        words = await self._vital_words(channel_id, given) if label == "vital" else {}
        for name, text in given.items():
            amount = parse_amount(text, words.get(name, "Health and Stamina"))
            changes[name] = (amount.value, amount.relative)
            options[name] = text
            if amount.rolled:
                options[f"{name}_rolled"] = amount.rolled

        def make(current: Encounter) -> CommandBase:
            target = find_combatant(current.state, combatant)
            if label == "hp":
                _hp_fits(current, target.name, changes)
            return current.rules.vitals_command(target.id, changes)

        return await self._combat.gm_command(
            channel_id, actor, label, options, make, action="set a combatant's vitals"
        )

    async def _vital_words(self, channel_id: int, given: Mapping[str, str]) -> dict[str, str]:
        """How the channel's game system writes each vital named in ``given`` (Utopia "SHP"),
        for a refusal of its amount; a name it does not have stays as typed (the ruleset
        refuses it by name once the amount is read)."""
        try:
            rules = (await self._encounters.live(channel_id)).rules
        except NotFound:
            return {}
        known = rules.vital_names()
        return {name: rules.vital_label(name) if name in known else name for name in given}

    async def add_one_off(
        self, channel_id: int, actor: Actor, name: str, stats: dict[str, Any]
    ) -> CombatResult:
        """``/gm add-npc`` with inline stats: one NPC named exactly ``name`` (a sheet made from
        the stats given, defaults for the rest). GM only. The name is normalised
        (:mod:`bot.names`); control characters or a blank name are refused."""
        name = names.require(name, what="the NPC's name")

        def make(current: Encounter) -> CommandBase:
            given = {k: v for k, v in stats.items() if v is not None}
            sheet = current.rules.one_off_sheet(name, given)
            return current.rules.add_command(name=name, sheet=sheet, is_npc=True)

        options = {"name": name, **{k: v for k, v in stats.items() if v is not None}}
        return await self._combat.gm_command(
            channel_id, actor, "add_npc", options, make, action="add NPCs"
        )


def turn_given_back(old: Encounter, new: Encounter) -> list[Event]:
    """When an undo or redo hands the turn to another combatant (or brings back an earlier
    turn), the turn that now runs, as a turn start — for the reply only (the log keeps the
    command's own events): its controller is mentioned and gets the turn's buttons, as after
    any command that starts a turn. Nothing when the same turn still runs or no fight does."""
    state = new.state
    current = state.current
    if current is None or state.phase != "active":
        return []
    if (old.id, old.state.turn, old.state.turn_seq) == (new.id, state.turn, state.turn_seq):
        return []
    return [
        TurnStarted(
            combatant=current.id,
            round=state.round,
            actions_left=0,  # the numbers are the tracker's: the reply names the turn only
            text=f"Round {state.round}: {current.name}'s turn.",
        )
    ]


def replay_of(entry: LogEntry, encounter: Encounter, *, undo: bool, state: AnyState) -> Replay:
    """What an undo or redo took back or put back: the entry's command, who gave it, its
    options and its logged events, with the state they happened in (``state``: the one the
    entry left), so each audience sees them as it saw them then."""
    record = event_log.read(entry, encounter.rules)
    return Replay(
        undo=undo,
        command=shown_command(entry.command, record.options),
        actor_id=entry.actor_id,
        version=entry.version,
        options=typed_options(entry.command, record.options),
        events=record.events,
        state=state,
    )


def _hp_fits(encounter: Encounter, name: str, changes: Mapping[str, Any]) -> None:
    """``/gm hp`` sets the vitals called health and stamina; in a system without one (Utopia's
    Health is SHP and DHP, Uune's vitality) the refusal names ``/gm vital`` with an example
    for ``name``, the command that sets that system's vitals — not only the vitals it has."""
    rules = encounter.rules
    known = rules.vital_names()
    missing = [vital for vital in changes if vital not in known]
    if not missing:
        return
    listed = ", ".join(rules.vital_label(vital) for vital in known)
    typed = name.replace("`", "'")  # inside a code span
    raise InvalidInput(
        f"{rules.title} has no {missing[0].title()} for `/gm hp` (its vitals: {listed}): use "
        f"`/gm vital`, e.g. `/gm vital combatant:{typed} vital:{known[0]} amount:-3`."
    )


def _ensure_gm(encounter: Encounter, actor: Actor, action: str) -> None:
    if not encounter.is_gm(actor):
        raise NotAllowed(not_gm_message(encounter, action))
