"""QA attack (round 26) on Utopia's, Untitled's and Uune's decisions and commands: what a
member typed or pressed, what the channel then read. Each test says what a user saw."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable

import pytest

from bot import names
from bot.client import CombatBot
from bot.ui.replies import UNEXPECTED
from tests.e2e.combat_helpers import (
    ONE_ON_ONE,
    answered,
    ok,
    one_on_one,
    pass_turns_until,
    press,
    refused,
    set_up_cast,
    set_up_fight,
    slash,
    thug_attacks_willow,
    work_done,
)
from tests.e2e.conftest import DiceBox, Table
from tests.e2e.registered import filled, slash_commands
from tests.e2e.test_utopia_assist import newest_with, utopia_fight
from tests.e2e.uune_steps import Docks, prompt_with
from tests.harness.server import DiscordHarness


async def test_an_untitled_attack_typed_without_a_weapon_names_the_one_in_hand_first(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Wren begins with her Hunting knife drawn and her Longbow put away. Her player typed
    `/act action:attack target:Hill giant 1` and read "Wren's Longbow is put away: draw it
    first (a move action)": a weapon not named was the sheet's first, drawn or not, while the
    turn ping's Attack… button swung a weapon in hand. No rules text picks among several, so
    the attack with no weapon named is now asked for (play26, ``Ruleset.unnamed_attack``),
    the weapon in hand listed first, as the button would swing it; nothing is spent."""
    h = discord_harness
    await set_up_cast(
        h,
        table,
        "untitled",
        name="Burnt mill",
        pcs={"Wren": "wren"},
        npc=("hill-giant", "Hill giant"),
    )
    before = (await bot.services.encounters.live(h.channel.id)).version
    text = await refused(
        await slash(h, table.player, "act", action="attack", target="Hill giant 1")
    )
    assert text == "Which attack does Wren make? Name it in `detail:`: Hunting knife or Longbow."
    assert (await bot.services.encounters.live(h.channel.id)).version == before
    swung = await ok(
        await slash(
            h, table.player, "act", action="attack", target="Hill giant 1", detail="Hunting knife"
        )
    )
    assert "Hunting knife" in swung.message.text(), swung.message.text()


async def test_a_typed_defense_once_the_utopia_block_waits_for_assists_says_it_is_chosen(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """The Stone hound bit Vesna; her player pressed Block (1 IA) and Brannoc's Assist button
    waited. She then typed `/dodge` (and `/block`) and read "`choice`: Input should be 'assist'
    or 'roll'." — a validation message about a field she never saw: the typed reaction found
    the Assist decision (about Vesna) and answered it with a choice it does not take. It now
    says the defense is chosen and how to roll it; nothing changes."""
    h, gm = discord_harness, table.moderator
    await utopia_fight(h, table, dice)
    dice.load([8])
    bite = await ok(
        await slash(h, gm, "act", action="attack", target="Vesna", detail="Crushing bite")
    )
    await press(h, table.player, bite.message, "Block (1 IA)")
    await newest_with(h, "Roll the Block now")
    before = (await scripted_bot.services.encounters.live(h.channel.id)).state_json
    for word in ("dodge", "block"):
        text = await refused(await slash(h, table.player, word))
        assert text == (
            "The defense against Crushing bite is already chosen: a Block, waiting for "
            "Assists. Vesna cannot change the choice; to roll the Block, press **Roll the "
            "Block now** on the prompt (or the GM uses `/gm resolve`)."
        ), text
    assert (await scripted_bot.services.encounters.live(h.channel.id)).state_json == before


async def _uttas_attack(bot: CombatBot, h: DiscordHarness, table: Table, dice: DiceBox) -> None:
    dice.load([4] * 40)
    await set_up_fight(h, table)
    await thug_attacks_willow(bot, h, table)
    dice.faces = []


async def _utopia_bite(bot: CombatBot, h: DiscordHarness, table: Table, dice: DiceBox) -> None:
    await utopia_fight(h, table, dice)
    dice.load([8])
    await ok(
        await slash(
            h, table.moderator, "act", action="attack", target="Vesna", detail="Crushing bite"
        )
    )


async def _utopia_assist(bot: CombatBot, h: DiscordHarness, table: Table, dice: DiceBox) -> None:
    await _utopia_bite(bot, h, table, dice)
    await press(h, table.player, await newest_with(h, "Block (1 IA)"), "Block (1 IA)")
    await newest_with(h, "Roll the Block now")


async def _untitled_swing(bot: CombatBot, h: DiscordHarness, table: Table, dice: DiceBox) -> None:
    await set_up_cast(
        h, table, "untitled", name="Mill", pcs={"Brask": "brask"}, npc=("hill-giant", "Hill giant")
    )
    await pass_turns_until(bot, h, table, "Hill giant 1")
    await ok(await slash(h, table.moderator, "act", action="attack", target="Brask"))


async def _uune_approval(bot: CombatBot, h: DiscordHarness, table: Table, dice: DiceBox) -> None:
    u = Docks(bot, h, table, dice)
    await u.cast(wren=False)
    await u.run(table.moderator, "encounter begin")
    await u.run(table.player, "act", action="action", detail="climb: Lockpicks")


async def _uune_defend(bot: CombatBot, h: DiscordHarness, table: Table, dice: DiceBox) -> None:
    await Docks(bot, h, table, dice).thug_swings_at_mira()


async def _uune_spend(bot: CombatBot, h: DiscordHarness, table: Table, dice: DiceBox) -> None:
    u = Docks(bot, h, table, dice)
    await u.thug_swings_at_mira()
    await u.press(table.player, "Roll now", [2])
    await prompt_with(h, "Keep the roll")


STAGES: dict[str, Callable[[CombatBot, DiscordHarness, Table, DiceBox], Awaitable[None]]] = {
    "uttas attack": _uttas_attack,
    "utopia defense": _utopia_bite,
    "utopia assist": _utopia_assist,
    "untitled shield": _untitled_swing,
    "uune approval": _uune_approval,
    "uune defend": _uune_defend,
    "uune spend": _uune_spend,
}


@pytest.mark.parametrize("stage", list(STAGES))
async def test_dodge_and_block_typed_at_every_decision_answer_in_words(
    scripted_bot: CombatBot,
    discord_harness: DiscordHarness,
    table: Table,
    dice: DiceBox,
    stage: str,
) -> None:
    """Guard for the class of the typed defense above: at every kind of decision of every
    system, `/dodge` and `/block` typed by each member (the decider's player, another, the GM)
    are answered — done, or refused in the rules' words — never with a validation message
    about a field of a command nobody typed, nor the unexpected-error reply."""
    h = discord_harness
    await STAGES[stage](scripted_bot, h, table, dice)
    await work_done()
    dice.load([3] * 12)
    for member in (table.other_player, table.bystander, table.moderator, table.player):
        for word in ("dodge", "block"):
            record = await answered(await slash(h, member, word))
            text = str(record.response_data.get("content") or "")
            assert text != UNEXPECTED, (member.name, word, text)
            assert "Input should" not in text and not VALIDATION.match(text), (word, text)
    dice.faces = []


VALIDATION = re.compile(r"`\w+`: ")
"""How the central handler words a validation error about an option (`choice`: …)."""


BLANK_DETAILS: list[tuple[str, str, bool]] = [
    ("uune", "bond", False),  # claimed Bond 1, which nobody named
    ("uune", "action", False),  # "GM: name the difficulty of Mira Quell's  (no resources…"
    ("uune", "observe", False),  # "Observe ()"
    ("uune", "luck", False),  # "Luck check for Mira Quell (): 4"
    ("uune", "attack", True),  # "no resource called ''"
    ("utopia", "stealth", False),  # "Stealth has no circumstance ''"
    ("utopia", "attack", True),
    ("untitled", "free", False),  # "Wren (free action):"
    ("untitled", "draw", False),
]


@pytest.mark.parametrize(("system", "action", "aimed"), BLANK_DETAILS)
@pytest.mark.parametrize("typed", ["\u200b", " \u2060 "])
async def test_a_blank_detail_is_refused_as_blank(
    bot: CombatBot,
    discord_harness: DiscordHarness,
    table: Table,
    system: str,
    action: str,
    aimed: bool,
    typed: str,
) -> None:
    """Mira's player pasted a zero-width character as `detail:` of `/act action:bond`: the GM
    was asked to grant focus for "Bond 1 — Pay back the river guild…", a bond she never named
    (every bond's words start with nothing). As an Action roll's detail the GM read "name the
    difficulty of Mira Quell's  (no resources proposed…"; a luck check read "Luck check for
    Mira Quell (): 4"; an Untitled free action "Wren (free action):"; elsewhere "no resource
    called ''". `/act`'s detail that shows as nothing is now refused as blank, in every system,
    before any action reads it; nothing changes."""
    h = discord_harness
    pc = await one_on_one(h, table, system, name="Blank")
    await pass_turns_until(bot, h, table, pc)
    live = await bot.services.encounters.live(h.channel.id)
    before = live.state_json
    options: dict[str, object] = {"action": action, "detail": typed}
    if aimed:
        options["target"] = live.state.get(live.state.order[-1]).name
    text = await refused(await slash(h, table.player, "act", **options))
    assert text == "`detail`: is blank once invisible characters and spaces are removed.", text
    assert (await bot.services.encounters.live(h.channel.id)).state_json == before


BLANK_QUOTED: list[tuple[str, str, str, dict[str, object]]] = [
    ("uttas", "gm", "gm adjust", {"combatant": "Willow", "characteristic": "{}", "change": 1}),
    ("uttas", "gm", "odds", {"target": "Willow", "with_": "{}", "as_": "Thug 1"}),
    ("uttas", "player", "help", {"topic": "{}"}),
    ("utopia", "player", "check", {"skill": "{}"}),
    ("uune", "player", "check", {"skill": "{}"}),
    ("uune", "player", "campaign show", {"character": "{}"}),
    ("uune", "gm", "campaign reset", {"character": "{}", "member": "player"}),
]


@pytest.mark.parametrize(("system", "who", "command", "options"), BLANK_QUOTED)
async def test_a_blank_name_typed_is_called_blank_not_quoted_as_nothing(
    bot: CombatBot,
    discord_harness: DiscordHarness,
    table: Table,
    system: str,
    who: str,
    command: str,
    options: dict[str, object],
) -> None:
    """A zero-width character pasted as a name to look up: `/check skill:` read "Mira Quell
    has no resource called ''", `/gm adjust` "UTTAS has no characteristic ''", `/odds` "Willow
    has no attack called ''", `/help` "There is no help topic called ''", and `/campaign show`
    "… has no character called ****" — a name that shows as nothing, quoted as nothing (the
    guard of round 24 listed other commands). Each now says the name typed is blank."""
    h = discord_harness
    if system == "uttas":
        await set_up_fight(h, table)
    else:
        await one_on_one(h, table, system, name="Blank")
    member = table.moderator if who == "gm" else table.player
    given = {
        k.rstrip("_"): ("\u200b" if v == "{}" else table.player if v == "player" else v)
        for k, v in options.items()
    }
    text = await refused(await h.slash(member, h.channel, command, given))
    assert names.BLANK in text, (command, text)
    for empty in ("''", "****"):
        assert empty not in text, (command, text)


SWEEP_SKIPPED = {
    "rehearse",  # plays thousands of fights (tests/e2e/test_rehearse.py)
    "encounter end",  # these ask for a confirmation
    "gm end-fight",
    "me delete",
    "server member-delete",
}


@pytest.mark.async_timeout(400)
@pytest.mark.timeout(400)
@pytest.mark.parametrize("system", list(ONE_ON_ONE))
async def test_a_blank_value_in_every_text_option_is_refused_as_blank(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table, system: str
) -> None:
    """Guard for the class of the two tests above, read from the commands the bot registered
    (a new command or option is swept without being listed here): a zero-width character in
    any free-text option, from the GM, in a running fight of each system, is refused — `/ready
    action:` readied an action described by nothing — and the refusal never quotes it as
    nothing (``''``, ``****``)."""
    h = discord_harness
    if system == "uttas":
        await set_up_fight(h, table)
    else:
        await one_on_one(h, table, system, name="Blank")
    await work_done()
    failures: list[tuple[str, str, str]] = []
    for name, options in slash_commands(h):
        if name in SWEEP_SKIPPED:
            continue
        for option in options:
            if option.get("choices") or option["type"] != 3:
                continue
            sent = {**filled(h, table, options), option["name"]: "\u200b"}
            record = await answered(await h.slash(table.moderator, h.channel, name, sent))
            data = (
                record.followups[0].payload
                if record.deferred and record.followups
                else record.response_data
            )
            text = str((data or {}).get("content") or "")
            if not record.ephemeral:
                failures.append((name, option["name"], "accepted"))
                await answered(await slash(h, table.moderator, "gm undo"))
            elif "''" in text or "****" in text:
                failures.append((name, option["name"], text[:120]))
            await work_done()
    assert not failures, "\n".join(map(str, failures))
