// The background table builds in words: while they run, refresh the lines from /-/preparing
// (web/preparing.py) every few seconds, and stop once they have finished.
(function () {
  "use strict";
  var box = document.getElementById("preparing");
  if (!box || box.dataset.state !== "running") return;
  var puzzle = box.dataset.puzzle;
  var list = box.querySelector("ul");
  var EVERY_MS = 3000;

  function show(status) {
    var lines = (status.tables || []).filter(function (t) { return !puzzle || t.puzzle === puzzle; });
    var texts = lines.map(function (t) { return [t.text, t.state]; });
    // The sentence comes from the page, in its language, with a {note} placeholder.
    var label = box.dataset.noteLabel || "Faster tables: {note}";
    if (status.note) texts.push([label.replace("{note}", status.note), status.state]);
    var same = list.children.length === texts.length && texts.every(function (t, i) {
      return list.children[i].textContent === t[0];
    });
    if (!same) {  // only real changes: a screen reader hears each line once
      list.textContent = "";
      texts.forEach(function (t) {
        var li = document.createElement("li");
        li.textContent = t[0];
        li.dataset.state = t[1];
        list.appendChild(li);
      });
    }
    box.hidden = texts.length === 0;
    box.dataset.state = status.state;
  }

  function poll() {
    fetch("/-/preparing", { headers: { Accept: "application/json" } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (status) {
        if (!status) return;
        show(status);
        if (status.state === "running") setTimeout(poll, EVERY_MS);
      })
      .catch(function () { setTimeout(poll, EVERY_MS * 5); });
  }
  setTimeout(poll, EVERY_MS);
})();
