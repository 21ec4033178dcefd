"""End-to-end fixtures: the real bot, in this process or as ``python -m bot``, against the
Discord-compatible harness, and the people at the table."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

import discord
import pytest
import pytest_asyncio
from pydantic import SecretStr

from bot.__main__ import build
from bot.client import CombatBot
from bot.settings import Settings
from tests.clock import ManualClock
from tests.harness.models import Member
from tests.harness.server import DiscordHarness

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Table:
    """Members of the test server: the GM (starts encounters, no special permissions), two
    players, a bystander, and a moderator with Manage Channels."""

    gm: Member
    player: Member
    other_player: Member
    bystander: Member
    moderator: Member


@pytest.fixture
def table(discord_harness: DiscordHarness) -> Table:
    h = discord_harness
    plain = discord.Permissions(send_messages=True, view_channel=True)
    return Table(
        gm=h.add_member(h.guild, "Gemma the GM", permissions=plain),
        player=h.add_member(h.guild, "Willow's player", permissions=plain),
        other_player=h.add_member(h.guild, "Bear's player", permissions=plain),
        bystander=h.add_member(h.guild, "Bystander", permissions=plain),
        moderator=h.add_member(
            h.guild, "Moderator", permissions=discord.Permissions(manage_channels=True)
        ),
    )


def bot_settings(h: DiscordHarness, database: Path, **overrides: object) -> Settings:
    values: dict[str, object] = {
        "discord_token": SecretStr(h.token),
        "database_path": database,
        "check_replay": True,  # every change must replay exactly from the event log (issue 15)
        **overrides,
    }
    return Settings.model_validate(values)


class DiceBox:
    """Scripted dice for a test: ``load`` the faces the next commands will roll, in order.
    Rolling more than was loaded fails the test; so does leaving dice unused (``empty``)."""

    def __init__(self) -> None:
        self.faces: list[int] = []
        self.scripted = False

    def load(self, faces: list[int]) -> None:
        assert not self.faces, f"{len(self.faces)} scripted dice were never rolled: {self.faces}"
        self.faces = list(faces)
        self.scripted = True

    def roll(self, count: int, sides: int) -> list[int]:
        assert self.scripted, "a command rolled dice but the test scripted none"
        assert len(self.faces) >= count, f"asked for {count}d{sides}, {len(self.faces)} left"
        taken, self.faces = self.faces[:count], self.faces[count:]
        assert all(1 <= face <= sides for face in taken), (taken, sides)
        return taken

    @property
    def empty(self) -> bool:
        return not self.faces


@pytest.fixture
def dice() -> DiceBox:
    return DiceBox()


async def _running_bot(
    harness: DiscordHarness,
    database: Path,
    dice: DiceBox | None,
    *,
    clock: ManualClock | None = None,
    expiry_interval: float | None = 0.2,
) -> AsyncIterator[CombatBot]:
    client = await build(
        bot_settings(harness, database),
        guild_ready_timeout=0.05,
        seeds=lambda: 20261129,
        rollers=(lambda encounter: dice) if dice is not None else None,
        expiry_interval=expiry_interval,
        clock=clock,
    )
    try:
        async with harness.run_client(client):
            yield client
    finally:
        await client.db.close()


@pytest_asyncio.fixture
async def bot(discord_patched: DiscordHarness, tmp_path: Path) -> AsyncIterator[CombatBot]:
    """The real bot, built by the composition root, connected in this event loop, with seeded
    dice (the same commands roll the same dice every run)."""
    async for client in _running_bot(discord_patched, tmp_path / "bot.sqlite3", None):
        yield client


@pytest_asyncio.fixture
async def scripted_bot(
    discord_patched: DiscordHarness, tmp_path: Path, dice: DiceBox
) -> AsyncIterator[CombatBot]:
    """The real bot whose every die comes from the test's :class:`DiceBox`."""
    async for client in _running_bot(discord_patched, tmp_path / "bot.sqlite3", dice):
        yield client


@pytest.fixture
def clock() -> ManualClock:
    """The services' clock for :func:`clocked_bot`: it moves only when the test advances it."""
    return ManualClock()


@pytest_asyncio.fixture
async def clocked_bot(
    discord_patched: DiscordHarness, tmp_path: Path, clock: ManualClock
) -> AsyncIterator[CombatBot]:
    """The real bot on the test's :class:`ManualClock`, with no background expiry loop: a
    reaction window runs out when the test advances the clock, and is expired when the test
    runs a pass (``await bot.expire_due()``)."""
    async for client in _running_bot(
        discord_patched, tmp_path / "bot.sqlite3", None, clock=clock, expiry_interval=None
    ):
        yield client


@pytest_asyncio.fixture
async def scripted_clocked_bot(
    discord_patched: DiscordHarness, tmp_path: Path, dice: DiceBox, clock: ManualClock
) -> AsyncIterator[CombatBot]:
    """The real bot with the test's :class:`DiceBox` and :class:`ManualClock`, and no
    background expiry loop (as :func:`clocked_bot`)."""
    async for client in _running_bot(
        discord_patched, tmp_path / "bot.sqlite3", dice, clock=clock, expiry_interval=None
    ):
        yield client


class BotProcess:
    """``python -m bot`` as a subprocess pointed at the harness, as the README runs it."""

    def __init__(self, harness: DiscordHarness, workdir: Path, extra_env: dict[str, str]) -> None:
        self.harness = harness
        self.workdir = workdir
        self.env = {
            **os.environ,
            **harness.env(),
            "DATABASE_PATH": str(workdir / "bot.sqlite3"),
            "LOG_LEVEL": "INFO",
            "CHECK_REPLAY": "true",
            **extra_env,
        }
        self.env["PYTHONPATH"] = str(ROOT)
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = workdir / "bot.log"

    def spawn(self) -> None:
        """Start ``python -m bot`` and return at once (:meth:`start` also waits for it to
        connect; several processes spawned together wait for their sessions themselves)."""
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "bot"],
                cwd=ROOT,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )

    async def start(self) -> None:
        sessions_before = len(self.harness.sessions)
        self.spawn()
        assert self.proc is not None
        try:
            await self.harness.wait_for(
                lambda: (
                    any(s.identified and s.open for s in self.harness.sessions[sessions_before:])
                    or self.proc is None
                    or self.proc.poll() is not None
                ),
                timeout=30,
            )
        except Exception:
            raise AssertionError(f"bot did not connect; its log:\n{self.output()}") from None
        assert self.proc.poll() is None, f"bot exited; its log:\n{self.output()}"
        await asyncio.sleep(0.2)  # let discord.py finish its ready handshake

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs, as in a crash or an OOM kill."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)

    async def terminate(self, within: float = 20.0) -> int:
        """SIGTERM, as a host stops a process, and wait until it exits — serving the harness
        meanwhile (the bot may still talk to Discord while it shuts down); its exit status."""
        assert self.proc is not None
        self.proc.terminate()
        deadline = asyncio.get_running_loop().time() + within
        while self.proc.poll() is None:
            if asyncio.get_running_loop().time() > deadline:
                raise AssertionError(f"bot did not stop on SIGTERM; its log:\n{self.output()}")
            await asyncio.sleep(0.05)
        return self.proc.returncode

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""


@pytest.fixture
def bot_process(discord_harness: DiscordHarness, tmp_path: Path) -> Iterator[BotProcess]:
    process = BotProcess(discord_harness, tmp_path, {})
    try:
        yield process
    finally:
        process.stop()
