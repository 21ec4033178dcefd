"""Confirm / Cancel prompts through the services: a prompt is answered once, in the same
transaction as the change it confirms; a refused change leaves it open."""

from __future__ import annotations

import asyncio
import json

import pytest

from bot.errors import Conflict, NotAllowed, NotFound
from bot.services.actor import Actor
from bot.services.encounters import EncounterService
from bot.services.prompts import PROMPT_ANSWERED, PROMPT_GONE
from bot.services.sheets import SheetService
from bot.store.db import Database

ALICE = Actor(user_id=1)
BOB = Actor(user_id=2)
GM = Actor(user_id=3)
MODERATOR = Actor(user_id=4, manages_channel=True)
GUILD, CHANNEL = 100, 10
WILLOW = json.dumps({"name": "Willow"}).encode()


@pytest.fixture
def sheets(db: Database) -> SheetService:
    return SheetService(db)


@pytest.fixture
async def encounters(db: Database) -> EncounterService:
    service = EncounterService(db, seeds=lambda: 42)
    await service.start(guild_id=GUILD, channel_id=CHANNEL, actor=GM, ruleset="uttas", name="X")
    return service


async def _willow_prompt(sheets: SheetService) -> int:
    await sheets.import_file(GUILD, ALICE, "character", WILLOW)
    _, prompt_id = await sheets.open_delete(GUILD, CHANNEL, ALICE, "character", "Willow")
    return prompt_id


async def _names(sheets: SheetService) -> list[str]:
    return [r.name for r in await sheets.list_sheets(GUILD, ALICE, "character")]


async def test_confirm_after_cancel_deletes_nothing(sheets: SheetService) -> None:
    prompt_id = await _willow_prompt(sheets)
    with pytest.raises(NotAllowed):  # not Bob's to answer; the prompt stays open
        await sheets.cancel_delete(GUILD, BOB, prompt_id)
    assert (await sheets.cancel_delete(GUILD, ALICE, prompt_id)).name == "Willow"
    for answer in (sheets.confirm_delete, sheets.cancel_delete):
        with pytest.raises(Conflict, match=PROMPT_ANSWERED):
            await answer(GUILD, ALICE, prompt_id)
    assert await _names(sheets) == ["Willow"]


async def test_refused_confirm_leaves_the_prompt_open(sheets: SheetService) -> None:
    prompt_id = await _willow_prompt(sheets)
    for guild, actor, error in ((GUILD, BOB, NotAllowed), (GUILD + 1, ALICE, NotFound)):
        with pytest.raises(error):
            await sheets.confirm_delete(guild, actor, prompt_id)
    assert (await sheets.confirm_delete(GUILD, ALICE, prompt_id)).name == "Willow"
    assert await _names(sheets) == []


async def test_stale_prompt_of_a_deleted_sheet_never_reaches_a_newer_one(
    sheets: SheetService,
) -> None:
    old_prompt = await _willow_prompt(sheets)
    _, prompt_id = await sheets.open_delete(GUILD, CHANNEL, ALICE, "character", "Willow")
    await sheets.confirm_delete(GUILD, ALICE, prompt_id)
    await sheets.import_file(GUILD, ALICE, "character", json.dumps({"name": "Bear"}).encode())
    with pytest.raises(NotFound, match="no longer exists"):
        await sheets.confirm_delete(GUILD, ALICE, old_prompt)
    assert await _names(sheets) == ["Bear"]


async def test_simultaneous_clicks_apply_one_answer(sheets: SheetService) -> None:
    prompt_id = await _willow_prompt(sheets)
    results = await asyncio.gather(
        sheets.confirm_delete(GUILD, ALICE, prompt_id),
        sheets.cancel_delete(GUILD, ALICE, prompt_id),
        sheets.confirm_delete(GUILD, ALICE, prompt_id),
        return_exceptions=True,
    )
    assert sum(not isinstance(r, Exception) for r in results) == 1
    assert all(isinstance(r, Conflict) for r in results if isinstance(r, Exception))


async def test_missing_or_foreign_prompt_is_no_longer_valid(
    sheets: SheetService, encounters: EncounterService
) -> None:
    _, end_prompt = await encounters.open_end(CHANNEL, GM)
    for attempt in (
        sheets.confirm_delete(GUILD, ALICE, 999),
        sheets.cancel_delete(GUILD, ALICE, 999),
        sheets.confirm_delete(GUILD, GM, end_prompt),  # an end prompt is not a delete prompt
        encounters.confirm_end(999, GM),
        encounters.cancel_end(999, GM),
    ):
        with pytest.raises(NotFound, match=PROMPT_GONE):
            await attempt
    await encounters.live(CHANNEL)


async def test_end_prompt_is_answered_once(encounters: EncounterService) -> None:
    _, prompt_id = await encounters.open_end(CHANNEL, GM)
    with pytest.raises(NotAllowed):
        await encounters.open_end(CHANNEL, ALICE)
    with pytest.raises(NotAllowed):  # neither its opener nor a GM
        await encounters.cancel_end(prompt_id, ALICE)
    await encounters.cancel_end(prompt_id, GM)
    with pytest.raises(Conflict, match=PROMPT_ANSWERED):
        await encounters.confirm_end(prompt_id, GM)
    assert (await encounters.live(CHANNEL)).row.status == "live"

    encounter, prompt_id = await encounters.open_end(CHANNEL, GM)
    encounter_id = encounter.id
    with pytest.raises(NotAllowed):  # refused: the prompt stays open for the GM
        await encounters.confirm_end(prompt_id, ALICE)
    results = await asyncio.gather(
        encounters.confirm_end(prompt_id, GM),
        encounters.confirm_end(prompt_id, MODERATOR),
        return_exceptions=True,
    )
    assert sum(not isinstance(r, Exception) for r in results) == 1
    with pytest.raises(NotFound):
        await encounters.live(CHANNEL)
    commands = [e.command for e in await encounters.log(encounter_id)]
    assert commands.count("end") == 1


async def test_answers_after_the_encounter_ended_say_so(encounters: EncounterService) -> None:
    _, mine = await encounters.open_end(CHANNEL, GM)
    _, theirs = await encounters.open_end(CHANNEL, MODERATOR)
    await encounters.confirm_end(theirs, MODERATOR)
    for answer in (encounters.cancel_end, encounters.confirm_end):
        with pytest.raises(Conflict, match="already ended"):
            await answer(mine, GM)
        with pytest.raises(Conflict, match="already ended"):
            await answer(theirs, MODERATOR)
