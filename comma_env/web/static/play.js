// One role's page. All state lives on the server: this page only long-polls it and posts
// messages, so a reload or a second tab shows the same episode. The unsent draft is kept in
// sessionStorage so a reload does not lose it either.
(function () {
  "use strict";
  var token = window.location.pathname.split("/").pop();
  var api = "/api/play/" + token;
  var version = -1;
  var state = null;
  var box = document.getElementById("message");
  var draftKey = "comma-draft-" + token;
  var NAMES = { solver: "Solver", expert: "Expert", environment: "Environment" };
  // the invitation for the second player arrives in the fragment once; kept for this tab only
  var inviteKey = "comma-invite-" + token;
  var fromHash = /^#invite=(.+)$/.exec(window.location.hash);
  if (fromHash) {
    window.sessionStorage.setItem(inviteKey, decodeURIComponent(fromHash[1]));
    window.history.replaceState(null, "", window.location.pathname);
  }
  var invite = window.sessionStorage.getItem(inviteKey);

  box.value = window.sessionStorage.getItem(draftKey) || "";
  box.addEventListener("input", function () { window.sessionStorage.setItem(draftKey, box.value); });

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) { node.className = cls; }
    if (text !== undefined) { node.textContent = text; }
    return node;
  }

  function insertLine(line) {
    var text = box.value;
    if (text && text.slice(-1) !== "\n") { text += "\n"; }
    box.value = text + line;
    window.sessionStorage.setItem(draftKey, box.value);
    box.focus();
  }

  function render(s) {
    state = s;
    document.title = "COMMA " + s.title + " (" + s.role + ")";
    document.getElementById("heading").textContent = s.title + ": you are the " + s.role;
    var counters = "turn " + s.turn + " / " + s.max_turns;
    if (s.role === "solver") { counters += " · mistakes " + s.mistakes + " / " + s.max_mistakes; }
    document.getElementById("counters").textContent = counters;
    var status = s.done ? "episode over" : !s.partner_joined ? "waiting for your partner to join" : s.your_turn ? "your turn" :
      (s.partner_busy ? "the " + s.to_move + " (" + s.partner + ") is thinking…" : "waiting for the " + s.to_move);
    document.getElementById("status").textContent = status;
    document.body.dataset.yourTurn = s.your_turn ? "1" : "0";

    if (s.role === "solver") {
      document.getElementById("solver-view").hidden = false;
      var img = document.getElementById("puzzle-image");
      if (img.getAttribute("src") !== s.image) { img.setAttribute("src", s.image); }
      document.getElementById("task").textContent = s.task;
      var slot = document.getElementById("audio-slot");
      var audio = slot.querySelector("audio");
      if (s.audio && (!audio || audio.getAttribute("src") !== s.audio)) {
        slot.textContent = "";
        audio = el("audio");
        audio.controls = true;
        audio.setAttribute("src", s.audio);
        slot.appendChild(audio);
      } else if (!s.audio) { slot.textContent = ""; }
      var actions = document.getElementById("actions");
      actions.textContent = "";
      (s.valid_actions || []).forEach(function (name) {
        var button = el("button", "action", name);
        button.type = "button";
        button.dataset.action = name;
        button.addEventListener("click", function () { insertLine(name); });
        actions.appendChild(button);
      });
      document.getElementById("actions-box").hidden = !(s.valid_actions || []).length;
      document.getElementById("hint-box").hidden = !s.hint || s.done;
      document.getElementById("hint-text").textContent = s.hint || "";
    } else {
      document.getElementById("expert-view").hidden = false;
      var manual = document.getElementById("manual");
      if (manual.dataset.source !== s.manual) {  // HTML rendered by the server from Markdown, raw HTML escaped
        manual.innerHTML = s.manual_html;
        manual.dataset.source = s.manual;
      }
    }

    var list = document.getElementById("dialogue");
    list.textContent = "";
    s.dialogue.forEach(function (entry) {
      var item = el("li", "msg " + entry.speaker + (entry.speaker === s.role ? " mine" : ""));
      item.appendChild(el("div", "who", NAMES[entry.speaker] || entry.speaker));
      item.appendChild(el("div", "text", entry.text));
      list.appendChild(item);
    });
    list.scrollTop = list.scrollHeight;

    var join = document.getElementById("join");
    if (invite && !s.partner_joined && !s.done) {
      join.hidden = false;
      join.textContent = "Send this invitation to the other player (it works once): ";
      var link = el("a", "join-link", window.location.origin + invite);
      link.href = invite;
      link.target = "_blank";
      link.rel = "noopener noreferrer";
      join.appendChild(link);
    } else { join.hidden = true; }
    document.getElementById("leave-row").hidden = !s.study || s.done;

    var send = document.getElementById("send");
    send.disabled = !s.your_turn;
    box.disabled = s.done;
    var result = document.getElementById("result");
    if (s.done) {
      var e = s.episode;
      result.hidden = false;
      result.className = "result " + (e.success ? "success" : "failure");
      result.textContent = (e.success ? "Solved" : "Not solved") + " (" + (e.end_reason || "error") + "): progress " +
        Math.round(100 * e.progress) + "%, " + e.mistakes + " mistake(s)" + (s.error ? ". " + s.error : "") +
        (s.saved ? ". Saved." : ".");
      var again = el("a", "again", s.study ? "back to the lobby" : "play another episode");
      again.href = "/";
      result.appendChild(document.createTextNode(" "));
      result.appendChild(again);
      document.getElementById("compose").hidden = true;
    }
  }

  function poll() {
    fetch(api + "/state?since=" + version, { cache: "no-store" })
      .then(function (r) {
        if (r.status === 404) { throw new Error("This session does not exist (check the link)."); }
        return r.json();
      })
      .then(function (s) { version = s.version; render(s); setTimeout(poll, 0); })
      .catch(function (err) {
        document.getElementById("status").textContent = String(err.message || err);
        setTimeout(poll, 2000);
      });
  }

  function newId() {
    var bytes = new Uint8Array(12);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }

  document.getElementById("leave").addEventListener("click", function () {
    if (!window.confirm("Leave this game? It ends for both players.")) { return; }
    fetch(api + "/leave", { method: "POST" }).then(function (r) { return r.json(); })
      .then(function (s) { version = s.version; render(s); });
  });

  document.getElementById("compose").addEventListener("submit", function (event) {
    event.preventDefault();
    var text = box.value;
    var error = document.getElementById("error");
    error.textContent = "";
    if (!text.trim()) { error.textContent = "Type a message first."; return; }
    document.getElementById("send").disabled = true;
    fetch(api + "/message", { method: "POST", headers: { "Content-Type": "application/json" },
                              body: JSON.stringify({ text: text, client_id: newId() }) })
      .then(function (r) { return r.json().then(function (d) { return [r.ok, d]; }); })
      .then(function (res) {
        if (res[0]) {
          box.value = "";
          window.sessionStorage.removeItem(draftKey);
          version = res[1].version;
          render(res[1]);
        } else {
          var detail = res[1].detail;
          error.textContent = typeof detail === "string" ? detail : "The message was refused (too long?).";
          document.getElementById("send").disabled = !(state && state.your_turn);
        }
      })
      .catch(function () { error.textContent = "The server did not answer; your message is still here."; });
  });

  poll();
}());
