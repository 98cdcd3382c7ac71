/* The one generic editor for every puzzle.
 *
 * It knows nothing about any puzzle: the server renders the board as SVG, marks clickable parts
 * with data-action (and data-key, aria-label, data-row/col: see docs/plugins.md), and the
 * puzzle's edit operation (POST /api/<id>/edit) says what a click does. Solving runs as a job
 * (POST /api/<id>/jobs, then poll: jobs.js); the answer plays on the main board, step by step
 * (playback.js; keyboard.js gives roving focus).
 * The puzzle's tasks (POST /api/<id>/tasks/<name>: count solutions, ...) run as jobs too, with
 * the same progress bar and Cancel; their buttons sit beside Solve.
 * A puzzle may add its own script; it gets window.PuzzleEditor.
 */
(function () {
  "use strict";

  const page = JSON.parse(document.getElementById("page-data").textContent);
  const initialHash = location.hash;  // read before the address bar is rewritten below
  const puzzle = page.puzzle;
  const api = "/api/" + encodeURIComponent(puzzle.id);
  const $ = (id) => document.getElementById(id);
  const B = window.PuzzleBoards;
  const J = window.PuzzleJobs;
  const { plural, sentence, errorText, call } = J;

  const el = {
    editor: document.querySelector(".editor"), board: $("board"), message: $("edit-message"),
    notes: $("notes"), tools: $("tools"), banner: $("banner"), legend: $("legend"),
    undo: $("undo"), redo: $("redo"), hint: $("hint"), coords: $("coords"), coordsLabel: $("coords-label"),
    preset: $("preset"), seed: $("seed"), random: $("random"),
    text: $("instance-text"), textError: $("instance-error"), apply: $("apply"),
    share: $("share-link"), copy: $("copy-link"), solver: $("solver"), timeLimit: $("time-limit"),
    solve: $("solve"), cancel: $("cancel"), tryFast: $("try-fast"), progress: $("progress"),
    status: $("solve-status"), why: $("why"), whyText: $("why-text"), solveDetails: $("solve-details"),
    stats: $("stats"), viewSwitch: $("view-switch"), viewEdit: $("view-edit"), viewSolution: $("view-solution"),
    pbBoard: $("playback-board"), pbBar: $("playback-bar"), movesPanel: $("moves-panel"),
    first: $("first-step"), prev: $("prev-step"), play: $("play"), next: $("next-step"),
    last: $("last-step"), speed: $("speed"), slider: $("step-slider"), stepLabel: $("step-label"),
    stepStatus: $("step-status"), download: $("download-svg"), stepLink: $("step-link"),
    details: $("details"), solutionDetails: $("solution-details"), moveList: $("move-list"),
    taskTools: $("task-tools"), taskNotes: $("task-notes"),
  };
  // The board as a person is told about it.
  const BOARD_NAME = puzzle.title + " board";
  const EDIT_TWEEN = 160;  // ms: a tile slid by hand glides, but never holds up the next click

  // -- small helpers ---------------------------------------------------------------------------

  function say(node, text, kind) {
    node.textContent = text || "";
    node.dataset.kind = kind || "info";
  }

  function selectedMode() {
    const mode = document.querySelector('input[name="mode"]:checked') ||
      document.querySelector('input[type="hidden"][name="mode"]');
    return mode ? mode.value : null;
  }

  function movesParam(moves) {
    const needsJson = moves.some((m) => m.includes(",") || m.trim() !== m);
    return needsJson ? JSON.stringify(moves) : moves.join(",");
  }

  // Move lists longer than this (characters) go into links as the job id instead: a query
  // string cannot hold 80,000 moves (the server refuses request lines over 256 kB).
  const LONG_MOVES = 20000;

  function pageUrl(text, withSolution) {
    let url = "/" + encodeURIComponent(puzzle.id) + "?instance=" + encodeURIComponent(text);
    const solution = player.solution();
    if (withSolution && solution) {
      if (solution.job && movesParam(solution.moves).length > LONG_MOVES) {
        url += "&job=" + encodeURIComponent(solution.job);
      } else {
        url += "&moves=" + encodeURIComponent(movesParam(solution.moves));
      }
      if (solution.solver) url += "&solver=" + encodeURIComponent(solution.solver);
    }
    return url;
  }

  // -- the instance being edited ---------------------------------------------------------------

  let current = page.state;          // {instance, notes, tools, selection, message, solved, assessment}
  const edits = [current.instance]; // undo/redo of instance texts
  let historyIndex = 0;
  const listeners = [];
  let hiddenNotes = new Set();       // note texts a solve result already says (shown once)

  let playing = false;  // the last change was a move or edit on the board (not a new instance)

  function show(state, { push = false, keepText = false, tween = 0 } = {}) {
    const changed = state.instance !== current.instance;
    playing = push && changed && tween > 0;
    const wasSolved = current.solved;
    const hadFocus = el.board.contains(document.activeElement);
    current = state;
    B.swap(el.board, state.svg, tween);
    el.board.dataset.solved = state.solved ? "true" : "false";
    B.decorate(el.board, BOARD_NAME);
    if (hadFocus) B.restoreFocus(el.board);
    say(el.message, state.message || "", "info");
    if (changed) hiddenNotes = new Set();
    renderNotes();
    renderTools(state.tools || []);
    renderTasks(state.tasks || []);
    if (!keepText) {
      el.text.value = state.instance;
      fitText();
      el.textError.textContent = "";
      el.text.removeAttribute("aria-invalid");
    }
    if (push && changed) {
      edits.splice(historyIndex + 1);
      edits.push(state.instance);
      historyIndex = edits.length - 1;
    }
    el.undo.disabled = historyIndex <= 0;
    el.redo.disabled = historyIndex >= edits.length - 1;
    // Solved by hand: a banner, a framed board and a word for screen readers.
    const byHand = push && changed && state.solved && !wasSolved;
    el.banner.hidden = !byHand;
    if (byHand) {
      el.banner.textContent = "Solved! Well played.";
      say(el.message, "Solved! Well played.", "success");
    }
    el.legend.hidden = !state.hint && !player.solution();
    updateCoords();
    if (changed) clearSolution();
    updateLinks();
    listeners.forEach((fn) => { try { fn(state); } catch (err) { console.error(err); } });
  }

  function verdictNote(a) {
    // "Unknown" is worth saying while someone plays, not about a board just loaded.
    if (!a || a.verdict === "solved" || (a.verdict === "unknown" && !playing)) return null;
    const text = {
      can: "This position can still be solved.",
      cannot: "This position cannot be solved.",
      unknown: "Can this position still be solved? Unknown: not decided in the time allowed.",
    }[a.verdict];
    if (!text) return null;
    return { text: a.reason ? sentence(a.reason) : text, kind: { can: "success", cannot: "warning" }[a.verdict] || "info",
      detail: a.detail, verdict: a.verdict };
  }

  // The core of a sentence, for spotting the same fact said twice: no "No:"/"Yes:" lead-in,
  // no case, no final full stop.
  const core = (text) => String(text || "").trim().replace(/^(no|yes)\s*[:,]\s*/i, "").replace(/[.\s]+$/, "").toLowerCase();
  const sameFact = (a, b) => !!a && !!b && (a.includes(b) || b.includes(a));

  function renderNotes() {
    const verdict = verdictNote(current.assessment);
    const notes = (current.notes || []).map((n) => ({ text: String(n), kind: "info" }))
      // A note the verdict says too is left to the verdict (which has the proof behind Why?).
      .filter((n) => !verdict || !sameFact(core(n.text), core(verdict.text)));
    if (verdict) notes.push(verdict);
    const shownTexts = new Set();
    el.notes.replaceChildren(...notes.filter((n) => {
      // Each fact once: a note the solve result (or another note) already says is left out.
      if (Array.from(hiddenNotes).some((h) => sameFact(h, core(n.text))) || shownTexts.has(n.text)) return false;
      shownTexts.add(n.text);
      return true;
    }).map((n) => {
      const li = document.createElement("li");
      li.dataset.kind = n.kind;
      if (n.verdict) li.dataset.verdict = n.verdict;
      li.append(n.text);
      if (n.detail) li.append(" ", whyDisclosure(n.detail));
      return li;
    }));
  }

  function whyDisclosure(text) {
    const details = document.createElement("details");
    details.className = "why";
    const summary = document.createElement("summary");
    summary.textContent = "Why?";
    const p = document.createElement("p");
    p.textContent = text;
    details.append(summary, p);
    return details;
  }

  function updateCoords() {
    const has = !!document.querySelector(".board .coords");
    el.coordsLabel.hidden = !has;
    el.editor.classList.toggle("hide-coords", !el.coords.checked);
  }
  try { el.coords.checked = localStorage.getItem("puzzle-coords") !== "off"; } catch (err) { /* private mode */ }
  el.coords.addEventListener("change", () => {
    try { localStorage.setItem("puzzle-coords", el.coords.checked ? "on" : "off"); } catch (err) { /* ignore */ }
    updateCoords();
  });

  function fitText() {
    // Show a multi-line instance whole (within reason) instead of a scrolling sliver.
    el.text.rows = Math.max(3, Math.min(14, el.text.value.split("\n").length + 1));
  }

  // The host's own controls: a plugin tool with the same name would be a second, different one.
  const HOST_CONTROLS = new Set(["undo", "redo", "hint", "random", "solve", "apply"]);

  function renderTools(tools) {
    const nodes = tools.filter((tool) => !HOST_CONTROLS.has(String(tool.label).trim().toLowerCase())).map((tool) => {
      if (tool.choices && tool.choices.length) {
        const label = document.createElement("label");
        label.className = "tool-choice";
        label.append(tool.label + " ");
        const select = document.createElement("select");
        const placeholder = new Option("choose…", "");
        select.append(placeholder, ...tool.choices.map((c) => new Option(c.label, c.action)));
        select.addEventListener("change", () => {
          if (select.value) sendAction(select.value);
        });
        label.append(select);
        return label;
      }
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = tool.label;
      button.dataset.toolAction = tool.action;
      button.addEventListener("click", () => sendAction(tool.action));
      return button;
    });
    el.tools.replaceChildren(...nodes);
  }

  // The puzzle's tasks: one button each beside Solve, disabled (with the task's reason shown
  // under the buttons) when the task will not run on this instance.
  function renderTasks(tasks) {
    el.taskTools.hidden = !tasks.length;
    const notes = [];
    el.taskTools.replaceChildren(...tasks.map((task) => {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = task.label;
      button.dataset.task = task.name;
      button.dataset.refusal = task.refusal || "";
      if (task.description) button.title = task.description;
      if (task.refusal) {
        const note = document.createElement("li");
        note.id = "task-note-" + task.name;
        note.textContent = task.label + ": not on this board. " + sentence(task.refusal);
        notes.push(note);
        button.setAttribute("aria-describedby", note.id);
      }
      button.addEventListener("click", () => runTask(task));
      return button;
    }));
    el.taskNotes.replaceChildren(...notes);
    el.taskNotes.hidden = !notes.length;
    setSolving(!!(job && !job.done));
  }

  // Edits run one after another: each applies to the instance (and selection) the previous one
  // left, so two quick clicks ("pick a peg, then where it lands") never race.
  let editQueue = Promise.resolve();
  function sendAction(action) {
    editQueue = editQueue.then(() => applyAction(action), () => applyAction(action));
    return editQueue;
  }

  async function applyAction(action) {
    setView("edit");
    const result = await call("POST", api + "/edit", {
      instance: current.instance, action, mode: selectedMode(), selection: current.selection,
    });
    if (!result.ok) {
      say(el.message, errorText(result.body), "error");
      return;
    }
    show(result.body, { push: true, tween: EDIT_TWEEN });
  }

  async function loadInstance(text, push = true) {
    const result = await call("POST", api + "/validate", { instance: text });
    if (!result.ok) {
      showTextError(result.body);
      return false;
    }
    show(result.body, { push });
    return true;
  }

  function showTextError(body) {
    el.textError.textContent = errorText(body);
    el.text.setAttribute("aria-invalid", "true");
  }

  // Validate as you type (debounced); Apply (or Ctrl+Enter) loads valid text onto the board.
  let validateTimer = null;
  let validateSeq = 0;
  el.text.addEventListener("input", () => {
    clearTimeout(validateTimer);
    validateTimer = setTimeout(async () => {
      const seq = ++validateSeq;
      const result = await call("POST", api + "/validate", { instance: el.text.value });
      if (seq !== validateSeq) return;
      if (result.ok) {
        el.textError.textContent = "";
        el.text.removeAttribute("aria-invalid");
      } else {
        showTextError(result.body);
      }
    }, 300);
  });
  el.text.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      loadInstance(el.text.value);
    }
  });
  el.apply.addEventListener("click", () => loadInstance(el.text.value));

  B.attach(el.board);
  el.board.addEventListener("click", (event) => {
    const target = event.target.closest("[data-action]");
    if (target && el.board.contains(target)) sendAction(target.getAttribute("data-action"));
  });
  el.board.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    const target = event.target.closest("[data-action]");
    if (!target) return;
    event.preventDefault();
    sendAction(target.getAttribute("data-action"));
  });

  el.preset.addEventListener("change", async () => {
    const name = el.preset.value;
    if (!name) return;
    await loadInstance(puzzle.presets[name]);
    el.preset.value = "";
  });

  // Random: a new seed on every press (shown, so the board can be had again by typing it);
  // a seed typed by hand is used as it is.
  let lastRandomSeed = null;
  el.random.addEventListener("click", async () => {
    const typed = el.seed.value.trim();
    let seed = typed && typed !== lastRandomSeed ? typed : null;
    const options = {};
    document.querySelectorAll(".random-option").forEach((input) => {
      if (input.value) options[input.dataset.option] = input.value;
    });
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const useSeed = seed || String(Math.floor(Math.random() * 1e9));
      const result = await call("GET", api + "/random?" + new URLSearchParams({ seed: useSeed, ...options }));
      if (!result.ok) {
        say(el.message, errorText(result.body), "error");
        return;
      }
      // A tiny board can give the same instance for two seeds: then take another seed.
      if (result.body.instance === current.instance && !seed && attempt < 4) continue;
      el.seed.value = useSeed;
      lastRandomSeed = useSeed;
      show(result.body, { push: true });
      say(el.message, "A new random board, seed " + useSeed + ".", "info");
      return;
    }
  });

  function undo() {
    if (historyIndex > 0) { historyIndex -= 1; loadInstance(edits[historyIndex], false); }
  }
  function redo() {
    if (historyIndex < edits.length - 1) { historyIndex += 1; loadInstance(edits[historyIndex], false); }
  }
  el.undo.addEventListener("click", undo);
  el.redo.addEventListener("click", redo);

  function updateLinks() {
    el.share.href = pageUrl(current.instance, false);
    const address = pageUrl(current.instance, true) + (player.solution() ? "#step=" + player.step() : "");
    if (location.pathname + location.search + location.hash !== address) {
      window.history.replaceState(null, "", address);
    }
  }
  el.copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(el.share.href);
      say(el.message, "Link copied.", "success");
    } catch (err) {
      say(el.message, "Copy failed; use the Share link.", "warning");
    }
  });

  // -- hints -----------------------------------------------------------------------------------

  const HINT_SECONDS = 2;

  el.hint.addEventListener("click", async () => {
    const instance = current.instance;
    setView("edit");  // the hint is drawn on the board being played
    el.hint.disabled = true;
    say(el.message, "Looking for a hint…", "info");
    try {
      const submitted = await call("POST", api + "/jobs", { instance, time_limit: HINT_SECONDS });
      if (!submitted.ok) { say(el.message, "No hint: " + errorText(submitted.body), "warning"); return; }
      const job = await J.wait(submitted.body, 150, performance.now() + (HINT_SECONDS + 1.5) * 1000);
      if (current.instance !== instance) return;  // the board changed meanwhile
      if (!job || !job.done) {
        if (job) call("POST", "/api/jobs/" + encodeURIComponent(job.id) + "/cancel");
        say(el.message, "No hint found in time.", "warning");
        return;
      }
      const r = job.result || {};
      if (job.status === "solved" && r.moves && r.moves.length) {
        const shown = await call("POST", api + "/validate", { instance, next_move: r.moves[0] });
        if (!shown.ok || current.instance !== instance) return;
        show(Object.assign(shown.body, { selection: current.selection }), { keepText: true });
        say(el.message, "Hint: " + sentence(shown.body.hint.words) + " (" + plural(r.moves.length, "move") + " to go)", "success");
      } else if (job.status === "solved") {
        say(el.message, "Already solved.", "success");
      } else if (job.status === "unsolvable") {
        say(el.message, "No hint: " + sentence(r.reason || "this position cannot be solved"), "warning");
      } else {
        say(el.message, "No hint found in time.", "warning");
      }
    } finally {
      el.hint.disabled = false;
    }
  });

  // -- solving as a job ------------------------------------------------------------------------

  let job = null;
  let watcher = null;

  function follow(state) {
    // Solves and tasks: one job at a time, followed until it is done (Cancel follows anew).
    if (watcher) watcher.stop();
    const own = { submittedFor: state.submittedFor, label: state.label };
    watcher = J.watch(state, {
      interval: 250,
      onState: (polled) => onJob(Object.assign(polled, own)),
      onLost: (body) => { setSolving(false); setStatus("Lost the job: " + errorText(body), "error"); },
    });
  }

  function setSolving(active) {
    el.solve.disabled = active || !puzzle.solvers.length;
    el.cancel.disabled = !active;
    el.taskTools.querySelectorAll("button").forEach((button) => {
      button.disabled = active || !!button.dataset.refusal;
    });
  }

  function statValue(v) {
    // Whole numbers past 2**53 come as decimal text (JSON numbers would be rounded): group
    // their digits exactly, with BigInt.
    if (typeof v === "string" && /^\d{4,}$/.test(v) && typeof BigInt === "function") return BigInt(v).toLocaleString("en");
    return typeof v === "number" ? (Number.isInteger(v) ? v.toLocaleString("en") : v.toFixed(2)) : String(v);
  }

  function showStats(stats, extra) {
    const rows = Object.entries(Object.assign({}, extra || {}, stats || {}))
      .filter(([, v]) => v !== null && v !== undefined && typeof v !== "object");
    el.stats.replaceChildren(...rows.flatMap(([k, v]) => [
      Object.assign(document.createElement("dt"), { textContent: k.replace(/_/g, " ") }),
      Object.assign(document.createElement("dd"), { textContent: statValue(v) }),
    ]));
    el.solveDetails.hidden = !rows.length;
  }

  function setStatus(text, kind, why) {
    say(el.status, text, kind);
    el.why.hidden = !why;
    el.why.open = false;
    el.whyText.textContent = why || "";
  }

  function fastSolver() {
    // Another solver that trades optimality for speed, if the puzzle has one: one named "fast"
    // first (by convention the quickest), else any other solver that does not promise optimality.
    const others = puzzle.solvers.filter((s) => !s.optimal && s.name !== el.solver.value);
    return others.find((s) => s.name === "fast") || others[0] || null;
  }

  function refused(result, prefix) {
    // A job the server would not take: busy (503, try again later) or a bad request.
    setSolving(false);
    el.progress.value = 0;
    if (result.status === 503) {
      const wait = result.headers && result.headers.get("Retry-After");
      setStatus("The server is busy. " + errorText(result.body) + (wait ? " Try again in " + plural(Number(wait), "second") + "." : ""), "warning");
    } else {
      setStatus(prefix + errorText(result.body), "error");
    }
  }

  async function solve() {
    // Solve what the box says: apply typed text first; if it is invalid, nothing is solved.
    if (el.text.value !== current.instance && !(await loadInstance(el.text.value))) {
      setStatus("Fix the instance text first: " + el.textError.textContent, "error");
      el.text.focus();
      return;
    }
    clearSolution();
    setSolving(true);
    el.tryFast.hidden = true;
    el.progress.value = 0;
    el.progress.removeAttribute("value");  // indeterminate until the job runs
    setStatus("Submitting…", "info");
    showStats(null);
    const submitted = current.instance;
    const result = await call("POST", api + "/jobs", {
      instance: submitted, solver: el.solver.value, time_limit: el.timeLimit.value,
    });
    if (!result.ok) {
      refused(result, "Cannot solve: ");
      return;
    }
    follow(Object.assign(result.body, { submittedFor: submitted }));
  }
  el.solve.addEventListener("click", solve);

  async function runTask(task) {
    // Like Solve: the task runs on what the box says, as a job with progress and Cancel.
    if (el.text.value !== current.instance && !(await loadInstance(el.text.value))) {
      setStatus("Fix the instance text first: " + el.textError.textContent, "error");
      el.text.focus();
      return;
    }
    const fresh = (current.tasks || []).find((t) => t.name === task.name);
    if (!fresh || fresh.refusal) return;  // the new text's board is refused: its note says why
    setSolving(true);
    el.tryFast.hidden = true;
    el.progress.value = 0;
    el.progress.removeAttribute("value");
    setStatus(task.label + ": submitting…", "info");
    showStats(null);
    const submitted = current.instance;
    const result = await call("POST", api + "/tasks/" + encodeURIComponent(task.name), { instance: submitted });
    if (!result.ok) {
      refused(result, task.label + ": ");
      return;
    }
    follow(Object.assign(result.body, { submittedFor: submitted, label: task.label }));
  }
  el.tryFast.addEventListener("click", () => {
    const fast = fastSolver();
    if (fast) { el.solver.value = fast.name; solve(); }
  });

  el.cancel.addEventListener("click", async () => {
    if (!job) return;
    setStatus("Cancelling…", "info");
    const result = await call("POST", "/api/jobs/" + encodeURIComponent(job.id) + "/cancel");
    if (result.ok) follow(Object.assign(result.body, { submittedFor: job.submittedFor, label: job.label }));
  });

  function onJob(state) {
    job = state;
    if (!state.done) {
      if (state.status === "queued") {
        setStatus("Waiting for a free " + (state.kind === "task" ? "worker" : "solver") + (state.queue_position ? " (number " + state.queue_position + " in line)" : "") + "…", "info");
      } else {
        const p = state.progress || {};
        const said = typeof p.message === "string" && p.message ? " " + sentence(p.message) : "";
        if (typeof p.done === "number" && typeof p.total === "number" && p.total > 0) {
          // A solver or task reporting a measurable phase (building tables, levels counted):
          // show how far that is, and its own words on what it is doing.
          setStatus((p.phase ? sentence(p.phase).slice(0, -1) : "Working") + " (" + Math.floor(100 * p.done / p.total) + "%)…" + said, "info");
          el.progress.max = p.total;
          el.progress.value = Math.min(p.done, p.total);
        } else {
          // Otherwise the time used out of the time limit.
          const doing = state.kind === "task" ? (state.label || "Working") + "…" : "Solving…";
          setStatus(doing + " " + Math.floor(state.elapsed) + " of " + plural(Number(state.time_limit), "second") + "." + said, "info");
          el.progress.max = state.time_limit;
          el.progress.value = Math.min(state.elapsed, state.time_limit);
        }
      }
      showStats(state.progress);
      return;
    }
    setSolving(false);
    el.progress.max = 1;
    el.progress.value = 1;
    const r = state.result || {};
    if (state.kind === "task") {
      taskEnded(state, r);
      return;
    }
    showStats(r.stats || state.progress, { solver: state.solver, seconds: r.seconds,
      "answer": state.from_store ? "found earlier and kept" : "found now" });
    if (state.status === "solved") {
      const n = r.moves.length;
      setStatus(n === 0 ? "Already solved: no moves needed." :
        "Solved: " + plural(n, "move") + (r.optimal ? ", the fewest possible." : "."), "success");
      if (state.submittedFor === undefined || state.submittedFor === current.instance) {
        setSolution({ moves: r.moves, details: r.details || {}, solver: state.solver, solved: true, job: state.stored_id || state.id }, 0);
        if (n > 0) {
          setView("solution");
          revealBoard();
          el.next.focus({ preventScroll: true });
        }
      } else {
        el.status.textContent += " The instance has changed since; solve again to see it.";
      }
    } else if (state.status === "unsolvable") {
      const reason = sentence(r.reason || "this instance has no solution");
      // Lead with one plain sentence; the puzzle's own may already start with "No".
      setStatus(/^no\b/i.test(reason) ? reason : "No solution. " + reason, "warning", r.reason_detail);
      hiddenNotes = new Set([core(reason), core(r.reason_detail)].filter(Boolean));
      renderNotes();
    } else if (state.status === "gave_up") {
      const why = r.reason === "deadline" || !r.reason ? "no solution was found within the time limit (" +
        plural(Number(state.time_limit), "second") + ")" : r.reason;
      setStatus("Gave up: " + sentence(state.message || why), "warning");
      el.tryFast.hidden = !fastSolver();
    } else if (state.status === "cancelled") {
      setStatus("Cancelled.", "info");
    } else {
      setStatus("The solver failed: " + sentence(state.message || "no reason given"), "error");
    }
    // Solve (or Cancel) was disabled under the keyboard's focus while the job ran: give focus
    // back to the way forward rather than leave it on the page body.
    if (view !== "solution") {
      const lost = !document.activeElement || document.activeElement === document.body;
      if (lost) (el.tryFast.hidden ? el.solve : el.tryFast).focus({ preventScroll: true });
    }
  }

  function taskEnded(state, r) {
    // A task's answer is one sentence (its summary) and figures behind Details.
    const label = state.label || state.task;
    const changed = state.submittedFor !== undefined && state.submittedFor !== current.instance;
    showStats(state.status === "finished" ? r.data : (r.stats || state.progress), { task: label, seconds: r.seconds });
    if (state.status === "finished") {
      setStatus(label + ": " + sentence(r.summary) + (changed ? " (For the board before your last change.)" : ""), "success");
    } else if (state.status === "gave_up") {
      const why = r.reason === "deadline" || !r.reason ? "it did not finish within the time limit (" +
        plural(Number(state.time_limit), "second") + ")" : r.reason;
      setStatus(label + " stopped: " + sentence(state.message || why), "warning");
    } else if (state.status === "cancelled") {
      setStatus(label + ": cancelled.", "info");
    } else {
      setStatus(label + " failed: " + sentence(state.message || "no reason given"), "error");
    }
    const lost = !document.activeElement || document.activeElement === document.body ||
      document.activeElement.disabled;
    if (lost) {
      const again = el.taskTools.querySelector('[data-task="' + state.task + '"]');
      (again && !again.disabled ? again : el.solve).focus({ preventScroll: true });
    }
  }

  // -- one board: editing or replaying ---------------------------------------------------------

  let view = "edit";

  function setView(which) {
    view = which === "solution" && player.solution() ? "solution" : "edit";
    const replaying = view === "solution";
    el.board.hidden = replaying;
    el.pbBoard.hidden = !replaying;
    el.pbBar.hidden = !replaying;
    el.viewEdit.setAttribute("aria-pressed", String(!replaying));
    el.viewSolution.setAttribute("aria-pressed", String(replaying));
    el.legend.hidden = !replaying && !current.hint;
    if (!replaying) player.stop();
  }
  el.viewEdit.addEventListener("click", () => setView("edit"));
  el.viewSolution.addEventListener("click", () => setView("solution"));

  function revealBoard() {
    // The board and its step controls in view, top first (they fit at 1280 x 800).
    const area = document.querySelector(".board-area");
    const box = area.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) area.scrollIntoView({ block: "start" });
  }

  // -- playback (playback.js) -----------------------------------------------------------------

  const player = window.PuzzlePlayback.create({
    nodes: {
      board: el.pbBoard, slider: el.slider, stepLabel: el.stepLabel, stepStatus: el.stepStatus, first: el.first,
      prev: el.prev, play: el.play, next: el.next, last: el.last, speed: el.speed, moveList: el.moveList,
    },
    boardName: BOARD_NAME,
    // A job's solution is drawn by job id: short URLs however long the solution is.
    stepUrl: (sol, n) => sol.job ? "/api/jobs/" + encodeURIComponent(sol.job) + "/render.svg?step=" + n
      : api + "/render.svg?instance=" + encodeURIComponent(current.instance) + "&moves=" +
        encodeURIComponent(movesParam(sol.moves)) + "&step=" + n,
    describe: async (sol, first, count) => {
      const query = "from=" + first + "&count=" + count;
      const result = sol.job ? await call("GET", "/api/jobs/" + encodeURIComponent(sol.job) + "/describe?" + query)
        : await call("POST", api + "/describe?" + query, { instance: current.instance, moves: sol.moves });
      return result.ok ? result.body : null;
    },
    animate: () => view === "solution",
    onActivate: () => setView("solution"),
    onStep: (n) => {
      updateLinks();
      el.stepLink.href = location.pathname + location.search + "#step=" + n;
    },
    onDrawn: updateCoords,
  });

  function setSolution(sol, atStep) {
    el.movesPanel.hidden = false;
    el.viewSwitch.hidden = false;
    el.details.replaceChildren();
    Object.entries(sol.details || {}).forEach(([key, value]) => {
      const dt = document.createElement("dt");
      dt.textContent = key.replace(/_/g, " ");
      const dd = document.createElement("dd");
      if (Array.isArray(value) && value.length && value.every((v) => v && typeof v === "object" && !Array.isArray(v))) {
        // A list of records (e.g. one per placed piece): one line each.
        const list = document.createElement("ul");
        list.append(...value.map((item) => Object.assign(document.createElement("li"), { textContent: describe(item) })));
        dd.append(list);
      } else {
        dd.textContent = describe(value);
      }
      el.details.append(dt, dd);
    });
    el.solutionDetails.hidden = !el.details.childElementCount;
    el.download.href = api + "/animation.svg?instance=" + encodeURIComponent(current.instance) +
      "&moves=" + encodeURIComponent(movesParam(sol.moves)) + "&download=1";
    el.download.setAttribute("download", puzzle.id + "-solution.svg");
    el.legend.hidden = false;
    player.load(sol, atStep);
  }

  function describe(value) {
    // Any JSON value as short readable text: lists joined, records as "key: value" pairs.
    if (value === null || value === undefined) return "–";
    if (Array.isArray(value)) {
      if (value.every((v) => Array.isArray(v) && v.every((x) => typeof x !== "object"))) {
        return value.map((v) => "(" + v.join(", ") + ")").join(" ");
      }
      return value.map(describe).join(", ");
    }
    if (typeof value === "object") {
      return Object.entries(value).map(([k, v]) => k.replace(/_/g, " ") + ": " + describe(v)).join(" · ");
    }
    return String(value);
  }

  function clearSolution() {
    player.stop();
    if (!player.solution()) return;
    player.clear();
    setView("edit");
    el.viewSwitch.hidden = true;
    el.movesPanel.hidden = true;
    el.legend.hidden = !current.hint;
    updateLinks();
  }

  function stepFromHash(hash = location.hash) {
    const match = /^#step=(\d+)$/.exec(hash);
    return match ? Number(match[1]) : null;
  }
  window.addEventListener("hashchange", () => {
    const n = stepFromHash();
    if (n !== null && player.solution() && n !== player.step()) { setView("solution"); player.goTo(n); }
  });

  // -- keyboard --------------------------------------------------------------------------------

  document.addEventListener("keydown", (event) => {
    const target = event.target;
    const tag = target.tagName;
    const typing = tag === "TEXTAREA" || tag === "SELECT" || target.isContentEditable ||
      (tag === "INPUT" && !["range", "radio", "checkbox"].includes(target.type));
    const ctrl = event.ctrlKey || event.metaKey;
    if (ctrl && !typing && !event.altKey) {
      const key = event.key.toLowerCase();
      if (key === "z" && !event.shiftKey) { event.preventDefault(); undo(); return; }
      if (key === "y" || (key === "z" && event.shiftKey)) { event.preventDefault(); redo(); return; }
    }
    const solution = player.solution();
    if (typing || ctrl || event.altKey || !solution || view !== "solution") return;
    if (tag === "INPUT") return;  // the slider and radio buttons handle their own keys
    if ((tag === "BUTTON" || tag === "A" || tag === "SUMMARY") && (event.key === " " || event.key === "Enter")) return;
    if (target.closest && target.closest(".board [data-action]")) return;  // roving focus
    switch (event.key) {
      case "ArrowLeft": event.preventDefault(); player.stop(); player.goTo(player.step() - 1); break;
      case "ArrowRight": event.preventDefault(); player.stop(); player.goTo(player.step() + 1); break;
      case "Home": event.preventDefault(); player.stop(); player.goTo(0); break;
      case "End": event.preventDefault(); player.stop(); player.goTo(solution.moves.length); break;
      case " ": event.preventDefault(); player.toggle(); break;
      default: break;
    }
  });

  // -- start -----------------------------------------------------------------------------------

  current.svg = el.board.innerHTML;  // the page carries the board once, in the board itself
  if (page.error) {
    fitText();
    showTextError(page.error);
    // Keep what was typed in the box so it can be fixed; the board shows a valid instance.
    B.decorate(el.board, BOARD_NAME);
    renderNotes();
    renderTools(current.tools || []);
    renderTasks(current.tasks || []);
    updateCoords();
    el.share.href = pageUrl(current.instance, false);
  } else {
    show(current);
  }
  setSolving(false);
  if (page.solution && !page.error) {
    if (page.solution.solver) {
      for (const option of el.solver.options) if (option.value === page.solution.solver) el.solver.value = option.value;
    }
    setSolution(page.solution, stepFromHash(initialHash) || 0);
    setView("solution");
    const n = page.solution.moves.length;
    setStatus(page.solution.solved ? "Showing a solution of " + plural(n, "move") + "." :
      "Showing " + plural(n, "move") + " (they do not reach the goal).", page.solution.solved ? "info" : "warning");
    if (stepFromHash(initialHash) !== null) revealBoard();
  }

  // The hook for a puzzle's own client script (richer input, e.g. dragging pieces).
  window.PuzzleEditor = {
    puzzle,
    board: el.board,
    getInstance: () => current.instance,
    getSelection: () => current.selection,
    sendAction,
    setInstance: (text) => loadInstance(text, true),
    onChange: (fn) => listeners.push(fn),
  };
})();
