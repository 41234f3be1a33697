/* Head Table, the formats at tables of four (no framework; every page works without it):
   - the evening form shows only the settings of the chosen format (each group of settings names
     the formats that ask it; a blank choice is the site's default format);
   - the euchre result form adds hands one tap at a time and shows the running total. */
(function () {
  "use strict";
  function showGroups() {
    var select = document.querySelector("select[name=format]");
    if (!select) return;
    var chosen = select.value || select.getAttribute("data-default-format");
    document.querySelectorAll("[data-format-group]").forEach(function (group) {
      var keys = group.getAttribute("data-format-group").split(" ");
      group.hidden = keys.indexOf(chosen) < 0;
    });
  }
  function euchreTotals(form) {
    var hands = form.querySelector("input[name=hands]");
    if (!hands) return;
    var totals = { NS: 0, EW: 0 };
    hands.value.split(/[\s,]+/).forEach(function (hand) {
      var m = /^(NS|EW)([124])$/.exec(hand.trim());
      if (m) totals[m[1]] += parseInt(m[2], 10);
    });
    form.querySelectorAll("[data-total]").forEach(function (el) {
      el.textContent = totals[el.getAttribute("data-total")];
    });
    handsList(form, hands.value);
  }
  /* The hands tapped so far in words ("Hand 1: North–South, 2 points"), in place of the typed
     field's codes, which only a browser without JavaScript shows. */
  function handsList(form, value) {
    var list = form.querySelector("[data-hands-list]");
    if (!list) return;
    var words = { NS: "North–South", EW: "East–West" };
    list.textContent = "";
    value.split(/[\s,]+/).forEach(function (hand) {
      var m = /^(NS|EW)([124])$/.exec(hand.trim().toUpperCase());
      if (!m) return;
      var item = document.createElement("li");
      var n = parseInt(m[2], 10);
      item.textContent = words[m[1]] + ", " + n + (n === 1 ? " point" : " points");
      list.appendChild(item);
    });
    list.hidden = !list.children.length;
  }
  document.addEventListener("DOMContentLoaded", function () {
    showGroups();
    var select = document.querySelector("select[name=format]");
    if (select) select.addEventListener("change", showGroups);
    document.querySelectorAll("[data-euchre-hands]").forEach(function (form) {
      var hands = form.querySelector("input[name=hands]");
      var typed = form.querySelector("[data-hands-typed]");
      if (typed && !form.querySelector(".errorlist")) typed.hidden = true;
      form.querySelectorAll("button[data-hand]").forEach(function (button) {
        button.hidden = false;
        button.addEventListener("click", function (event) {
          event.preventDefault();
          var hand = button.getAttribute("data-hand");
          if (hand === "undo") {
            var parts = hands.value.trim().split(/[\s,]+/).filter(Boolean);
            parts.pop();
            hands.value = parts.join(" ");
          } else {
            hands.value = (hands.value.trim() + " " + hand).trim();
          }
          euchreTotals(form);
        });
      });
      hands.addEventListener("input", function () { euchreTotals(form); });
      euchreTotals(form);
    });
  });
})();
