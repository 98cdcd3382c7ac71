/* Talking to the server: JSON requests, their errors in words, and the one job poller that
 * solves, tasks and hints all follow their jobs with. Shared as window.PuzzleJobs.
 */
(function () {
  "use strict";

  const { t } = window.PuzzleI18n;
  const CJK = /[\u3400-\u9fff\uf900-\ufaff]/;

  function sentence(text) {
    // One plain sentence: a capital first letter and a full stop (。 in Chinese text).
    const s0 = String(text || "").trim();
    if (!s0) return "";
    const s = s0.charAt(0).toUpperCase() + s0.slice(1);
    if (/[.!?:。！？：]$/.test(s)) return s;
    return s + (CJK.test(s) ? "。" : ".");
  }

  function errorText(body) {
    if (!body || !body.error) return t("Something went wrong.");
    // "where" locates the error for API clients ("time_limit", "move 3 (d2-d4)"), the same in
    // every language; "where_text", when the raiser gave one, is that place in the reader's
    // language ("第 3 行第 3 列"), so it is shown instead. Left out when the message names it.
    const where = body.where_text ? String(body.where_text)
      : body.where ? String(body.where).replace(/_/g, " ") : "";
    const named = where && body.error.toLowerCase().includes(where.toLowerCase());
    return sentence(where && !named ? t("{where}: {error}", { where, error: body.error }) : body.error);
  }

  async function call(method, url, data) {
    // The page's language, not only the browser's: a page opened with ?lang=en in a Chinese
    // browser gets its messages and move words in English too.
    const options = { method, headers: { Accept: "application/json", "Accept-Language": window.PuzzleI18n.lang } };
    if (data !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(data);
    }
    let response;
    try {
      response = await fetch(url, options);
    } catch (err) {
      return { ok: false, status: 0, body: { error: t("the server cannot be reached") } };
    }
    let body = null;
    try { body = await response.json(); } catch (err) { body = { error: t("unexpected answer from the server") }; }
    return { ok: response.ok, status: response.status, body, headers: response.headers };
  }

  // Follow a job (as POST /api/.../jobs or a poll answered it) until it is done: onState(job)
  // now and after each poll, every `interval` ms; onState(null, body) if a poll fails. stop()
  // ends it, late answers too.
  function watch(job, interval, onState) {
    let timer = null;
    let stopped = false;
    function next(state, body) {
      if (stopped) return;
      onState(state, body);
      if (!state || state.done || stopped) return;
      timer = setTimeout(async () => {
        const polled = await call("GET", "/api/jobs/" + encodeURIComponent(state.id));
        next(polled.ok ? polled.body : null, polled.body);
      }, interval);
    }
    next(job);
    return { stop() { stopped = true; clearTimeout(timer); } };
  }

  // The job once done, or as last seen when `ms` have passed (polling stops), or null if lost.
  function wait(job, interval, ms) {
    return new Promise((resolve) => {
      let seen = job;
      const watcher = watch(job, interval, (s) => { seen = s; if (!s || s.done) resolve(s); });
      setTimeout(() => { watcher.stop(); resolve(seen); }, ms);
    });
  }

  window.PuzzleJobs = { sentence, errorText, call, watch, wait };
})();
