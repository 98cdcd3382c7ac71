/* The one generic editor for every puzzle.
 *
 * It knows nothing about any puzzle: the server renders the board as SVG, marks clickable parts
 * with data-action, and the puzzle's edit operation (POST /api/<id>/edit) says what a click does.
 * Solving runs as a job (POST /api/<id>/jobs, then poll); playback shows server-rendered SVG per
 * step (GET /api/<id>/render.svg). A puzzle may add its own script; it gets window.PuzzleEditor.
 */
(function () {
  "use strict";

  const page = JSON.parse(document.getElementById("page-data").textContent);
  const initialHash = location.hash;  // read before the address bar is rewritten below
  const puzzle = page.puzzle;
  const api = "/api/" + encodeURIComponent(puzzle.id);
  const $ = (id) => document.getElementById(id);

  const el = {
    board: $("board"), message: $("edit-message"), notes: $("notes"), tools: $("tools"),
    undo: $("undo"), redo: $("redo"), preset: $("preset"), seed: $("seed"), random: $("random"),
    text: $("instance-text"), textError: $("instance-error"), apply: $("apply"),
    share: $("share-link"), copy: $("copy-link"), solver: $("solver"), timeLimit: $("time-limit"),
    solve: $("solve"), cancel: $("cancel"), progress: $("progress"), stats: $("solve-stats"),
    status: $("solve-status"), playback: $("playback"), pbBoard: $("playback-board"),
    first: $("first-step"), prev: $("prev-step"), play: $("play"), next: $("next-step"),
    last: $("last-step"), speed: $("speed"), slider: $("step-slider"), stepLabel: $("step-label"),
    stepStatus: $("step-status"), download: $("download-svg"), stepLink: $("step-link"),
    details: $("details"), moveList: $("move-list"),
  };

  // -- small helpers ---------------------------------------------------------------------------

  function errorText(body) {
    if (!body || !body.error) return "Something went wrong.";
    return body.where ? body.where + ": " + body.error : body.error;
  }

  async function call(method, url, data) {
    const options = { method, headers: { Accept: "application/json" } };
    if (data !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(data);
    }
    let response;
    try {
      response = await fetch(url, options);
    } catch (err) {
      return { ok: false, status: 0, body: { error: "the server cannot be reached" } };
    }
    let body = null;
    try { body = await response.json(); } catch (err) { body = { error: "unexpected answer from the server" }; }
    return { ok: response.ok, status: response.status, body, headers: response.headers };
  }

  function selectedMode() {
    const checked = document.querySelector('input[name="mode"]:checked');
    return checked ? checked.value : null;
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

  let current = page.state;          // {instance, svg, notes, tools, selection, message, solved}
  const edits = [current.instance]; // undo/redo of instance texts
  let historyIndex = 0;
  const listeners = [];

  function show(state, { push = false, keepText = false } = {}) {
    const changed = state.instance !== current.instance;
    current = state;
    el.board.innerHTML = state.svg;
    el.board.dataset.solved = state.solved ? "true" : "false";
    decorateBoard();
    el.message.textContent = state.message || "";
    el.notes.replaceChildren(...(state.notes || []).map((n) => {
      const li = document.createElement("li");
      li.textContent = n;
      return li;
    }));
    renderTools(state.tools || []);
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
    if (changed) clearSolution();
    updateLinks();
    listeners.forEach((fn) => { try { fn(state); } catch (err) { console.error(err); } });
  }

  function fitText() {
    // Show a multi-line instance whole (within reason) instead of a scrolling sliver.
    el.text.rows = Math.max(3, Math.min(14, el.text.value.split("\n").length + 1));
  }

  function decorateBoard() {
    // Clickable parts become keyboard-reachable buttons too.
    el.board.querySelectorAll("[data-action]").forEach((node) => {
      node.setAttribute("tabindex", "0");
      node.setAttribute("role", "button");
      if (!node.getAttribute("aria-label")) node.setAttribute("aria-label", "Edit: " + node.getAttribute("data-action"));
    });
  }

  function renderTools(tools) {
    const nodes = tools.map((tool) => {
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

  // Edits run one after another: each applies to the instance (and selection) the previous one
  // left, so two quick clicks ("pick a peg, then where it lands") never race.
  let editQueue = Promise.resolve();
  function sendAction(action) {
    editQueue = editQueue.then(() => applyAction(action), () => applyAction(action));
    return editQueue;
  }

  async function applyAction(action) {
    const result = await call("POST", api + "/edit", {
      instance: current.instance, action, mode: selectedMode(), selection: current.selection,
    });
    if (!result.ok) {
      el.message.textContent = errorText(result.body);
      return;
    }
    show(result.body, { push: true });
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

  el.random.addEventListener("click", async () => {
    const params = new URLSearchParams({ seed: el.seed.value || "0" });
    document.querySelectorAll(".random-option").forEach((input) => {
      if (input.value) params.set(input.dataset.option, input.value);
    });
    const result = await call("GET", api + "/random?" + params);
    if (!result.ok) {
      el.message.textContent = errorText(result.body);
      return;
    }
    show(result.body, { push: true });
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
    const address = pageUrl(current.instance, true) + (solution ? "#step=" + step : "");
    if (location.pathname + location.search + location.hash !== address) {
      window.history.replaceState(null, "", address);
    }
  }
  el.copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(el.share.href);
      el.message.textContent = "Link copied.";
    } catch (err) {
      el.message.textContent = "Copy failed; use the Share link.";
    }
  });

  // -- solving as a job ------------------------------------------------------------------------

  let job = null;
  let pollTimer = null;

  function setSolving(active) {
    el.solve.disabled = active || !puzzle.solvers.length;
    el.cancel.disabled = !active;
  }

  function formatStats(stats) {
    return Object.entries(stats || {})
      .filter(([, v]) => v !== null && typeof v !== "object")
      .map(([k, v]) => k + " " + (typeof v === "number" ? (Number.isInteger(v) ? v.toLocaleString("en") : v.toFixed(2)) : v))
      .join(" · ");
  }

  el.solve.addEventListener("click", async () => {
    clearSolution();
    setSolving(true);
    el.progress.value = 0;
    el.progress.removeAttribute("value");  // indeterminate until the job runs
    el.status.textContent = "Submitting…";
    el.stats.textContent = "";
    const submitted = current.instance;
    const result = await call("POST", api + "/jobs", {
      instance: submitted, solver: el.solver.value, time_limit: el.timeLimit.value,
    });
    if (!result.ok) {
      setSolving(false);
      el.progress.value = 0;
      if (result.status === 503) {
        const wait = result.headers && result.headers.get("Retry-After");
        el.status.textContent = "The server is busy: " + errorText(result.body) + (wait ? " (retry in " + wait + " s)" : "");
      } else {
        el.status.textContent = "Cannot solve: " + errorText(result.body);
      }
      return;
    }
    job = result.body;
    job.submittedFor = submitted;
    onJob(job);
  });

  el.cancel.addEventListener("click", async () => {
    if (!job) return;
    el.status.textContent = "Cancelling…";
    const result = await call("POST", "/api/jobs/" + encodeURIComponent(job.id) + "/cancel");
    if (result.ok) onJob(Object.assign(result.body, { submittedFor: job.submittedFor }));
  });

  function onJob(state) {
    job = state;
    clearTimeout(pollTimer);
    if (!state.done) {
      if (state.status === "queued") {
        el.status.textContent = "Queued" + (state.queue_position ? " (position " + state.queue_position + ")" : "") + "…";
      } else {
        const p = state.progress || {};
        if (typeof p.done === "number" && typeof p.total === "number" && p.total > 0) {
          // A solver reporting a measurable phase (building tables): show how far that is.
          el.status.textContent = (p.phase ? p.phase.charAt(0).toUpperCase() + p.phase.slice(1) : "Working") +
            " (" + Math.floor(100 * p.done / p.total) + "%)…";
          el.progress.max = p.total;
          el.progress.value = Math.min(p.done, p.total);
        } else {
          // Otherwise the time used out of the time limit.
          el.status.textContent = "Solving…";
          el.progress.max = state.time_limit;
          el.progress.value = Math.min(state.elapsed, state.time_limit);
        }
      }
      el.stats.textContent = formatStats(state.progress);
      pollTimer = setTimeout(poll, 250);
      return;
    }
    setSolving(false);
    el.progress.max = 1;
    el.progress.value = 1;
    const r = state.result || {};
    el.stats.textContent = formatStats(r.stats || state.progress);
    const from = state.from_store ? " (answered from the store)" : "";  // for unsolvable
    if (state.status === "solved") {
      const n = r.moves.length;
      const took = Number(r.seconds).toFixed(2) + " s";
      el.status.textContent = "Solved: " + n + " move" + (n === 1 ? "" : "s") + (r.optimal ? " (optimal)" : "") +
        (state.from_store ? ", answered from the store (first found in " + took + ")." : " in " + took + ".");
      if (state.submittedFor === undefined || state.submittedFor === current.instance) {
        setSolution({ moves: r.moves, details: r.details || {}, solver: state.solver, solved: true, job: state.stored_id || state.id }, 0);
        el.playback.scrollIntoView({ behavior: "smooth", block: "nearest" });
      } else {
        el.status.textContent += " The instance has changed since; solve again to see it.";
      }
    } else if (state.status === "unsolvable") {
      el.status.textContent = "Unsolvable: " + r.reason + from;
    } else if (state.status === "gave_up") {
      el.status.textContent = "Gave up: " + (state.message || (r.reason === "deadline" ? "the time limit ran out" : r.reason)) +
        " after " + Number(state.elapsed).toFixed(1) + " s.";
    } else if (state.status === "cancelled") {
      el.status.textContent = "Cancelled" + (state.message ? ": " + state.message : "") + ".";
    } else {
      el.status.textContent = "Error: " + (state.message || "the solver failed");
    }
  }

  async function poll() {
    if (!job) return;
    const result = await call("GET", "/api/jobs/" + encodeURIComponent(job.id));
    if (!result.ok) {
      setSolving(false);
      el.status.textContent = "Lost the job: " + errorText(result.body);
      return;
    }
    onJob(Object.assign(result.body, { submittedFor: job.submittedFor }));
  }

  // -- playback --------------------------------------------------------------------------------

  let solution = null;  // {moves, details, solver}
  let step = 0;
  let playTimer = null;
  const icon = (d) => '<svg class="icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="' + d + '"/></svg>';
  const ICON_PLAY = icon("M7 4.5v15L19.5 12z");
  const ICON_PAUSE = icon("M6.5 5h4v14h-4zM13.5 5h4v14h-4z");
  const stepCache = new Map();
  let renderSeq = 0;

  function stepUrl(n) {
    // A job's solution is drawn by job id: short URLs however long the solution is.
    if (solution.job) return "/api/jobs/" + encodeURIComponent(solution.job) + "/render.svg?step=" + n;
    return api + "/render.svg?instance=" + encodeURIComponent(current.instance) +
      "&moves=" + encodeURIComponent(movesParam(solution.moves)) + "&step=" + n;
  }

  async function fetchStep(n) {
    const url = stepUrl(n);
    if (!stepCache.has(url)) {
      stepCache.set(url, fetch(url).then(async (response) => {
        if (!response.ok) {
          let why = "";
          try { why = errorText(await response.json()); } catch (err) { why = "the server answered " + response.status; }
          throw new Error("Step " + n + " cannot be drawn: " + why);
        }
        return { svg: await response.text(), solved: response.headers.get("X-Puzzle-Solved") === "true" };
      }));
    }
    try {
      return await stepCache.get(url);
    } catch (err) {
      stepCache.delete(url);
      throw err;
    }
  }

  // The move list shows at most MOVE_WINDOW moves: a solution of 80,000 moves as 80,000 buttons
  // made every step take seconds of layout. Longer lists show the part around the current step.
  const MOVE_WINDOW = 1000;
  let moveWindow = null;  // [first, end) indexes of the moves shown

  function moveItem(move, i) {
    const li = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = move;
    button.setAttribute("aria-label", "Move " + (i + 1) + ": " + move);
    button.addEventListener("click", () => goTo(i + 1));
    li.append(button);
    return li;
  }

  function showMovesAround(n) {
    const total = solution.moves.length;
    const index = Math.max(0, n - 1);
    if (moveWindow && index >= moveWindow[0] && index < moveWindow[1]) return;
    const first = total <= MOVE_WINDOW ? 0 : Math.max(0, Math.min(index - MOVE_WINDOW / 2, total - MOVE_WINDOW));
    const end = Math.min(total, first + MOVE_WINDOW);
    moveWindow = [first, end];
    el.moveList.start = first + 1;
    el.moveList.replaceChildren(...solution.moves.slice(first, end).map((move, i) => moveItem(move, first + i)));
  }

  function setSolution(sol, atStep) {
    solution = sol;
    stepCache.clear();
    el.playback.hidden = false;
    el.slider.max = String(sol.moves.length);
    moveWindow = null;
    showMovesAround(atStep || 0);
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
    el.download.href = api + "/animation.svg?instance=" + encodeURIComponent(current.instance) +
      "&moves=" + encodeURIComponent(movesParam(sol.moves)) + "&download=1";
    el.download.setAttribute("download", puzzle.id + "-solution.svg");
    goTo(Math.max(0, Math.min(atStep || 0, sol.moves.length)));
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
    stopPlaying();
    if (!solution) return;
    solution = null;
    el.playback.hidden = true;
    el.pbBoard.replaceChildren();
    updateLinks();
  }

  async function goTo(n) {
    if (!solution) return;
    step = Math.max(0, Math.min(n, solution.moves.length));
    const total = solution.moves.length;
    el.slider.value = String(step);
    el.stepLabel.textContent = step + " / " + total;
    el.first.disabled = el.prev.disabled = step === 0;
    el.next.disabled = el.last.disabled = step === total;
    // Touch only the old and the new current move: a solution may have 80,000 of them.
    el.moveList.querySelectorAll('[aria-current="step"]').forEach((b) => b.removeAttribute("aria-current"));
    showMovesAround(step);
    const item = step > 0 ? el.moveList.children[step - 1 - moveWindow[0]] : null;
    const button = item && item.querySelector("button");
    if (button) {
      button.setAttribute("aria-current", "step");
      button.scrollIntoView({ block: "nearest", inline: "nearest" });
    }
    updateLinks();
    el.stepLink.href = location.pathname + location.search + "#step=" + step;
    const seq = ++renderSeq;
    try {
      const drawn = await fetchStep(step);
      if (seq !== renderSeq) return;
      el.pbBoard.innerHTML = drawn.svg;
      el.pbBoard.dataset.step = String(step);
      el.pbBoard.dataset.solved = drawn.solved ? "true" : "false";
      el.stepStatus.textContent = step === 0 ? "Start position." :
        "After move " + step + " (" + solution.moves[step - 1] + ")" + (drawn.solved ? ": solved." : ".");
      if (step < total) fetchStep(step + 1).catch(() => {});
    } catch (err) {
      if (seq === renderSeq) el.stepStatus.textContent = String(err.message || err);
    }
  }

  function stopPlaying() {
    clearInterval(playTimer);
    playTimer = null;
    el.play.setAttribute("aria-label", "Play");
    el.play.innerHTML = ICON_PLAY;
  }

  function togglePlay() {
    if (!solution) return;
    if (playTimer) { stopPlaying(); return; }
    if (step >= solution.moves.length) goTo(0);
    el.play.setAttribute("aria-label", "Pause");
    el.play.innerHTML = ICON_PAUSE;
    playTimer = setInterval(() => {
      if (!solution || step >= solution.moves.length) { stopPlaying(); return; }
      goTo(step + 1);
    }, Number(el.speed.value));
  }

  el.first.addEventListener("click", () => { stopPlaying(); goTo(0); });
  el.prev.addEventListener("click", () => { stopPlaying(); goTo(step - 1); });
  el.next.addEventListener("click", () => { stopPlaying(); goTo(step + 1); });
  el.last.addEventListener("click", () => { stopPlaying(); goTo(solution.moves.length); });
  el.play.addEventListener("click", togglePlay);
  el.speed.addEventListener("change", () => { if (playTimer) { stopPlaying(); togglePlay(); } });
  el.slider.addEventListener("input", () => { stopPlaying(); goTo(Number(el.slider.value)); });

  function stepFromHash(hash = location.hash) {
    const match = /^#step=(\d+)$/.exec(hash);
    return match ? Number(match[1]) : null;
  }
  window.addEventListener("hashchange", () => {
    const n = stepFromHash();
    if (n !== null && solution && n !== step) goTo(n);
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
    if (typing || ctrl || event.altKey || !solution) return;
    if (tag === "INPUT") return;  // the slider and radio buttons handle their own keys
    if ((tag === "BUTTON" || tag === "A") && (event.key === " " || event.key === "Enter")) return;
    if (target.closest && target.closest("#board [data-action]")) return;
    switch (event.key) {
      case "ArrowLeft": event.preventDefault(); stopPlaying(); goTo(step - 1); break;
      case "ArrowRight": event.preventDefault(); stopPlaying(); goTo(step + 1); break;
      case "Home": event.preventDefault(); stopPlaying(); goTo(0); break;
      case "End": event.preventDefault(); stopPlaying(); goTo(solution.moves.length); break;
      case " ": event.preventDefault(); togglePlay(); break;
      default: break;
    }
  });

  // -- start -----------------------------------------------------------------------------------

  if (page.error) {
    fitText();
    showTextError(page.error);
    // Keep what was typed in the box so it can be fixed; the board shows a valid instance.
    current = page.state;
    decorateBoard();
    el.notes.replaceChildren(...(current.notes || []).map((n) => Object.assign(document.createElement("li"), { textContent: n })));
    renderTools(current.tools || []);
    el.share.href = pageUrl(current.instance, false);
  } else {
    show(page.state);
  }
  setSolving(false);
  if (page.solution && !page.error) {
    if (page.solution.solver) {
      for (const option of el.solver.options) if (option.value === page.solution.solver) el.solver.value = option.value;
    }
    setSolution(page.solution, stepFromHash(initialHash) || 0);
    el.status.textContent = page.solution.solved ? "Showing a solution of " + page.solution.moves.length + " moves." :
      "Showing " + page.solution.moves.length + " moves (they do not reach the goal).";
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
