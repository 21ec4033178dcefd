"""The fight in pictures (issue 18), read from the log and drawn: samples per round (an undo
takes back the rounds it returned from), a PNG within the attachment limit for a 60-combatant
fight, colours that reach 4.5:1 on the chart's own background, and distinct lines."""

from __future__ import annotations

import io
from datetime import UTC, datetime

import pytest
from matplotlib.colors import to_hex
from matplotlib.text import Text
from PIL import Image

from bot.engine.core.audience import GM, PUBLIC
from bot.engine.core.chart import Sample, chart_data
from bot.services.fight_chart import _round_of, logged_states, round_samples
from bot.store.db import Database
from bot.store.encounter_log import LogEntry
from bot.ui import chart_drawing
from bot.ui.chart_drawing import (
    BACKGROUND,
    TEXT,
    colours_used,
    contrast,
    line_style,
    render_png,
)
from tests.engine.helpers import RULES
from tests.engine.test_fight_chart import scripted_fight

DISCORD_LIMIT = 10 * 1024 * 1024
AT = datetime(2026, 1, 1, tzinfo=UTC)


def entry(version: int, state: str) -> LogEntry:
    return LogEntry(
        encounter_id=1,
        version=version,
        actor_id=0,
        command="x",
        options="{}",
        result="{}",
        state=state,
        created_at=AT,
    )


def test_samples_are_the_first_rounds_start_and_each_rounds_end() -> None:
    fight = scripted_fight(1, 1, rounds=3)
    setup = RULES.new_encounter(name="Scripted", seed=1)
    states = [setup] + [s.state for s in fight]
    entries = [entry(i + 1, s.model_dump_json()) for i, s in enumerate(states)]
    assert [v for v, _ in logged_states(entries)] == list(range(1, len(states) + 1))
    samples = round_samples(entries, RULES, setup)
    assert [s.label for s in samples] == [s.label for s in fight]
    assert samples[0].state == fight[0].state and samples[-1].state == fight[-1].state


def test_an_undo_back_into_an_earlier_round_drops_the_later_rounds() -> None:
    fight = scripted_fight(1, 1, rounds=3)
    by_round = {s.state.round: s.state for s in fight[1:]}
    assert {1, 2} <= set(by_round)
    flow = [fight[0].state, by_round[1], by_round[2], by_round[1]]  # the last: an undo
    entries = [entry(i + 1, s.model_dump_json()) for i, s in enumerate(flow)]
    samples = round_samples(entries, RULES, flow[-1])
    assert [s.label for s in samples] == ["Start", "1"]


def test_a_fight_that_has_not_begun_has_one_point() -> None:
    setup = RULES.new_encounter(name="Waiting", seed=1)
    samples = round_samples([entry(1, setup.model_dump_json())], RULES, setup)
    assert [s.label for s in samples] == ["Start"] and samples[0].state is setup


def test_sixty_combatants_render_within_discords_limit() -> None:
    samples = scripted_fight(30, 30, rounds=4)
    for audience in (PUBLIC, GM):
        data = chart_data(RULES, samples, audience, title="Sixty")
        assert data.combatants == 60
        png = render_png(data, DISCORD_LIMIT)
        assert png.startswith(b"\x89PNG") and len(png) <= DISCORD_LIMIT
        image = Image.open(io.BytesIO(png))
        assert image.mode in ("RGB", "RGBA")
        corner = image.convert("RGB").getpixel((0, 0))
        assert corner == (0, 0, 0), "the background is opaque black"


def test_a_small_limit_lowers_the_resolution_until_it_fits() -> None:
    data = chart_data(RULES, scripted_fight(3, 3), PUBLIC, title="Small")
    full = render_png(data, DISCORD_LIMIT)
    limit = len(full) // 3
    small = render_png(data, limit)
    assert len(small) <= limit
    assert Image.open(io.BytesIO(small)).width < Image.open(io.BytesIO(full)).width
    with pytest.raises(ValueError, match="does not fit"):
        render_png(data, 100)


def test_every_text_and_line_colour_reaches_4_5_to_1_on_the_background() -> None:
    assert contrast("#000000", "#FFFFFF") == pytest.approx(21.0)
    assert contrast("#777777", "#FFFFFF") == pytest.approx(4.48, abs=0.01)  # WCAG's example
    for colour in colours_used():
        assert contrast(colour, BACKGROUND) >= 4.5, colour
    assert TEXT in colours_used()


def test_the_colours_drawn_are_the_colours_checked() -> None:
    """Every data line and every piece of text in the figure (titles, ticks, legend) is drawn
    in one of the colours the contrast check covers."""
    data = chart_data(RULES, scripted_fight(8, 8, rounds=2), PUBLIC, title="Drawn")
    figure = chart_drawing.figure(data)
    lines = {to_hex(line.get_color()).upper() for ax in figure.axes for line in ax.get_lines()}
    legend = {to_hex(h.get_color()).upper() for h in figure.legends[0].legend_handles}
    texts = {to_hex(t.get_color()).upper() for t in figure.findobj(Text) if t.get_text().strip()}
    assert len(lines) == 7 and texts == {TEXT}
    assert lines | legend | texts <= {c.upper() for c in colours_used()}
    assert to_hex(figure.get_facecolor()).upper() == BACKGROUND


def test_no_two_of_sixty_combatants_look_alike() -> None:
    looks = [line_style(i) for i in range(60)]
    assert len(set(looks)) == 60
    assert len({(x.style, x.marker) for x in looks[:40]}) == 40  # even without colour


def test_a_long_fight_names_at_most_about_25_rounds_on_the_axis() -> None:
    samples = scripted_fight(1, 1, rounds=2)
    long = [Sample(str(i) if i else "Start", samples[-1].state) for i in range(61)]
    figure = chart_drawing.figure(chart_data(RULES, long, GM, title="Long"))
    labels = [t.get_text() for t in figure.axes[-1].get_xticklabels()]
    assert labels[0] == "Start" and labels[-1] == "60" and len(labels) <= 26


def test_the_round_is_read_from_the_states_opening_or_by_parsing_it() -> None:
    fight = scripted_fight(1, 1, rounds=2)
    state = fight[-1].state
    assert _round_of(state.model_dump_json()) == state.round
    # A name that looks like the field, and a nested "round" before the encounter's own: parsed.
    assert _round_of('{"name":"x\\"round\\":9","round":3}') == 3
    assert _round_of('{"a":{"round":5},"round":2}') == 2
    assert _round_of("not json") == 0


async def test_the_chart_reads_a_log_with_sparse_snapshots_by_replay(db: Database) -> None:
    """Issue 15: most log rows keep no state; the chart's reader replays them, so it sees a
    state after every version — the newest the very state committed — and the same samples as
    from a copy in every row."""
    from bot.engine.core.commands import Begin, EndTurn
    from bot.services.actor import Actor
    from bot.services.combat import CombatService
    from bot.services.encounters import EncounterService
    from tests.services.test_undo import sheet

    gm = Actor(user_id=1)
    encounters = EncounterService(db, clock=lambda: AT, seeds=lambda: 3, check_replay=True)
    combat = CombatService(encounters, clock=lambda: AT)
    await encounters.start(guild_id=1, channel_id=5, actor=gm, ruleset="uttas", name="Chart")
    await encounters.join(5, gm, name="Ann", sheet=sheet("Ann"))
    await encounters.add_npcs(5, gm, template="Thug", sheet=sheet("Thug"), count=1)
    await combat.gm_command(5, gm, "begin", {}, lambda e: Begin(), action="x")
    for _ in range(4):  # two turns a round: into round 3
        await combat.gm_command(
            5, gm, "endturn", {}, lambda e: EndTurn(actor=e.state.turn), action="x"
        )
    live = await encounters.live(5)
    entries = await encounters.log(live.id)
    assert sum(e.state is not None for e in entries) == 1  # the start's only
    states = list(logged_states(entries, live.rules))
    assert [v for v, _ in states] == [e.version for e in entries]
    assert states[-1][1] == live.state_json
    full = [entry(v, s) for v, s in states]  # as if every row kept its copy
    assert round_samples(entries, live.rules, live.state) == round_samples(
        full, live.rules, live.state
    )
    assert [s.label for s in round_samples(entries, live.rules, live.state)] == [
        "Start",
        "1",
        "2",
        "3",
    ]
