// Invitation page: taking the seat is a POST (a link preview fetching the page uses nothing up).
(function () {
  "use strict";
  var invite = window.location.pathname.split("/").pop();
  document.getElementById("take").addEventListener("click", function () {
    fetch("/api/join/" + invite, { method: "POST" })
      .then(function (r) { return r.json().then(function (d) { return [r.ok, d]; }); })
      .then(function (res) {
        if (res[0]) { window.location.href = res[1].url; }
        else { document.getElementById("error").textContent = typeof res[1].detail === "string" ? res[1].detail : "The seat could not be taken."; }
      });
  });
}());
