// Start page: create a session and go to its page.
(function () {
  "use strict";
  var form = document.getElementById("new");
  fetch("/api/config").then(function (r) { return r.json(); }).then(function (cfg) {
    document.getElementById("about").textContent = "You play the " + cfg.role + "; your partner is " +
      (cfg.partner === "human" ? "another person (you get a link to share)" : cfg.partner) +
      ". Episodes are saved in " + cfg.out_dir + ".";
    var select = document.getElementById("puzzle");
    cfg.puzzles.forEach(function (p) {
      var option = document.createElement("option");
      option.value = p; option.textContent = p; option.selected = p === cfg.puzzle;
      select.appendChild(option);
    });
  });
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var body = { puzzle: form.elements.puzzle.value };
    if (form.elements.seed.value !== "") { body.seed = Number(form.elements.seed.value); }
    fetch("/api/sessions", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) })
      .then(function (r) { return r.json().then(function (d) { return [r.ok, d]; }); })
      .then(function (res) {
        if (res[0]) { window.location.href = res[1].url; }
        else { document.getElementById("error").textContent = JSON.stringify(res[1].detail); }
      });
  });
}());
