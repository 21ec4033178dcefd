"""Out-of-fight commands on campaign records (issue 10, decision A): see a character's state
between fights, rest, heal over weeks, end a day, quest or arc, or start a record afresh.

Each command runs the ruleset's own rules — the same engine commands an encounter would run —
on a working state built from the records (:func:`_table`), then writes every record back and
moves the server's campaign clock on (the end of a day, quest or arc: to the next day's
start), all in one transaction. Characters fighting in a live
encounter are left out (their fight writes their record back when it ends). Only server GMs
(Manage Server, Manage Channels or the GM role) change records; anyone sees their own.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from bot import names
from bot.engine import get_ruleset
from bot.engine.core.audience import PUBLIC
from bot.engine.core.commands import CommandBase, EndPeriod
from bot.engine.core.contract import Ruleset
from bot.engine.core.dice import EPOCH, DiceRoller, NoDice, RandomRoller
from bot.engine.core.state import AnyState
from bot.errors import Conflict, DomainError, InvalidInput, NotAllowed, NotFound
from bot.services.actor import Actor
from bot.services.permissions import is_server_gm
from bot.services.sheets import name_key
from bot.store import campaign as repo
from bot.store import encounters as encounter_repo
from bot.store import guild_settings
from bot.store import sheets as sheet_repo
from bot.store.base import Store, StoreConnection
from bot.store.sheets import SheetRow

log = logging.getLogger(__name__)

NOT_GM = "Only server GMs (Manage Server, Manage Channels or the GM role) can {action}."


@dataclass(frozen=True)
class RecordView:
    """One character's record as shown: its name, owner, ruleset and the ruleset's lines
    (``Ruleset.record_lines``); ``fresh`` when it has no record yet (as its sheet says);
    ``fighting``: the live encounter that carries it (its name and channel id), whose state is
    written back to the record only when that encounter ends — so the lines are the record from
    before it, not how the character stands now."""

    character: str
    owner_id: int
    ruleset: str
    lines: list[str]
    fresh: bool
    fighting: tuple[str, int] | None = None


@dataclass(frozen=True)
class CampaignResult:
    """What an out-of-fight command did: the lines to show (the engine's events, as the table
    sees them, names escaped), the characters left out and why (names escaped), and the
    campaign clock after it (seconds)."""

    lines: list[str]
    skipped: list[str]
    clock_s: int


class CampaignService:
    """Campaign records outside fights."""

    def __init__(
        self,
        db: Store,
        *,
        clock: Callable[[], datetime],
        roller: Callable[[], DiceRoller] | None = None,
    ) -> None:
        self._db = db
        self._clock = clock
        self._roller = roller or (lambda: RandomRoller(seed=secrets.randbits(32)))

    async def show(
        self, guild_id: int, actor: Actor, *, member_id: int | None, character: str | None
    ) -> list[RecordView]:
        """The records of ``member_id``'s characters (default: the actor's own), or only the
        one called ``character``, each saying which live encounter carries it, if any. Another
        member's records: server GMs only (:class:`NotAllowed`). Raises :class:`NotFound` when
        there is no such character."""
        owner = member_id if member_id is not None else actor.user_id
        async with self._db.read() as conn:
            if owner != actor.user_id and not await is_server_gm(conn, guild_id, actor):
                raise NotAllowed(NOT_GM.format(action="see another member's records"))
            sheets = await _characters(conn, guild_id, owner, character)
            views = []
            for sheet in sheets:
                row = await repo.get(conn, sheet.id)
                view = await _view(conn, sheet, row)
                live = await encounter_repo.live_with_character(conn, guild_id, sheet.id)
                if live is not None:
                    view = replace(view, fighting=(live.name, live.channel_id))
                views.append(view)
        return views

    async def reset(
        self, guild_id: int, actor: Actor, *, member_id: int, character: str
    ) -> RecordView:
        """Forget a character's record: it starts its next fight as its sheet says (full
        Health, no lasting conditions — alive again). Server GMs only. Raises
        :class:`Conflict` while the character fights in a live encounter."""
        async with self._db.transaction() as conn:
            await _require_gm(conn, guild_id, actor, "reset campaign records")
            [sheet] = await _characters(conn, guild_id, member_id, character)
            await _require_not_fighting(conn, guild_id, sheet)
            await repo.delete(conn, sheet.id)
            log.info("campaign record of character %s reset by %s", sheet.id, actor.user_id)
            return await _view(conn, sheet, None)

    async def run(
        self,
        guild_id: int,
        actor: Actor,
        *,
        action: str,
        make: Callable[[Ruleset[Any]], CommandBase],
        member_id: int | None = None,
        character: str | None = None,
        can_name: bool = True,
    ) -> CampaignResult:
        """Apply the engine command ``make`` builds for a ruleset (a rest, weeks of healing, the
        end of a period) to the characters with records in the server — or only ``member_id``'s, or
        only the one called ``character`` — and write their records back with the campaign
        clock, in one transaction. Server GMs only (``action`` completes the refusal).
        ``can_name`` says whether the command offers ``member:`` and ``character:`` (the end of
        a period does not), so the refusal when nobody has a record suggests them only then.
        Characters in a live fight, or whose records cannot be read, are left out (listed in
        ``skipped``). Raises the engine's refusals (e.g. a rest limit) and :class:`NotFound`
        when nobody is left to apply it to."""
        now = self._clock()
        async with self._db.transaction() as conn:
            await _require_gm(conn, guild_id, actor, action)
            targets = await _targets(conn, guild_id, member_id, character)
            skipped: list[str] = []
            by_ruleset: dict[str, list[tuple[SheetRow, repo.RecordRow | None]]] = {}
            for sheet, row in targets:
                fighting = await encounter_repo.live_with_character(conn, guild_id, sheet.id)
                if fighting is not None:
                    name = names.escaped(sheet.name)
                    skipped.append(f"{name}: fighting in <#{fighting.channel_id}>")
                    continue
                by_ruleset.setdefault(sheet.ruleset, []).append((sheet, row))
            if not by_ruleset:
                raise NotFound(_nobody(skipped, can_name))
            clock = await repo.clock(conn, guild_id)
            overrides = await guild_settings.rules_overrides(conn, guild_id)
            lines: list[str] = []
            latest = clock
            applied = 0
            for key, group in by_ruleset.items():
                rules = get_ruleset(key, overrides)
                try:
                    command = make(rules)
                except DomainError as why:
                    # A ruleset without it (Utopia's long rest): its characters are left out,
                    # the others still rest; alone, the refusal is the answer.
                    if len(by_ruleset) == 1:
                        raise
                    skipped.append(f"{rules.title} characters: {why.message}")
                    continue
                state, seated = _table(rules, group, clock, self._roller(), now, skipped)
                if not seated:
                    continue
                outcome = rules.apply(state, command, self._roller(), now)
                applied += 1
                view = rules.view(outcome.state, PUBLIC, names.escaped)
                lines += [line for event in outcome.events for line in event.render(view)]
                for c in outcome.state.combatants:
                    await repo.put(
                        conn,
                        character_id=c.character_id,
                        guild_id=guild_id,
                        ruleset=key,
                        record=rules.record_of(c).model_dump_json(),
                        now=now,
                    )
                latest = max(latest, _clock_after(command, clock, outcome.state.game_time_s))
            if not applied and len(by_ruleset) > 1:
                raise NotFound(_nobody(skipped, can_name))
            await repo.advance_clock(conn, guild_id, latest, now)
        return CampaignResult(lines=lines, skipped=skipped, clock_s=latest)


DAY_S = 86_400


def _clock_after(command: CommandBase, clock: int, played: int) -> int:
    """The campaign clock once ``command`` is done, by the clock it started at and the clock the
    engine left (``played``). The engine moves it itself: a rest's hours, weeks of healing, and
    the end of a day — or of a quest or an arc, which end the day with them
    (``effects.ended_by``) — in the rules versions that play ``"new_day_moves_clock"``
    (:func:`bot.engine.core.scenes.end_period`: 00:00 of the next day, or Uune's following
    dawn), in a fight and out of one alike (every system's newest version: UTTAS 5, Utopia 7,
    Untitled 5, Uune 6). Should a ruleset's working state leave the clock on the end of a day,
    here it still begins the next day, at its start (00:00 of the day after ``clock``'s), as
    the days the rulesets count by (``game_time_s`` ÷ 86 400: UTTAS's healing limits) read it.

    In a fight the campaign clock follows that fight's when it ends (so an older fight, whose
    version left its clock on the end of a day, leaves the old day's)."""
    if played == clock and isinstance(command, EndPeriod) and command.period != "scene":
        return (clock // DAY_S + 1) * DAY_S
    return played


def _table(
    rules: Ruleset[Any],
    group: list[tuple[SheetRow, repo.RecordRow | None]],
    clock: int,
    roller: DiceRoller,
    now: datetime,
    skipped: list[str],
) -> tuple[AnyState, int]:
    """A working state (not a fight: phase ``setup``) holding each character as its record
    left it, at the campaign clock. Returns it and how many it seated; those it could not seat
    (a dead character, an unreadable record) are added to ``skipped``."""
    state: AnyState = rules.new_encounter(name="Campaign", seed=0)
    state.game_time_s = clock
    seated = 0
    for sheet, row in group:
        try:
            record = rules.parse_record(row.record) if row is not None else None
            command = rules.add_command(
                name=sheet.name,
                sheet=rules.parse_sheet(sheet.sheet_json),
                controller_id=sheet.owner_id,
                character_id=sheet.id,
                record=record,
            )
            state = rules.apply(state, command, roller, now).state
            seated += 1
        except DomainError as why:
            skipped.append(f"{names.escaped(sheet.name)}: {why.message}")
    return state, seated


async def _targets(
    conn: StoreConnection, guild_id: int, member_id: int | None, character: str | None
) -> list[tuple[SheetRow, repo.RecordRow | None]]:
    """The characters a command applies to: one member's (or one of them by name), each with
    its record; with no member, every character of the server that has a record."""
    if member_id is not None or character is not None:
        if member_id is None:
            raise InvalidInput("Name the member whose character it is (`member:`).")
        sheets = await _characters(conn, guild_id, member_id, character)
        return [(s, await repo.get(conn, s.id)) for s in sheets]
    out: list[tuple[SheetRow, repo.RecordRow | None]] = []
    for row in await repo.of_guild(conn, guild_id):
        sheet = await sheet_repo.by_id(conn, row.character_id)
        if sheet is not None:
            out.append((sheet, row))
    return out


async def _characters(
    conn: StoreConnection, guild_id: int, owner_id: int, character: str | None
) -> list[SheetRow]:
    if character is None:
        found = await sheet_repo.characters_of(conn, guild_id, owner_id)
        if not found:
            raise NotFound(f"<@{owner_id}> has no characters in this server.")
        return found
    if names.blank(character):  # "no character called ****" would quote nothing
        raise NotFound(f"The character name you typed {names.BLANK}; see `/character list`.")
    sheet = await sheet_repo.character_by_key(conn, guild_id, owner_id, name_key(character))
    if sheet is None:
        raise NotFound(
            f"<@{owner_id}> has no character called **{names.escaped(character)}**. "
            "Names must match exactly."
        )
    return [sheet]


async def _view(conn: StoreConnection, sheet: SheetRow, row: repo.RecordRow | None) -> RecordView:
    """The record as shown, by the server's tables (what a new fight would play by)."""
    rules = get_ruleset(sheet.ruleset, await guild_settings.rules_overrides(conn, sheet.guild_id))
    model = rules.parse_sheet(sheet.sheet_json)
    fresh = row is None or row.ruleset != sheet.ruleset
    try:
        record = None if fresh or row is None else rules.parse_record(row.record)
        lines = rules.record_lines(model, _as_it_joins(rules, sheet, model, record))
    except InvalidInput as why:
        lines = [f"The record cannot be read ({why.message}); `/campaign reset` starts afresh."]
    return RecordView(
        character=sheet.name, owner_id=sheet.owner_id, ruleset=rules.title, lines=lines, fresh=fresh
    )


def _as_it_joins(
    rules: Ruleset[Any], sheet: SheetRow, model: Any, record: Any | None
) -> Any | None:
    """``record`` as the character's next fight would take it in: joined with its sheet as it
    stands now (a maximum lowered since caps what the record kept) and read back — the words
    of ``/campaign show`` come from the same path as the join. ``record`` itself when it cannot
    join (a dead character, say: the join is refused, the record stands)."""
    if record is None:
        return None
    command = rules.add_command(
        name=sheet.name,
        sheet=model,
        controller_id=sheet.owner_id,
        character_id=sheet.id,
        record=record,
    )
    try:
        state = rules.apply(rules.new_encounter(name="Campaign", seed=0), command, NoDice(), EPOCH)
    except DomainError:
        return record
    return rules.record_of(state.state.combatants[-1])


async def _require_gm(conn: StoreConnection, guild_id: int, actor: Actor, action: str) -> None:
    if not await is_server_gm(conn, guild_id, actor):
        raise NotAllowed(NOT_GM.format(action=action))


async def _require_not_fighting(conn: StoreConnection, guild_id: int, sheet: SheetRow) -> None:
    fighting = await encounter_repo.live_with_character(conn, guild_id, sheet.id)
    if fighting is not None:
        raise Conflict(
            f"**{names.escaped(sheet.name)}** is fighting in <#{fighting.channel_id}>: change "
            "the record after that fight ends."
        )


def _nobody(skipped: list[str], can_name: bool) -> str:
    if skipped:
        return "Nobody to apply it to: " + "; ".join(skipped) + "."
    hint = " Name one with `member:` and `character:`." if can_name else ""
    return (
        "No character of this server has a campaign record yet (a character gets one when it "
        "leaves its first fight)." + hint
    )
