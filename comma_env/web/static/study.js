// Study entry: instructions and consent, then the lobby until this participant is paired.
// The lobby token and anonymous id are kept in localStorage so "back to the lobby" after a
// game, or a reload, keeps the same anonymous participant.
(function () {
  "use strict";
  var store = window.localStorage;
  var lobby = document.getElementById("lobby");
  var form = document.getElementById("agree");
  var version = -1;

  function show(text) { lobby.hidden = false; lobby.textContent = text; }

  fetch("/api/study/text").then(function (r) { return r.json(); }).then(function (t) {
    document.getElementById("instructions").innerHTML = t.instructions_html;  // rendered and escaped by the server
    document.getElementById("consent").innerHTML = t.consent_html;
    if (store.getItem("comma-consent") === "1") {
      document.getElementById("agreed").checked = true;
      if (store.getItem("comma-lobby")) { join(); }  // back from a game: queue again at once
    }
  });

  function handle(s) {
    version = s.version;
    if (s.token) { store.setItem("comma-lobby", s.token); }
    if (s.participant) { store.setItem("comma-participant", s.participant); }
    if (s.status === "paired") {
      show("You have a partner: you are the " + s.role + ". Opening your game…");
      window.location.href = s.url;
      return;
    }
    if (s.status === "full") { show("The study has all the games it needs. Thank you for coming!"); return; }
    if (s.status === "busy") {
      show("Every game the study still needs is being played right now. If one ends unfinished, " +
           "it is yours: keep this page open.");
      document.getElementById("stop").hidden = false;
      poll();
      return;
    }
    if (s.status === "away") { form.hidden = false; lobby.hidden = true; return; }
    show("Waiting for a partner… (" + (s.waiting || 1) + " waiting). Keep this page open.");
    document.getElementById("stop").hidden = false;
    poll();
  }

  function poll() {
    fetch("/api/lobby/" + store.getItem("comma-lobby") + "?since=" + version, { cache: "no-store" })
      .then(function (r) {
        if (r.status === 404) { join(); throw null; }
        return r.json();
      })
      .then(handle)
      .catch(function (err) { if (err) { setTimeout(poll, 2000); } });
  }

  function join() {
    var body = { consent: true, participant: store.getItem("comma-participant") };
    if (store.getItem("comma-lobby")) { body.token = store.getItem("comma-lobby"); }
    fetch("/api/lobby/join", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) })
      .then(function (r) { return r.json().then(function (d) { return [r.ok, d]; }); })
      .then(function (res) {
        if (res[0]) { form.hidden = true; handle(res[1]); }
        else { document.getElementById("error").textContent = typeof res[1].detail === "string" ? res[1].detail : "Could not join."; }
      });
  }

  document.getElementById("stop").addEventListener("click", function () {
    document.getElementById("stop").hidden = true;
    fetch("/api/lobby/" + store.getItem("comma-lobby") + "/leave", { method: "POST" })
      .then(function () { store.removeItem("comma-consent"); window.location.reload(); });
  });

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    if (!document.getElementById("agreed").checked) {
      document.getElementById("error").textContent = "Please tick the box to agree first.";
      return;
    }
    document.getElementById("error").textContent = "";
    store.setItem("comma-consent", "1");
    join();
  });
}());
