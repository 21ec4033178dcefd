"""Shared steps for Uune's end-to-end tests: the cast at the docks, the newest prompt with a
given button, and what the channel saw."""

from __future__ import annotations

from bot.client import CombatBot
from tests.e2e.combat_helpers import answered, ok, press, slash
from tests.e2e.conftest import DiceBox, Table
from tests.harness.models import InteractionRecord, Member, StoredMessage
from tests.harness.server import DiscordHarness


def labels(message: StoredMessage) -> list[str]:
    """The labels of ``message``'s buttons, in order."""
    return [c.get("label", "") for row in message.components for c in row.get("components", [])]


async def prompt_with(h: DiscordHarness, label: str) -> StoredMessage:
    """The newest public message in the channel with a button starting ``label`` (a new
    prompt is posted after the click that opened it), waiting for it."""

    def find() -> StoredMessage | None:
        for m in reversed(h.messages_in(h.channel)):
            if any(text.startswith(label) for text in labels(m)):
                return m
        return None

    await h.wait_for(lambda: find() is not None)
    found = find()
    assert found is not None
    return found


class Docks:
    """A Uune table at the docks: the moderator GMs; ``/encounter start ruleset:uune``."""

    def __init__(self, bot: CombatBot, h: DiscordHarness, table: Table, dice: DiceBox) -> None:
        self.bot, self.h, self.table, self.dice = bot, h, table, dice
        self.gm = table.moderator

    async def run(self, member: Member, command: str, **options: object) -> InteractionRecord:
        """A slash command that must succeed (a public reply)."""
        return await ok(await slash(self.h, member, command, **options))

    async def reply(self, member: Member, command: str, **options: object) -> InteractionRecord:
        """A slash command, refused or not."""
        return await answered(await slash(self.h, member, command, **options))

    async def press(
        self, member: Member, label: str, faces: list[int] | None = None, *, on: str = ""
    ) -> StoredMessage:
        """Press the button ``label`` on the newest prompt that has it (``on``: the newest with
        a button starting ``on`` — an NPC's "GM: choose …", behind which its choices are),
        rolling ``faces``; returns the prompt (now settled: its text is what the press did)."""
        prompt = await prompt_with(self.h, on or label)
        if faces is not None:
            self.dice.load(faces)
        await press(self.h, member, prompt, label)
        assert self.dice.empty, f"dice left unrolled: {self.dice.faces}"
        return self.h.message(prompt)

    def said(self, text: str) -> bool:
        """Whether any public message in the channel (its latest version) contains ``text``."""
        return any(text in m.text() for m in self.h.messages_in(self.h.channel))

    async def cast(
        self, *, wren: bool = True, witch_first: bool = False, witch: bool = True
    ) -> None:
        """Mira (the player), Tobin (the other player), Wren (the bystander, Mira's sheet under
        another name) against a Dock Thug and a River Witch (joining in that order, or the
        witch first: the NPCs act in the order they joined)."""
        t, gm = self.table, self.gm
        await self.run(gm, "encounter start", name="Dock nine", ruleset="uune")
        await self.reply(t.player, "character import", example="mira")
        await self.reply(t.other_player, "character import", example="tobin")
        await self.run(t.player, "encounter join", character="Mira Quell")
        await self.run(t.other_player, "encounter join", character="Tobin Ash")
        if wren:
            await self.reply(t.bystander, "character import", example="mira", name="Wren")
            await self.run(t.bystander, "encounter join", character="Wren")
        await self.reply(gm, "npc import", example="dock-thug")
        await self.reply(gm, "npc import", example="river-witch")
        npcs = ["Dock Thug", "River Witch"] if witch else ["Dock Thug"]
        for template in reversed(npcs) if witch_first else npcs:
            await self.run(gm, "gm add-npc", template=template)

    async def thug_swings_at_mira(self) -> None:
        """The cast without Wren (:meth:`cast`); the fight begins, Mira and Tobin end their
        turns, and the GM's Dock Thug 1 swings its Cudgel at Mira (her Defend now waits)."""
        t = self.table
        await self.cast(wren=False)
        await self.run(self.gm, "encounter begin")
        await self.run(t.player, "endturn")
        await self.run(t.other_player, "endturn")
        await self.run(self.gm, "act", action="npc-attack", target="Mira Quell", detail="Cudgel")

    async def tobin_helps_mira(self) -> None:
        """The cast without Wren (:meth:`cast`); the fight begins, Mira tries to pick the lock
        (Lockpicks, 3 hits needed) and Tobin helps with Herbalist: the GM's approval waits."""
        t = self.table
        await self.cast(wren=False)
        await self.run(self.gm, "encounter begin")
        await self.run(
            t.player, "act", action="action", detail="pick the lock: Lockpicks", amount=3
        )
        await self.run(t.other_player, "act", action="help", detail="Herbalist")
