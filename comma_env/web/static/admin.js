// Admin page: progress per puzzle, refreshed every 5 s (the token stays in this tab only).
(function () {
  "use strict";
  var COLUMNS = ["target", "finished", "solved", "abandoned", "failed", "in_play"];
  function load() {
    var token = window.sessionStorage.getItem("comma-admin");
    if (!token) { return; }
    fetch("/api/admin/progress", { headers: { Authorization: "Bearer " + token }, cache: "no-store" })
      .then(function (r) { return r.json().then(function (d) { return [r.ok, d]; }); })
      .then(function (res) {
        if (!res[0]) { document.getElementById("error").textContent = res[1].detail; return; }
        document.getElementById("error").textContent = "";
        var body = document.querySelector("#table tbody");
        body.textContent = "";
        Object.keys(res[1].puzzles).forEach(function (puzzle) {
          var row = document.createElement("tr");
          var name = document.createElement("td"); name.textContent = puzzle; row.appendChild(name);
          COLUMNS.forEach(function (key) {
            var cell = document.createElement("td"); cell.textContent = res[1].puzzles[puzzle][key]; row.appendChild(cell);
          });
          body.appendChild(row);
        });
        document.getElementById("table").hidden = false;
        document.getElementById("summary").textContent = res[1].waiting + " waiting in the lobby, " +
          res[1].games_in_play + " game(s) in play" + (res[1].complete ? "; the study is complete." : ".");
      });
  }
  document.getElementById("login").addEventListener("submit", function (event) {
    event.preventDefault();
    window.sessionStorage.setItem("comma-admin", document.getElementById("token").value);
    load();
  });
  load();
  setInterval(load, 5000);
}());
