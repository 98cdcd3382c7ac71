"""The solving service: run a solver under a context, then check its answer.

The engine never trusts a solver. A returned solution is replayed move by move through the
puzzle's own rules; an illegal move or a final state that is not solved turns into a
:class:`~engine.errors.SolverError` naming the solver and the first bad move.

The check streams (one state alive at a time, :func:`final_state`) and has its own time bound,
:func:`check_time_bound`, separate from the solver's deadline: an answer found in time is never
lost to a slow check. :func:`replay` still returns every state, for callers that want them.
"""

from __future__ import annotations

import dataclasses
import inspect
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping, Sequence

from .context import CancelFlag, ProgressCallback, SolveContext
from .contract import Instance, PrepareCost, Puzzle, Solver, State
from .errors import EnvironmentProblem, InputError, PluginError, SolverError, plugin_call
from .i18n import N_, _, format_number, ngettext, translate
from .jsonsafe import NotJSONable, json_safe
from .outcomes import GaveUp, Outcome, Solved, Unsolvable
from .tablecache import pinned_tables

if TYPE_CHECKING:
    from .plugins import Registry

#: Longest instance text or JSON accepted anywhere, before a puzzle even looks at it.
MAX_INPUT_CHARS = 200_000
#: Longest move list accepted for replay and rendering.
MAX_MOVES = 100_000


def resolve_instance(puzzle: Puzzle, text: str) -> Instance:
    """Parse ``text`` as a preset name or as instance text; InputError if it is neither."""
    if not isinstance(text, str):
        raise InputError(_("the instance must be text"))
    if len(text) > MAX_INPUT_CHARS:
        raise InputError(_("the instance text is {length} characters long; the limit is {limit}").format(
            length=f"{len(text):,}", limit=f"{MAX_INPUT_CHARS:,}"))
    presets = puzzle.presets()
    key = text.strip()
    if key in presets:
        return puzzle.parse(presets[key])
    if not key:
        raise InputError(_("the instance is empty; give {puzzle} instance text or a preset name ({presets})").format(
            puzzle=translate(puzzle, puzzle.title), presets=", ".join(presets) or _("none")))
    try:
        return puzzle.parse(text)
    except InputError as exc:
        if not _looks_like_a_name(key):
            raise
        # A lone word was most likely meant as a preset name: say so before the parser's
        # complaint about it as instance text.
        raise InputError(_("{name} is not a preset of {puzzle} (presets: {presets}), nor valid instance text: "
                           "{error}").format(name=repr(key[:40]), puzzle=translate(puzzle, puzzle.title),
                                             presets=", ".join(presets) or _("none"), error=exc)) from None


def read_instance(puzzle: Puzzle, value: Any, plugin: str | None = None) -> tuple[Instance, str]:
    """``(instance, canonical text)`` from what a user gave: instance text, a preset name or the
    puzzle's JSON form (a dict). The one door from front ends (web boards, the job service) to a
    puzzle's parser: a plugin's plain exception on odd input becomes an InputError in words.
    ``plugin`` names the puzzle's plugin in messages about a plugin fault."""
    with plugin_call(what=N_("the instance"), plugin=plugin, doing=N_("reading the instance")):
        if isinstance(value, dict):
            instance = puzzle.from_json(value)
        elif isinstance(value, str):
            instance = resolve_instance(puzzle, value)
        else:
            raise InputError(_("the instance must be text"), where="instance", where_text=_("instance"))
        return instance, puzzle.format(instance)


def parse_canonical(puzzle: Puzzle, text: str) -> Instance:
    """The instance of canonical text (what :func:`read_instance` gave), as a worker reads a
    job: parsed as text, never looked up as a preset name first."""
    with plugin_call(what=N_("the instance"), doing=N_("reading the instance")):
        return puzzle.parse(text)


def _looks_like_a_name(text: str) -> bool:
    """One word with two different letters in it, like a preset name ("15-puzzle", "english"),
    not a one-line drawing such as "01x1" or "ooo.ooo"."""
    return (len(text) <= 40 and text.isascii() and len({c.lower() for c in text if c.isalpha()}) >= 2
            and all(c.isalnum() or c in "-_." for c in text))


def iter_states(puzzle: Puzzle, instance: Instance, moves: Sequence[str]) -> Iterator[State]:
    """The start state, then the state after each move, one at a time (``len(moves) + 1``).

    Streams: only the current state is alive, so a caller that does not keep them needs O(1)
    states of memory. Raises InputError with ``where="move N (...)"`` (1-based) at the first
    illegal move, after yielding the states before it.
    """
    if len(moves) > MAX_MOVES:
        raise _too_many_moves(len(moves))
    state = puzzle.start(instance)
    yield state
    for i, move in enumerate(moves, start=1):
        state = _apply(puzzle, state, move, i)
        yield state


def _apply(puzzle: Puzzle, state: State, move: Any, index: int) -> State:
    if not isinstance(move, str):
        raise InputError(_("move {move} is not a string").format(move=repr(move)), where=f"move {index}",
                         where_text=_("move {index}").format(index=index))
    try:
        return puzzle.apply_move(state, move)
    except InputError as exc:
        # where: "move 3 (d2-d4)" for programs (engine code reads the index back from it);
        # where_text: the same place for people, in their language.
        raise InputError(exc.message, where=f"move {index} ({move})",
                         where_text=_("move {index} ({move})").format(index=index, move=move)) from None


def replay(puzzle: Puzzle, instance: Instance, moves: Sequence[str]) -> list[State]:
    """Every state from the start through each move: a list of ``len(moves) + 1`` states.

    The list holds all of them at once, so its memory grows with the number of moves (83,000
    moves of a 32 x 32 sliding board are ~700 MB). Use it when you need the states themselves
    (small boards, step-by-step displays); to only *check* moves use :func:`final_state`, and
    to walk through them use :func:`iter_states`, which keep one state at a time.
    Raises InputError with ``where="move N (...)"`` (1-based) at the first illegal move.
    """
    return list(iter_states(puzzle, instance, moves))


#: Seconds the check of any answer may take, plus CHECK_SECONDS_PER_MOVE per move.
CHECK_BASE_SECONDS = 2.0
#: Per-move allowance of the check: ~20 x what a 32 x 32 sliding move costs a busy machine, so
#: the bound only ever stops a puzzle whose rules are pathologically slow.
CHECK_SECONDS_PER_MOVE = 1e-4
#: Moves applied between two looks at the clock during a check.
CHECK_CLOCK_EVERY = 1024


def check_time_bound(n_moves: int) -> float:
    """The most seconds checking an answer of ``n_moves`` moves may take (replay + is_solved).

    ``CHECK_BASE_SECONDS + CHECK_SECONDS_PER_MOVE * n_moves``: 2 s plus 0.1 ms a move, so 12 s
    for the longest answer accepted (MAX_MOVES). The check runs after the solver's search and is
    *not* charged to its time limit: a runner that kills overrunning solves should allow
    ``time_limit + grace + check_time_bound(n)`` once the solve reports that it is checking
    ``n`` moves (see :func:`run_solver`'s progress report with ``phase="checking"``).
    """
    return CHECK_BASE_SECONDS + CHECK_SECONDS_PER_MOVE * max(0, int(n_moves))


def final_state(puzzle: Puzzle, instance: Instance, moves: Sequence[str],
                deadline: float | None = None) -> State:
    """The state after playing every move, keeping one state at a time.

    Plays chunks of CHECK_CLOCK_EVERY moves through :meth:`Puzzle.apply_moves` (a puzzle's fast
    path for long lists). Raises InputError at the first illegal move, named as
    :func:`iter_states` names it, and :class:`CheckTooSlow` if ``deadline`` (a
    :func:`time.monotonic` value) passes first.
    """
    if len(moves) > MAX_MOVES:
        raise _too_many_moves(len(moves))
    state = puzzle.start(instance)
    for begin in range(0, len(moves), CHECK_CLOCK_EVERY):
        chunk = moves[begin:begin + CHECK_CLOCK_EVERY]
        if not all(isinstance(move, str) for move in chunk):
            state = _apply_each(puzzle, state, chunk, begin)  # names the first non-string
            continue
        try:
            state = puzzle.apply_moves(state, chunk)
        except InputError:
            # Replay the chunk one move at a time to name the first bad move.
            _apply_each(puzzle, state, chunk, begin)
            raise InputError(_("a move was rejected by the puzzle's apply_moves but accepted by apply_move"),
                             where=f"moves {begin + 1}-{begin + len(chunk)}",
                             where_text=_("moves {first} to {last}").format(first=begin + 1, last=begin + len(chunk))
                             ) from None
        if deadline is not None and time.monotonic() > deadline and begin + len(chunk) < len(moves):
            raise CheckTooSlow(begin + len(chunk), len(moves))
    return state


def _apply_each(puzzle: Puzzle, state: State, moves: Sequence[str], offset: int) -> State:
    for i, move in enumerate(moves, start=offset + 1):
        state = _apply(puzzle, state, move, i)
    return state


def _too_many_moves(count: int) -> InputError:
    return InputError(ngettext("{count} move given; the limit is {limit}", "{count} moves given; the limit is {limit}",
                               count).format(count=format_number(count), limit=format_number(MAX_MOVES)))


class CheckTooSlow(Exception):
    """The check of an answer passed its :func:`check_time_bound` after ``done`` of ``total``
    moves (the puzzle's rules are too slow for that many moves, not the solver's fault)."""

    def __init__(self, done: int, total: int):
        super().__init__(ngettext("checked {done} of {count} move", "checked {done} of {count} moves", total).format(
            done=format_number(done), count=format_number(total)))
        self.done = done
        self.total = total


def verify_solution(puzzle: Puzzle, instance: Instance, moves: Sequence[str], solver_name: str,
                    *, time_bound: float | None = None) -> None:
    """Raise SolverError unless ``moves`` replay legally to a solved state.

    Streams the replay (one state alive at a time). ``time_bound`` (default:
    :func:`check_time_bound` of the move count) limits the check's own time; past it a
    :class:`~engine.errors.PluginError` blames the puzzle's rules.
    """
    bound = check_time_bound(len(moves)) if time_bound is None else time_bound
    try:
        last = final_state(puzzle, instance, moves, deadline=time.monotonic() + bound)
    except InputError as exc:
        index = None
        if exc.where and exc.where.startswith("move "):
            index = int(exc.where.split()[1])
        raise SolverError(_("solver {solver} returned an illegal move: {error}").format(
            solver=repr(solver_name), error=exc), solver=solver_name, move_index=index) from None
    except CheckTooSlow as slow:
        raise PluginError(ngettext(
            "the {puzzle} rules are too slow to check an answer of {count} move within {seconds} s ({checked})",
            "the {puzzle} rules are too slow to check an answer of {count} moves within {seconds} s ({checked})",
            slow.total).format(puzzle=puzzle.id, count=format_number(slow.total), seconds=format_number(bound, 1),
                               checked=slow)) from None
    if not puzzle.is_solved(last):
        raise SolverError(ngettext("solver {solver} returned {count} move that does not reach the goal",
                                   "solver {solver} returned {count} moves that do not reach the goal",
                                   len(moves)).format(solver=repr(solver_name), count=format_number(len(moves))),
                          solver=solver_name, move_index=len(moves))


@dataclass(frozen=True)
class SolveReport:
    """A checked answer: the solver's outcome, replay-verified if it is a solution."""

    puzzle_id: str
    solver: str
    instance_text: str
    outcome: Outcome
    seconds: float
    details: Mapping[str, Any] = field(default_factory=dict)
    #: The names of the stats and details in the reader's language, where the plugin's catalogue
    #: has them (``{"found_by": "求得方式"}``); the keys themselves stay machine names.
    labels: Mapping[str, str] = field(default_factory=dict)
    #: The puzzle's notes on the instance as it was read (:meth:`Puzzle.notes`: e.g. a tangram
    #: outline read as the nearest exact figure, and how far its vertices moved), for a caller
    #: that gave instance text; empty for a job, whose answer is stored for every text that
    #: reads as the same instance.
    notes: tuple[str, ...] = ()

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
            **({"labels": dict(self.labels)} if self.labels else {}),
            **({"notes": list(self.notes)} if self.notes else {}),
        }


def owner_of(registry: Any, obj: Any) -> str | None:
    """The name of the plugin that registered ``obj`` (a puzzle, solver or renderer), if known."""
    plugin_of = getattr(registry, "plugin_of", None)
    if callable(plugin_of):
        try:
            return plugin_of(obj)
        except Exception:  # a name for a message is not worth failing over
            return None
    return getattr(obj, "_plugin", None)


def _safe_outcome(outcome: Outcome, solver_name: str, plugin: str | None) -> Outcome:
    """``outcome`` with JSON-safe stats; PluginError naming the solver if they cannot be."""
    try:
        stats = json_safe(dict(outcome.stats), "stats")
    except (NotJSONable, TypeError, ValueError) as exc:
        message = (_("solver {solver} (plugin {plugin}) returned stats JSON cannot encode: {error}") if plugin
                   else _("solver {solver} returned stats JSON cannot encode: {error}"))
        raise PluginError(message.format(solver=repr(solver_name), plugin=repr(plugin), error=exc),
                          plugin=plugin) from None
    return dataclasses.replace(outcome, stats=stats)


def run_solver(
    puzzle: Puzzle,
    solver: Solver,
    instance: Instance,
    ctx: SolveContext | None = None,
    *,
    plugins: tuple[str | None, str | None] = (None, None),
) -> SolveReport:
    """Run ``solver`` on ``instance`` and verify the answer; SolverError if it misbehaves.

    The context's deadline bounds the solver's search only. A solution is then checked (streamed,
    one state at a time) under its own bound, :func:`check_time_bound` of its length; before
    checking, the context gets a forced progress report ``phase="checking", moves=n`` so a
    runner that kills overrunning solves can extend its kill deadline by that bound. An answer
    found in time is never thrown away for being checked after the deadline.

    Stats and details are converted to JSON here (:func:`engine.jsonsafe.json_safe`); a value
    JSON cannot encode is a :class:`PluginError`. ``plugins`` names the plugins that registered
    (the puzzle, the solver), for messages.
    """
    ctx = ctx or SolveContext()
    puzzle_plugin, solver_plugin = plugins
    started = time.perf_counter()
    try:
        outcome = solver.solve(instance, ctx)
    except InputError:
        raise
    except (OSError, MemoryError) as exc:
        message = (_("solver {solver} could not run (plugin {plugin}): {kind}: {error}") if solver_plugin
                   else _("solver {solver} could not run: {kind}: {error}"))
        raise EnvironmentProblem(message.format(solver=repr(solver.name), plugin=repr(solver_plugin),
                                                kind=type(exc).__name__, error=exc), plugin=solver_plugin) from exc
    except Exception as exc:
        message = (_("solver {solver} crashed (plugin {plugin}): {kind}: {error}") if solver_plugin
                   else _("solver {solver} crashed: {kind}: {error}"))
        raise SolverError(message.format(solver=repr(solver.name), plugin=repr(solver_plugin),
                                         kind=type(exc).__name__, error=exc), solver=solver.name) from exc
    seconds = time.perf_counter() - started
    if not isinstance(outcome, (Solved, Unsolvable, GaveUp)):
        raise SolverError(_("solver {solver} returned {value}, not an outcome").format(
            solver=repr(solver.name), value=repr(outcome)), solver=solver.name)
    outcome = _safe_outcome(outcome, solver.name, solver_plugin)
    details: Mapping[str, Any] = {}
    if isinstance(outcome, Solved):
        ctx.progress(force=True, phase="checking", moves=len(outcome.moves))
        verify_solution(puzzle, instance, outcome.moves, solver.name)
        # The optimal contract: the class flag promises every answer is shortest; without it, an
        # answer's own optimal=True is the solver's proof for that answer. `puzzle check` tests
        # both kinds of claim against breadth-first search on small instances.
        if solver.optimal and not outcome.optimal:
            outcome = Solved(outcome.moves, optimal=True, stats=outcome.stats)
        with plugin_call(plugin=puzzle_plugin, doing=N_("describing a {puzzle} solution"),
                         values={"puzzle": puzzle.id}):
            details = puzzle.describe_solution(instance, outcome.moves)
        try:
            details = json_safe(dict(details), "details")
        except (NotJSONable, TypeError, ValueError) as exc:
            raise PluginError(_("puzzle {puzzle} described its solution with a value JSON cannot encode: "
                                "{error}").format(puzzle=repr(puzzle.id), error=exc), plugin=puzzle_plugin) from None
        outcome, details = _with_proven_gap(outcome, details, solver.name)
    note = outcome.stats.get("note")
    if "note" in outcome.stats and not note_changes_answer(outcome):
        # A proven-shortest answer or a proof of impossibility: no table would change it, so
        # what would help is noise there (the stats drop it too, which the page also reads).
        outcome = dataclasses.replace(
            outcome, stats={k: v for k, v in outcome.stats.items() if k != "note"})
    elif isinstance(note, str) and note.strip() and "note" not in details:
        # What would help (a table to build, and how long it takes): with the answer, in words.
        details = {**details, "note": note.strip()}
    return SolveReport(puzzle_id=puzzle.id, solver=solver.name, instance_text=puzzle.format(instance),
                       outcome=outcome, seconds=seconds, details=details,
                       labels=_labels(puzzle, solver, outcome.stats, details))


def note_changes_answer(outcome: Outcome) -> bool:
    """Whether a solver's ``stats["note"]`` (what would help: a table to build) could change
    this answer: a give-up, or an answer not proven shortest. A shortest answer or a proof of
    impossibility stays what it is, whatever is built, so its note is not shown."""
    if isinstance(outcome, Unsolvable):
        return False
    return not (isinstance(outcome, Solved) and outcome.optimal)


def _labels(puzzle: Puzzle, solver: Solver, stats: Mapping[str, Any],
            details: Mapping[str, Any]) -> dict[str, str]:
    """The stats' and details' names (records inside details too) that the solver's or the
    puzzle's catalogue translates: a name is looked up with spaces for underscores, as it is
    shown ("found_by" as "found by"). Names no catalogue has are left out: the page shows them
    as written, marked as English."""
    names: set[str] = set(stats)
    for key, value in details.items():
        names.add(key)
        for item in value if isinstance(value, list) else ():
            if isinstance(item, dict):
                names.update(item)
    labels = {}
    for name in sorted(names):
        words = name.replace("_", " ")
        for owner in (solver, puzzle):
            said = translate(owner, words)
            if said and said != words:
                labels[name] = said
                break
    return labels


def _with_proven_gap(outcome: Solved, details: Mapping[str, Any],
                     solver_name: str) -> tuple[Solved, Mapping[str, Any]]:
    """Turn a solver's ``stats["lower_bound"]`` (a proven lower bound on the shortest solution's
    length) into plain facts in ``details``: the shortest is at least that long, and this answer
    is at most so many moves longer. An answer as long as its bound is shortest, proven."""
    lb = outcome.stats.get("lower_bound")
    if not isinstance(lb, int) or isinstance(lb, bool) or lb < 0:
        return outcome, details
    length = len(outcome.moves)
    if lb > length:
        raise SolverError(ngettext("solver {solver} claimed no solution is shorter than {bound} move, but "
                                   "returned one of {length}",
                                   "solver {solver} claimed no solution is shorter than {bound} moves, but "
                                   "returned one of {length}", lb).format(
            solver=repr(solver_name), bound=format_number(lb), length=format_number(length)), solver=solver_name)
    details = {**details, "shortest_at_least": lb, "longer_than_shortest_at_most": length - lb}
    if lb == length and not outcome.optimal:
        outcome = Solved(outcome.moves, optimal=True, stats=outcome.stats)
    return outcome, details


@dataclass(frozen=True)
class Preparation:
    """How preparing one solver went (see :meth:`engine.Solver.prepare`)."""

    puzzle_id: str
    solver: str
    ready: bool
    seconds: float
    error: str | None = None
    #: Left out because it would have built something (``prepare_solvers(builds=False)``).
    deferred: bool = False


def prepare_solvers(registry: Registry, puzzle_ids: Sequence[str] = (), cancel: CancelFlag | None = None,
                    progress_factory: Callable[[], ProgressCallback | None] | None = None,
                    big_builds: bool = False, builds: bool = True) -> Iterator[Preparation]:
    """Prepare every solver of the named puzzles (all when none are named), one at a time.

    Yields a :class:`Preparation` per solver as it finishes. A solver whose ``prepare`` raises is
    reported with the error, not fatal: it still works, building what it needs when it solves.
    ``progress_factory()`` gives a fresh progress callback per solver. ``big_builds`` is passed
    on to every ``prepare`` that takes it (see :meth:`engine.Solver.prepare`):
    ``puzzle prepare`` and the background preparer (:mod:`engine.background`) give it.
    ``builds=False`` leaves out every solver whose :meth:`~engine.Solver.prepare_cost` says it
    would build something (``deferred``), and prepares the others (loading what is on disk):
    solver workers do that while the background preparer builds the missing tables, so they
    take jobs at once and a job that needs a table being built waits for that one only.
    Unknown ids: InputError.
    """
    puzzles = [registry.puzzle(pid) for pid in puzzle_ids] or list(registry.puzzles.values())
    for puzzle in puzzles:
        for solver in registry.solvers(puzzle.id):
            if not builds and _would_build(solver):
                yield Preparation(puzzle.id, solver.name, False, 0.0, deferred=True)
                continue
            on_progress = progress_factory() if progress_factory else None
            ctx = SolveContext(cancel=cancel, on_progress=on_progress)
            yield prepare_one(puzzle.id, solver, ctx, big_builds)


def prepare_one(puzzle_id: str, solver: Solver, ctx: SolveContext, big_builds: bool = False) -> Preparation:
    """Prepare one solver under ``ctx`` (see :func:`prepare_solvers`); never raises for what
    the solver does. Its tables are written at once and pinned (:func:`engine.pinned_tables`)."""
    started = time.perf_counter()
    try:
        with pinned_tables():  # built on purpose: the cache's budget evicts them last
            ready, error = bool(_prepare(solver, ctx, big_builds)), None
    except Exception as exc:  # a plugin's bug must not stop the others preparing
        ready, error = False, f"{type(exc).__name__}: {exc}"
    return Preparation(puzzle_id, solver.name, ready, time.perf_counter() - started, error)


def preparation_costs(registry: Registry, puzzle_ids: Sequence[str] = (),
                      big_builds: bool = False) -> list[tuple[str, str, PrepareCost]]:
    """``(puzzle id, solver name, cost)`` of what :func:`prepare_solvers` with the same
    arguments would still build (:meth:`engine.Solver.prepare_cost`), for every solver with
    something left to build. A solver whose estimate raises is left out (it is prepared all
    the same). Unknown ids: InputError."""
    puzzles = [registry.puzzle(pid) for pid in puzzle_ids] or list(registry.puzzles.values())
    out = []
    for puzzle in puzzles:
        for solver in registry.solvers(puzzle.id):
            estimate = getattr(solver, "prepare_cost", None)
            try:
                cost = estimate(big_builds=big_builds) if callable(estimate) else PrepareCost()
            except Exception:  # noqa: BLE001 - an estimate is not worth failing over
                continue
            if isinstance(cost, PrepareCost) and (cost.seconds or cost.memory or cost.disk):
                out.append((puzzle.id, solver.name, cost))
    return out


def _would_build(solver: Solver) -> bool:
    """Whether ``solver.prepare()`` (no big builds) would build something; a solver whose
    estimate fails is assumed to build nothing (it is prepared as before)."""
    estimate = getattr(solver, "prepare_cost", None)
    try:
        cost = estimate(big_builds=False) if callable(estimate) else None
    except Exception:  # noqa: BLE001 - an estimate is not worth failing over
        return False
    return isinstance(cost, PrepareCost) and bool(cost.seconds or cost.memory or cost.disk)


def _prepare(solver: Solver, ctx: SolveContext, big_builds: bool) -> bool:
    """``solver.prepare(ctx, big_builds=...)``, or ``solver.prepare(ctx)`` for a solver written
    before the argument existed (it cannot have meant to be given it)."""
    try:
        params = list(inspect.signature(solver.prepare).parameters.values())
    except (TypeError, ValueError):  # no signature to read (a C callable): call it the old way
        params = []
    if any(p.name == "big_builds" or p.kind is p.VAR_KEYWORD for p in params):
        return solver.prepare(ctx, big_builds=big_builds)
    return solver.prepare(ctx)


def solve(
    registry: Registry,
    puzzle_id: str,
    instance_text: str,
    solver_name: str | None = None,
    timeout: float | None = None,
    on_progress: ProgressCallback | None = None,
    cancel: CancelFlag | None = None,
) -> SolveReport:
    """Resolve a puzzle, solver and instance text by name and solve with verification; the
    report carries the puzzle's notes on the instance read from the text.

    Whatever a plugin raises comes out as an engine error (:func:`engine.errors.convert_exception`):
    InputError (bad instance, including a plugin's plain ValueError on it), SolverError,
    PluginError or EnvironmentProblem.
    """
    puzzle = registry.puzzle(puzzle_id)
    solver = registry.solver(puzzle_id, solver_name)
    puzzle_plugin = owner_of(registry, puzzle)
    with plugin_call(what=N_("the instance"), plugin=puzzle_plugin, doing=N_("reading a {puzzle} instance"),
                     values={"puzzle": puzzle.id}):
        instance = resolve_instance(puzzle, instance_text)
        # how the text was read (a noisy outline moved onto an exact figure) is the caller's to
        # see beside the answer: it solves that instance, not the text as given
        notes = tuple(str(note) for note in puzzle.notes(instance))
    if timeout is not None and not timeout > 0:
        raise InputError(_("the timeout must be a positive number of seconds"))
    ctx = SolveContext.with_timeout(timeout, cancel=cancel, on_progress=on_progress)
    report = run_solver(puzzle, solver, instance, ctx, plugins=(puzzle_plugin, owner_of(registry, solver)))
    return dataclasses.replace(report, notes=notes)
