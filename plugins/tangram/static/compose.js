/* Tangram composing editor: drag a draft piece to move it (optional; the tools do the same).
 * A drag ends in two ordinary edit actions, "select:NAME" then "move:dx,dy" (snapped to halves),
 * sent through the generic editor, so the server stays the only judge of the composition. */
(function () {
  "use strict";
  const ed = window.PuzzleEditor;
  if (!ed || !ed.board) return;
  let drag = null;

  function svgPoint(svg, evt) {
    const pt = svg.createSVGPoint();
    pt.x = evt.clientX;
    pt.y = evt.clientY;
    return pt.matrixTransform(svg.getScreenCTM().inverse());
  }

  function half(value) {               // exact text for a multiple of 1/2
    const n = Math.round(value * 2);
    return n % 2 === 0 ? String(n / 2) : n + "/2";
  }

  ed.board.addEventListener("pointerdown", (evt) => {
    const node = evt.target.closest ? evt.target.closest("polygon.draft[data-piece]") : null;
    if (!node || !node.ownerSVGElement) return;
    drag = { name: node.getAttribute("data-piece"), node, svg: node.ownerSVGElement,
             start: svgPoint(node.ownerSVGElement, evt), moved: false };
  });

  window.addEventListener("pointermove", (evt) => {
    if (!drag) return;
    const p = svgPoint(drag.svg, evt);
    const dx = p.x - drag.start.x, dy = p.y - drag.start.y;
    if (Math.abs(dx) + Math.abs(dy) > 0.1) drag.moved = true;
    drag.node.setAttribute("transform", "translate(" + dx + " " + dy + ")");
  });

  window.addEventListener("pointerup", async (evt) => {
    if (!drag) return;
    const d = drag;
    drag = null;
    if (!d.moved) return;               // a plain click: the generic editor selects the piece
    const p = svgPoint(d.svg, evt);
    const dx = Math.round((p.x - d.start.x) * 2) / 2;
    const dy = -Math.round((p.y - d.start.y) * 2) / 2;   // SVG's y axis points down
    if (ed.getSelection() !== d.name) await ed.sendAction("select:" + d.name);
    if (dx || dy) await ed.sendAction("move:" + half(dx) + "," + half(dy));
    else d.node.removeAttribute("transform");
  });
})();
