"""The solving service: run a solver under a context, then replay its answer.

The engine never trusts a solver. A returned solution is replayed move by move through the
puzzle's own rules; an illegal move or a final state that is not solved turns into a
:class:`~engine.errors.SolverError` naming the solver and the first bad move.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Iterator, Mapping, Sequence

from .context import SolveContext
from .contract import Instance, Puzzle, Solver, State
from .errors import InputError, SolverError
from .outcomes import GaveUp, Outcome, Solved, Unsolvable

#: Longest instance text or JSON accepted anywhere, before a puzzle even looks at it.
MAX_INPUT_CHARS = 200_000
#: Longest move list accepted for replay and rendering.
MAX_MOVES = 100_000


def resolve_instance(puzzle: Puzzle, text: str) -> Instance:
    """Parse ``text`` as a preset name or as instance text; InputError if it is neither."""
    if not isinstance(text, str):
        raise InputError("the instance must be text")
    if len(text) > MAX_INPUT_CHARS:
        raise InputError(f"the instance text is {len(text):,} characters long; "
                         f"the limit is {MAX_INPUT_CHARS:,}")
    presets = puzzle.presets()
    key = text.strip()
    if key in presets:
        return puzzle.parse(presets[key])
    if not key:
        raise InputError(f"the instance is empty; give {puzzle.title} instance text or a preset "
                         f"name ({', '.join(presets) or 'none'})")
    return puzzle.parse(text)


def replay(puzzle: Puzzle, instance: Instance, moves: Sequence[str]) -> list[State]:
    """All states from the start through each move (``len(moves) + 1`` of them).

    Raises InputError with ``where="move N"`` (1-based) at the first illegal move.
    """
    if len(moves) > MAX_MOVES:
        raise InputError(f"{len(moves):,} moves given; the limit is {MAX_MOVES:,}")
    state = puzzle.start(instance)
    states = [state]
    for i, move in enumerate(moves, start=1):
        if not isinstance(move, str):
            raise InputError(f"move {move!r} is not a string", where=f"move {i}")
        try:
            state = puzzle.apply_move(state, move)
        except InputError as exc:
            raise InputError(exc.message, where=f"move {i} ({move})") from None
        states.append(state)
    return states


def verify_solution(puzzle: Puzzle, instance: Instance, moves: Sequence[str], solver_name: str) -> None:
    """Raise SolverError unless ``moves`` replay legally to a solved state."""
    try:
        states = replay(puzzle, instance, moves)
    except InputError as exc:
        index = None
        if exc.where and exc.where.startswith("move "):
            index = int(exc.where.split()[1])
        raise SolverError(f"solver {solver_name!r} returned an illegal move: {exc}",
                          solver=solver_name, move_index=index) from None
    if not puzzle.is_solved(states[-1]):
        raise SolverError(f"solver {solver_name!r} returned {len(moves)} moves that do not reach "
                          f"the goal", solver=solver_name, move_index=len(moves))


@dataclass(frozen=True)
class SolveReport:
    """A checked answer: the solver's outcome, replay-verified if it is a solution."""

    puzzle_id: str
    solver: str
    instance_text: str
    outcome: Outcome
    seconds: float
    details: Mapping[str, Any] = field(default_factory=dict)

    @property
    def status(self) -> str:
        return self.outcome.status

    def to_json(self) -> dict:
        o = self.outcome
        moves = list(o.moves) if isinstance(o, Solved) else []
        reason = None
        if isinstance(o, Unsolvable):
            reason = o.reason
        elif isinstance(o, GaveUp):
            reason = o.reason
        return {
            "puzzle": self.puzzle_id,
            "solver": self.solver,
            "instance": self.instance_text,
            "status": o.status,
            "moves": moves,
            "length": len(moves) if isinstance(o, Solved) else None,
            "optimal": bool(o.optimal) if isinstance(o, Solved) else False,
            "seconds": round(self.seconds, 6),
            "stats": dict(o.stats),
            "reason": reason,
            "reason_detail": o.detail if isinstance(o, Unsolvable) else "",
            "details": dict(self.details),
        }


def run_solver(
    puzzle: Puzzle,
    solver: Solver,
    instance: Instance,
    ctx: SolveContext | None = None,
) -> SolveReport:
    """Run ``solver`` on ``instance`` and verify the answer; SolverError if it misbehaves."""
    ctx = ctx or SolveContext()
    started = time.perf_counter()
    try:
        outcome = solver.solve(instance, ctx)
    except InputError:
        raise
    except Exception as exc:
        raise SolverError(f"solver {solver.name!r} crashed: {type(exc).__name__}: {exc}",
                          solver=solver.name) from exc
    seconds = time.perf_counter() - started
    if not isinstance(outcome, (Solved, Unsolvable, GaveUp)):
        raise SolverError(f"solver {solver.name!r} returned {outcome!r}, not an outcome",
                          solver=solver.name)
    details: Mapping[str, Any] = {}
    if isinstance(outcome, Solved):
        verify_solution(puzzle, instance, outcome.moves, solver.name)
        # The optimal contract: the class flag promises every answer is shortest; without it, an
        # answer's own optimal=True is the solver's proof for that answer. `puzzle check` tests
        # both kinds of claim against breadth-first search on small instances.
        if solver.optimal and not outcome.optimal:
            outcome = Solved(outcome.moves, optimal=True, stats=outcome.stats)
        details = puzzle.describe_solution(instance, outcome.moves)
    return SolveReport(puzzle_id=puzzle.id, solver=solver.name, instance_text=puzzle.format(instance),
                       outcome=outcome, seconds=seconds, details=details)


@dataclass(frozen=True)
class Preparation:
    """How preparing one solver went (see :meth:`engine.Solver.prepare`)."""

    puzzle_id: str
    solver: str
    ready: bool
    seconds: float
    error: str | None = None


def prepare_solvers(registry, puzzle_ids: Sequence[str] = (), cancel=None,
                    progress_factory=None) -> Iterator[Preparation]:
    """Prepare every solver of the named puzzles (all when none are named), one at a time.

    Yields a :class:`Preparation` per solver as it finishes. A solver whose ``prepare`` raises is
    reported with the error, not fatal: it still works, building what it needs when it solves.
    ``progress_factory()`` gives a fresh progress callback per solver. Unknown ids: InputError.
    """
    puzzles = [registry.puzzle(pid) for pid in puzzle_ids] or list(registry.puzzles.values())
    for puzzle in puzzles:
        for solver in registry.solvers(puzzle.id):
            on_progress = progress_factory() if progress_factory else None
            ctx = SolveContext(cancel=cancel, on_progress=on_progress)
            started = time.perf_counter()
            try:
                ready, error = bool(solver.prepare(ctx)), None
            except Exception as exc:  # a plugin's bug must not stop the others preparing
                ready, error = False, f"{type(exc).__name__}: {exc}"
            yield Preparation(puzzle.id, solver.name, ready, time.perf_counter() - started, error)


def solve(
    registry,
    puzzle_id: str,
    instance_text: str,
    solver_name: str | None = None,
    timeout: float | None = None,
    on_progress=None,
    cancel=None,
) -> SolveReport:
    """Resolve a puzzle, solver and instance text by name and solve with verification."""
    puzzle = registry.puzzle(puzzle_id)
    solver = registry.solver(puzzle_id, solver_name)
    instance = resolve_instance(puzzle, instance_text)
    if timeout is not None and not timeout > 0:
        raise InputError("the timeout must be a positive number of seconds")
    ctx = SolveContext.with_timeout(timeout, cancel=cancel, on_progress=on_progress)
    return run_solver(puzzle, solver, instance, ctx)
