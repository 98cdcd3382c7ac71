/* Tangram composer: drag pieces (mouse, pen or touch), turn and flip them from the keyboard,
 * and draw a silhouette by clicking points.
 *
 * The server stays the only judge: a drag ends in one ordinary edit action,
 * "drop:NAME rR fF @ x,y" (where vertex 0 of the piece was let go, in puzzle units), and the
 * server snaps it to an exact position and draws the board again. A click while drawing sends
 * "draw:x,y". Keys: R / Shift+R turn the selected piece, F flips it, Delete puts it back in the
 * tray; while drawing, Backspace undoes a point and Escape stops.
 *
 * It needs from the host only window.PuzzleEditor = {board, sendAction(action),
 * getSelection(), onChange(fn)} and tool buttons marked data-tool-action (to enable
 * "Use as silhouette" only when the board says data-can-use="true").
 */
(function () {
  "use strict";
  const ed = window.PuzzleEditor;
  if (!ed || !ed.board) return;
  // The plugin's own words in the page's language (client.py puts tr() before this script).
  const tr = window.TangramWords || ((message) => message);
  const board = ed.board;
  const DRAG_START_PX = 4;       // a press that moves less than this is a click
  let drag = null;               // the piece being dragged
  let swallowClick = false;      // the click that ends a drag is not a click on the piece

  function svgRoot() {
    const svg = board.querySelector("svg.tangram-board");
    return svg && svg.getScreenCTM ? svg : null;
  }

  function view() {
    const svg = svgRoot();
    return svg ? svg.getAttribute("data-view") : null;
  }

  function toSvg(svg, evt) {
    const pt = svg.createSVGPoint();
    pt.x = evt.clientX;
    pt.y = evt.clientY;
    return pt.matrixTransform(svg.getScreenCTM().inverse());
  }

  function num(v) {                // decimal text the server reads (it snaps to exact numbers)
    return (Math.round(v * 10000) / 10000).toString();
  }

  // -- dragging a piece --------------------------------------------------------------------------

  board.addEventListener("pointerdown", (evt) => {
    if (evt.button !== 0 || view() !== "compose") return;
    const piece = evt.target.closest && evt.target.closest("g[data-key][data-place]");
    if (!piece || !board.contains(piece)) return;
    const svg = svgRoot();
    const poly = piece.querySelector("polygon");
    if (!svg || !poly) return;
    const first = poly.points.getItem(0);
    drag = {
      id: evt.pointerId, svg, piece, poly,
      place: piece.getAttribute("data-place"),
      scale: Number(piece.getAttribute("data-scale")) || 1,
      grab: toSvg(svg, evt), x0: evt.clientX, y0: evt.clientY,
      v0: { x: first.x, y: first.y }, started: false, last: null,
    };
  });

  function follow(evt) {
    if (!drag || evt.pointerId !== drag.id) return;
    if (!drag.started) {
      if (Math.hypot(evt.clientX - drag.x0, evt.clientY - drag.y0) < DRAG_START_PX) return;
      drag.started = true;
      try { drag.svg.setPointerCapture(drag.id); } catch (err) { /* already released */ }
      // A copy moves on top of the other pieces; the original stays where it is in the DOM
      // (moving the node a finger touches makes the browser cancel the touch).
      drag.copy = drag.piece.cloneNode(true);
      drag.copy.removeAttribute("data-key");
      drag.copy.removeAttribute("data-action");
      drag.copy.removeAttribute("aria-label");
      drag.copy.classList.add("dragging");
      drag.copy.setAttribute("aria-hidden", "true");
      drag.poly = drag.copy.querySelector("polygon");
      drag.piece.style.visibility = "hidden";
      drag.svg.appendChild(drag.copy);
    }
    evt.preventDefault();
    const p = toSvg(drag.svg, evt);
    drag.last = p;
    // a tray piece grows to its real size around the point where it was grabbed
    const k = 1 / drag.scale;
    drag.poly.setAttribute("transform",
      "translate(" + p.x + " " + p.y + ") scale(" + k + ") translate(" + (-drag.grab.x) + " " + (-drag.grab.y) + ")");
  }

  function finish(evt) {
    if (!drag || evt.pointerId !== drag.id) return;
    const d = drag;
    drag = null;
    if (!d.started) return;        // a plain click: the host sends the part's data-action
    swallowClick = true;
    setTimeout(() => { swallowClick = false; }, 0);
    const p = d.last || toSvg(d.svg, evt);
    const k = 1 / d.scale;
    const vx = p.x + k * (d.v0.x - d.grab.x);
    const vy = p.y + k * (d.v0.y - d.grab.y);
    // The keyed original takes the dropped place (so the host's tween starts from there).
    const original = d.piece.querySelector("polygon");
    original.setAttribute("transform", d.poly.getAttribute("transform"));
    d.piece.style.visibility = "";
    d.copy.remove();
    const sent = ed.sendAction("drop:" + d.place + " @ " + num(vx) + "," + num(-vy));  // SVG y points down
    Promise.resolve(sent).finally(() => {
      // a refused drop leaves the old board in place: put the piece back where it was
      if (original.isConnected) original.removeAttribute("transform");
    });
  }

  function cancel(evt) {
    if (!drag || evt.pointerId !== drag.id) return;
    if (drag.copy) drag.copy.remove();
    drag.piece.style.visibility = "";
    drag = null;
  }

  window.addEventListener("pointermove", follow, { passive: false });
  window.addEventListener("pointerup", finish);
  window.addEventListener("pointercancel", cancel);
  window.addEventListener("click", (evt) => {
    if (swallowClick) { evt.stopPropagation(); evt.preventDefault(); swallowClick = false; }
  }, true);
  board.addEventListener("dragstart", (evt) => evt.preventDefault());

  // -- drawing a silhouette ----------------------------------------------------------------------

  let preview = null;

  function lastPoint(svg) {
    const pts = svg.querySelectorAll(".sketch circle");
    if (!pts.length) return null;
    // the first point is drawn last (bigger ring): the latest point is the one before it
    const node = pts.length > 1 ? pts[pts.length - 2] : pts[0];
    return { x: Number(node.getAttribute("cx")), y: Number(node.getAttribute("cy")) };
  }

  function lengthText(k, diagonal) {   // k halves, or k halves of r2
    if (!diagonal) return k % 2 === 0 ? String(k / 2) : k + "/2";
    if (k === 1) return "\u221a2/2";
    if (k % 2 === 0) return (k === 2 ? "" : String(k / 2)) + "\u221a2";
    return k + "\u221a2/2";
  }

  function snapPreview(from, to) {
    // The server's rule (sketch.py): 45-degree directions, steps of 1/2 or r2/2, a grid point
    // preferred when nearly as near. Only a preview: the server decides.
    const dx = to.x - from.x, dy = to.y - from.y;
    const a = Math.round(Math.atan2(dy, dx) / (Math.PI / 4)) * Math.PI / 4;
    const along = Math.hypot(dx, dy) * Math.cos(Math.atan2(dy, dx) - a);
    const onGrid = (v) => Math.abs(v * 2 - Math.round(v * 2)) < 1e-6;
    let best = null;
    [false, true].forEach((r2) => {
      const unit = r2 ? Math.SQRT2 / 2 : 0.5;
      [Math.floor(along / unit), Math.ceil(along / unit)].forEach((k) => {
        if (k <= 0) return;
        const p = { x: from.x + k * unit * Math.cos(a), y: from.y + k * unit * Math.sin(a) };
        const d = Math.hypot(p.x - to.x, p.y - to.y) - (onGrid(p.x) && onGrid(p.y) ? 0.06 : 0);
        if (!best || d < best.d) best = { d, x: p.x, y: p.y, text: lengthText(k, r2) };
      });
    });
    return best;
  }

  board.addEventListener("pointermove", (evt) => {
    if (view() !== "draw") return;
    const svg = svgRoot();
    const from = svg && lastPoint(svg);
    if (!from) return;
    const to = snapPreview(from, toSvg(svg, evt));
    if (!to) return;
    const ns = "http://www.w3.org/2000/svg";
    if (!preview || !svg.contains(preview.line)) {
      preview = { line: document.createElementNS(ns, "line"), label: document.createElementNS(ns, "text") };
      preview.line.setAttribute("class", "draw-preview");
      preview.label.setAttribute("class", "draw-preview-length");
      svg.append(preview.line, preview.label);
    }
    preview.line.setAttribute("x1", from.x);
    preview.line.setAttribute("y1", from.y);
    preview.line.setAttribute("x2", to.x);
    preview.line.setAttribute("y2", to.y);
    preview.label.setAttribute("x", to.x + 0.2);
    preview.label.setAttribute("y", to.y - 0.2);
    preview.label.textContent = to.text;
  });

  board.addEventListener("pointerup", (evt) => {
    if (evt.button !== 0 || view() !== "draw") return;
    if (evt.target.closest && evt.target.closest("[data-action]")) return;  // a board button
    const svg = svgRoot();
    const p = toSvg(svg, evt);
    ed.sendAction("draw:" + num(p.x) + "," + num(-p.y));
  });

  // -- keys --------------------------------------------------------------------------------------

  document.addEventListener("keydown", (evt) => {
    const t = evt.target;
    const tag = t && t.tagName;
    if (tag === "TEXTAREA" || tag === "SELECT" || (t && t.isContentEditable) ||
        (tag === "INPUT" && !["range", "radio", "checkbox", "button"].includes(t.type))) return;
    if (evt.ctrlKey || evt.metaKey || evt.altKey) return;
    const v = view();
    if (v === "draw") {
      if (evt.key === "Escape") { evt.preventDefault(); ed.sendAction("draw-cancel"); }
      else if (evt.key === "Backspace") { evt.preventDefault(); ed.sendAction("draw-undo"); }
      return;
    }
    if (v !== "compose" || !ed.getSelection()) return;
    const key = evt.key.toLowerCase();
    let action = null;
    if (key === "r") action = evt.shiftKey ? "rotate:-1" : "rotate";
    else if (key === "f") action = "flip";
    else if (evt.key === "Delete" || evt.key === "Backspace") action = "remove";
    if (!action) return;
    evt.preventDefault();
    ed.sendAction(action);
  });

  // -- "Use as silhouette" only when the board says it can be used -------------------------------

  function syncTools() {
    const svg = svgRoot();
    const usable = !!svg && svg.getAttribute("data-can-use") === "true";
    // the host marks tool buttons with data-tool-action; if it does not, find the button by name
    let buttons = Array.from(document.querySelectorAll('[data-tool-action="use"]'));
    if (!buttons.length) {
      buttons = Array.from(document.querySelectorAll("button"))
        .filter((b) => b.textContent.trim() === tr("Use as silhouette"));
    }
    buttons.forEach((button) => {
      button.disabled = !usable;
      button.title = usable ? tr("Make the composition the figure to cover") :
        tr("Place all seven pieces without overlaps first");
    });
  }

  if (ed.onChange) ed.onChange(syncTools);
  syncTools();
})();
