/* Tangram: a figure from a picture. A "From a picture" button (a file chooser), dropping a
 * picture anywhere on the page, or pasting one (Ctrl+V) sends it to POST /api/<puzzle>/trace;
 * the answer's exact outline is drawn over the picture with the largest vertex move, and
 * Accept puts the figure text in the instance box (then solved as usual). An SVG drawing chosen
 * or dropped the same way is text the instance box reads itself: it goes there directly.
 *
 * It needs from the host only window.PuzzleEditor = {puzzle, setInstance(text)} and the page's
 * instance text box (#instance-text). The picture stays in the browser (a data: URL for the
 * preview) and the server does not keep it.
 */
(function () {
  "use strict";
  const ed = window.PuzzleEditor;
  // The plugin's own words in the page's language (client.py puts tr() before this script).
  const tr = window.TangramWords || ((message) => message);
  const box = document.getElementById("instance-text");
  if (!ed || !ed.puzzle || !box || !(ed.puzzle.picture_formats || []).length) return;
  const TYPES = ["image/png", "image/jpeg", "image/webp", "image/gif"];
  const MAX_BYTES = 5 * 1024 * 1024;
  const SVG_TYPE = "image/svg+xml";
  const MAX_TEXT = 50000;  // the instance box's limit (silhouette.MAX_TEXT)
  const isSvg = (file) => file.type === SVG_TYPE || (!file.type && /\.svg$/i.test(file.name || ""));
  const SVG = "http://www.w3.org/2000/svg";

  const style = document.createElement("style");
  style.textContent = [
    ".picture-tool { margin-top: 0.6rem; display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem; }",
    ".picture-tool .hint { color: var(--muted); font-size: 0.9rem; }",
    ".picture-preview { margin: 0.6rem 0 0; border: 1px solid var(--line); border-radius: 6px; padding: 0.5rem; }",
    "#picture-status:empty { min-height: 0; margin: 0; }",
    ".picture-preview svg { display: block; width: 100%; max-height: 22rem; background: #fff; }",
    // the picture is faded so the outline read from it stands out on a dark or a light figure
    ".picture-preview image { opacity: 0.45; }",
    ".picture-preview .halo { fill: none; stroke: #fff; stroke-linejoin: round; }",
    ".picture-preview .outline { fill: rgba(215, 38, 61, 0.12); stroke: #d7263d; stroke-linejoin: round; }",
    ".picture-preview .corner { fill: #d7263d; stroke: #fff; }",
    ".picture-preview .partial { fill: rgba(31, 111, 235, 0.28); stroke: #1f6feb; stroke-linejoin: round; }",
    ".picture-preview figcaption { margin: 0.4rem 0; }",
    "body.picture-dragging #board { outline: 3px dashed var(--accent); outline-offset: 4px; }",
  ].join("\n");
  document.head.appendChild(style);

  const tool = document.createElement("div");
  tool.className = "picture-tool";
  tool.innerHTML =
    '<button type="button" id="picture-button" aria-describedby="picture-hint"></button>' +
    '<input type="file" id="picture-file" accept="' + TYPES.concat([SVG_TYPE, ".svg"]).join(",") + '" hidden>' +
    '<small id="picture-hint" class="hint"></small>';
  // The words are set as text, never as HTML: a translation cannot add markup.
  tool.querySelector("#picture-button").textContent = tr("From a picture…");
  tool.querySelector("#picture-file").setAttribute("aria-label", tr("Picture of a figure"));
  tool.querySelector("#picture-hint").textContent =
    tr("PNG, JPEG, WebP or GIF up to 5 MB, or an SVG drawing; or drop one on the page, or paste a picture.");
  const status = document.createElement("p");
  status.id = "picture-status";
  status.className = "edit-message";
  status.setAttribute("role", "status");
  status.setAttribute("aria-live", "polite");
  const preview = document.createElement("figure");
  preview.id = "picture-preview";
  preview.className = "picture-preview";
  preview.hidden = true;
  preview.setAttribute("aria-labelledby", "picture-caption");
  preview.innerHTML =
    '<svg role="img" aria-labelledby="picture-caption" preserveAspectRatio="xMidYMid meet"></svg>' +
    '<figcaption id="picture-caption"></figcaption>' +
    '<button type="button" id="picture-accept" class="primary"></button> ' +
    '<button type="button" id="picture-discard"></button>';
  preview.querySelector("#picture-accept").textContent = tr("Accept");
  preview.querySelector("#picture-discard").textContent = tr("Discard");
  // Below the instance box's own row (Apply, Share), so Accept is not read as Apply's twin.
  const apply = document.getElementById("apply");
  const anchor = (apply && apply.closest(".row")) || document.getElementById("instance-error") || box;
  anchor.after(tool, status, preview);

  const button = tool.querySelector("#picture-button");
  const input = tool.querySelector("#picture-file");
  const svg = preview.querySelector("svg");
  const caption = preview.querySelector("figcaption");
  let answer = null;
  let asked = 0;  // the latest picture sent: an older answer arriving late is dropped

  function say(text, warn) {
    status.textContent = text;
    status.classList.toggle("error-text", !!warn);
  }

  function readAsDataUrl(file) {
    return new Promise((resolve, reject) => {
      const reader = new FileReader();
      reader.onload = () => resolve(reader.result);
      reader.onerror = () => reject(reader.error);
      reader.readAsDataURL(file);
    });
  }

  function draw(picture, result) {
    svg.textContent = "";
    svg.setAttribute("viewBox", "0 0 " + result.width + " " + result.height);
    const image = document.createElementNS(SVG, "image");
    image.setAttribute("href", picture);
    image.setAttribute("width", result.width);
    image.setAttribute("height", result.height);
    svg.appendChild(image);
    const line = Math.max(1.5, Math.max(result.width, result.height) / 160);
    const d = result.outline.map((ring) => "M" + ring.map((p) => p[0] + "," + p[1]).join("L") + "Z").join("");
    for (const [cls, width] of [["halo", line * 2.2], ["outline", line]]) {
      const path = document.createElementNS(SVG, "path");
      path.setAttribute("class", cls);
      path.setAttribute("fill-rule", "evenodd");
      path.setAttribute("stroke-width", width);
      path.setAttribute("d", d);
      svg.appendChild(path);
    }
    for (const ring of result.outline) {  // the exact corners, where the snapping shows
      for (const p of ring) {
        const dot = document.createElementNS(SVG, "circle");
        dot.setAttribute("class", "corner");
        dot.setAttribute("cx", p[0]);
        dot.setAttribute("cy", p[1]);
        dot.setAttribute("r", line * 1.6);
        dot.setAttribute("stroke-width", line * 0.6);
        svg.appendChild(dot);
      }
    }
  }

  // A refused picture: the pieces of the closest partial fit, over the picture, so the user
  // sees how close it came (the answer's details.partial_cover, in the picture's pixels).
  async function drawPartial(file, cover) {
    const picture = await readAsDataUrl(file);
    const size = await new Promise((resolve) => {
      const img = new Image();
      img.onload = () => resolve([img.naturalWidth, img.naturalHeight]);
      img.onerror = () => resolve(null);
      img.src = picture;
    });
    if (!size) return false;
    draw(picture, { width: size[0], height: size[1], outline: [] });
    const line = Math.max(1.5, Math.max(size[0], size[1]) / 160);
    for (const piece of cover.pieces) {
      const shape = document.createElementNS(SVG, "polygon");
      shape.setAttribute("class", "partial");
      shape.setAttribute("stroke-width", line);
      shape.setAttribute("points", piece.map((p) => p[0] + "," + p[1]).join(" "));
      svg.appendChild(shape);
    }
    return true;
  }

  async function readSvg(file) {
    ++asked;  // a picture still being read is no longer wanted
    preview.hidden = true;
    answer = null;
    if (file.size > 4 * MAX_TEXT) {  // not read at all when it cannot fit (UTF-8: up to 4 bytes a character)
      say(tr("That SVG has {size} KB; the instance box takes up to 50,000 characters.", { size: Math.round(file.size / 1024) }), true);
      return;
    }
    const text = await file.text();
    if (text.length > MAX_TEXT) {
      say(tr("That SVG has {size} KB; the instance box takes up to 50,000 characters.", { size: Math.round(text.length / 1024) }), true);
      return;
    }
    box.value = text;
    if (await ed.setInstance(text)) say(tr("The SVG drawing is in the instance box; press Solve to cover it."));
    else say(tr("The SVG drawing cannot be read; the reason is under the instance box."), true);
  }

  async function read(file) {
    if (!file) return;
    if (isSvg(file)) return readSvg(file);
    if (TYPES.indexOf(file.type) < 0 && file.type) {
      say(tr("That file is {type}; choose a PNG, JPEG, WebP or GIF picture, or an SVG drawing.", { type: file.type }), true);
      return;
    }
    if (file.size > MAX_BYTES) {
      say(tr("That picture is {size} MB; the limit is 5 MB.", { size: (file.size / 1048576).toFixed(1) }), true);
      return;
    }
    say(tr("Reading the picture…"));
    preview.hidden = true;
    answer = null;
    const mine = ++asked;
    let response, body;
    try {
      response = await fetch("/api/" + encodeURIComponent(ed.puzzle.id) + "/trace", {
        // the page's language (not only the browser's), as the host's own requests do
        method: "POST", headers: { Accept: "application/json", "Accept-Language": (window.PuzzleI18n || {}).lang || "en",
                                   "Content-Type": file.type || "application/octet-stream" }, body: file,
      });
      body = await response.json().catch(() => null);  // a proxy's error page is not JSON
    } catch (err) {
      if (mine === asked) say(tr("The picture could not be sent: the server cannot be reached."), true);
      return;
    }
    if (mine !== asked) return;
    if (!response.ok || !body || !body.outline) {
      say(body && body.error ? tr("The picture cannot be read: {error}.", { error: body.error })
        : tr("The picture cannot be read: the server answered {status}.", { status: response.status }), true);
      const cover = body && body.details && body.details.partial_cover;
      if (cover && (await drawPartial(file, cover)) && mine === asked) {
        caption.textContent = tr("The closest fit found (in blue) covers {share} of the figure; no exact tangram figure lies near it.",
          { share: Math.round(100 * cover.share) + "%" });
        preview.querySelector("#picture-accept").hidden = true;
        preview.hidden = false;
      }
      return;
    }
    preview.querySelector("#picture-accept").hidden = false;
    const picture = await readAsDataUrl(file);
    if (mine !== asked) return;
    answer = body;
    draw(picture, body);
    caption.textContent = tr("Read as an exact figure (outlined in red); vertices moved at most {moved} units. Accept to put it in the instance box.",
      { moved: Number(body.moved).toFixed(2) });
    preview.hidden = false;
    say("");
    preview.querySelector("#picture-accept").focus();
  }

  button.addEventListener("click", () => input.click());
  input.addEventListener("change", () => { read(input.files[0]); input.value = ""; });
  preview.querySelector("#picture-accept").addEventListener("click", async () => {
    if (!answer) return;
    box.value = answer.instance;
    preview.hidden = true;
    await ed.setInstance(answer.instance);
    say(tr("The figure from the picture is in the instance box; press Solve to cover it."));
    button.focus();
  });
  preview.querySelector("#picture-discard").addEventListener("click", () => {
    preview.hidden = true;
    answer = null;
    say(tr("Picture discarded."));
    button.focus();
  });

  // The "press Solve" hint is stale once the figure is solved or edited by hand.
  const solve = document.getElementById("solve");
  if (solve) solve.addEventListener("click", () => { if (!status.classList.contains("error-text")) say(""); });
  box.addEventListener("input", () => say(""));

  function pictureIn(list) {
    for (const item of list || []) {
      const file = item.getAsFile ? (item.kind === "file" ? item.getAsFile() : null) : item;
      if (file && (TYPES.indexOf(file.type) >= 0 || isSvg(file) || !file.type)) return file;
    }
    return null;
  }
  const hasFiles = (evt) => evt.dataTransfer && Array.from(evt.dataTransfer.types || []).indexOf("Files") >= 0;
  document.addEventListener("dragover", (evt) => {
    if (!hasFiles(evt)) return;
    evt.preventDefault();
    document.body.classList.add("picture-dragging");
  });
  document.addEventListener("dragleave", (evt) => {
    // relatedTarget is null when the drag leaves the window (from over any element)
    if (!evt.relatedTarget || evt.target === document.documentElement) document.body.classList.remove("picture-dragging");
  });
  document.addEventListener("drop", (evt) => {
    if (!hasFiles(evt)) return;
    evt.preventDefault();
    document.body.classList.remove("picture-dragging");
    const file = pictureIn(evt.dataTransfer.files);
    if (file) read(file);
    else say(tr("Drop a PNG, JPEG, WebP or GIF picture, or an SVG drawing."), true);
  });
  document.addEventListener("paste", (evt) => {
    const file = evt.clipboardData && pictureIn(evt.clipboardData.items);
    if (!file) return;  // text pastes go where they always went
    evt.preventDefault();
    read(file);
  });
})();
