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
  var armed = {}; // deadlines seen still ahead, so each fires "headtable:deadline" once
  function deadlinePassed() {
    [300, 2500].forEach(function (ms) {
      setTimeout(function () { document.body.dispatchEvent(new CustomEvent("headtable:deadline", { bubbles: true })); }, ms);
    });
  }
  function tick() {
    var now = Date.now() + offset;
    document.querySelectorAll("[data-deadline]").forEach(function (el) {
      var left = Math.max(0, Math.ceil((Date.parse(el.getAttribute("data-deadline")) - now) / 1000));
      el.textContent = Math.floor(left / 60) + ":" + pad(left % 60);
      // Issue 5: the warning starts data-warn seconds before the bell (default 60; 0 = none);
      // the moment a deadline passes, the live part refetches (and once more 2.5 s later, when
      // the worker has had time to ring), instead of waiting for the next poll.
      var warn = parseInt(el.getAttribute("data-warn") || "60", 10);
      el.classList.toggle("warn", warn > 0 && left <= warn);
      var key = el.getAttribute("data-deadline");
      if (left > 0) { armed[key] = true; } else if (armed[key]) { delete armed[key]; deadlinePassed(); }
      el.setAttribute("aria-label", Math.floor(left / 60) + " minutes " + (left % 60) + " seconds left");
    });
  }
  function offline(on) { document.querySelectorAll(".offline").forEach(function (el) { el.hidden = !on; }); }
  document.addEventListener("DOMContentLoaded", function () { readOffset(); tick(); setInterval(tick, 1000); });
  document.addEventListener("htmx:afterSwap", function (e) { readOffset(e.target.parentNode || document); tick(); offline(false); });
  document.addEventListener("htmx:afterRequest", function (e) { if (e.detail.successful) offline(false); });
  document.addEventListener("htmx:sendError", function () { offline(true); });
  window.addEventListener("offline", function () { offline(true); });
  // Guest pages (issue 6): conditional polling. A polled element with data-etag sends it back
  // as If-None-Match; the server answers 304 (no body, no database query) when nothing
  // changed, and nothing is swapped, so a form being filled or a scrolled list stays as it is.
  document.addEventListener("htmx:configRequest", function (e) {
    var tag = e.detail.elt && e.detail.elt.getAttribute && e.detail.elt.getAttribute("data-etag");
    if (tag && e.detail.verb === "get") e.detail.headers["If-None-Match"] = tag;
  });
  document.addEventListener("htmx:beforeSwap", function (e) {
    if (e.detail.xhr && e.detail.xhr.status === 304) { e.detail.shouldSwap = false; e.detail.isError = false; offline(false); }
  });
})();
// "Print this page" buttons (no inline script: the Content-Security-Policy allows none).
document.addEventListener("click", function (e) {
  var button = e.target.closest && e.target.closest("[data-print-page]");
  if (button) { window.print(); }
});
// "headtable:visible" on <body> when the tab or the phone's screen comes back: live parts poll at
// once (their hx-trigger listens for it; a filter such as visibilitychange[…] would need eval,
// which the Content-Security-Policy refuses).
document.addEventListener("visibilitychange", function () {
  if (document.visibilityState === "visible" && document.body) {
    document.body.dispatchEvent(new CustomEvent("headtable:visible", { bubbles: true }));
  }
});
