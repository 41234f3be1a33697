/* Head Table live bits, no framework: the round clock (the server's deadline, corrected for
   this device's clock offset), and an "offline" notice when polling fails. Everything else is
   htmx (polling the same page) and works as plain links and forms without JavaScript. */
(function () {
  "use strict";
  var offset = 0; // server time minus device time, in milliseconds
  function readOffset(root) {
    var el = (root || document).querySelector("[data-now]");
    if (el) { var server = Date.parse(el.getAttribute("data-now")); if (!isNaN(server)) offset = server - Date.now(); }
  }
  function pad(n) { return n < 10 ? "0" + n : "" + n; }
  function tick() {
    var now = Date.now() + offset;
    document.querySelectorAll("[data-deadline]").forEach(function (el) {
      var left = Math.max(0, Math.round((Date.parse(el.getAttribute("data-deadline")) - now) / 1000));
      el.textContent = Math.floor(left / 60) + ":" + pad(left % 60);
      el.classList.toggle("warn", left <= 60);
      el.setAttribute("aria-label", Math.floor(left / 60) + " minutes " + (left % 60) + " seconds left");
    });
  }
  function offline(on) { document.querySelectorAll(".offline").forEach(function (el) { el.hidden = !on; }); }
  document.addEventListener("DOMContentLoaded", function () { readOffset(); tick(); setInterval(tick, 1000); });
  document.addEventListener("htmx:afterSwap", function (e) { readOffset(e.target.parentNode || document); tick(); offline(false); });
  document.addEventListener("htmx:afterRequest", function (e) { if (e.detail.successful) offline(false); });
  document.addEventListener("htmx:sendError", function () { offline(true); });
  window.addEventListener("offline", function () { offline(true); });
})();
