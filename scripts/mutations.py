"""The curated mutations that ``scripts/mutation_check.py`` applies, one small bug each.

``find`` must occur exactly once in ``path`` (the check reports a STALE mutation otherwise, so
the list keeps up with the code); ``tests`` are the pytest arguments that must fail once the
mutation is applied. Mark a mutation ``equivalent`` only with a ``note`` saying why no test can
tell the difference.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Mutation:
    id: str
    path: str
    find: str
    replace: str
    tests: tuple[str, ...]
    description: str
    equivalent: bool = False
    note: str = ""


PEGS = ("tests/test_pegs_rules.py", "tests/test_pegs_solver.py", "tests/test_pegs_parse.py")
SLIDING = ("tests/test_sliding_rules.py",)
JOBS = "tests/test_jobs_reliability.py"
TANGRAM = ("tests/test_tangram_cover.py", "tests/test_tangram_puzzle.py")

MUTATIONS: list[Mutation] = [
    # -- peg solitaire: rules and position classes --------------------------------------------
    Mutation("pegs-rules-landing", "plugins/pegs/rules.py",
             "if pegs >> f & 1 and pegs >> o & 1 and not pegs >> t & 1:",
             "if pegs >> f & 1 and pegs >> o & 1:", PEGS,
             "legal_moves lets a peg land on an occupied hole"),
    Mutation("pegs-rules-over", "plugins/pegs/rules.py",
             "if pegs >> f & 1 and pegs >> o & 1 and not pegs >> t & 1:",
             "if pegs >> f & 1 and not pegs >> t & 1:", PEGS,
             "legal_moves jumps over an empty hole"),
    Mutation("pegs-rules-remove-jumped", "plugins/pegs/rules.py",
             "pegs = state.pegs & ~((1 << frm) | (1 << over)) | (1 << to)",
             "pegs = state.pegs & ~(1 << frm) | (1 << to)", PEGS,
             "a jump leaves the jumped peg on the board"),
    Mutation("pegs-rules-no-peg-over", "plugins/pegs/rules.py",
             "if not state.pegs >> over & 1:", "if False:", PEGS,
             "apply_move accepts a jump over an empty hole"),
    Mutation("pegs-validate-goal-count", "plugins/pegs/rules.py",
             "if inst.goal.bit_count() > inst.pegs.bit_count():",
             "if inst.goal.bit_count() > inst.pegs.bit_count() + 1:", PEGS,
             "an edit may leave a goal with more pegs than the board"),
    Mutation("pegs-class-parity", "plugins/pegs/classes.py",
             "out |= ((compact_pegs & f).bit_count() & 1) << k",
             "out |= ((compact_pegs & f).bit_count() & 3) << k", PEGS,
             "the class of a position is not a parity"),
    Mutation("pegs-render-landed-key", "plugins/pegs/render.py",
             'key = f"peg-{cell_name(*divmod(last[0], state.cols))}"',
             'key = f"peg-{cell_name(*divmod(last[2], state.cols))}"', ("tests/test_pegs_render.py",),
             "the peg that just jumped takes a new key, so it cannot glide"),
    Mutation("pegs-table-digest-ignored", "plugins/pegs/tablefile.py",
             "return arrays if stored == table_digest(params, arrays) else None",
             "return arrays",
             ("tests/test_pegs_tables.py::test_the_digest_covers_parameters_and_every_byte",
              "tests/test_pegs_tables.py::test_a_damaged_table_is_rebuilt_and_the_answer_stays_right"),
             "a peg table whose digest does not match is trusted (a wrong unsolvable)"),
    # -- sliding tiles: the parity rule and slides ----------------------------------------------
    Mutation("sliding-parity-odd-width", "plugins/sliding/board.py",
             "odd_width = board.cols % 2 == 1", "odd_width = board.cols % 2 == 0", SLIDING,
             "odd and even widths swap their invariants"),
    Mutation("sliding-parity-row", "plugins/sliding/board.py",
             "row_distance = abs(board.tiles.index(0) // board.cols - board.goal.index(0) // board.cols)",
             "row_distance = 0", SLIDING,
             "the blank's row is left out of the even-width invariant"),
    Mutation("sliding-assess-parity", "plugins/sliding/puzzle.py",
             'return Assessment("cannot", *proof)', 'return Assessment("can", *proof)',
             ("tests/test_sliding_play.py",), "the live verdict calls an unsolvable board solvable"),
    Mutation("sliding-render-key", "plugins/sliding/render.py",
             'group.attribs["data-key"] = f"tile-{tile}"', 'group.attribs["data-key"] = f"tile-{cell}"',
             ("tests/test_sliding_render_edit.py",), "a tile's key names its cell, not the tile"),
    Mutation("sliding-slide-adjacent", "plugins/sliding/board.py",
             "cell = next((c for c in neighbours(board.rows, board.cols, blank) if board.tiles[c] == tile), None)",
             "cell = board.tiles.index(tile)", SLIDING,
             "a tile anywhere may slide into the blank"),
    Mutation("sliding-slide-many-adjacent", "plugins/sliding/board.py",
             'raise InputError(f"tile {tile} is not next to the blank")', "cell = cells.index(tile)",
             ("tests/test_reliability.py",),
             "the fast path of a long check lets a tile anywhere slide into the blank"),
    # -- tangram: the independent cover check ----------------------------------------------------
    Mutation("tangram-cover-overlap", "plugins/tangram/cover_check.py",
             "if pieces_overlap(a, b):", "if False:", TANGRAM,
             "overlapping pieces pass the cover check"),
    Mutation("tangram-cover-outside", "plugins/tangram/cover_check.py",
             "if point_in_silhouette(_centroid(pts), s) < 0:",
             "if point_in_silhouette(_centroid(pts), s) < -1:", TANGRAM,
             "a piece wholly outside the figure passes the cover check"),
    Mutation("tangram-cover-area", "plugins/tangram/cover_check.py",
             "if area != target:", "if False:", TANGRAM,
             "a cover with the wrong area passes"),
    # -- jobs: the local runner, the SQLite store, the service ---------------------------------
    Mutation("jobs-cancel-flag", "engine/jobs/local.py",
             "worker.cancel.set()", "pass", (JOBS + "::test_cancel_reaches_the_solver_itself",),
             "cancel never sets the worker's cancel flag (only the grace kill stops the job)"),
    Mutation("jobs-no-grace-kill", "engine/jobs/local.py",
             "elif job.cancel_requested_at is not None and now > job.cancel_requested_at + self.grace:",
             "elif False:", (JOBS + "::test_a_solver_that_ignores_cancel_is_killed_after_the_grace",),
             "a solver that ignores cancel is never killed"),
    Mutation("jobs-cancelled-queued-pending", "engine/jobs/local.py",
             "self._pending.remove(job)", "pass", (JOBS + "::test_a_cancelled_queued_job_never_runs",),
             "a cancelled queued job stays in the queue and runs later"),
    Mutation("jobs-check-bound", "engine/jobs/local.py",
             "worker.deadline = max(worker.deadline or 0.0, check_until)", "pass",
             (JOBS + "::test_a_slow_check_does_not_throw_away_a_found_answer",),
             "the check of a found answer is killed at the search's deadline"),
    Mutation("jobs-store-ignores-solver", "engine/jobs/store.py",
             '"SELECT rowid, report FROM results WHERE puzzle=? AND solver=? AND instance=?",\n'
             "                (puzzle, solver, instance))",
             '"SELECT rowid, report FROM results WHERE puzzle=? AND instance=?",\n'
             "                (puzzle, instance))",
             (JOBS + "::test_a_stored_answer_of_one_solver_is_not_the_answer_of_another",),
             "the store answers for any solver of the same instance"),
    Mutation("jobs-store-replace", "engine/jobs/store.py",
             '"INSERT INTO results (puzzle, solver, instance, status, report, created)"\n'
             '                    " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (puzzle, solver, instance) DO NOTHING"',
             '"INSERT OR REPLACE INTO results (puzzle, solver, instance, status, report, created)"\n'
             '                    " VALUES (?, ?, ?, ?, ?, ?)"',
             (JOBS + "::test_storing_the_same_answer_again_keeps_its_number",),
             "storing an answer again renumbers it (every stored-N link handed out breaks)"),
    Mutation("jobs-interrupted", "engine/jobs/service.py",
             "if job.status not in FINAL_STATUSES:", "if False:",
             (JOBS + "::test_a_job_cut_off_by_a_server_kill_answers_with_a_final_error",),
             "a job cut off by a restart answers as if still queued or running"),
    Mutation("jobs-runner-setting", "web/__init__.py",
             "    if runner is None:", "    if True:",
             (JOBS + "::test_the_job_runner_setting_chooses_a_runner_with_its_options",),
             "the JOB_RUNNER setting is ignored"),
    # -- plugins: loading, restriction, ownership; the optimal contract -----------------------
    Mutation("plugins-owner-first", "engine/plugins.py",
             "key=lambda e: (e.plugin != owner, e.plugin if e.plugin != owner else \"\", e.seq))",
             "key=lambda e: (e.plugin, e.seq))",
             ("tests/test_plugin_ownership.py",),
             "a foreign plugin named to sort first takes over a puzzle's default solver"),
    Mutation("plugins-restriction-drops-commands", "engine/plugins.py",
             "if group == PLUGIN_GROUP and allowed is not None and ep.name not in allowed:",
             "if allowed is not None and ep.name not in allowed:",
             ("tests/test_engine.py",),
             "PUZZLE_ENGINE_PLUGINS also drops command plugins (the `serve` command)"),
    Mutation("solving-optimal-downgrade", "engine/solving.py",
             "        if solver.optimal and not outcome.optimal:\n"
             "            outcome = Solved(outcome.moves, optimal=True, stats=outcome.stats)",
             "        if not solver.optimal and outcome.optimal:\n"
             "            outcome = Solved(outcome.moves, optimal=False, stats=outcome.stats)",
             ("tests/test_engine.py", "tests/test_plugin_kit.py"),
             "a per-answer proof of optimality is thrown away (the old contract)"),
    # -- reliability: the streamed check, exit codes, the SVG allowlist ---------------------------
    Mutation("solving-check-goal", "engine/solving.py",
             "if not puzzle.is_solved(last):", "if False:",
             ("tests/test_reliability.py",), "moves that do not reach the goal pass the check"),
    Mutation("cli-gave-up-exit", "engine/cli.py",
             "sys.exit(EXIT_GAVE_UP)", "sys.exit(EXIT_SOLVED)",
             ("tests/test_cli_guard.py::test_gave_up_exits_3",), "a solver that gave up exits 0"),
    Mutation("svgsafe-allowlist", "engine/svgsafe.py",
             'elif attr in ALLOWED_ATTRIBUTES or attr[:5].lower() in ("data-", "aria-"):', "elif True:",
             ("tests/test_reliability.py",), "any attribute (onclick=...) passes the sanitiser"),
    # -- the CLI, the exception converter, JSON and SVG safety ---------------------------------
    Mutation("cli-unsolvable-exit", "engine/cli.py",
             "        sys.exit(EXIT_UNSOLVABLE)", "        sys.exit(EXIT_SOLVED)",
             ("tests/test_cli.py",), "an unsolvable instance exits 0 like a solved one"),
    Mutation("cli-solver-error-exit", "engine/cli.py",
             "(SolverError, EXIT_SOLVER_ERROR), (PluginError, EXIT_SOLVER_ERROR))",
             "(SolverError, EXIT_BAD_INPUT), (PluginError, EXIT_SOLVER_ERROR))",
             ("tests/test_cli_guard.py", "tests/test_cli.py"), "a solver error exits 2 (bad input)"),
    Mutation("cli-stdin-unbounded", "engine/cli.py",
             "text = sys.stdin.read(MAX_INPUT_CHARS + 1)", "text = sys.stdin.read()",
             ("tests/test_cli_guard.py", "tests/test_reliability.py"),
             "the CLI reads all of stdin before checking its size"),
    Mutation("errors-input-exceptions", "engine/errors.py",
             "if what is not None and isinstance(exc, INPUT_EXCEPTIONS):", "if False:",
             ("tests/test_reliability.py", "tests/test_cli_guard.py"),
             "a plugin's ValueError on odd input is the plugin's fault, not a clear input error"),
    Mutation("jsonsafe-nan", "engine/jsonsafe.py",
             "return value if math.isfinite(value) else str(value)", "return value",
             ("tests/test_reliability.py",), "NaN and infinity reach the JSON answer"),
    Mutation("jsonsafe-sets", "engine/jsonsafe.py",
             "if isinstance(value, (list, tuple, set, frozenset)):", "if isinstance(value, (list, tuple)):",
             ("tests/test_reliability.py",), "a set in a solver's stats is refused, not converted"),
    Mutation("svgsafe-elements", "engine/svgsafe.py",
             "        if name not in ALLOWED_ELEMENTS:", "        if False:",
             ("tests/test_reliability.py",), "<script> and <foreignObject> pass the sanitiser"),
    Mutation("svgsafe-javascript-urls", "engine/svgsafe.py",
             '    if _JS.search(_CONTROL.sub("", value)):', "    if False:",
             ("tests/test_reliability.py",), "javascript: URLs pass the sanitiser"),
    Mutation("solving-apply-moves-unchecked", "engine/solving.py",
             "            state = puzzle.apply_moves(state, chunk)",
             "            state = _apply_each(puzzle, state, chunk[:-1], begin) if len(chunk) > 1 else state",
             ("tests/test_reliability.py", "tests/test_engine.py"),
             "the check skips the last move of each chunk"),
    # -- the conformance laws -------------------------------------------------------------------
    Mutation("conformance-round-trip", "engine/conformance/laws.py",
             "            if back != inst:\n                raise LawFailure(f\"parse(format(i)) != i",
             "            if False:\n                raise LawFailure(f\"parse(format(i)) != i",
             ("tests/test_plugin_kit.py",), "the round-trip law passes a plugin whose text does not round-trip"),
    # -- peg solitaire: live verdicts and counting ----------------------------------------------
    Mutation("pegs-verdict-class", "plugins/pegs/verdict.py",
             "    if not verdict.feasible:\n        return Assessment(\"cannot\"",
             "    if verdict.feasible:\n        return Assessment(\"cannot\"",
             ("tests/test_pegs_verdict.py",), "the live verdict says 'cannot' exactly when the class allows"),
    Mutation("pegs-count-orbits", "plugins/pegs/count.py",
             "total += int(fwd.counts[i]) // int(orbits[i]) * int(bwd.counts[j])",
             "total += int(fwd.counts[i]) * int(bwd.counts[j])",
             ("tests/test_pegs_count.py",), "the exact (big-number) meeting sum forgets symmetric copies"),
]
