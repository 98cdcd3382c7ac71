/* The one generic editor for every puzzle. It knows nothing about any puzzle: the server
 * renders the board as SVG, marks clickable parts with data-action (see docs/plugins.md), and
 * the puzzle's edit operation (POST /api/<id>/edit) says what a click does. Solves and tasks
 * run as jobs (jobs.js); a solution plays on the board (playback.js). A puzzle's own script
 * gets window.PuzzleEditor.
 */
(function () {
  "use strict";

  const page = JSON.parse(document.getElementById("page-data").textContent);
  const initialHash = location.hash;  // read before the address bar is rewritten below
  const puzzle = page.puzzle;
  const api = "/api/" + encodeURIComponent(puzzle.id);
  const $ = (id) => document.getElementById(id);
  const B = window.PuzzleBoards;
  const { sentence, errorText, call, watch, wait } = window.PuzzleJobs;
  const { t, tn, num, N_, has } = window.PuzzleI18n;

  const el = {
    editor: document.querySelector(".editor"), board: $("board"), message: $("edit-message"),
    notes: $("notes"), tools: $("tools"), banner: $("banner"), legend: $("legend"),
    undo: $("undo"), redo: $("redo"), hint: $("hint"), coords: $("coords"), coordsLabel: $("coords-label"),
    preset: $("preset"), seed: $("seed"), random: $("random"),
    text: $("instance-text"), textError: $("instance-error"), apply: $("apply"),
    share: $("share-link"), copy: $("copy-link"), solver: $("solver"), timeLimit: $("time-limit"),
    solverDescription: $("solver-description"),
    solve: $("solve"), cancel: $("cancel"), tryFast: $("try-fast"), progress: $("progress"),
    status: $("solve-status"), solveNote: $("solve-note"), why: $("why"), whyText: $("why-text"), solveDetails: $("solve-details"),
    stats: $("stats"), viewSwitch: $("view-switch"), viewEdit: $("view-edit"), viewSolution: $("view-solution"),
    pbBoard: $("playback-board"), pbBar: $("playback-bar"), movesPanel: $("moves-panel"),
    first: $("first-step"), prev: $("prev-step"), play: $("play"), next: $("next-step"),
    last: $("last-step"), speed: $("speed"), slider: $("step-slider"), stepLabel: $("step-label"),
    stepStatus: $("step-status"), download: $("download-svg"), stepLink: $("step-link"),
    details: $("details"), solutionDetails: $("solution-details"), moveList: $("move-list"),
    taskTools: $("task-tools"), taskNotes: $("task-notes"),
  };
  const BOARD_NAME = t("{puzzle} board", { puzzle: puzzle.title });
  const EDIT_TWEEN = 160;  // ms: a tile slid by hand glides, but never holds up the next click

  // -- small helpers

  const make = (tag, props) => Object.assign(document.createElement(tag), props);

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
  const movesQuery = (moves) => "instance=" + encodeURIComponent(current.instance) + "&moves=" +
    encodeURIComponent(movesParam(moves));

  // Move lists longer than this (characters) go into links as the job id instead: a query
  // string cannot hold 80,000 moves (the server refuses request lines over 256 kB).
  const LONG_MOVES = 20000;

  function pageUrl(withSolution) {
    let url = "/" + encodeURIComponent(puzzle.id) + "?instance=" + encodeURIComponent(current.instance);
    const solution = player.solution();
    if (withSolution && solution) {
      if (solution.job && movesParam(solution.moves).length > LONG_MOVES) {
        url += "&job=" + encodeURIComponent(solution.job);
      } else {
        url += "&moves=" + encodeURIComponent(movesParam(solution.moves));
      }
      if (solution.solver) url += "&solver=" + encodeURIComponent(solution.solver);
    }
    // A language chosen with ?lang= stays chosen in every link the page writes.
    if (page.lang) url += "&lang=" + encodeURIComponent(page.lang);
    return url;
  }

  // -- the instance being edited

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
      showTextError(null);
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
      el.banner.textContent = t("Solved! Well played.");
      say(el.message, t("Solved! Well played."), "success");
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
      can: t("This position can still be solved."),
      cannot: t("This position cannot be solved."),
      unknown: t("Can this position still be solved? Unknown: not decided in the time allowed."),
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
      const li = make("li");
      li.dataset.kind = n.kind;
      if (n.verdict) li.dataset.verdict = n.verdict;
      li.append(n.text);
      if (n.detail) li.append(" ", whyDisclosure(n.detail));
      return li;
    }));
  }

  function whyDisclosure(text) {
    const details = make("details", { className: "why" });
    details.append(make("summary", { textContent: t("Why?") }), make("p", { textContent: text }));
    return details;
  }

  function updateCoords() {
    el.coordsLabel.hidden = !document.querySelector(".board .coords");
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

  // The host's own words in the Details list, and the statistics solvers commonly report; any
  // other name a plugin reports is shown as it names it, marked as English (lang="en").
  N_("solver"); N_("seconds"); N_("answer"); N_("task");
  N_("nodes"); N_("positions"); N_("moves"); N_("bound"); N_("lower bound"); N_("heuristic");
  N_("rounds"); N_("table"); N_("symmetries"); N_("elapsed"); N_("expanded"); N_("depth");
  // The engine's own details of an answer with a proven bound (engine/solving.py).
  N_("shortest at least"); N_("longer than shortest at most");

  // The host's own controls: a plugin tool with the same name would be a second, different one.
  const HOST_CONTROLS = new Set(["undo", "redo", "hint", "random", "solve", "apply"]);

  function renderTools(tools) {
    const nodes = tools.filter((tool) => !HOST_CONTROLS.has(String(tool.label).trim().toLowerCase())).map((tool) => {
      if (tool.choices && tool.choices.length) {
        const label = make("label", { className: "tool-choice" });
        const select = make("select");
        select.append(new Option(t("choose…"), ""), ...tool.choices.map((c) => new Option(c.label, c.action)));
        select.addEventListener("change", () => { if (select.value) sendAction(select.value); });
        label.append(tool.label + " ", select);
        return label;
      }
      const button = make("button", { type: "button", textContent: tool.label });
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
      const button = make("button", { type: "button", textContent: task.label });
      button.dataset.task = task.name;
      button.dataset.refusal = task.refusal || "";
      if (task.description) button.title = task.description;
      if (task.refusal) {
        const note = make("li", { id: "task-note-" + task.name,
          textContent: t("{task}: not on this board. {reason}", { task: task.label, reason: sentence(task.refusal) }) });
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

  // Everything that replaces the instance (edits, presets, typed text, undo, random boards) runs
  // one after another: each applies to the instance (and selection) the previous one left, so a
  // quick click after choosing a preset, or "pick a peg, then where it lands", never races.
  // While any of them is queued or running the board is marked aria-busy, so assistive
  // technology (and a test) knows the board shown is about to change.
  let stateQueue = Promise.resolve();
  let pendingChanges = 0;
  function inTurn(task) {
    pendingChanges += 1;
    el.board.setAttribute("aria-busy", "true");
    const result = stateQueue.then(task, task);
    stateQueue = result.catch(() => {}).then(() => {
      pendingChanges -= 1;
      if (!pendingChanges) el.board.removeAttribute("aria-busy");
    });
    return result;
  }
  function sendAction(action) {
    return inTurn(() => applyAction(action));
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

  function loadInstance(text, push = true) {
    return inTurn(() => validateAndShow(text, push));
  }

  async function validateAndShow(text, push) {
    const result = await call("POST", api + "/validate", { instance: text });
    if (!result.ok) {
      showTextError(result.body);
      return false;
    }
    show(result.body, { push });
    return true;
  }

  function showTextError(body) {  // null: the text is valid
    el.textError.textContent = body ? errorText(body) : "";
    if (body) el.text.setAttribute("aria-invalid", "true");
    else el.text.removeAttribute("aria-invalid");
  }

  // Validate as you type (debounced); Apply (or Ctrl+Enter) loads valid text onto the board.
  let validateTimer = null;
  let validateSeq = 0;
  el.text.addEventListener("input", () => {
    clearTimeout(validateTimer);
    validateTimer = setTimeout(async () => {
      const seq = ++validateSeq;
      const result = await call("POST", api + "/validate", { instance: el.text.value });
      if (seq === validateSeq) showTextError(result.ok ? null : result.body);
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
  el.random.addEventListener("click", () => inTurn(showRandomBoard));
  async function showRandomBoard() {
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
      say(el.message, t("A new random board, seed {seed}.", { seed: useSeed }), "info");
      return;
    }
  }

  function undo() {
    if (historyIndex > 0) { historyIndex -= 1; loadInstance(edits[historyIndex], false); }
  }
  function redo() {
    if (historyIndex < edits.length - 1) { historyIndex += 1; loadInstance(edits[historyIndex], false); }
  }
  el.undo.addEventListener("click", undo);
  el.redo.addEventListener("click", redo);

  function updateLinks() {
    el.share.href = pageUrl(false);
    const address = pageUrl(true) + (player.solution() ? "#step=" + player.step() : "");
    if (location.pathname + location.search + location.hash !== address) {
      window.history.replaceState(null, "", address);
    }
    // The language picker opens this same board (and step) in the other language.
    document.querySelectorAll("nav.languages a[data-lang]").forEach((a) => {
      const url = new URL(address, location.href);
      url.searchParams.set("lang", a.dataset.lang);
      a.href = url.pathname + url.search + url.hash;
    });
  }
  el.copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(el.share.href);
      say(el.message, t("Link copied."), "success");
    } catch (err) {
      say(el.message, t("Copy failed; use the Share link."), "warning");
    }
  });

  // The Share dialog lives in share.js, fetched on the first press (most visits never share).
  const shareButton = $("share-open");
  shareButton.addEventListener("click", () => {
    if (window.PuzzleShare) return;
    const script = Object.assign(document.createElement("script"), { src: shareButton.dataset.script });
    script.onload = () => window.PuzzleShare.open();
    document.head.append(script);
  }, { once: true });

  // -- hints

  const HINT_SECONDS = 2;

  el.hint.addEventListener("click", async () => {
    const instance = current.instance;
    setView("edit");  // the hint is drawn on the board being played
    el.hint.disabled = true;
    say(el.message, t("Looking for a hint…"), "info");
    try {
      const submitted = await call("POST", api + "/jobs", { instance, time_limit: HINT_SECONDS });
      if (!submitted.ok) { say(el.message, t("No hint: {reason}", { reason: errorText(submitted.body) }), "warning"); return; }
      const job = await wait(submitted.body, 150, (HINT_SECONDS + 1.5) * 1000);
      if (current.instance !== instance) return;  // the board changed meanwhile
      if (job && !job.done) call("POST", "/api/jobs/" + encodeURIComponent(job.id) + "/cancel");
      const { status, result: r = {} } = job && job.done ? job : {};
      if (status === "solved" && r.moves && r.moves.length) {
        const shown = await call("POST", api + "/validate", { instance, next_move: r.moves[0] });
        if (!shown.ok || current.instance !== instance) return;
        show(Object.assign(shown.body, { selection: current.selection }), { keepText: true });
        say(el.message, tn("Hint: {move} ({count} move to go)", "Hint: {move} ({count} moves to go)",
          r.moves.length, { move: shown.body.hint.words }), "success");
      } else if (status === "solved") {
        say(el.message, t("Already solved."), "success");
      } else if (status === "unsolvable") {
        say(el.message, t("No hint: {reason}", { reason: sentence(r.reason || t("this position cannot be solved")) }), "warning");
      } else {
        say(el.message, t("No hint found in time."), "warning");
      }
    } finally {
      el.hint.disabled = false;
    }
  });

  // -- solving as a job

  let job = null;
  let watcher = null;

  function follow(state, own) {
    // Solves and tasks: one job at a time, followed until it is done (Cancel follows anew).
    if (watcher) watcher.stop();
    watcher = watch(state, 250, (polled, body) => {
      if (polled) onJob(Object.assign(polled, own));
      else { setSolving(false); setStatus(t("Lost the job: {reason}", { reason: errorText(body) }), "error"); }
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
    if (typeof v === "string" && /^\d{4,}$/.test(v)) return num(v);
    return typeof v === "number" ? (Number.isInteger(v) ? num(v) : v.toFixed(2)) : String(v);
  }

  function statCell(v) {
    // A value that is an id (a solver's name such as "optimal", a table's "6-6-3") is shown as
    // code: it is typed on the command line as it is, not a word to translate.
    if (typeof v === "string" && /^[a-z][a-z0-9]*([_-][a-z0-9]+)*$/.test(v)) {
      const dd = make("dd");
      dd.append(make("code", { textContent: v }));
      return dd;
    }
    return make("dd", { textContent: statValue(v) });
  }

  // The names of the last answer's stats and details in the page's language, from the plugin's
  // catalogue (the report's "labels", keyed by the machine name).
  let labels = {};

  function nameOf(key) {
    const words = key.replace(/_/g, " ");
    return labels[key] || t(words);
  }

  function statName(key) {
    const dt = make("dt", { textContent: nameOf(key) });
    if (!labels[key] && !has(key.replace(/_/g, " "))) dt.lang = "en";  // a plugin's own name, untranslated
    return dt;
  }

  function showStats(stats, extra) {
    const rows = Object.entries(Object.assign({}, extra || {}, stats || {}))
      .filter(([, v]) => v !== null && v !== undefined && typeof v !== "object");
    el.stats.replaceChildren(...rows.flatMap(([k, v]) => [
      statName(k), statCell(v),
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

  // Solves and tasks run on what the box says (typed text is applied first; if it is invalid,
  // nothing runs), as a job with progress and Cancel.
  async function textApplied() {
    await stateQueue;  // an edit still on its way lands first: the solve is of what it leaves
    if (el.text.value === current.instance || (await loadInstance(el.text.value))) return true;
    setStatus(t("Fix the instance text first: {error}", { error: el.textError.textContent }), "error");
    el.text.focus();
    return false;
  }

  async function submit(path, data, label) {
    setSolving(true);
    el.tryFast.hidden = true;
    el.progress.value = 0;
    el.progress.removeAttribute("value");  // indeterminate until the job runs
    setStatus(label ? t("{task}: submitting…", { task: label }) : t("Submitting…"), "info");
    showStats(null);
    const submitted = current.instance;
    const result = await call("POST", api + path, Object.assign({ instance: submitted }, data));
    if (result.ok) return follow(result.body, { submittedFor: submitted, label });
    // Refused: the server is busy (503, try again later) or the request is bad.
    setSolving(false);
    el.progress.value = 0;
    const retry = result.status === 503 && result.headers.get("Retry-After");
    if (result.status === 503) {
      const reason = errorText(result.body);
      setStatus(retry ? tn("The server is busy. {reason} Try again in {count} second.",
        "The server is busy. {reason} Try again in {count} seconds.", Number(retry), { reason })
        : t("The server is busy. {reason}", { reason }), "warning");
    } else {
      const error = errorText(result.body);
      setStatus(label ? t("{task}: {error}", { task: label, error }) : t("Cannot solve: {error}", { error }), "error");
    }
  }

  async function solve() {
    if (!(await textApplied())) return;
    clearSolution();
    submit("/jobs", { solver: el.solver.value, time_limit: el.timeLimit.value });
  }
  el.solve.addEventListener("click", solve);

  async function runTask(task) {
    if (!(await textApplied())) return;
    const fresh = (current.tasks || []).find((t) => t.name === task.name);
    if (!fresh || fresh.refusal) return;  // the new text's board is refused: its note says why
    submit("/tasks/" + encodeURIComponent(task.name), {}, task.label);
  }
  function withCode(target, text) {
    // ``text`` into ``target``, its `backquoted` commands set as code, not prose; on a page in
    // another language than English, the solvers' names too (ids such as "optimal" in a
    // Chinese sentence; in English they read as words).
    const s = String(text || "");
    target.replaceChildren();
    const english = /^en\b/i.test(document.documentElement.lang || "en");
    const names = english ? [] : puzzle.solvers.map((x) => x.name.replace(/[^\w-]/g, "")).filter(Boolean);
    const pattern = new RegExp("`([^`]+)`" + (names.length ? "|\\b(" + names.join("|") + ")\\b" : ""), "g");
    let at = 0;
    for (const match of s.matchAll(pattern)) {
      if (match.index > at) target.append(s.slice(at, match.index));
      const code = document.createElement("code");
      code.textContent = match[1] || match[2];
      target.append(code);
      at = match.index + match[0].length;
    }
    if (at < s.length) target.append(s.slice(at));
  }

  function showSolverDescription() {
    // What the chosen solver does, beside its menu (the options' titles are a tooltip only).
    const chosen = puzzle.solvers.find((s) => s.name === el.solver.value);
    withCode(el.solverDescription, chosen ? chosen.description || "" : "");
    el.solverDescription.hidden = !el.solverDescription.textContent;
  }
  el.solver.addEventListener("change", showSolverDescription);
  showSolverDescription();

  el.tryFast.addEventListener("click", () => {
    const fast = fastSolver();
    if (fast) { el.solver.value = fast.name; showSolverDescription(); solve(); }
  });

  el.cancel.addEventListener("click", async () => {
    if (!job) return;
    setStatus(t("Cancelling…"), "info");
    const result = await call("POST", "/api/jobs/" + encodeURIComponent(job.id) + "/cancel");
    if (result.ok) follow(result.body, { submittedFor: job.submittedFor, label: job.label });
  });

  function showNote(r) {
    // What would help this answer (a table to build, and how long), in the solver's words.
    const note = r && ((r.details && r.details.note) || (r.stats && r.stats.note));
    withCode(el.solveNote, typeof note === "string" && note ? t("What would help: {note}", { note: sentence(note) }) : "");
    el.solveNote.hidden = !el.solveNote.textContent;
  }

  function onJob(state) {
    job = state;
    showNote(state.done ? state.result : null);
    if (!state.done) {
      if (state.status === "queued") {
        const position = state.queue_position ? num(state.queue_position) : null;
        const waiting = state.kind === "task"
          ? (position ? t("Waiting for a free worker (number {position} in line)…", { position }) : t("Waiting for a free worker…"))
          : (position ? t("Waiting for a free solver (number {position} in line)…", { position }) : t("Waiting for a free solver…"));
        setStatus(waiting, "info");
      } else {
        const p = state.progress || {};
        const said = typeof p.message === "string" && p.message ? sentence(p.message) : "";
        const withSaid = (status) => said ? t("{status} {more}", { status, more: said }) : status;
        if (typeof p.done === "number" && typeof p.total === "number" && p.total > 0) {
          // A measurable phase (building tables, levels counted), in the job's own words.
          const phase = p.phase ? sentence(p.phase).slice(0, -1) : t("Working");
          setStatus(withSaid(t("{phase} ({percent}%)…", { phase, percent: Math.floor(100 * p.done / p.total) })), "info");
          el.progress.max = p.total;
          el.progress.value = Math.min(p.done, p.total);
        } else {
          const limit = Number(state.time_limit);
          const elapsed = num(Math.floor(state.elapsed));
          setStatus(withSaid(state.kind === "task"
            ? tn("{task}… {elapsed} of {count} second.", "{task}… {elapsed} of {count} seconds.", limit,
              { task: state.label || t("Working"), elapsed })
            : tn("Solving… {elapsed} of {count} second.", "Solving… {elapsed} of {count} seconds.", limit, { elapsed })), "info");
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
    labels = r.labels || {};
    const task = state.kind === "task" && (state.label || state.task);
    const changed = state.submittedFor !== undefined && state.submittedFor !== current.instance;
    if (task) showStats(state.status === "finished" ? r.data : (r.stats || state.progress), { task, seconds: r.seconds });
    else showStats(r.stats || state.progress, { solver: state.solver, seconds: r.seconds,
      "answer": state.from_store ? t("found earlier and kept") : t("found now") });
    if (state.status === "finished") {
      const summary = sentence(r.summary);
      setStatus(changed ? t("{task}: {summary} (For the board before your last change.)", { task, summary })
        : t("{task}: {summary}", { task, summary }), "success");
    } else if (state.status === "solved") {
      const n = r.moves.length;
      setStatus(n === 0 ? t("Already solved: no moves needed.") : puzzle.solved_sentence ||
        (r.optimal ? tn("Solved: {count} move, the fewest possible.", "Solved: {count} moves, the fewest possible.", n)
          : tn("Solved: {count} move.", "Solved: {count} moves.", n)), "success");
      if (!changed) {
        setSolution({ moves: r.moves, details: r.details || {}, labels: r.labels, solver: state.solver, solved: true, job: state.stored_id || state.id }, 0);
        if (n > 0) {
          setView("solution");
          revealBoard();
          el.next.focus({ preventScroll: true });
        }
      } else {
        el.status.textContent = t("{status} The instance has changed since; solve again to see it.",
          { status: el.status.textContent });
      }
    } else if (state.status === "unsolvable") {
      const reason = sentence(r.reason || t("this instance has no solution"));
      // Lead with one plain sentence; the puzzle's own may already start with "No".
      setStatus(/^no\b/i.test(reason) ? reason : t("No solution. {reason}", { reason }), "warning", r.reason_detail);
      hiddenNotes = new Set([core(reason), core(r.reason_detail)].filter(Boolean));
      renderNotes();
    } else if (state.status === "gave_up") {
      const limit = Number(state.time_limit);
      const why = r.reason === "deadline" || !r.reason ? (task
        ? tn("it did not finish within the time limit ({count} second)", "it did not finish within the time limit ({count} seconds)", limit)
        : tn("no solution was found within the time limit ({count} second)", "no solution was found within the time limit ({count} seconds)", limit))
        : r.reason;
      const reason = sentence(state.message || why);
      setStatus(task ? t("{task} stopped: {reason}", { task, reason }) : t("Gave up: {reason}", { reason }), "warning");
      el.tryFast.hidden = !!task || !fastSolver();
    } else if (state.status === "cancelled") {
      setStatus(task ? t("{task}: cancelled.", { task }) : t("Cancelled."), "info");
    } else {
      const reason = sentence(state.message || t("no reason given"));
      setStatus(task ? t("{task} failed: {reason}", { task, reason }) : t("The solver failed: {reason}", { reason }), "error");
    }
    // The button that started the job (or Cancel) was disabled under the keyboard's focus while
    // it ran: give focus back to the way forward rather than leave it on the page body.
    const active = document.activeElement;
    if ((task || view !== "solution") && (!active || active === document.body || active.disabled)) {
      const again = task && el.taskTools.querySelector('[data-task="' + state.task + '"]');
      (again && !again.disabled ? again : el.tryFast.hidden ? el.solve : el.tryFast).focus({ preventScroll: true });
    }
  }

  // -- one board: editing or replaying

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

  // -- playback (playback.js)

  const player = window.PuzzlePlayback.create({
    nodes: Object.assign({}, el, { board: el.pbBoard }),  // it takes only the nodes it names
    boardName: BOARD_NAME,
    // A job's solution is drawn by job id: short URLs however long the solution is.
    stepUrl: (sol, n) => sol.job ? "/api/jobs/" + encodeURIComponent(sol.job) + "/render.svg?step=" + n
      : api + "/render.svg?" + movesQuery(sol.moves) + "&step=" + n,
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
    if (sol.labels) labels = sol.labels;
    el.movesPanel.hidden = false;
    el.viewSwitch.hidden = false;
    el.details.replaceChildren();
    Object.entries(sol.details || {}).forEach(([key, value]) => {
      if (key === "note") return;  // shown under the answer (showNote)
      const dt = statName(key);
      const dd = make("dd");
      if (Array.isArray(value) && value.length && value.every((v) => v && typeof v === "object" && !Array.isArray(v))) {
        // A list of records (e.g. one per placed piece): one line each.
        dd.append(make("ul"));
        dd.firstChild.append(...value.map((item) => make("li", { textContent: describe(item) })));
      } else {
        dd.textContent = describe(value);
      }
      el.details.append(dt, dd);
    });
    el.solutionDetails.hidden = !el.details.childElementCount;
    el.download.href = api + "/animation.svg?" + movesQuery(sol.moves) + "&download=1";
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
      return Object.entries(value).map(([k, v]) => t("{name}: {value}", { name: nameOf(k), value: describe(v) }))
        .join(" · ");
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

  // -- keyboard

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
    const to = { ArrowLeft: player.step() - 1, ArrowRight: player.step() + 1, Home: 0, End: solution.moves.length }[event.key];
    if (to === undefined && event.key !== " ") return;
    event.preventDefault();
    if (to === undefined) player.toggle();
    else { player.stop(); player.goTo(to); }
  });

  // -- start

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
    el.share.href = pageUrl(false);
  } else {
    show(current);
  }
  setSolving(false);
  if (page.solution && !page.error) {
    if (page.solution.solver) {
      for (const option of el.solver.options) if (option.value === page.solution.solver) el.solver.value = option.value;
      showSolverDescription();
    }
    setSolution(page.solution, stepFromHash(initialHash) || 0);
    setView("solution");
    const n = page.solution.moves.length;
    setStatus(page.solution.solved ? tn("Showing a solution of {count} move.", "Showing a solution of {count} moves.", n)
      : tn("Showing {count} move (it does not reach the goal).", "Showing {count} moves (they do not reach the goal).", n),
    page.solution.solved ? "info" : "warning");
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
