// Start page: create a game and go to its page (with the invite for a second person, if any,
// in the address's fragment: it never reaches a server log or a Referer).
(function () {
  "use strict";
  var form = document.getElementById("new");
  fetch("/api/config").then(function (r) { return r.json(); }).then(function (cfg) {
    document.getElementById("about").textContent = "You play the " + cfg.role + "; your partner is " +
      (cfg.partner === "human" ? "another person: you get a one-time invitation link to send them" : cfg.partner) + ".";
    if (cfg.partner === "human") {
      document.getElementById("step-partner").textContent =
        "Your game opens on its own page with an invitation link: send it to your partner (it works once).";
    }
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
    fetch("/api/sessions", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) })
      .then(function (r) { return r.json().then(function (d) { return [r.ok, d]; }); })
      .then(function (res) {
        if (res[0]) { window.location.href = res[1].url + (res[1].invite ? "#invite=" + encodeURIComponent(res[1].invite) : ""); }
        else { document.getElementById("error").textContent = typeof res[1].detail === "string" ? res[1].detail : "The game could not be started."; }
      });
  });
}());
