"""Peg solitaire solvers.

``search`` (the default) answers in this order, cheapest first:

1. trivial cases (already solved; a goal with too many pegs);
2. the position-class test (:mod:`.classes`), before any table is built: a mismatch is a proof
   of unsolvability, given in words;
3. the pagoda test on the start (:mod:`.pagoda`);
4. a short exact search (:data:`QUICK_CAP` positions) with nothing else: easy problems such as
   the English central game (about 1,000 positions) end here;
5. stages, each with a bigger *backward set* (:data:`BACKWARD_BUDGETS`): every position with few
   pegs from which the goal can still be reached, built by reverse jumps from the goal. In each
   stage a heuristic *probe* (a beam of :data:`PROBE_WIDTHS` positions per peg count, ranked by
   stranded pegs and pegs on hard-to-clear holes) runs from the start down to the backward set's
   peg count, where a position is alive exactly when it is in the set; then the exact search,
   capped (:data:`EXACT_CAPS`) except in the last stage.

The exact search is a depth-first search with a table of positions proved dead (under the
goal-preserving symmetries, see :mod:`.symmetry`), pagoda pruning, and the meeting test with the
backward set, from which the rest of a path is read back. The dead table carries over from stage
to stage, since a dead position stays dead. When the uncapped search runs out of positions the
problem is proved unsolvable: every pruning rule is a proof, none is a guess (the probes only
ever *find* solutions). Past the quick stage, boards of at most 64 holes run the exact search in
a numba kernel (:mod:`.fastdfs`, about ten times faster); :data:`USE_COMPILED` turns it off.

``plain`` is the textbook baseline for comparison: depth-first search with a visited set, jumps
in board order, nothing else.

Positions are compact bitboards (Python ints, bit k = hole k of :class:`~.board.Board`).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from engine import N_, GaveUp, SolveContext, Solved, Solver, Unsolvable

from . import fastdfs
from .board import PegInstance
from .classes import class_verdict
from .i18n import CATALOGUE, _, ngettext
from .search import (
    CHECK_EVERY,
    Capped,
    CompiledSearch,
    Problem,
    Stop,
    backward_levels,
    beam_probe,
    compile_problem,
    exact_dfs,
    quick_verdict,
)
from .wording import count_pegs, count_positions, no_solution_sentence

#: How many positions the backward set may hold, in stages: after each stage the heuristic
#: probes try to meet it; the exact search uses the last one (memory and build-time budget).
BACKWARD_BUDGETS = (4_000, 40_000, 250_000)


# -- the forward search -------------------------------------------------------------------------


@dataclass
class SearchResult:
    moves: list[int] | None  # jump indices, or None when proved unsolvable (or stopped)
    nodes: int = 0
    dead: int = 0
    meet_level: int = 0
    backward_size: int = 0
    pruned_by_pagoda: int = 0
    found_by: str = ""
    stopped: str | None = None  # "deadline" / "cancelled" when the search gave up

    def stats(self) -> dict:
        return {"nodes": self.nodes, "dead": self.dead, "meet_pegs": self.meet_level,
                "backward_positions": self.backward_size, "pagoda_prunes": self.pruned_by_pagoda,
                "found_by": found_by_words(self.found_by)}


#: What found an answer, as people read it in the solve's statistics ("found by").
_FOUND_BY = {"exact search": N_("exact search"), "exact search (compiled)": N_("exact search (compiled)"),
             "backward set": N_("backward set"), "plain search": N_("plain search")}


def found_by_words(found_by: str) -> str:
    """``found_by`` (the search's own name for the path that answered, which the solver tests)
    in the reader's language: "exact search" is 精确搜索, "probe 3" a probe of width 3."""
    if found_by.startswith("probe "):
        return _("probe {width}").format(width=found_by.split(" ", 1)[1])
    return _(_FOUND_BY[found_by]) if found_by in _FOUND_BY else found_by


#: Widths of the heuristic probes, one per backward-set stage.
PROBE_WIDTHS = (64, 512, 4096)
#: Positions the exact search may visit in each stage but the last (which is uncapped).
EXACT_CAPS = (20_000, 200_000)
#: Positions for the first, quick exact search before any backward set is built.
QUICK_CAP = 4_000
#: Run the exact search's later stages with the numba kernel (boards of at most 64 holes).
USE_COMPILED = True


def search(problem: Problem, ctx: SolveContext, *,
           backward_budgets: tuple[int, ...] | None = None,
           probe_widths: tuple[int, ...] | None = None) -> SearchResult:
    """Backward set, heuristic probes, then the exact depth-first search.

    Never raises for stopping: a stopped search returns with ``stopped`` set and its counts.
    """
    p = problem
    backward_budgets = BACKWARD_BUDGETS if backward_budgets is None else backward_budgets
    backward_budgets = tuple(backward_budgets) or (0,)  # the last stage must always run
    probe_widths = PROBE_WIDTHS if probe_widths is None else probe_widths
    start_count = p.start.bit_count()
    result = SearchResult(moves=None)
    counter = [0, 0, 0]  # positions visited, pagoda prunes, positions proved dead
    dead: set[int] = set()
    try:
        # A short exact search with no backward set first: easy problems (the English central
        # game: about 1,000 positions) need nothing more, and its dead table is kept.
        if QUICK_CAP and backward_budgets and backward_budgets[0]:
            goal_level = {p.goal_pegs: {p.canon.canon(p.goal)}} if p.goal else {}
            try:
                result.moves = exact_dfs(p, goal_level, ctx, counter, dead, QUICK_CAP)
                result.found_by = "exact search"
                result.meet_level = p.goal_pegs
                return result  # solved, or proved unsolvable, within the cap
            except Capped:
                pass
        levels: dict[int, set[int]] = {}
        last = len(backward_budgets) - 1
        # The compiled kernel pays a one-off compile (cached on disk): used past the quick stage.
        use_compiled = USE_COMPILED and fastdfs.AVAILABLE and p.board.n <= 64
        compiled = None
        for stage, budget in enumerate(backward_budgets):
            levels = backward_levels(p, budget, ctx, stop_at=start_count, levels=levels)
            result.backward_size = sum(len(s) for s in levels.values())
            result.meet_level = max(levels)
            if not levels[result.meet_level]:
                result.found_by = "backward set"  # no position with this many pegs can finish
                return result
            final = stage == last or result.meet_level >= start_count - 1
            if result.meet_level < start_count:
                for width in probe_widths[stage:stage + 1]:
                    moves = beam_probe(p, levels, width, ctx, counter)
                    if moves is not None:
                        result.moves, result.found_by = moves, f"probe {width}"
                        return result
            # The exact search, capped except in the last stage. Positions it proves dead stay
            # dead in later stages (being dead does not depend on the meeting level).
            cap = None if final else counter[0] + EXACT_CAPS[min(stage, len(EXACT_CAPS) - 1)]
            try:
                if compiled is None and use_compiled and start_count > result.meet_level:
                    compiled = CompiledSearch(p, dead)
                if compiled is not None and start_count > result.meet_level:
                    result.moves = compiled.run(levels, ctx, counter, cap)
                    result.found_by = "exact search (compiled)"
                    return result
                result.moves = exact_dfs(p, levels, ctx, counter, dead, cap)
                result.found_by = "exact search"
                return result
            except Capped:
                continue
    except Stop:
        result.stopped = ctx.stop_reason() or "deadline"
    finally:
        result.nodes, result.pruned_by_pagoda, result.dead = counter[0], counter[1], counter[2]
    return result



# -- the textbook baseline ----------------------------------------------------------------------


def plain_search(problem: Problem, ctx: SolveContext) -> SearchResult:
    """Depth-first search with a visited set, jumps in board order: the textbook approach."""
    p = problem
    board = p.board
    jumps = [((1 << f) | (1 << o), 1 << t, (1 << f) | (1 << o) | (1 << t), j)
             for j, (f, o, t) in enumerate(board.jumps)]
    visited: set[int] = set()
    path: list[int] = []
    counter = [0]

    def dfs(pos: int) -> bool:
        counter[0] += 1
        if counter[0] % CHECK_EVERY == 0:
            if ctx.should_stop():
                raise Stop
            ctx.progress(nodes=counter[0], pegs=pos.bit_count())
        if p.is_goal(pos):
            return True
        visited.add(pos)
        for need, to, flip, j in jumps:
            if pos & need == need and not pos & to and (pos ^ flip) not in visited:
                if dfs(pos ^ flip):
                    path.append(j)
                    return True
        return False

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 4 * p.board.n + 200))
    stopped = None
    try:
        found = dfs(p.start)
    except Stop:
        found, stopped = False, ctx.stop_reason() or "deadline"
    finally:
        sys.setrecursionlimit(limit)
    path.reverse()
    return SearchResult(moves=path if found else None, nodes=counter[0], dead=len(visited),
                        found_by="plain search", stopped=stopped)


# -- the Solver objects -------------------------------------------------------------------------


def _moves(problem: Problem, indices: list[int]) -> tuple[str, ...]:
    return tuple(problem.move_name(j) for j in indices)


class SearchSolver(Solver):
    """Class test, pagodas, backward set and depth-first search with a goal-aware dead table."""

    puzzle_id = "pegs"
    name = "search"
    optimal = False
    catalogue = CATALOGUE
    description = N_("Position classes and pagoda functions first, then a depth-first search with "
                     "a symmetry-reduced dead-position table that meets a backward set built from "
                     "the goal. Every solution has one jump per peg removed; proofs are exact.")

    def solve(self, instance: PegInstance, ctx: SolveContext):
        if instance.is_solved():
            return Solved((), stats={"nodes": 0})
        # The proofs without search come first, before any table is built: a class mismatch is
        # answered in well under a millisecond.
        board = instance.board
        verdict = class_verdict(board, board.to_compact(instance.pegs), board.to_compact(instance.goal))
        if not verdict.feasible:
            return Unsolvable(no_solution_sentence(instance), stats={"nodes": 0, "proof": "position class"},
                              detail=verdict.reason)
        problem = compile_problem(instance)
        reason = quick_verdict(problem)
        if reason:
            return Unsolvable(no_solution_sentence(instance), stats={"nodes": 0, "proof": "no search"},
                              detail=reason)
        result = search(problem, ctx)
        stats = {**result.stats(), "symmetries": problem.symmetry_count}
        ctx.progress(force=True, **stats)
        if result.stopped:
            return GaveUp(result.stopped, stats=stats)
        if result.moves is None and result.found_by == "backward set":
            return Unsolvable(no_solution_sentence(instance), stats=stats,
                              detail=_("Reverse search from the goal: no position with {level} can "
                                       "reach the goal (all {positions} that can reach it have fewer "
                                       "pegs), and every solution from {start} would pass through "
                                       "one.").format(level=count_pegs(result.meet_level),
                                                      positions=count_positions(result.backward_size),
                                                      start=count_pegs(problem.start.bit_count())))
        if result.moves is None:
            return Unsolvable(no_solution_sentence(instance), stats=stats,
                              detail=ngettext(
                                  "Exhaustive search: no sequence of jumps reaches the goal "
                                  "({positions} examined, merging positions that are symmetric under "
                                  "the {count} goal-preserving symmetry).",
                                  "Exhaustive search: no sequence of jumps reaches the goal "
                                  "({positions} examined, merging positions that are symmetric under "
                                  "the {count} goal-preserving symmetries).",
                                  problem.symmetry_count).format(positions=count_positions(result.nodes),
                                                                 count=problem.symmetry_count))
        return Solved(_moves(problem, result.moves), stats=stats)


class PlainSolver(Solver):
    """The textbook baseline: depth-first search with a visited set and nothing else."""

    puzzle_id = "pegs"
    name = "plain"
    optimal = False
    catalogue = CATALOGUE
    description = N_("Textbook depth-first search with a visited set (for comparison; slow on big boards).")

    def solve(self, instance: PegInstance, ctx: SolveContext):
        problem = compile_problem(instance, use_symmetry=False)
        result = plain_search(problem, ctx)
        stats = {"nodes": result.nodes}
        if result.stopped:
            return GaveUp(result.stopped, stats=stats)
        if result.moves is None:
            return Unsolvable(no_solution_sentence(instance), stats=stats,
                              detail=_("Exhaustive search: no sequence of jumps reaches the goal "
                                       "({positions} examined).").format(
                                           positions=count_positions(result.nodes)))
        return Solved(_moves(problem, result.moves), stats=stats)
