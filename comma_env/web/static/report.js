// Episode index of report.html: filters and pages over the embedded JSON (no network).
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("episodes-data").textContent);
  var form = document.getElementById("filters");
  var body = document.querySelector("#episode-table tbody");
  var PAGE = 100;
  var page = 0;
  var shown = data.episodes;
  // Pages not written ahead exist only when the report server (--serve) answers for them.
  var linked = data.pages !== false || window.location.protocol !== "file:";
  var note = document.getElementById("served-note");
  if (note && linked) { note.hidden = true; }  // served: every row links to its page

  function cell(row, text, cls) {
    var td = document.createElement("td");
    td.textContent = text;
    if (cls) { td.className = cls; }
    row.appendChild(td);
    return td;
  }

  function matches(e, f) {
    if (f.run !== "" && String(e.r) !== f.run) { return false; }
    if (f.puzzle && e.p !== f.puzzle) { return false; }
    if (f.outcome && e.o !== f.outcome) { return false; }
    if (f.end && e.e !== f.end) { return false; }
    if (f.leak === "yes" && !e.l.length) { return false; }
    if (f.leak === "no" && e.l.length) { return false; }
    return true;
  }

  function draw() {
    var pages = Math.max(1, Math.ceil(shown.length / PAGE));
    page = Math.min(page, pages - 1);
    body.textContent = "";
    shown.slice(page * PAGE, (page + 1) * PAGE).forEach(function (e) {
      var row = document.createElement("tr");
      row.id = "ep-" + e.r + "-" + e.p + "-" + e.s;
      cell(row, data.runs[e.r]);
      cell(row, e.p);
      if (linked) {
        var link = document.createElement("a");
        link.href = e.h;
        link.textContent = String(e.s);
        cell(row, "").appendChild(link);
      } else {
        cell(row, String(e.s));
      }
      cell(row, e.o + (e.x ? " (replay differs)" : ""), e.o);
      cell(row, Math.round(100 * e.g) + "%");
      cell(row, String(e.m));
      cell(row, String(e.t));
      cell(row, e.e);
      cell(row, e.l.join(", "), e.l.length ? "leak" : "");
      cell(row, String(e.k));
      body.appendChild(row);
    });
    document.getElementById("count").textContent = shown.length + " of " + data.episodes.length + " episodes";
    document.getElementById("page").textContent = "page " + (page + 1) + " of " + pages;
  }

  function apply() {
    var f = {
      run: form.elements.run.value, puzzle: form.elements.puzzle.value, outcome: form.elements.outcome.value,
      end: form.elements.end.value, leak: form.elements.leak.value
    };
    shown = data.episodes.filter(function (e) { return matches(e, f); });
    page = 0;
    draw();
  }

  form.addEventListener("change", apply);
  document.getElementById("prev").addEventListener("click", function () { if (page > 0) { page -= 1; draw(); } });
  document.getElementById("next").addEventListener("click", function () { page += 1; draw(); });
  apply();
}());
