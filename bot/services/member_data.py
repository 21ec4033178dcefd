"""A member's own data (issue 9 §9): ``/me export`` sends it, ``/me delete`` erases it; server
GMs do the same for a member who left (``/server member-export`` / ``member-delete``).

What "everything the bot keeps about a member" means is the list of sources in
:mod:`bot.services.member_sources`. Erasing runs in three steps once the member confirms:

1. the prompt is answered (one transaction, so a Cancel racing the Confirm loses or wins
   cleanly) after checking again that the member holds no live encounter's GM seat;
2. every live encounter whose state names the member loses them through
   :meth:`EncounterService.change` — versioned, logged as ``forget_member`` (never undone), the
   encounter's older log rows scrubbed in the same transaction — so a fight keeps running with
   the GM controlling the member's combatants;
3. one transaction runs every source's ``erase`` — after checking again that the member holds
   no live encounter's GM seat and that no live encounter named them again since step 2 judged
   it (the plans below give the event loop turns, and every channel goes on meanwhile): if one
   did, step 2 runs again first (:func:`_named_since`, :data:`ERASE_ROUNDS`).

The replays a log's scrub checks (:func:`~bot.services.member_sources.scrub_encounter_log`)
are worked out before the transactions of steps 2 and 3, with no lock held
(:func:`~bot.services.member_sources.plan_scrub`); inside them the log is only read again and
what came since replayed.

Every step is idempotent: if one fails, running ``/me delete`` again finishes the job.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bot import names
from bot.errors import (
    Conflict,
    DomainError,
    InvalidInput,
    NoEncounter,
    NotAllowed,
    RulesVersionUnknown,
)
from bot.services import prompts
from bot.services.actor import Actor
from bot.services.away import away_marks
from bot.services.encounters import Encounter, EncounterService
from bot.services.member_scrub import scrub_json
from bot.services.member_sources import SOURCES, Erasure, plan_scrub, scrub_encounter_log
from bot.services.permissions import is_server_gm
from bot.services.replay import ReplayFailed
from bot.services.start_policy import channel_list, server_gms_text
from bot.store import away as away_repo
from bot.store import guild_encounters, guild_settings
from bot.store import member_data as repo
from bot.store import prompts as prompt_repo
from bot.store.base import Store, StoreConnection
from bot.store.encounters import EncounterRow

log = logging.getLogger(__name__)

HEADROOM = 64 * 1024  # bytes left under Discord's attachment limit for the multipart wrapping
FORMAT_VERSION = 1
SNOWFLAKE_MIN = 1 << 32  # Discord ids are 17-20 digits; this only keeps small numbers out


@dataclass(frozen=True)
class MemberExport:
    """The export file: its JSON ``data`` (UTF-8), ``filename``, how many records each source
    holds (``counts``) and how many log entries were left out to fit the size limit."""

    data: bytes
    filename: str
    counts: dict[str, int]
    omitted_log_entries: int = 0
    templates_shortened: bool = False


@dataclass(frozen=True)
class DeletePreview:
    """An open delete prompt (``prompt_id``) about ``subject_id``'s data, with the records
    each source holds now."""

    prompt_id: int
    subject_id: int
    counts: dict[str, int]


@dataclass(frozen=True)
class Released:
    """A live encounter whose combatants lost their controller when a member was forgotten."""

    channel_id: int
    encounter: str
    combatants: list[str]


@dataclass(frozen=True)
class DeleteReport:
    """What erasing ``subject_id``'s data did: rows changed per source, the live fights whose
    combatants the GM now runs, and the channels of the server's live fights when an away mark
    changed (``away_channels``: the member's own mark went, or the GM stands in where they were
    named): their trackers show who is away and who stands in, and a decision the member
    stood in for asks the GM now — as after ``/away`` and ``/back``, every live fight of the
    server."""

    subject_id: int
    changed: dict[str, int]
    released: list[Released] = field(default_factory=list)
    away_channels: tuple[int, ...] = ()


def _count(value: Any) -> int:
    if isinstance(value, list):
        return len(value)
    if isinstance(value, dict) and "count" in value:
        return int(value["count"])
    return 1 if value else 0


def _dump(document: dict[str, Any]) -> bytes:
    return json.dumps(document, indent=1, ensure_ascii=False).encode()


def fit(document: dict[str, Any], limit: int) -> tuple[bytes, int, bool]:
    """``document`` as JSON of at most ``limit`` bytes: the oldest encounter-log entries are
    left out first (``encounter_log.omitted`` says how many), then NPC templates shrink to their
    names. Returns ``(data, log entries left out, templates shortened)``; raises
    :class:`InvalidInput` when even that does not fit."""
    data = _dump(document)
    if len(data) <= limit:
        return data, 0, False
    log_part = document["encounter_log"]
    entries: list[Any] = list(log_part["entries"])

    def with_newest(kept: int) -> bytes:
        log_part["entries"] = entries[len(entries) - kept :] if kept else []
        log_part["omitted"] = len(entries) - kept
        return _dump(document)

    low, high = 0, len(entries)  # the most entries that fit lies in [low, high]
    while low < high:
        middle = (low + high + 1) // 2
        if len(with_newest(middle)) <= limit:
            low = middle
        else:
            high = middle - 1
    data = with_newest(low)
    if len(data) <= limit:
        return data, len(entries) - low, False
    document["npc_templates_created"] = [
        {k: v for k, v in t.items() if k != "sheet"} for t in document["npc_templates_created"]
    ]
    data = _dump(document)
    if len(data) > limit:
        raise InvalidInput(
            f"This member's data ({len(data) // 1024} KiB even without the log) is larger than "
            f"Discord lets the bot send here ({limit // 1024} KiB)."
        )
    return data, len(entries), True


ERASE_ROUNDS = 3
"""How many times :meth:`MemberDataService.confirm_delete` releases the live fights (step 2)
before erasing (step 3) when a fight named the member again in between; the last time it
erases anyway (and logs which fights did)."""


async def _named_since(
    conn: StoreConnection, e: Erasure, seen: dict[int, int], unchangeable: set[int]
) -> list[int]:
    """The server's live encounters (but ``unchangeable``) whose log, since the version
    ``seen`` read before step 2 judged them (0: started since), has a row whose result or
    snapshot names the member: a change that may have brought them back into the fight
    (a combatant they control, an NPC named after them). Step 3 alone would leave them there,
    and would scrub such a row of a live fight outside the write path."""
    digits = str(e.user_id)
    late = []
    for encounter_id, version in (await repo.live_versions(conn, e.guild_id)).items():
        if encounter_id in unchangeable or seen.get(encounter_id) == version:
            continue
        since = seen.get(encounter_id, 0)
        rows = await repo.log_rows_naming(conn, encounter_id, e.user_id, after=since)
        if any(digits in row.result or digits in (row.state or "") for row in rows):
            late.append(encounter_id)
    return sorted(late)


def _merge(released: dict[int, Released], done: Released) -> None:
    """Add ``done`` to ``released`` (by channel: a fight released twice is listed once)."""
    before = released.get(done.channel_id)
    if before is None:
        released[done.channel_id] = done
        return
    names = before.combatants + [n for n in done.combatants if n not in before.combatants]
    released[done.channel_id] = Released(done.channel_id, done.encounter, names)


def _seat_refusal(subject_id: int, actor: Actor, channels: list[int]) -> Conflict:
    where = channel_list(channels)
    if subject_id == actor.user_id:
        return Conflict(
            f"You hold the GM seat of live encounters in {where}: hand each on with "
            "`/gm seat transfer` there, or end it with `/encounter end`, then run `/me delete` "
            "again."
        )
    return Conflict(
        f"<@{subject_id}> holds the GM seat of live encounters in {where}: hand each on with "
        "`/gm seat transfer` there, or end it with `/server end`, first."
    )


class MemberDataService:
    """Export and erase one member's data in one server (see the module docstring)."""

    def __init__(
        self, db: Store, encounters: EncounterService, *, clock: Callable[[], datetime]
    ) -> None:
        self._db = db
        self._encounters = encounters
        self._clock = clock

    @staticmethod
    async def _may_act(conn: StoreConnection, guild_id: int, actor: Actor, subject_id: int) -> None:
        """A member acts on their own data; only server GMs act on another member's. The
        subject must be a Discord id (a snowflake, far above any number a fight holds, which
        is what lets :mod:`~bot.services.member_scrub` find it in stored JSON)."""
        if subject_id < SNOWFLAKE_MIN:
            raise InvalidInput(f"{names.code(str(subject_id))} is not a Discord user id.")
        if subject_id != actor.user_id and not await is_server_gm(conn, guild_id, actor):
            role = await guild_settings.gm_role(conn, guild_id)
            raise NotAllowed(
                f"Only server GMs ({server_gms_text(role)}) can export or delete another "
                "member's data. Your own: `/me export`, `/me delete`."
            )

    async def _collect(
        self, conn: StoreConnection, guild_id: int, subject_id: int
    ) -> dict[str, Any]:
        """Every source's export for ``subject_id``, read in one snapshot."""
        await conn.execute("BEGIN")
        try:
            return {s.key: await s.export(conn, guild_id, subject_id) for s in SOURCES}
        finally:
            await conn.execute("COMMIT")

    async def export(
        self, guild_id: int, actor: Actor, subject_id: int, *, size_limit: int
    ) -> MemberExport:
        """Everything the bot keeps about ``subject_id`` in ``guild_id`` as one JSON document
        of at most ``size_limit`` bytes (less :data:`HEADROOM`; see :func:`fit`). Raises
        :class:`NotAllowed` when ``actor`` is neither the member nor a server GM."""
        async with self._db.read() as conn:
            await self._may_act(conn, guild_id, actor, subject_id)
            parts = await self._collect(conn, guild_id, subject_id)
        document: dict[str, Any] = {
            "about": {
                "format": FORMAT_VERSION,
                "guild_id": str(guild_id),
                "user_id": str(subject_id),
                "exported_at": self._clock().isoformat(),
                "exported_by": str(actor.user_id),
                "sources": {s.key: s.what for s in SOURCES},
                "not_included": (
                    "Messages the bot posted in Discord (they are Discord's) and the state "
                    "snapshots of encounter logs (the whole table's fight; the GM's `/gm log`)."
                ),
            },
            **parts,
        }
        counts = {key: _count(value) for key, value in parts.items()}
        data, omitted, shortened = fit(document, max(size_limit - HEADROOM, 1024))
        return MemberExport(
            data=data,
            filename=f"member-data-{subject_id}.json",
            counts=counts,
            omitted_log_entries=omitted,
            templates_shortened=shortened,
        )

    async def open_delete(
        self, guild_id: int, channel_id: int | None, actor: Actor, subject_id: int
    ) -> DeletePreview:
        """Ask before erasing ``subject_id``'s data: records an open ``member.delete`` prompt
        (only ``actor`` may answer it) and returns what there is to erase. Raises
        :class:`NotAllowed` (not the member, not a server GM) or :class:`Conflict` (the member
        holds a live encounter's GM seat)."""
        async with self._db.read() as conn:
            await self._may_act(conn, guild_id, actor, subject_id)
            await self._refuse_live_seats(conn, guild_id, actor, subject_id)
            parts = await self._collect(conn, guild_id, subject_id)
        async with self._db.transaction() as conn:
            prompt_id = await prompt_repo.open_prompt(
                conn,
                kind="member.delete",
                target_id=subject_id,
                guild_id=guild_id,
                channel_id=channel_id,
                opened_by=actor.user_id,
                now=self._clock(),
            )
        counts = {key: _count(value) for key, value in parts.items()}
        return DeletePreview(prompt_id=prompt_id, subject_id=subject_id, counts=counts)

    @staticmethod
    async def _refuse_live_seats(
        conn: StoreConnection, guild_id: int, actor: Actor, subject_id: int
    ) -> None:
        seats = await guild_encounters.live_run_by(conn, guild_id, subject_id)
        if seats:
            raise _seat_refusal(subject_id, actor, [e.channel_id for e in seats])

    async def _answer(
        self, conn: StoreConnection, guild_id: int, actor: Actor, prompt_id: int
    ) -> prompt_repo.PromptRow:
        """The open delete prompt ``prompt_id`` if ``actor`` opened it (only their click
        counts); NotFound, NotAllowed or Conflict otherwise."""
        prompt = await prompts.require_prompt(conn, prompt_id, "member.delete", guild_id)
        prompts.require_open(prompt)  # first: an erased member's answered prompt names no one
        if prompt.opened_by != actor.user_id:
            raise NotAllowed(
                f"Only <@{prompt.opened_by}>, who asked for this, can answer it. Nothing changed."
            )
        return prompt

    async def cancel_delete(self, guild_id: int, actor: Actor, prompt_id: int) -> int:
        """Answer a delete prompt with no; returns whose data it was about (kept)."""
        async with self._db.transaction() as conn:
            prompt = await self._answer(conn, guild_id, actor, prompt_id)
            await prompts.settle(conn, prompt, "cancelled", self._clock())
        return prompt.target_id

    async def confirm_delete(self, guild_id: int, actor: Actor, prompt_id: int) -> DeleteReport:
        """Answer a delete prompt with yes and erase the member's data (module docstring).
        Raises what :meth:`open_delete` raises, checked again now, and :class:`Conflict` when
        the prompt was answered already (nothing is erased then)."""
        async with self._db.transaction() as conn:
            prompt = await self._answer(conn, guild_id, actor, prompt_id)
            subject_id = prompt.target_id
            await self._may_act(conn, guild_id, actor, subject_id)
            await self._refuse_live_seats(conn, guild_id, actor, subject_id)
            await prompts.settle(conn, prompt, "confirmed", self._clock())
        erasure = Erasure(
            guild_id=guild_id,
            user_id=subject_id,
            actor_id=repo.TOMBSTONE_ID if subject_id == actor.user_id else actor.user_id,
            now=self._clock(),
        )
        released: dict[int, Released] = {}
        unchangeable: set[int] = set()
        changed: dict[str, int] | None = None
        away_channels: tuple[int, ...] = ()
        try:
            for round_ in range(ERASE_ROUNDS):
                async with self._db.read() as conn:
                    seen = await repo.live_versions(conn, guild_id)
                for done in await self._release_live(erasure, unchangeable):
                    _merge(released, done)
                # The log's replays worked out before the transaction, not while it holds the
                # writer lock (plan_scrub); it goes on from them when the log is as read.
                async with self._db.read() as conn:
                    encounter_ids = await repo.encounter_ids(conn, guild_id)
                for encounter_id in encounter_ids:
                    await plan_scrub(self._db, encounter_id, erasure)
                async with self._db.transaction() as conn:
                    # The channels went on meanwhile (the plans give the loop turns): a live
                    # fight the member took a seat of, or that named them again, since step 2.
                    await self._refuse_live_seats(conn, guild_id, actor, subject_id)
                    late = await _named_since(conn, erasure, seen, unchangeable)
                    if not late or round_ == ERASE_ROUNDS - 1:
                        if late:
                            log.warning(
                                "encounters %s named member %s again while it was erased",
                                late,
                                subject_id,
                            )
                        if await away_repo.naming(conn, guild_id, subject_id):
                            live = await guild_encounters.live_in_guild(conn, guild_id)
                            away_channels = tuple(e.channel_id for e in live)
                        changed = {s.key: await s.erase(conn, erasure) for s in SOURCES}
                if changed is not None:
                    break
            assert changed is not None
            away_marks(self._db).changed(guild_id)  # its away mark and those naming it
        except DomainError as error:
            raise Conflict(
                f"{error} Part of the data may already be gone; run the delete command again "
                "to finish."
            ) from None
        log.info("member data of %s in guild %s erased by %s", subject_id, guild_id, actor.user_id)
        return DeleteReport(
            subject_id=subject_id,
            changed=changed,
            released=list(released.values()),
            away_channels=away_channels,
        )

    async def _release_live(self, erasure: Erasure, unchangeable: set[int]) -> list[Released]:
        """Step 2: every live encounter naming the member, through the write path. Those whose
        state cannot be rebuilt (damaged, or a newer bot's) go to ``unchangeable``."""
        async with self._db.read() as conn:
            refs = await repo.encounters_naming(conn, erasure.guild_id, erasure.user_id)
            # A stored state older than its row misses what the log's changes since wrote.
            behind = await repo.live_behind(conn, erasure.guild_id)
        live = {ref.id: ref for ref in [*refs, *behind] if ref.status == "live"}
        released: list[Released] = []
        for ref in sorted(live.values(), key=lambda r: r.id):
            if ref.id in unchangeable or not await self._names(ref, erasure.user_id, unchangeable):
                continue
            await plan_scrub(self._db, ref.id, erasure)  # its replays, before the transaction
            try:
                encounter, names = await self._forget_in(ref.channel_id, erasure)
            except NoEncounter:
                continue  # ended meanwhile: step 3 scrubs it as an archived encounter
            except (ReplayFailed, RulesVersionUnknown):  # damaged, or a newer bot's
                log.warning("encounter %s: its state could not be rebuilt to erase", ref.id)
                unchangeable.add(ref.id)
                continue
            if names:
                released.append(Released(ref.channel_id, encounter.row.name, names))
        return released

    async def _names(self, ref: repo.EncounterRef, user_id: int, unchangeable: set[int]) -> bool:
        """Whether live encounter ``ref`` must be changed through the write path to forget
        ``user_id``: its stored state names them (even when older than the row,
        ``state_version``: the row keeps it until a change writes it again), or its current
        state — when the stored one is older, the state rebuilt from the log — does, or a log
        row the row's state is rebuilt from does. Scrubbing such a row changes what replaying
        it gives (a Talk's mention becomes more words, counted in the state), so the erasure's
        new version rewrites the stored state first and the scrubbed rows are never replayed
        into it."""
        digits = str(user_id)
        if digits in ref.state_json:  # even behind: the row keeps it until it is written again
            return True
        if ref.state_version is None:
            return False
        async with self._db.read() as conn:
            logged = await repo.log_rows_naming(conn, ref.id, user_id)
        if any(row.version > ref.state_version and digits in row.result for row in logged):
            return True
        try:
            current = await self._encounters.get(ref.id)
        except NoEncounter:
            return False
        except (ReplayFailed, DomainError):  # damaged, or a newer bot's: it cannot be changed
            log.warning("encounter %s: its state could not be rebuilt to erase a member", ref.id)
            unchangeable.add(ref.id)
            return False
        return current.row.status == "live" and digits in current.state_json

    async def _forget_in(self, channel_id: int, erasure: Erasure) -> tuple[Encounter, list[str]]:
        """Remove the member from the channel's live encounter as a new, logged version
        (``forget_member``), scrubbing its older log rows in the same transaction."""
        user_id = erasure.user_id

        def step(current: Encounter) -> tuple[Any, dict[str, Any]]:
            names = [c.name for c in current.state.combatants if c.controller_id == user_id]
            state = current.rules.load_state(scrub_json(current.state_json, user_id))
            return state, {"released": names}

        async def finish(conn: StoreConnection, saved: EncounterRow) -> None:
            await scrub_encounter_log(conn, saved.id, erasure)

        # Erasing is not a move in the fight: it goes through even while the GM has paused it
        # (``manages_channel`` lets the write path apply it then). The log names who erased.
        system = Actor(user_id=erasure.actor_id, manages_channel=True)
        encounter, result = await self._encounters.change(
            channel_id, system, "forget_member", {}, step, finish=finish
        )
        return encounter, list(result["released"])
