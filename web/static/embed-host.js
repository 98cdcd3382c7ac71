/* /embed.js: optional, for pages that embed puzzle players. Each player posts
 * {type: "puzzle-embed-height", id, height} to its parent; this sets the height of the iframe
 * that sent it (found by its window, and only if the message comes from the iframe's own
 * origin). Without this script the iframes keep the fixed height of their snippet.
 */
(function () {
  "use strict";
  if (window.__puzzleEmbedHost) return;  // loaded twice: one listener is enough
  window.__puzzleEmbedHost = true;
  window.addEventListener("message", function (event) {
    const data = event.data;
    if (!data || data.type !== "puzzle-embed-height" || typeof data.height !== "number") return;
    const height = Math.round(data.height);
    if (!(height > 0 && height < 20000)) return;
    const frames = document.getElementsByTagName("iframe");
    for (let i = 0; i < frames.length; i += 1) {
      const frame = frames[i];
      if (frame.contentWindow !== event.source) continue;
      let origin = "";
      try { origin = new URL(frame.src, location.href).origin; } catch (err) { return; }
      if (origin !== event.origin) return;
      frame.style.height = height + "px";
      frame.setAttribute("data-puzzle-embed-height", String(height));
      return;
    }
  });
})();
