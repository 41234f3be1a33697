/* The score helper on a captain's phone at tables of four (issue 15). No inline script: the
   Content-Security-Policy allows none. Without JavaScript the form's plain fields work alone.
   The taps are kept on the phone with the rest of the form, as every kept form's draft is
   (static/keep.js: restored before this file starts, removed once the server has confirmed
   the result), so a phone that locks or reloads its page during the game, or loses the Wi-Fi
   as the result is sent, loses nothing.
   Euchre: a tap per hand (side and 1, 2 or 4 points) kept in the hidden "hands" field, the
   running total written into the points fields. Bunco: a tap per scoring roll and player (1,
   2, 3, a mini bunco 5, a bunco 21) kept in "rolls_<player>", with the player's points,
   buncos and mini buncos, and the team totals. Whist: one side's tricks give the other's. */
(function () {
  "use strict";
  function num(input) { var n = parseInt(input && input.value, 10); return isNaN(n) ? 0 : n; }
  function words(hands) {
    if (!hands.length) return "No hands yet.";
    var last = hands[hands.length - 1];
    return hands.length + " hand" + (hands.length === 1 ? "" : "s") + "; the last: " + last.slice(2) + " to " +
      (last.slice(0, 2) === "NS" ? "North–South" : "East–West") + ".";
  }
  function euchre(form) {
    var field = form.querySelector("input[name=hands]");
    var ns = form.querySelector("input[name=points_ns]"), ew = form.querySelector("input[name=points_ew]");
    var hands = (field.value || "").split(/\s+/).filter(Boolean);
    function show() {
      var totals = { NS: 0, EW: 0 };
      hands.forEach(function (h) { totals[h.slice(0, 2)] += parseInt(h.slice(2), 10) || 0; });
      field.value = hands.join(" ");
      form.querySelector("[data-total=NS]").textContent = totals.NS;
      form.querySelector("[data-total=EW]").textContent = totals.EW;
      form.querySelector("[data-running]").textContent = words(hands);
      if (hands.length) { ns.value = totals.NS; ew.value = totals.EW; }
    }
    form.addEventListener("click", function (e) {
      var tap = e.target.closest("[data-hand]");
      if (tap) { hands.push(tap.getAttribute("data-hand") + tap.getAttribute("data-points")); show(); }
      if (e.target.closest("[data-undo]")) { hands.pop(); show(); if (!hands.length) { ns.value = ""; ew.value = ""; } }
    });
    [ns, ew].forEach(function (input) {  // typed points replace the tapped hands
      input.addEventListener("input", function () { hands = []; field.value = ""; show(); });
    });
    show();
  }
  function bunco(form) {
    function teams() {
      var totals = { NS: 0, EW: 0 };
      form.querySelectorAll("fieldset[data-player]").forEach(function (box) {
        totals[box.classList.contains("side-NS") ? "NS" : "EW"] += num(box.querySelector("input[name^=points_]"));
      });
      form.querySelector("[data-team=NS]").textContent = totals.NS;
      form.querySelector("[data-team=EW]").textContent = totals.EW;
    }
    form.querySelectorAll("fieldset[data-player]").forEach(function (box) {
      var rolls = box.querySelector("input[name^=rolls_]");
      var points = box.querySelector("input[name^=points_]"), buncos = box.querySelector("input[name^=buncos_]"),
          minis = box.querySelector("input[name^=minis_]");
      var list = (rolls.value || "").split(/\s+/).filter(Boolean).map(Number);
      function show() {
        rolls.value = list.join(" ");
        points.value = list.reduce(function (a, b) { return a + b; }, 0);
        buncos.value = list.filter(function (r) { return r === 21; }).length;
        minis.value = list.filter(function (r) { return r === 5; }).length;
        teams();
      }
      var lastBunco = 0;  // house rule: a second bunco tapped within 1.5 s is a double tap (a bunco is a new roll of three dice), not counted
      box.addEventListener("click", function (e) {
        var tap = e.target.closest("[data-roll]");
        if (tap) {
          var roll = parseInt(tap.getAttribute("data-roll"), 10), now = Date.now();
          if (roll === 21 && now - lastBunco < 1500) return;
          if (roll === 21) lastBunco = now;
          list.push(roll); show();
        }
        if (e.target.closest("[data-unroll]")) { list.pop(); show(); }
      });
      [points, buncos, minis].forEach(function (input) {  // a typed count replaces the tapped rolls
        input.addEventListener("input", function () { list = []; rolls.value = ""; teams(); });
      });
      [points, buncos, minis].forEach(function (input) { if (input.value === "") input.value = "0"; });  // an untapped player shows 0, not an empty box
      if (list.length) show();
    });
    teams();
  }
  function whist(form) {
    var ns = form.querySelector("input[name=tricks_ns]"), ew = form.querySelector("input[name=tricks_ew]");
    function other(from, to) {
      from.addEventListener("input", function () {
        var n = parseInt(from.value, 10);
        if (!isNaN(n) && n >= 0 && n <= 13) to.value = 13 - n;
      });
    }
    other(ns, ew); other(ew, ns);
  }
  document.addEventListener("DOMContentLoaded", function () {
    var form = document.querySelector("form.foursome-report");
    if (!form) return;
    form.querySelectorAll("[data-helper], .helper-hint").forEach(function (el) { el.hidden = false; });
    var kind = form.getAttribute("data-format");
    // the phone form's helper (PartnershipFormat.phone_form's ``helper``); another gets none
    if (kind === "euchre") euchre(form); else if (kind === "bunco") bunco(form); else if (kind === "whist") whist(form);
  });
})();
