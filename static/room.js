/* The room display (issues 5 and 11): the slides and their pages, the bell sound, the first
   tap that unlocks audio, and the screen wake lock. The clock itself, its warning and the refetch at the deadline are in
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

  /* Slides and pages. Each <section class="slide"> in .room-stage holds one .pager whose
     children (.item) are laid out in columns of the pager's fixed box. paginate() measures which
     items fit: it hides the items of the pages before, and the first item that lands outside the
     box starts the next page. The slides then take turns (data-seconds each page; 0 = stay), the
     clock slide coming back and staying while the bell's warning runs. State lives on #room-live
     (data-slide, data-page, data-pages) for the browser tests; window.roomDisplay lets them stop
     the timer and show any page. */
  var current = { slide: null, page: 0 }, timer = null, paused = false;

  function items(pager) { return Array.prototype.slice.call(pager.children); }

  function paginate(slide) {
    var pager = slide.querySelector(".pager");
    if (!pager) { slide._pages = [[0, 0]]; return; }
    var all = items(pager), pages = [], start = 0;
    var max = parseInt(slide.getAttribute("data-max-pages") || "0", 10);
    while (start < all.length && !(max && pages.length >= max)) {
      all.forEach(function (it, i) { it.style.display = i < start ? "none" : ""; });
      var box = pager.getBoundingClientRect(), end = start + 1;
      while (end < all.length) {
        var r = all[end].getBoundingClientRect();
        if (r.right > box.right + 0.5 || r.bottom > box.bottom + 0.5) break;
        end++;
      }
      pages.push([start, end]);
      start = end;
    }
    slide._pages = pages.length ? pages : [[0, 0]];
  }

  function slides() { return Array.prototype.slice.call(document.querySelectorAll("#room-live .room-stage .slide")); }

  function show(name, page) {
    var live = document.getElementById("room-live"), list = slides();
    if (!live || !list.length) return;
    var slide = list.filter(function (s) { return s.dataset.slide === name; })[0] || list[0];
    var pages = slide._pages || [[0, 0]];
    page = Math.max(0, Math.min(page || 0, pages.length - 1));
    list.forEach(function (s) { s.classList.toggle("active", s === slide); });
    var pager = slide.querySelector(".pager");
    if (pager) {
      var range = pages[page];
      items(pager).forEach(function (it, i) { it.style.display = i >= range[0] && i < range[1] ? "" : "none"; });
    }
    current = { slide: slide.dataset.slide, page: page };
    live.dataset.slide = current.slide; live.dataset.page = String(page + 1); live.dataset.pages = String(pages.length);
    var title = live.querySelector(".room-slide-name"), count = live.querySelector(".room-page");
    if (title) title.textContent = slide.dataset.title || "";
    if (count) count.textContent = pages.length > 1 ? "page " + (page + 1) + " of " + pages.length : "";
  }

  function layout() {
    var stage = document.querySelector("#room-live .room-stage");
    if (!stage) return;
    slides().forEach(paginate);
    stage.classList.add("paged");
    show(current.slide, current.page);
  }

  function warning() { return !!document.querySelector("#room-live .room-clock .clock.warn"); }

  function advance() {
    var list = slides();
    if (!list.length) return;
    var names = list.map(function (s) { return s.dataset.slide; });
    var i = names.indexOf(current.slide), slide = list[Math.max(i, 0)];
    if (names.indexOf("clock") >= 0 && warning()) { show("clock", 0); return; }
    if (i >= 0 && current.page + 1 < (slide._pages || []).length) { show(current.slide, current.page + 1); return; }
    show(names[(i + 1) % names.length], 0);
  }

  function schedule() {
    clearTimeout(timer);
    if (paused) return;
    var slide = slides().filter(function (s) { return s.dataset.slide === current.slide; })[0];
    var seconds = slide ? parseFloat(slide.getAttribute("data-seconds") || "10") : 10;
    timer = setTimeout(function () {
      if (seconds > 0) advance();
      schedule();
    }, (seconds > 0 ? seconds : 5) * 1000);
  }

  window.roomDisplay = {
    /* For tests and for a host at the screen: stop turning, show a slide's page (0-based), list the pages. */
    pause: function () { paused = true; clearTimeout(timer); },
    resume: function () { paused = false; schedule(); },
    show: function (name, page) { show(name, page); },
    pages: function () { return slides().map(function (s) { return { slide: s.dataset.slide, pages: (s._pages || []).length }; }); },
    layout: layout
  };

  var resizing = null;
  window.addEventListener("resize", function () { clearTimeout(resizing); resizing = setTimeout(layout, 150); });

  document.addEventListener("DOMContentLoaded", function () {
    if (!document.body.classList.contains("room")) return;
    layout();
    schedule();
    checkBell();
    keepAwake();
    document.querySelectorAll(".room-unlock").forEach(function (b) { b.addEventListener("click", unlock); });
  });
  document.addEventListener("htmx:afterSwap", function () {
    if (!document.body.classList.contains("room")) return;
    layout();
    checkBell();
  });
  document.addEventListener("visibilitychange", function () { if (unlocked) keepAwake(); });
})();
