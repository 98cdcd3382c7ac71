/* Animated board swaps for any puzzle (FLIP over two server-rendered SVGs).
 *
 * Renderers mark every movable part with data-key="what it is" (tile-5, peg-d4, piece-L1).
 * swap() replaces a board's SVG and, for each key found in both the old and the new SVG:
 * moved -> slides from its old place (First, Last, Invert, Play); same place but a different
 * look (a light switched) -> a quick flip. Keys only in the new SVG fade in; keys only in the
 * old one fade out on top of the new board. Nothing here knows a puzzle.
 */
(function () {
  "use strict";

  const motion = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;
  // Classes that mark cues, not what a part is: changing them is not a "flip".
  const CUES = new Set(["last-move", "next-move", "selected", "moving"]);

  function keyed(svg) {
    const map = new Map();
    svg.querySelectorAll("[data-key]").forEach((node) => {
      const key = node.getAttribute("data-key");
      if (!map.has(key)) map.set(key, node);
    });
    return map;
  }

  function look(node) {
    const names = (node.getAttribute("class") || "").split(/\s+/).filter((c) => c && !CUES.has(c));
    return names.sort().join(" ");
  }

  function centre(node) {
    const r = node.getBoundingClientRect();
    return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
  }

  function shown(container) {
    return !container.hidden && container.getClientRects().length > 0;
  }

  /** Whether swaps animate at all (no motion for people who asked for none). */
  function enabled() {
    return !(motion && motion.matches) && typeof Element.prototype.animate === "function";
  }

  function slide(node, dx, dy, duration) {
    // A CSS transform would replace a transform="..." attribute (tangram pieces have one), so
    // such a part is wrapped in a group for the length of the tween.
    let target = node;
    if (node.hasAttribute("transform")) {
      target = document.createElementNS("http://www.w3.org/2000/svg", "g");
      target.setAttribute("class", "flip-wrap");
      node.replaceWith(target);
      target.append(node);
    }
    const anim = target.animate(
      [{ transform: "translate(" + dx + "px," + dy + "px)" }, { transform: "translate(0px,0px)" }],
      { duration, easing: "cubic-bezier(.3,.7,.4,1)" });
    if (target !== node) {
      const unwrap = () => { if (target.parentNode) target.replaceWith(node); };
      anim.onfinish = unwrap;
      anim.oncancel = unwrap;
    }
  }

  function fadeOut(oldNode, screenCtm, newSvg, duration) {
    // The vanished part is drawn once more, where it was, and faded out over the new board.
    const ghost = oldNode.cloneNode(true);
    ghost.removeAttribute("data-key");
    ghost.querySelectorAll("[data-key],[data-action]").forEach((n) => {
      n.removeAttribute("data-key");
      n.removeAttribute("data-action");
    });
    ghost.removeAttribute("data-action");
    ghost.removeAttribute("id");
    ghost.setAttribute("aria-hidden", "true");
    ghost.setAttribute("pointer-events", "none");
    ghost.classList.add("flip-ghost");
    const m = newSvg.getScreenCTM().inverse().multiply(screenCtm);
    ghost.setAttribute("transform", "matrix(" + [m.a, m.b, m.c, m.d, m.e, m.f].join(" ") + ")");
    newSvg.append(ghost);
    const anim = ghost.animate([{ opacity: 1 }, { opacity: 0 }], { duration, easing: "ease-in", fill: "forwards" });
    anim.onfinish = () => ghost.remove();
    anim.oncancel = () => ghost.remove();
  }

  /**
   * data-key-also: other keys a part answers to, mapped to its own data-key. A peg that just
   * jumped keeps its origin's key (so it glides) and also answers to the hole it landed on, so
   * the next jump of the same peg (keyed by that hole) finds it again.
   */
  function aliases(svg) {
    const map = new Map();
    svg.querySelectorAll("[data-key-also]").forEach((node) => {
      node.getAttribute("data-key-also").split(/\s+/).forEach((also) => {
        if (also && !map.has(also)) map.set(also, node.getAttribute("data-key"));
      });
    });
    return map;
  }

  /**
   * Put svgText into container, tweening keyed parts from the SVG shown before.
   * duration: milliseconds (0 = no animation). Returns the number of animated parts.
   */
  function swap(container, svgText, duration) {
    const oldSvg = container.querySelector("svg");
    const animate = duration >= 40 && enabled() && oldSvg && shown(container);
    const before = new Map();
    if (animate) {
      keyed(oldSvg).forEach((node, key) => {
        before.set(key, { node, at: centre(node), ctm: node.getScreenCTM(), look: look(node) });
      });
    }
    const beforeAlso = animate ? aliases(oldSvg) : new Map();
    container.innerHTML = svgText;
    const newSvg = container.querySelector("svg");
    if (!animate || !before.size || !newSvg) return 0;
    let count = 0;
    const after = keyed(newSvg);
    const used = new Set();  // old keys matched through an alias: moved, not vanished
    after.forEach((node, key) => {
      let oldKey = before.has(key) ? key : beforeAlso.get(key);
      if (oldKey !== key && after.has(oldKey)) oldKey = undefined;  // that part is still there
      if (!before.has(oldKey)) {
        const also = (node.getAttribute("data-key-also") || "").split(/\s+/);
        oldKey = also.find((k) => before.has(k) && !after.has(k));
      }
      const old = before.get(oldKey);
      if (old) used.add(oldKey);
      if (!old) {
        node.animate([{ opacity: 0 }, { opacity: 1 }], { duration, easing: "ease-out" });
        count += 1;
        return;
      }
      const now = centre(node);
      const dx = old.at.x - now.x;
      const dy = old.at.y - now.y;
      if (Math.abs(dx) >= 0.5 || Math.abs(dy) >= 0.5) {
        // Screen pixels to the user units of the part's parent (its coordinate system).
        const inv = node.parentNode.getScreenCTM().inverse();
        slide(node, inv.a * dx + inv.c * dy, inv.b * dx + inv.d * dy, duration);
        count += 1;
      } else if (look(node) !== old.look && !node.hasAttribute("transform")) {
        node.style.transformBox = "fill-box";
        node.style.transformOrigin = "center";
        node.animate([{ transform: "scaleX(0.15)" }, { transform: "scaleX(1)" }], { duration, easing: "ease-out" });
        count += 1;
      }
    });
    before.forEach((old, key) => {
      if (!after.has(key) && !used.has(key)) {
        fadeOut(old.node, old.ctm, newSvg, duration);
        count += 1;
      }
    });
    return count;
  }

  window.PuzzleBoards = Object.assign(window.PuzzleBoards || {}, { swap, animationsEnabled: enabled });
})();
