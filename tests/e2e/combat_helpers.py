"""Shared steps for combat tests: set a fight up through slash commands, read replies."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from bot.client import IN_FLIGHT, CombatBot
from tests.e2e.conftest import Table
from tests.harness.models import InteractionRecord, Member, StoredMessage
from tests.harness.server import DiscordHarness


async def answered(record: InteractionRecord) -> InteractionRecord:
    """Wait for the reply — past a "thinking…" defer, for its first followup."""
    await record.response()
    if record.deferred:
        await record.followup(0)
    return record


async def ok(record: InteractionRecord) -> InteractionRecord:
    """Wait for the reply and insist it was not a refusal."""
    await answered(record)
    assert not record.ephemeral, record.response_data
    return record


async def refused(record: InteractionRecord) -> str:
    """Wait for the reply and insist it was an ephemeral refusal; return its text."""
    await record.response()
    assert record.ephemeral, record.response_data
    content: str = record.response_data.get("content") or ""
    return content


async def work_done(timeout: float = 10.0) -> None:  # noqa: ASYNC109 - a wait's bound
    """Wait until the bot's commands, clicks, notice deliveries and expiry passes in flight
    (:data:`bot.client.IN_FLIGHT`) have finished, posts and all: a fault injected after this
    meets the next request, not the tail of an earlier command's. Raises ``TimeoutError``."""
    me = asyncio.current_task()
    async with asyncio.timeout(timeout):
        while running := [
            task
            for task in asyncio.all_tasks()
            if task is not me and not task.done() and task.get_name().startswith(IN_FLIGHT)
        ]:
            await asyncio.wait(running)


def trackers_shown(h: DiscordHarness) -> list[StoredMessage]:
    """The tracker messages the channel shows now (the bot's own posts, not replies; deleted
    ones left out), oldest first: one, but for the moment a round's start has posted it again
    at the bottom and not yet deleted the old one."""
    return [
        m
        for m in h.messages_in(h.channel)
        if m.interaction is None
        and any("player view" in (e.get("footer") or {}).get("text", "") for e in m.embeds)
    ]


async def tracker_reading(
    h: DiscordHarness,
    text: str,
    timeout: float = 5.0,  # noqa: ASYNC109 - a wait's bound
) -> StoredMessage:
    """Wait until the channel shows one tracker and it contains ``text``; return it.

    The channel is read again at every look, never one tracker picked earlier and watched:
    where the bot may not pin, a round's start posts the tracker again at the bottom and
    deletes the old one (:mod:`bot.ui.tracker_keeper`), and under load that post can come
    after later commands were answered — a tracker picked after their replies may be the
    old one, deleted a moment later and never edited again (``test_uune_conflict`` failed so
    about one CI run in three). Raises ``AssertionError`` saying what the channel shows."""

    def one_reading() -> StoredMessage | None:
        shown = trackers_shown(h)
        return shown[0] if len(shown) == 1 and text in shown[0].text() else None

    try:
        found: StoredMessage = await h.wait_for(one_reading, timeout=timeout)
    except TimeoutError as late:
        shown = [m.text() for m in trackers_shown(h)]
        raise AssertionError(
            f"no one tracker reads {text!r}; the channel shows {shown!r}"
        ) from late
    return found


async def slash(
    h: DiscordHarness, member: Member, command: str, **options: Any
) -> InteractionRecord:
    """A slash command; ``with_``/``as_`` stand for the options ``with`` and ``as``."""
    renamed = {name.rstrip("_"): value for name, value in options.items()}
    return await h.slash(member, h.channel, command, renamed)


async def set_up_fight(
    h: DiscordHarness,
    table: Table,
    *,
    thugs: int = 3,
    begin: bool = True,
    player: Member | None = None,
) -> None:
    """The worked example's cast: the moderator GMs three Thugs; the player (or ``player``)
    brings Willow and General Bearington."""
    gm, player = table.moderator, player or table.player
    await ok(await slash(h, gm, "encounter start", name="Firewood"))
    await answered(await slash(h, gm, "npc import", example="thug"))
    await ok(await slash(h, gm, "gm add-npc", template="Thug", count=thugs))
    for example in ("willow", "general-bearington"):
        await answered(await slash(h, player, "character import", example=example))
    await ok(await slash(h, player, "encounter join", character="Willow"))
    await ok(await slash(h, player, "encounter join", character="General Bearington"))
    if begin:
        await ok(await slash(h, gm, "encounter begin"))


async def hound_pass(h: DiscordHarness, table: Table, *, begin: bool = True) -> None:
    """A Utopia fight at the Pass: the moderator GMs a Stone hound (added first); Vesna (the
    player's) and Brannoc (the other player's) join; then it begins (unless ``begin`` is
    false)."""
    gm = table.moderator
    await ok(await slash(h, gm, "encounter start", name="Pass", ruleset="utopia"))
    await answered(await slash(h, gm, "npc import", example="stone-hound"))
    await ok(await slash(h, gm, "gm add-npc", template="Stone hound"))
    await answered(await slash(h, table.player, "character import", example="vesna"))
    await answered(await slash(h, table.other_player, "character import", example="brannoc"))
    await ok(await slash(h, table.player, "encounter join", character="Vesna"))
    await ok(await slash(h, table.other_player, "encounter join", character="Brannoc"))
    if begin:
        await ok(await slash(h, gm, "encounter begin"))


async def set_up_cast(
    h: DiscordHarness,
    table: Table,
    ruleset: str,
    *,
    name: str,
    pcs: dict[str, str],
    npc: tuple[str, str],
    count: int = 1,
    begin: bool = True,
) -> None:
    """Another system's fight: the moderator starts ``name`` in ``ruleset``; each PC of ``pcs``
    (character name → example sheet) is imported and joined by the player, the next one by the
    other player; ``count`` copies of the NPC ``npc`` (example, template name) join; then the
    fight begins (unless ``begin`` is false)."""
    gm = table.moderator
    await ok(await slash(h, gm, "encounter start", name=name, ruleset=ruleset))
    for member, (character, example) in zip(
        (table.player, table.other_player), pcs.items(), strict=False
    ):
        await answered(await slash(h, member, "character import", example=example))
        await answered(await slash(h, member, "encounter join", character=character))
    example, template = npc
    await answered(await slash(h, gm, "npc import", example=example))
    await ok(await slash(h, gm, "gm add-npc", template=template, count=count))
    if begin:
        await ok(await slash(h, gm, "encounter begin"))


ONE_ON_ONE: dict[str, tuple[str, str, tuple[str, str]]] = {
    "uttas": ("Willow", "willow", ("thug", "Thug")),
    "utopia": ("Vesna", "vesna", ("stone-hound", "Stone hound")),
    "untitled": ("Wren", "wren", ("hill-giant", "Hill giant")),
    "uune": ("Mira Quell", "mira", ("dock-thug", "Dock Thug")),
}
"""Each system's smallest fight: ``(the player's character, its example, (the NPC's example,
its template))``."""


async def one_on_one(h: DiscordHarness, table: Table, system: str, *, name: str) -> str:
    """Fight ``name`` in ``system``: the player's character (:data:`ONE_ON_ONE`) against one
    copy of the GM's NPC, begun. Returns the character's name."""
    pc, example, npc = ONE_ON_ONE[system]
    await set_up_cast(h, table, system, name=name, pcs={pc: example}, npc=npc)
    return pc


async def against_a_thug(h: DiscordHarness, table: Table, sheet: dict[str, Any]) -> None:
    """UTTAS, the Grove: the player's character from ``sheet`` (a UTTAS sheet's JSON, imported
    as a file) joins against one Thug, and the fight begins."""
    gm, player = table.moderator, table.player
    await ok(await slash(h, gm, "encounter start", name="Grove"))
    await answered(await slash(h, gm, "npc import", example="thug"))
    await ok(await slash(h, gm, "gm add-npc", template="Thug"))
    upload = h.make_attachment("sheet.json", json.dumps(sheet).encode())
    await answered(await slash(h, player, "character import", file=upload))
    await ok(await slash(h, player, "encounter join", character=sheet["name"]))
    await ok(await slash(h, gm, "encounter begin"))


async def winded(h: DiscordHarness, table: Table, name: str, amount: int = 5) -> None:
    """``name`` loses ``amount`` Stamina (the GM's `/gm vital`), so a UTTAS breather has
    something to recover: one at full Stamina is refused (it would spend the action and a
    breather for nothing)."""
    change = await slash(
        h, table.moderator, "gm vital", combatant=name, vital="Stamina", amount=f"-{amount}"
    )
    await ok(change)


def button(message: StoredMessage, label: str) -> dict[str, Any]:
    """The button on ``message`` whose label starts with ``label``."""
    for row in message.components:
        for component in row.get("components", []):
            if component.get("label", "").startswith(label):
                return component
    labels = [c.get("label") for row in message.components for c in row.get("components", [])]
    raise AssertionError(f"no button starting {label!r}; buttons: {labels}")


async def press(
    h: DiscordHarness, member: Member, message: StoredMessage, label: str
) -> InteractionRecord:
    """Click the button labelled ``label`` on the latest version of ``message``. For an NPC
    whose numbers are hidden the prompt has a "GM: choose …" button instead of its options:
    click that, then ``label`` among the options it shows the GM privately."""
    latest = h.message(message)
    labels = [c.get("label", "") for row in latest.components for c in row.get("components", [])]
    if not any(text.startswith(label) for text in labels):
        chooser = next((text for text in labels if text.startswith("GM: choose")), None)
        if chooser is not None:
            opened = await h.click(member, latest, button(latest, chooser)["custom_id"])
            await opened.response()
            assert opened.ephemeral, opened.response_data
            private = opened.message
            click = await h.click(member, private, button(private, label)["custom_id"])
            await click.response()
            assert click.response_type == 7, click.response_data
            # The public prompt is then edited to the outcome (after the private answer).
            await h.wait_for(lambda: h.message(message).components == [])
            return click
    click = await h.click(member, latest, button(latest, label)["custom_id"])
    await click.response()
    assert not click.ephemeral, click.response_data
    return click


async def version(bot: CombatBot, h: DiscordHarness) -> int:
    return (await bot.services.encounters.live(h.channel.id)).version


async def current_name(bot: CombatBot, h: DiscordHarness) -> str:
    live = await bot.services.encounters.live(h.channel.id)
    assert live.state.current is not None
    return live.state.current.name


async def pass_turns_until(bot: CombatBot, h: DiscordHarness, table: Table, name: str) -> None:
    """End turns (the GM may act for anyone) until it is ``name``'s turn."""
    for _ in range(10):
        if await current_name(bot, h) == name:
            return
        await ok(await slash(h, table.moderator, "endturn"))
    raise AssertionError(f"never reached {name}'s turn")


async def coordinated_thugs(bot: CombatBot, h: DiscordHarness, table: Table) -> tuple[str, str]:
    """Two Thugs against Willow: the first to act readies a coordinated Cudgel on Willow with
    the second, whose turn then begins. Returns (first, second)."""
    gm = table.moderator
    await set_up_fight(h, table, thugs=2)
    live = await bot.services.encounters.live(h.channel.id)
    thugs = [live.state.get(cid).name for cid in live.state.order]
    first, second = [name for name in thugs if name.startswith("Thug")]
    await pass_turns_until(bot, h, table, first)
    await ok(
        await slash(
            h,
            gm,
            "ready",
            trigger="coordinated",
            watch=second,
            action="strike with my partner",
            attack="Cudgel",
            target="Willow",
            as_=first,
        )
    )
    await pass_turns_until(bot, h, table, second)
    return first, second


async def thug_attacks_willow(bot: CombatBot, h: DiscordHarness, table: Table) -> StoredMessage:
    await pass_turns_until(bot, h, table, "Thug 1")
    return (
        await ok(await slash(h, table.moderator, "attack", target="Willow", with_="Cudgel"))
    ).message


async def run_out_windows(bot: CombatBot) -> None:
    """Every waiting decision's window ends now, as if its time had passed (the bot's
    background loop then expires it)."""
    async with bot.db.transaction() as conn:
        await conn.execute(
            "UPDATE decisions SET deadline = '2000-01-01T00:00:00+00:00' WHERE status = 'open'"
        )


async def window_ran_out(bot: CombatBot, h: DiscordHarness) -> None:
    """Run the channel's waiting decision's window out and wait until the bot expired it."""
    before = (await bot.services.encounters.live(h.channel.id)).row.pending_version
    await run_out_windows(bot)
    for _ in range(500):
        live = await bot.services.encounters.live(h.channel.id)
        if live.row.pending_version != before:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the window never ran out")


def game_state(state_json: str) -> dict[str, Any]:
    """A stored state without its anti-race marks: undo and redo restore the game exactly but
    date the turn and decision they bring back anew (``turn_marker``, the pending decision's
    ``marker``), so a command sent for what stood before is refused."""
    state: dict[str, Any] = json.loads(state_json)
    state.pop("turn_marker", None)
    if isinstance(state.get("pending"), dict):
        state["pending"].pop("marker", None)
    for decision in state.get("decisions") or []:
        decision.pop("marker", None)
    return state


ENDING_S = 20.0
"""How long :func:`end_encounter` waits for the end's work (seconds): it draws fight charts."""


async def end_encounter(h: DiscordHarness, table: Table) -> InteractionRecord:
    """The server GM (the moderator) ends the channel's encounter: ``/encounter end``, then
    Confirm. Returns the Confirm click's record once the end's work is done (:func:`work_done`).

    The click is answered first; then come the summary — its fight charts drawn in a worker
    thread, matplotlib imported on a process's first chart: seconds on a loaded machine — and
    only then the waiting prompts' retirement and the turn ping's. A test that looked for
    those with the harness's 5 s wait failed under load
    (``test_ending_the_encounter_retires_a_waiting_prompt``, 3 runs in 7), so this waits for
    the work itself, as long as slow drawing takes."""
    prompt = await h.slash(table.moderator, h.channel, "encounter end")
    await prompt.response()
    confirm = prompt.message.component(label="Confirm: end it")["custom_id"]
    click = await h.click(table.moderator, prompt.message, confirm)
    await click.response()
    await work_done(ENDING_S)
    return click
