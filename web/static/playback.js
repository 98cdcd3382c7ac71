/* A move list played on one board from server-rendered steps (window.PuzzlePlayback.create).
 * It uses only the nodes and callbacks it is given, so any page can embed it. Needs
 * animate.js, keyboard.js and jobs.js.
 */
(function () {
  "use strict";

  const B = window.PuzzleBoards;
  const J = window.PuzzleJobs;
  const { t, tn, num } = window.PuzzleI18n;

  // o: {nodes: {board, slider, stepLabel, stepStatus, first, prev, play, next, last, speed,
  // moveList}, boardName, stepUrl(sol, n), describe(sol, from, count) -> {from, moves} or null,
  // animate() (glide now?), onActivate() (before playing), onStep(n), onDrawn(n)}.
  function create(o) {
    const nodes = o.nodes;
    let solution = null;  // {moves, details, solver, job}
    let step = 0;
    let shownStep = null;  // the step whose board is on screen
    let playTimer = null;
    const stepCache = new Map();
    let renderSeq = 0;

    async function fetchStep(n) {
      const url = o.stepUrl(solution, n);
      if (!stepCache.has(url)) {
        stepCache.set(url, fetch(url, { headers: { "Accept-Language": window.PuzzleI18n.lang } }).then(async (response) => {
          if (!response.ok) {
            let why = "";
            try { why = J.errorText(await response.json()); } catch (err) { why = t("the server answered {status}", { status: response.status }); }
            throw new Error(t("Step {step} cannot be drawn: {reason}", { step: num(n), reason: why }));
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

    // The move list shows at most MOVE_WINDOW moves (the server describes that many in one
    // request): a solution of 80,000 moves as 80,000 buttons made every step take seconds.
    const MOVE_WINDOW = 500;
    let moveWindow = null;  // [first, end) indexes of the moves shown
    let words = new Map();  // move index -> plain words

    function moveItem(move, i) {
      const li = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.addEventListener("click", () => { o.onActivate(); goTo(i + 1); });
      li.append(button);
      fillMoveItem(button, move, i);
      return li;
    }

    function fillMoveItem(button, move, i) {
      const said = words.get(i);
      const code = document.createElement("code");
      code.textContent = move;
      button.replaceChildren();
      if (said && said !== move) {
        button.append(Object.assign(document.createElement("span"), { className: "words", textContent: said }), " ", code);
      } else {
        button.append(code);
      }
      button.setAttribute("aria-label", said && said !== move
        ? t("Move {number}: {words} ({move})", { number: num(i + 1), words: said, move })
        : t("Move {number}: {move}", { number: num(i + 1), move }));
    }

    async function loadWords(first, end) {
      const sol = solution;
      const body = await o.describe(sol, first, end - first);
      if (!body || sol !== solution) return;
      body.moves.forEach((m, k) => words.set(body.from + k, m.words));
      if (moveWindow) {
        Array.from(nodes.moveList.children).forEach((li, k) => {
          const i = moveWindow[0] + k;
          if (i >= first && i < end) fillMoveItem(li.firstChild, sol.moves[i], i);
        });
      }
      announceStep(shownStep === step);
    }

    function showMovesAround(n) {
      const total = solution.moves.length;
      const index = Math.max(0, n - 1);
      if (moveWindow && index >= moveWindow[0] && index < moveWindow[1]) return;
      const first = total <= MOVE_WINDOW ? 0 : Math.max(0, Math.min(index - MOVE_WINDOW / 2, total - MOVE_WINDOW));
      const end = Math.min(total, first + MOVE_WINDOW);
      moveWindow = [first, end];
      nodes.moveList.start = first + 1;
      nodes.moveList.replaceChildren(...solution.moves.slice(first, end).map((move, i) => moveItem(move, first + i)));
      if (!words.has(first)) loadWords(first, end);
    }

    function load(sol, atStep) {
      solution = sol;
      stepCache.clear();
      words = new Map();
      shownStep = null;
      nodes.board.replaceChildren();
      nodes.slider.max = String(sol.moves.length);
      moveWindow = null;
      showMovesAround(atStep || 0);
      goTo(Math.max(0, Math.min(atStep || 0, sol.moves.length)));
    }

    function clear() {
      stop();
      solution = null;
      nodes.board.replaceChildren();
    }

    function announceStep(solvedKnown) {
      if (!solution) return;
      const total = solution.moves.length;
      let text;
      if (step === 0) text = tn("Start position: {count} move to go.", "Start position: {count} moves to go.", total);
      else {
        const move = J.sentence(words.get(step - 1) || solution.moves[step - 1]);
        const values = { step: num(step), total: num(total), move };
        text = solvedKnown && nodes.board.dataset.solved === "true"
          ? t("Move {step} of {total}: {move} Solved!", values) : t("Move {step} of {total}: {move}", values);
      }
      if (nodes.stepStatus.textContent !== text) nodes.stepStatus.textContent = text;
    }

    async function goTo(n) {
      if (!solution) return;
      step = Math.max(0, Math.min(n, solution.moves.length));
      const total = solution.moves.length;
      nodes.slider.value = String(step);
      nodes.stepLabel.textContent = num(step) + " / " + num(total);
      nodes.first.disabled = nodes.prev.disabled = step === 0;
      nodes.next.disabled = nodes.last.disabled = step === total;
      // Touch only the old and the new current move: a solution may have 80,000 of them.
      nodes.moveList.querySelectorAll('[aria-current="step"]').forEach((b) => b.removeAttribute("aria-current"));
      showMovesAround(step);
      const item = step > 0 ? nodes.moveList.children[step - 1 - moveWindow[0]] : null;
      const button = item && item.querySelector("button");
      if (button) {
        button.setAttribute("aria-current", "step");
        // Scroll the list only, never the page (the board must stay where it is).
        const list = nodes.moveList;
        const top = button.offsetTop - list.offsetTop;
        if (top < list.scrollTop || top + button.offsetHeight > list.scrollTop + list.clientHeight) {
          list.scrollTop = top - list.clientHeight / 2;
        }
      }
      o.onStep(step);
      const seq = ++renderSeq;
      try {
        const drawn = await fetchStep(step);
        if (seq !== renderSeq) return;
        // One step at a time glides (a share of the Speed setting); jumps are drawn at once.
        const glide = o.animate() && shownStep !== null && Math.abs(step - shownStep) === 1;
        B.swap(nodes.board, drawn.svg, glide ? Math.min(300, Number(nodes.speed.value) * 0.4) : 0);
        B.decorate(nodes.board, t("{board}, step {step} of {total}", { board: o.boardName, step: num(step), total: num(total) }), false);
        shownStep = step;
        nodes.board.dataset.step = String(step);
        nodes.board.dataset.solved = drawn.solved ? "true" : "false";
        announceStep(true);
        o.onDrawn(step);
        if (step < total) fetchStep(step + 1).catch(() => {});
      } catch (err) {
        if (seq === renderSeq) nodes.stepStatus.textContent = String(err.message || err);
      }
    }

    function stop() {
      clearInterval(playTimer);
      playTimer = null;
      nodes.play.setAttribute("aria-label", t("Play"));
      nodes.play.innerHTML = ICON_PLAY;
    }

    function toggle() {
      if (!solution) return;
      if (playTimer) { stop(); return; }
      o.onActivate();
      if (step >= solution.moves.length) goTo(0);
      nodes.play.setAttribute("aria-label", t("Pause"));
      nodes.play.innerHTML = ICON_PAUSE;
      playTimer = setInterval(() => {
        if (!solution || step >= solution.moves.length) { stop(); return; }
        goTo(step + 1);
      }, Number(nodes.speed.value));
    }

    const jump = (node, to) => node.addEventListener("click", () => { stop(); goTo(to()); });
    jump(nodes.first, () => 0);
    jump(nodes.prev, () => step - 1);
    jump(nodes.next, () => step + 1);
    jump(nodes.last, () => solution.moves.length);
    nodes.play.addEventListener("click", toggle);
    nodes.speed.addEventListener("change", () => { if (playTimer) { stop(); toggle(); } });
    nodes.slider.addEventListener("input", () => { stop(); goTo(Number(nodes.slider.value)); });

    return { load, clear, goTo, stop, toggle, step: () => step, solution: () => solution };
  }

  const icon = (d) => '<svg class="icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="' + d + '"/></svg>';
  const ICON_PLAY = icon("M7 4.5v15L19.5 12z");
  const ICON_PAUSE = icon("M6.5 5h4v14h-4zM13.5 5h4v14h-4z");

  window.PuzzlePlayback = { create };
})();
