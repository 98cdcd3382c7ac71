/* The embed player (/embed/<puzzle>): the editor's playback (playback.js, animate.js,
 * keyboard.js, jobs.js) on a lean page. Without this script the page still works: the step
 * buttons are plain links to the same URL with another ?step=. With it they step in place.
 */
(function () {
  "use strict";

  const data = JSON.parse(document.getElementById("embed-data").textContent);
  const J = window.PuzzleJobs;
  const { t } = window.PuzzleI18n;
  const $ = (id) => document.getElementById(id);
  const api = "/api/" + encodeURIComponent(data.puzzle);
  const reduced = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  const boardName = t("{puzzle} board", { puzzle: data.title });
  const board = $("board");
  const extra = Object.entries(data.query).filter(([k]) => k !== "id" && k !== "bg" && k !== "controls" && k !== "list")
    .map(([k, v]) => "&" + k + "=" + encodeURIComponent(v)).join("");

  function movesParam(moves) {
    return moves.some((m) => m.includes(",") || m.trim() !== m) ? JSON.stringify(moves) : moves.join(",");
  }
  function sourceQuery(sol) {
    return sol.job ? "job=" + encodeURIComponent(sol.job)
      : "instance=" + encodeURIComponent(data.instance) + (sol.moves.length ? "&moves=" + encodeURIComponent(movesParam(sol.moves)) : "");
  }
  function pageQuery(sol, n) {
    const keep = Object.entries(data.query).map(([k, v]) => "&" + k + "=" + encodeURIComponent(v)).join("");
    return sourceQuery(sol) + keep + "&step=" + n;
  }

  // -- height messages: the host page (or /embed.js) sizes the frame to fit

  function naturalHeight() {
    // The board at its full width, not squeezed into the frame's current height.
    const svg = board.querySelector("svg");
    const doc = document.documentElement.scrollHeight;
    if (!svg) return doc;
    const box = svg.viewBox && svg.viewBox.baseVal;
    const width = Math.min(board.clientWidth, 1200);
    if (!box || !box.width) return doc;
    return Math.ceil(doc - svg.getBoundingClientRect().height + width * box.height / box.width);
  }
  let lastHeight = 0;
  function postHeight() {
    const height = naturalHeight();
    if (height === lastHeight || window.parent === window) return;
    lastHeight = height;
    window.parent.postMessage({ type: "puzzle-embed-height", id: data.id, height }, "*");
  }
  if (window.ResizeObserver) new ResizeObserver(postHeight).observe(document.body);
  window.addEventListener("resize", postHeight);
  window.addEventListener("load", postHeight);

  const main = $("player");
  const editorLink = $("editor-link");
  function setEditorLink(sol, n) {
    editorLink.href = "/" + encodeURIComponent(data.puzzle) + "?" + sourceQuery(sol) + (sol.moves.length ? "#step=" + n : "");
  }

  if (!data.moves.length) {
    // No moves: the puzzle, and a button that asks for the default solver's answer (from the
    // result store when it is known, else a job under the server's usual limits).
    B().decorate(board, boardName, false);
    const button = $("show-solution");
    if (button) {
      button.hidden = false;
      button.addEventListener("click", async () => {
        button.disabled = true;
        const status = $("step-status");
        status.textContent = t("Looking for a solution…");
        const answer = await J.call("POST", api + "/jobs", { instance: data.instance });
        if (!answer.ok) { status.textContent = J.errorText(answer.body); button.disabled = false; return; }
        J.watch(answer.body, 500, (job, body) => {
          if (!job) { status.textContent = J.errorText(body); button.disabled = false; return; }
          if (!job.done) { status.textContent = t("Solving…"); return; }
          const moves = job.result && job.result.moves;
          if (job.status !== "solved" || !Array.isArray(moves)) {
            status.textContent = J.sentence((job.result && job.result.reason) || job.error || t("No solution: the job is {status}", { status: job.status }));
            button.disabled = false;
            return;
          }
          location.replace(location.pathname + "?" + pageQuery({ moves, job: job.id.startsWith("stored-") ? job.id : null }, 0) + "#step=0");
        });
      });
    }
    postHeight();
    return;
  }

  // -- playback

  const steps = ["first", "prev", "next", "last"];
  const nodes = {
    board, slider: $("step-slider"), stepLabel: $("step-label"), stepStatus: $("step-status"),
    first: $("first-step"), prev: $("prev-step"), play: $("play"), next: $("next-step"), last: $("last-step"),
    speed: $("speed"), moveList: $("move-list"),
  };
  steps.forEach((name) => nodes[name].addEventListener("click", (event) => event.preventDefault()));
  nodes.play.hidden = false;
  nodes.slider.hidden = false;
  document.querySelector(".speed").hidden = false;

  const solution = { moves: data.moves, job: data.job, details: {}, solver: null };
  const player = window.PuzzlePlayback.create({
    nodes,
    boardName,
    stepUrl: (sol, n) => (sol.job ? "/api/jobs/" + encodeURIComponent(sol.job) + "/render.svg?step=" + n
      : api + "/render.svg?" + sourceQuery(sol) + "&step=" + n) + extra.replace(/&(autoplay|step)=[^&]*/g, ""),
    describe: async (sol, first, count) => {
      const query = "from=" + first + "&count=" + count;
      // The embeds of one page share their visitor's few editor requests at a time: a 429
      // (Retry-After) means another frame's words are being worked out, so wait and ask again.
      for (let attempt = 0; ; attempt++) {
        const result = sol.job ? await J.call("GET", "/api/jobs/" + encodeURIComponent(sol.job) + "/describe?" + query)
          : await J.call("POST", api + "/describe?" + query, { instance: data.instance, moves: sol.moves });
        if (result.status !== 429 || attempt >= 5) return result.ok ? result.body : null;
        const after = Math.min(5, Number(result.headers && result.headers.get("Retry-After")) || 1);
        await new Promise((done) => setTimeout(done, after * 1000 * (0.5 + Math.random())));
      }
    },
    animate: () => true,
    onActivate: () => {},
    onStep: (n) => {
      const total = solution.moves.length;
      const to = { first: 0, prev: n - 1, next: n + 1, last: total };
      steps.forEach((name) => {
        const node = nodes[name];
        const off = name === "first" || name === "prev" ? n === 0 : n === total;
        if (off) { node.removeAttribute("href"); node.setAttribute("aria-disabled", "true"); }
        else { node.href = location.pathname + "?" + pageQuery(solution, to[name]); node.removeAttribute("aria-disabled"); }
      });
      setEditorLink(solution, n);
      const hash = "#step=" + n;
      if (location.hash !== hash) history.replaceState(null, "", location.pathname + location.search + hash);
    },
    onDrawn: postHeight,
  });

  function stepFromHash() {
    const match = /^#step=(\d+)$/.exec(location.hash);
    return match ? Number(match[1]) : null;
  }
  const hashStep = stepFromHash();
  player.load(solution, hashStep !== null ? hashStep : data.step);
  window.addEventListener("hashchange", () => {
    const n = stepFromHash();
    if (n !== null && n !== player.step()) { player.stop(); player.goTo(n); }
  });

  // ←/→/Home/End step and Space plays, anywhere in the player but the controls' own keys.
  document.addEventListener("keydown", (event) => {
    const target = event.target;
    const tag = target.tagName;
    if (event.ctrlKey || event.metaKey || event.altKey || tag === "SELECT" || tag === "INPUT") return;
    if ((tag === "BUTTON" || tag === "A") && (event.key === " " || event.key === "Enter")) return;
    const to = { ArrowLeft: player.step() - 1, ArrowRight: player.step() + 1, Home: 0, End: solution.moves.length }[event.key];
    if (to === undefined && event.key !== " ") return;
    event.preventDefault();
    if (to === undefined) player.toggle();
    else { player.stop(); player.goTo(to); }
  });
  main.addEventListener("click", (event) => {
    // Clicking the board gives the player focus, so the arrow keys work at once.
    if (event.target.closest && event.target.closest(".board")) main.focus({ preventScroll: true });
  });

  // Autoplay stops at the end (the player does) and never runs for people who asked for no motion.
  if (data.autoplay && !reduced && player.step() < solution.moves.length) player.toggle();
  postHeight();

  function B() { return window.PuzzleBoards; }
})();
