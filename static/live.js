/* Head Table live bits, no framework: the round clock (the server's deadline, corrected for
   this device's clock offset), an "offline" notice when polling fails, and the push of the
   evening's version to a guest's page (a long-poll). Everything else is htmx (polling the same
   page) and works as plain links and forms without JavaScript. */
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
  // Issue 26 item 2: the push. A live guest page (data-wait) asks the server to answer when the
  // evening's version is newer than the one it shows (a long-poll: GET data-wait?v=N&page=1,
  // answered at once with the new page itself, or "changed", or "unchanged" after 25 s); the
  // page is swapped in, "changed" refetches the page at once (headtable:changed), and the next
  // wait starts. While the push answers, the page's timed
  // poll is skipped; on an error or no answer within 30 s the 3 s poll is back at once (the
  // fallback, for phones and networks that drop long requests) and the push is asked again
  // after a pause (3 s, doubling to 30 s). A phone waking, a tab shown again, a network back or
  // a page restored from the back button refetch the page (htmx) and start the wait afresh.
  var push = { ctrl: null, timer: null, pause: 3000, latest: -1, healthy: false, refetching: null };
  function afterRefetch() {
    clearTimeout(push.refetching);
    push.refetching = null;
    setTimeout(waitForChange, 0);
  }
  function shownVersion(el) {
    var v = parseInt((el.getAttribute("data-etag") || "").replace(/"/g, "").split(".")[1], 10);
    return isNaN(v) ? -1 : v;
  }
  function waitForChange() {
    clearTimeout(push.timer);
    push.timer = null;
    if (push.ctrl) push.ctrl.abort();
    push.ctrl = null;
    var el = document.querySelector("[data-wait]");
    if (!el || !window.fetch || !window.AbortController) return;
    var ctrl = (push.ctrl = new AbortController());
    var limit = setTimeout(function () { ctrl.abort(); }, 30000);
    var seen = shownVersion(el) >= 0 ? shownVersion(el) : push.latest;
    fetch(el.getAttribute("data-wait") + "?v=" + seen + "&page=1", { cache: "no-store", credentials: "same-origin", signal: ctrl.signal })
      .then(function (r) {
        if (!r.ok) throw new Error("status " + r.status);
        if ((r.headers.get("Content-Type") || "").indexOf("text/html") === 0) {
          return r.text().then(function (html) { return { state: "page", html: html }; });
        }
        return r.json();
      })
      .then(function (answer) {
        if (answer.state !== "changed" && answer.state !== "unchanged" && answer.state !== "page") throw new Error(answer.state);
        clearTimeout(limit);
        if (ctrl !== push.ctrl) return; // a newer wait replaced this one
        push.ctrl = null;
        push.pause = 3000;
        push.healthy = true;
        if (answer.state === "unchanged") { waitForChange(); return; }
        // "page": the answer is the page itself, as the refetch would bring it (the server saves
        // the phone a request): swapped in as htmx swaps the refetch. The next wait starts after
        // a pause of 0.5 to 1.5 s, at random: after a bell the 500 phones' next waits come spread
        // over a second, not in the same moment as the other phones' pages (a change within the
        // pause is answered at once by that wait, at most 1.5 s later).
        var live = document.querySelector("[data-wait]");
        if (answer.state === "page" && live && window.htmx && htmx.swap) {
          htmx.swap(live, answer.html, { swapStyle: live.getAttribute("hx-swap") || "outerHTML" }, { contextElement: live });
          offline(false);
          push.timer = setTimeout(waitForChange, 500 + Math.random() * 1000);
          return;
        }
        // The page is refetched; the next wait starts once it is in (its ETag then names the
        // version it shows: a bell's several changes cost one refetch), or after 5 s.
        if (answer.version !== undefined) push.latest = answer.version;
        push.refetching = setTimeout(afterRefetch, 5000);
        document.body.dispatchEvent(new CustomEvent("headtable:changed", { bubbles: true }));
      })
      .catch(function () {
        clearTimeout(limit);
        if (ctrl !== push.ctrl) return;
        push.ctrl = null;
        push.healthy = false;
        push.timer = setTimeout(waitForChange, push.pause);
        push.pause = Math.min(push.pause * 2, 30000);
      });
  }
  // The timed poll (htmx's "every", the only trigger without an event) is skipped while the push answers.
  document.addEventListener("htmx:beforeRequest", function (e) {
    var d = e.detail;
    if (push.healthy && push.ctrl && d.elt && d.elt.hasAttribute && d.elt.hasAttribute("data-wait") &&
        d.requestConfig && !d.requestConfig.triggeringEvent) e.preventDefault();
  });
  document.addEventListener("htmx:afterRequest", function (e) {
    if (push.refetching && e.detail.elt && e.detail.elt.hasAttribute && e.detail.elt.hasAttribute("data-wait")) afterRefetch();
  });
  document.addEventListener("DOMContentLoaded", waitForChange);
  document.addEventListener("headtable:visible", waitForChange);
  window.addEventListener("online", waitForChange);
  window.addEventListener("pageshow", function (e) { if (e.persisted) waitForChange(); });
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
