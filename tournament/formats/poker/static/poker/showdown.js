/* The showdown helper's card grid, in the browser (issue 8). Without JavaScript every tap on
   the grid posts the form and the server adds the card; with it the same happens here, with no
   round trip: a tap adds the card to the chosen seat's hand, moves on to the next seat when
   the hand is full, and every card already entered (typed or tapped) is disabled, so a card
   cannot be given twice. The verdict is always decided by the server. */
(function () {
  "use strict";
  var SUITS = { "♠": "S", "♤": "S", "♥": "H", "♡": "H", "♦": "D", "♢": "D", "♣": "C", "♧": "C" };
  var WILD = { JK: 1, MI: 1, JOKER: 1, MISTIGRIS: 1, MIS: 1 };

  function norm(word) {
    var w = word.trim().toUpperCase();
    if (!w) return "";
    if (WILD[w]) return "MI";
    var suit = SUITS[w.slice(-1)] || w.slice(-1), rank = w.slice(0, -1);
    if (rank === "T") rank = "10";
    return rank + suit;
  }
  function words(text) { return text.split(/[\s,;]+/).filter(function (w) { return w; }); }

  function setup(form) {
    var size = parseInt(form.getAttribute("data-hand-size"), 10) || 5;
    var inputs = Array.prototype.slice.call(form.querySelectorAll("input[name^='hand-']"));
    var radios = Array.prototype.slice.call(form.querySelectorAll("input[name='seat']"));
    var verdict = form.querySelector(".verdict");

    function active() {
      for (var i = 0; i < radios.length; i++) if (radios[i].checked) return i;
      return 0;
    }
    function choose(i) {
      radios.forEach(function (r, j) { r.checked = j === i; r.closest(".seat-row").classList.toggle("active", j === i); });
      status();
    }
    function withRoom(start) {
      for (var step = 0; step < inputs.length; step++) {
        var i = (start + step) % inputs.length;
        if (words(inputs[i].value).length < size) return i;
      }
      return -1;
    }
    function stale() {
      if (!verdict || verdict.classList.contains("stale")) return;
      verdict.classList.add("stale");
      verdict.querySelectorAll("button[name='send'], button[value='record']").forEach(function (b) { b.disabled = true; });
      var note = document.createElement("p");
      note.className = "warning";
      note.textContent = "The hands have changed: show the verdict again before sending.";
      verdict.insertBefore(note, verdict.querySelector(".send"));
    }
    var filling = form.querySelector(".filling");
    function status() {
      if (!filling) return;
      var i = active(), hand = inputs[i].value.trim().toUpperCase();
      var name = document.createElement("bdi");  // a right-to-left name keeps to itself
      name.textContent = radios[i].closest(".seat-row").getAttribute("data-name");
      filling.textContent = "Cards go to seat " + (i + 1) + " · ";
      filling.appendChild(name);
      if (hand) filling.appendChild(document.createTextNode(": " + hand));
    }
    function refresh() {
      status();
      var used = {};
      inputs.forEach(function (input) { words(input.value).forEach(function (w) { used[norm(w)] = 1; }); });
      form.querySelectorAll("button.card").forEach(function (b) { b.disabled = !!used[b.getAttribute("data-card")]; });
    }

    form.addEventListener("click", function (e) {
      var button = e.target.closest("button");
      if (!button || !form.contains(button)) return;
      if (button.classList.contains("card")) {
        e.preventDefault();
        var i = withRoom(active());
        if (i < 0 || button.disabled) return;
        inputs[i].value = (inputs[i].value.trim() + " " + button.getAttribute("data-card")).trim();
        choose(words(inputs[i].value).length >= size ? Math.max(withRoom(i), 0) : i);
        refresh(); stale();
      } else if (button.classList.contains("unpick")) {
        e.preventDefault();
        var j = parseInt(button.value, 10) - 1, list = words(inputs[j].value);
        list.pop();
        inputs[j].value = list.join(" ");
        choose(j); refresh(); stale();
      }
    });
    inputs.forEach(function (input, i) {
      input.addEventListener("input", function () { refresh(); stale(); });
      input.addEventListener("focus", function () { choose(i); });
    });
    radios.forEach(function (r, i) { r.addEventListener("change", function () { choose(i); }); });
    form.querySelector("select[name='dealer']").addEventListener("change", stale);
    choose(active()); refresh();
    if (form.hasAttribute("data-draft-restored")) stale();  // hands kept on the phone (static/keep.js) since the verdict
  }

  /* The sticky bar stays at the bottom of the phone: whatever is scrolled into view (a card,
     a focused field) stops above it, never under it. */
  function keepClearOf(bar) {
    function fit() { document.documentElement.style.scrollPaddingBottom = (bar.offsetHeight + 8) + "px"; }
    fit();
    window.addEventListener("resize", fit);
    if (window.ResizeObserver) new ResizeObserver(fit).observe(bar);
  }

  document.addEventListener("DOMContentLoaded", function () {
    var form = document.getElementById("showdown-form");
    if (form) setup(form);
    var bar = document.querySelector(".sticky-actions");
    if (bar) keepClearOf(bar);
  });
})();
