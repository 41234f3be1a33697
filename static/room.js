/* The room display (issue 5): the bell sound, the first tap that unlocks audio, and the
   screen wake lock. The clock itself, its warning and the refetch at the deadline are in
   live.js; the display's content comes from the server (htmx polling #room-live).
   The bell plays when #room-live's data-bell (the number of the last round whose bell has rung)
   grows. body[data-bells] counts bells rung on this screen, body[data-sound] says whether the
   last one could be heard ("played", "blocked" before the first tap, or "failed"). */
(function () {
  "use strict";
  var audio = null, unlocked = false, lastBell = null, wakeLock = null;

  function bellSrc() { var el = document.querySelector("[data-bell-src]"); return el ? el.getAttribute("data-bell-src") : null; }

  function keepAwake() {
    if (!("wakeLock" in navigator) || document.visibilityState !== "visible" || wakeLock) return;
    navigator.wakeLock.request("screen").then(function (lock) {
      wakeLock = lock; document.body.dataset.awake = "yes";
      lock.addEventListener("release", function () { wakeLock = null; document.body.dataset.awake = "no"; });
    }).catch(function () { document.body.dataset.awake = "refused"; });
  }

  function unlock() {
    var src = bellSrc();
    if (src && !audio) { audio = new Audio(src); audio.preload = "auto"; }
    if (audio) {
      audio.muted = true;
      var p = audio.play();
      var done = function () { audio.pause(); audio.currentTime = 0; audio.muted = false; unlocked = true; };
      if (p && p.then) p.then(done).catch(function () { audio.muted = false; }); else done();
    }
    keepAwake();
    if (document.documentElement.requestFullscreen && !document.fullscreenElement) {
      document.documentElement.requestFullscreen().catch(function () {});
    }
    document.querySelectorAll(".room-start").forEach(function (el) { el.hidden = true; });
    document.body.dataset.unlocked = "yes";
  }

  function ring() {
    document.body.dataset.bells = String(parseInt(document.body.dataset.bells || "0", 10) + 1);
    document.body.classList.add("ringing");
    setTimeout(function () { document.body.classList.remove("ringing"); }, 4000);
    if (!audio || !unlocked) { document.body.dataset.sound = "blocked"; return; }
    audio.currentTime = 0;
    var p = audio.play();
    if (p && p.then) p.then(function () { document.body.dataset.sound = "played"; })
      .catch(function () { document.body.dataset.sound = "failed"; });
    else document.body.dataset.sound = "played";
  }

  function checkBell() {
    var live = document.getElementById("room-live");
    if (!live) return;
    var now = parseInt(live.getAttribute("data-bell") || "0", 10);
    if (lastBell !== null && now > lastBell) ring();
    lastBell = now;
  }

  document.addEventListener("DOMContentLoaded", function () {
    if (!document.body.classList.contains("room")) return;
    checkBell();
    keepAwake();
    document.querySelectorAll(".room-unlock").forEach(function (b) { b.addEventListener("click", unlock); });
  });
  document.addEventListener("htmx:afterSwap", checkBell);
  document.addEventListener("visibilitychange", function () { if (unlocked) keepAwake(); });
})();
