/* The editor's Share dialog: the link to this step, the embed snippet, image links and
 * animated downloads, each with a Copy button. Loaded on the first press of Share (the editor
 * page does not carry it otherwise). It reads what to share from the page's address, which
 * the editor keeps up to date (instance, moves or job, #step=N), so it needs no editor state.
 * A modal <dialog>: focus stays inside (Tab wraps), Esc closes, focus returns to Share.
 */
(function () {
  "use strict";

  const { t, num } = window.PuzzleI18n;
  const opener = document.getElementById("share-open");
  let dialog = null;

  function make(tag, props, children) {
    const node = Object.assign(document.createElement(tag), props || {});
    (children || []).forEach((c) => node.append(c));
    return node;
  }

  // What the address shows: the puzzle, its source query (instance + moves, or job) and step.
  function current() {
    const puzzle = location.pathname.replace(/^\/+/, "").split("/")[0];
    const params = new URLSearchParams(location.search);
    const source = new URLSearchParams();
    ["instance", "moves", "job"].forEach((k) => { if (params.get(k)) source.set(k, params.get(k)); });
    const match = /^#step=(\d+)$/.exec(location.hash);
    return { puzzle, source, moves: params.get("moves"), job: params.get("job"), step: match ? Number(match[1]) : null };
  }

  function query(source, extra) {
    const q = new URLSearchParams(source);
    Object.entries(extra || {}).forEach(([k, v]) => { if (v !== null && v !== undefined) q.set(k, String(v)); });
    return q.toString().replace(/\+/g, "%20");
  }

  const status = make("p", { className: "share-status", role: "status" });

  async function copy(text, copied) {
    try {
      await navigator.clipboard.writeText(text);
      status.textContent = copied;
    } catch (err) {
      status.textContent = t("Copy failed: select the text and copy it yourself.");
    }
  }

  let fieldCount = 0;
  // options: {copy: the Copy button's name, copied: said once copied, multiline, open}.
  function field(label, value, options) {
    fieldCount += 1;
    const id = "share-field-" + fieldCount;
    const box = options && options.multiline ? make("textarea", { id, rows: 4, readOnly: true, value })
      : make("input", { id, type: "text", readOnly: true, value });
    box.spellcheck = false;
    box.addEventListener("focus", () => box.select());
    const button = make("button", { type: "button", textContent: t("Copy") });
    button.setAttribute("aria-label", options.copy);
    button.addEventListener("click", () => copy(box.value, options.copied));
    const row = make("div", { className: "share-row" }, [make("label", { htmlFor: id, textContent: label }), box, button]);
    if (options && options.open) {
      row.append(make("a", { href: value, textContent: options.open, target: "_blank", rel: "noopener" }));
    }
    return row;
  }

  function download(format, href, name) {
    // format: GIF, WebP or SVG, a name that is the same in every language.
    const row = make("div", { className: "share-row" });
    const link = make("a", { href, textContent: format });
    link.setAttribute("download", name);
    const button = make("button", { type: "button", textContent: t("Copy") });
    button.setAttribute("aria-label", t("Copy the {format} link", { format }));
    button.addEventListener("click", () => copy(new URL(href, location.href).href, t("{format} link copied.", { format })));
    row.append(link, button);
    return row;
  }

  async function fill(body) {
    const now = current();
    const origin = location.origin;
    const api = origin + "/api/" + encodeURIComponent(now.puzzle);
    const step = now.step;
    body.replaceChildren(make("p", { textContent: t("Preparing…") }));
    let snippet = "";
    try {
      const answer = await fetch("/oembed?format=json&url=" + encodeURIComponent(location.href));
      snippet = answer.ok ? (await answer.json()).html : "";
    } catch (err) { snippet = ""; }
    const showing = step !== null && (now.moves || now.job) ? t("Showing step {step}.", { step: num(step) }) : t("Showing the start.");
    const parts = [
      field(t("Link to this step"), location.href, { copy: t("Copy the link to this step"), copied: t("Link copied.") }),
    ];
    if (snippet) parts.push(field(t("Embed code"), snippet, { multiline: true, copy: t("Copy the embed code"), copied: t("Embed code copied.") }));
    parts.push(
      field(t("PNG image"), api + "/render.png?" + query(now.source, { step, size: 600 }),
        { open: t("Open PNG"), copy: t("Copy the PNG image link"), copied: t("PNG image link copied.") }),
      field(t("SVG image"), now.job && !now.moves
        ? origin + "/api/jobs/" + encodeURIComponent(now.job) + "/render.svg?" + query({}, { step })
        : api + "/render.svg?" + query(now.source, { step }),
      { open: t("Open SVG"), copy: t("Copy the SVG image link"), copied: t("SVG image link copied.") }));
    body.replaceChildren(make("p", { className: "share-note", textContent: showing }), ...parts);
    if (now.moves || now.job) {
      // A job's solution (job=stored-N) has GIF and WebP; the animated SVG takes the moves.
      const source = query(now.source, { download: 1 });
      const links = [
        download("GIF", api + "/animation.gif?" + source, now.puzzle + "-solution.gif"),
        download("WebP", api + "/animation.webp?" + source, now.puzzle + "-solution.webp"),
      ];
      if (now.moves) links.push(download("SVG", api + "/animation.svg?" + source, now.puzzle + "-solution.svg"));
      body.append(make("h3", { textContent: t("Animated solution") }), make("div", { className: "share-downloads" }, links));
    }
  }

  function trap(event) {
    if (event.key !== "Tab") return;
    const focusable = Array.from(dialog.querySelectorAll("button, a[href], input, textarea"))
      .filter((n) => !n.disabled && n.getClientRects().length);
    if (!focusable.length) return;
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (event.shiftKey && document.activeElement === first) { event.preventDefault(); last.focus(); }
    else if (!event.shiftKey && document.activeElement === last) { event.preventDefault(); first.focus(); }
  }

  function build() {
    const body = make("div", { className: "share-body" });
    const close = make("button", { type: "button", className: "share-close", textContent: t("Close") });
    dialog = make("dialog", { id: "share-dialog", className: "share-dialog" }, [
      make("div", { className: "share-head" }, [make("h2", { id: "share-title", textContent: t("Share") }), close]),
      body, status,
    ]);
    dialog.setAttribute("aria-labelledby", "share-title");
    dialog.addEventListener("keydown", trap);
    close.addEventListener("click", () => dialog.close());
    dialog.addEventListener("click", (event) => { if (event.target === dialog) dialog.close(); });  // the backdrop
    dialog.addEventListener("close", () => opener.focus());
    dialog.body = body;
    document.body.append(dialog);
  }

  async function open() {
    if (!dialog) build();
    status.textContent = "";
    dialog.showModal();
    await fill(dialog.body);
    const first = dialog.querySelector("input, textarea");
    if (first && dialog.open) first.focus();
  }

  opener.addEventListener("click", open);
  window.PuzzleShare = { open };
})();
