"""UTTAS movement: a free half move, a full Move, a sprint, standing up ("Moving", "Full
Move", "Prone" in ``uttas-gameplay.txt``), and what a move does to the encounter's positions
(decision E: a mover leaves its melee unless it moves toward someone)."""

from __future__ import annotations

from bot import names
from bot.engine.core.effects import Ends
from bot.engine.core.events import Moved
from bot.engine.core.positions import ENGAGED_M
from bot.engine.uttas import chase, limbs, rules
from bot.engine.uttas.commands import Move, Sprint, Stand
from bot.engine.uttas.core import Tx
from bot.engine.uttas.events import Checked
from bot.engine.uttas.sheet import MOVEMENT_MODES, MovementMode
from bot.engine.uttas.state import GRAPPLED, GRAPPLING, PRONE, SPRINTING, Combatant
from bot.engine.uttas.tables import UttasTables
from bot.errors import InvalidInput, RuleViolation


def why_cannot_step(c: Combatant, tables: UttasTables) -> str | None:
    """Why ``c`` cannot step away in a Move reaction ("Defend: ... a Block, Evade, or Move
    action"), in words, or ``None``: a Move reaction moves, so whatever forbids moving forbids it
    — Prone (stand up first), holding someone in a grapple ("neither the grappler nor their
    victim can move"), a condition that forbids moving (Entangled, Barred), no speed left in any
    mode (both legs disabled and no other way to move)."""
    if c.has(PRONE):
        return f"{names.escaped(c.name)} is Prone"
    if c.has(GRAPPLING) or c.has(GRAPPLED):
        return f"{names.escaped(c.name)} is in a grapple"
    for name, extra in tables.extra_conditions.items():
        if extra.no_move and c.has(name):
            return f"{names.escaped(c.name)} is {names.escaped(name)}"
    if all(limbs.speed(c, mode, tables) <= 0 for mode in MOVEMENT_MODES):
        return f"{names.escaped(c.name)} cannot move at all"
    return None


def _movement_checks(tx: Tx, c: Combatant, mode: MovementMode) -> float:
    if c.has(PRONE):
        raise RuleViolation(f"{names.escaped(c.name)} is Prone: stand up first.")
    if c.movement_ended:
        raise RuleViolation(f"{names.escaped(c.name)}'s movement was stopped this turn.")
    if c.has(GRAPPLING):
        raise RuleViolation(
            f"{names.escaped(c.name)} is holding someone in a grapple and cannot move."
        )
    for name, extra in tx.tables.extra_conditions.items():
        if extra.no_move and c.has(name):
            raise RuleViolation(
                f"{names.escaped(c.name)} is {names.escaped(name)} and cannot move."
            )
    if c.has(GRAPPLED):
        warp = c.sheet.movement_power("warp")
        if mode != "warp":
            raise RuleViolation(
                f"{names.escaped(c.name)} is grappled: only a Warp can escape by moving."
            )
        blocked = limbs.blocked_limitation(c, warp.limitations) if warp else None
        if blocked:
            raise RuleViolation(
                f"{names.escaped(c.name)}'s Warp needs {blocked}, held by the grapple."
            )
    speed = limbs.speed(c, mode, tx.tables)
    if speed <= 0:
        raise RuleViolation(f"{names.escaped(c.name)} cannot {mode} right now.")
    return speed


def _after_move(
    tx: Tx, c: Combatant, mode: MovementMode, meters: float, toward: str | None
) -> None:
    if c.has(GRAPPLED) and mode == "warp":
        tx.release_grapple(c.id, f"{c.name} warped out of the grapple")
    tx.state.last_mover = c.id
    _moved_positions(tx, c, meters, toward)


def _moved_positions(tx: Tx, c: Combatant, meters: float, toward: str | None) -> None:
    """Decision E: a mover leaves its melee and its distances are no longer known — unless it
    moved ``toward`` someone: then it is ``meters`` closer (engaged within 1 m, or when nobody
    knew how far it was). Members of a chase keep their gaps to each other (UTTAS "Chase
    Scenes": both are "constantly moving"; :func:`bot.engine.uttas.chase.kept_gaps`)."""
    st = tx.state
    kept = chase.kept_gaps(tx, c.id)
    other = tx.view(toward) if toward is not None else None
    if other is not None and other.id == c.id:
        raise InvalidInput(f"{names.escaped(c.name)} cannot move toward themselves.")
    before = st.positions.distance(c.id, other.id) if other is not None else None
    st.positions = st.positions.moved(c.id)
    for cid, gap in kept.items():
        if other is None or cid != other.id:
            st.positions = st.positions.with_distance(c.id, cid, gap)
    if other is None:
        return
    left = None if before is None else max(0.0, before - meters)
    if left is None or left <= ENGAGED_M:
        st.positions = st.positions.engage(c.id, other.id)
        tx.note(f"{c.name} closes in on {other.name}: they are engaged.", c.id)
    else:
        st.positions = st.positions.with_distance(c.id, other.id, left)
        tx.note(f"{c.name} is now {tx.scale.show(left)} from {other.name}.", c.id)


def move(tx: Tx, cmd: Move, *, on_turn: bool = True) -> None:
    """UTTAS "Moving"/"Full Move": a free half move (a quarter of each type when split), or a
    full move as the turn's action (odd speeds round down to even; Stamina per "Stamina
    Costs")."""
    c = tx.view(cmd.actor)
    if on_turn:
        tx.require_turn(c)
    speed = _movement_checks(tx, c, cmd.mode)
    if cmd.meters <= 0:
        raise InvalidInput("Move at least some distance.")
    if not cmd.full:
        if not on_turn:
            raise RuleViolation("A readied move is a full move.")
        used = dict(c.half_move_used)
        used[cmd.mode] = used.get(cmd.mode, 0) + cmd.meters
        speeds: dict[str, float] = {
            m: limbs.speed(c, m, tx.tables) for m in MOVEMENT_MODES if m in used
        }
        problem = rules.check_half_move(used, speeds, tx.scale.show)
        if problem:
            raise RuleViolation(
                f"{names.escaped(c.name)}: {problem}. Take a full Move action instead."
            )
        m = tx.c(c.id)
        m.half_move_used, m.moved_this_turn, m.free_stance_available = used, True, False
        tx.emit(
            Moved(
                combatant=c.id,
                meters=cmd.meters,
                mode=cmd.mode,
                how="half",
                text=f"{c.name} moves {tx.scale.show(cmd.meters)} ({cmd.mode}, free).",
            )
        )
        _after_move(tx, c, cmd.mode, cmd.meters, cmd.toward)
        return
    limit = rules.even_floor(speed) - c.half_move_used.get(cmd.mode, 0)
    if cmd.meters > limit:
        raise RuleViolation(
            f"{names.escaped(c.name)} can move at most {tx.scale.show(limit)} by {cmd.mode} this "
            "turn."
        )
    tx.spend_actions(
        c.id,
        1,
        f"a full {cmd.mode} move",
        "turn" if on_turn else "off_turn",
        escaping=cmd.mode == "warp",  # UTTAS "Grappled": a Warp escapes the grapple
    )
    tx.spend_stamina(
        c.id,
        rules.move_stamina(cmd.meters, cmd.mode, c.sheet, tx.tables),
        f"moving {tx.scale.show(cmd.meters)}",
    )
    m = tx.c(c.id)
    m.moved_this_turn, m.free_stance_available = True, False
    tx.emit(
        Moved(
            combatant=c.id,
            meters=cmd.meters,
            mode=cmd.mode,
            how="full",
            text=f"{c.name} moves {tx.scale.show(cmd.meters)} ({cmd.mode}, full move).",
        )
    )
    _after_move(tx, c, cmd.mode, cmd.meters, cmd.toward)
    tx.action_done(c.id, on_turn)


def sprint(tx: Tx, cmd: Sprint) -> None:
    """UTTAS "Full Move", Sprint: double the full move (less a free half move already taken
    this turn by the same mode); Dexterity halved for the round (lower Dodge and Accuracy)
    until the character's next turn."""
    c = tx.view(cmd.actor)
    tx.require_turn(c)
    speed = _movement_checks(tx, c, cmd.mode)
    # A free half move already taken counts against it, as against a full Move.
    limit = 2 * rules.even_floor(speed) - c.half_move_used.get(cmd.mode, 0)
    if cmd.meters <= 0 or cmd.meters > limit:
        raise RuleViolation(
            f"{names.escaped(c.name)} can sprint 1 to {tx.scale.show(limit)} by {cmd.mode}."
        )
    tx.spend_actions(c.id, 1, "a sprint", "turn", escaping=cmd.mode == "warp")
    tx.spend_stamina(
        c.id,
        rules.move_stamina(cmd.meters, cmd.mode, c.sheet, tx.tables),
        f"sprinting {tx.scale.show(cmd.meters)}",
    )
    m = tx.c(c.id)
    m.moved_this_turn = True
    tx.gain(c.id, SPRINTING, "Dexterity halved", ends=Ends(moment="turn_start", of=c.id))
    tx.emit(
        Moved(
            combatant=c.id,
            meters=cmd.meters,
            mode=cmd.mode,
            how="sprint",
            text=f"{c.name} sprints {tx.scale.show(cmd.meters)} ({cmd.mode}).",
        )
    )
    _after_move(tx, c, cmd.mode, cmd.meters, cmd.toward)
    tx.action_done(c.id, True)


def stand(tx: Tx, cmd: Stand) -> None:
    """UTTAS "Prone": standing costs half the Run speed (the free half move), or a DC 22
    Acrobatics check on the turn stands without spending an action."""
    c = tx.view(cmd.actor)
    tx.require_turn(c)
    if not c.has(PRONE):
        raise RuleViolation(f"{names.escaped(c.name)} is not Prone.")
    if cmd.method == "move":
        run = limbs.speed(c, "run", tx.tables)
        if run <= 0:
            raise RuleViolation(f"{names.escaped(c.name)} cannot run, so cannot stand by moving.")
        if any(v > 0 for v in c.half_move_used.values()):
            raise RuleViolation(f"{names.escaped(c.name)} already used the free move this turn.")
        m = tx.c(c.id)
        m.half_move_used = {"run": run / 2}
        m.moved_this_turn = True
        if tx.reads("standing_moves"):  # moved: the start of the turn is past ("Enter a Stance")
            m.free_stance_available = False
        tx.emit(
            Moved(
                combatant=c.id,
                meters=0,
                mode="run",
                how="stand",
                text=f"{c.name} spends half the Run speed ({tx.scale.show(run / 2)}) to stand up.",
            )
        )
        tx.lose(c.id, PRONE, "stood up")
        return
    if c.acrobatics_tried:
        raise RuleViolation(f"{names.escaped(c.name)} already tried Acrobatics to stand this turn.")
    dc = tx.tables.prone.acrobatics_dc
    dice = c.sheet.skill_dice(tx.tables.prone.acrobatics_skill) or 0
    roll = tx.check_roll(c, f"{c.name}'s Acrobatics to stand", dice, gm=True)
    tx.c(c.id).acrobatics_tried = True
    ok = roll.total >= dc
    tx.emit(
        Checked(
            combatant=c.id,
            roll=roll,
            difficulty=dc,
            success=ok,
            verdict="stands up" if ok else "stays down",
            text=f"{roll.text} vs DC {dc}: {'stands up' if ok else 'stays down'}.",
        )
    )
    if ok:
        tx.lose(c.id, PRONE, "Acrobatics")
