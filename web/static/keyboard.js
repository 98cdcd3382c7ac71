/* One tab stop per board, with roving focus over its actionable parts (any puzzle).
 *
 * Renderers mark actionable parts with data-action, aria-label ("d4, peg") and, on grids,
 * data-row / data-col. decorate() makes such a board a named group whose parts are buttons,
 * exactly one of them in the tab order; arrow keys move between parts in board order (by
 * row / column, else by the centres of their boxes). The part that had focus is remembered by
 * its data-key or data-action, so after the board is redrawn focus returns to the same cell.
 */
(function () {
  "use strict";

  const ACTION = "[data-action]";
  const { t } = window.PuzzleI18n;

  function parts(container) {
    return Array.from(container.querySelectorAll("svg " + ACTION));
  }

  function identity(node) {
    return {
      key: node.getAttribute("data-key"),
      action: node.getAttribute("data-action"),
      index: parts(node.closest(".board") || document).indexOf(node),
    };
  }

  function find(container, id) {
    const all = parts(container);
    if (!id) return null;
    const by = (attr, value) => value !== null && all.find((n) => n.getAttribute(attr) === value);
    return by("data-key", id.key) || by("data-action", id.action) || all[Math.min(id.index, all.length - 1)] || null;
  }

  function fallbackName(node) {
    // Better than the raw action: the part's own visible text or title, and its place.
    const title = node.querySelector("title");
    const text = (title ? title.textContent : node.textContent || "").trim();
    const action = (node.getAttribute("data-action") || "").replace(/[:_-]+/g, " ").trim();
    const name = text || action;
    if (!node.hasAttribute("data-row")) return name;
    const place = t("row {row}, column {column}", {
      row: Number(node.getAttribute("data-row")) + 1, column: Number(node.getAttribute("data-col")) + 1 });
    return name ? t("{name}, {place}", { name, place }) : place;
  }

  function partName(node) {
    // A renderer's aria-label says the part's whole state in the page's language, selection
    // included ("d4，棋子，已选中"): it is kept as it is. A name the editor makes itself says
    // "selected" in the page's words when the part has the class. Which name is whose is
    // kept in data-made-name, never read from the words, so a second decorate() of the same
    // board never says it twice and no language is tested for.
    const made = node.getAttribute("data-made-name");
    if (made === null && node.getAttribute("aria-label")) return node.getAttribute("aria-label");
    const name = made !== null ? made : fallbackName(node);
    node.setAttribute("data-made-name", name);
    return node.classList.contains("selected") ? t("{name}, selected", { name }) : name;
  }

  /** Make the board in container navigable; name: the board's accessible name.
   *  interactive=false: a picture (a playback step), whatever data-action it carries. */
  function decorate(container, name, interactive = true) {
    const svg = container.querySelector("svg");
    const all = interactive ? parts(container) : [];
    if (!svg) return;
    if (!all.length) {
      // A picture, not a control: keep (or give) it the image role with its title as name.
      // Its parts' own names would be names on plain groups inside an image (not allowed).
      svg.setAttribute("role", "img");
      svg.querySelectorAll("[aria-label]").forEach((n) => n.removeAttribute("aria-label"));
      if (!svg.getAttribute("aria-label")) svg.setAttribute("aria-label", name);
      return;
    }
    // No interactive content inside role=img: an actionable board is a named group.
    svg.setAttribute("role", "group");
    svg.setAttribute("aria-label", name);
    svg.removeAttribute("aria-hidden");
    all.forEach((node) => {
      node.setAttribute("role", "button");
      node.setAttribute("tabindex", "-1");
      node.setAttribute("aria-label", partName(node));
    });
    const current = find(container, container._rovingId) || all[0];
    current.setAttribute("tabindex", "0");
  }

  function moveFocus(container, to) {
    parts(container).forEach((n) => n.setAttribute("tabindex", n === to ? "0" : "-1"));
    container._rovingId = identity(to);
    to.focus();
  }

  function gridNext(all, from, key) {
    const row = Number(from.getAttribute("data-row"));
    const col = Number(from.getAttribute("data-col"));
    const dr = key === "ArrowUp" ? -1 : key === "ArrowDown" ? 1 : 0;
    const dc = key === "ArrowLeft" ? -1 : key === "ArrowRight" ? 1 : 0;
    let best = null;
    let bestCost = Infinity;
    all.forEach((n) => {
      if (n === from || !n.hasAttribute("data-row")) return;
      const r = Number(n.getAttribute("data-row")) - row;
      const c = Number(n.getAttribute("data-col")) - col;
      const along = dr ? r * dr : c * dc;
      const across = Math.abs(dr ? c : r);
      if (along <= 0) return;
      const cost = along + 3 * across;  // the nearest in that direction, preferring its line
      if (cost < bestCost) { best = n; bestCost = cost; }
    });
    return best;
  }

  function geometricNext(all, from, key) {
    const centre = (n) => { const r = n.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; };
    const [x0, y0] = centre(from);
    const [ux, uy] = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] }[key];
    let best = null;
    let bestCost = Infinity;
    all.forEach((n) => {
      if (n === from) return;
      const [x, y] = centre(n);
      const along = (x - x0) * ux + (y - y0) * uy;
      const across = Math.abs((x - x0) * uy - (y - y0) * ux);
      if (along < 1) return;
      const cost = along + 2 * across;
      if (cost < bestCost) { best = n; bestCost = cost; }
    });
    return best;
  }

  function onKey(event, container) {
    const from = event.target.closest && event.target.closest(ACTION);
    if (!from || !container.contains(from)) return;
    const all = parts(container);
    let to = null;
    if (event.key === "Home") to = all[0];
    else if (event.key === "End") to = all[all.length - 1];
    else if (event.key.startsWith("Arrow")) {
      to = from.hasAttribute("data-row") ? gridNext(all, from, event.key) : null;
      to = to || geometricNext(all, from, event.key);
    } else return;
    event.preventDefault();
    if (to) moveFocus(container, to);
  }

  /** Wire a board container once: arrow keys, and remembering the focused part. */
  function attach(container) {
    container.addEventListener("keydown", (event) => onKey(event, container));
    container.addEventListener("focusin", (event) => {
      const part = event.target.closest && event.target.closest(ACTION);
      if (part && container.contains(part)) {
        container._rovingId = identity(part);
        parts(container).forEach((n) => n.setAttribute("tabindex", n === part ? "0" : "-1"));
      }
    });
  }

  /** Focus the remembered part again (after the board was redrawn). */
  function restoreFocus(container) {
    const node = find(container, container._rovingId);
    if (node) moveFocus(container, node);
  }

  window.PuzzleBoards = Object.assign(window.PuzzleBoards || {}, { decorate, attach, restoreFocus });
})();
