/* Nothing a guest or a helper enters on a phone is lost (issue 24 item 1). No framework, no
   inline script (the Content-Security-Policy allows none); without JavaScript the forms post as
   plain forms and nothing here runs.

   A form opts in with data-keep="your report" (what it holds, in words; a button may say more,
   data-keep="your dispute"). From the first tap or key, what the form holds is kept as its
   draft (below: a reload, a phone that sleeps, a browser that drops the page lose nothing),
   until the server confirms the send; data-keep-draft keeps a form's draft alone, for a form
   sent the plain way (the showdown helper). On submit, the form's fields and a one-time request_id (the
   form's own, or a fresh random one) are kept in localStorage, then sent: by fetch, or by htmx
   for a form that has hx-post. The entry stays on the phone until the server confirms it:
   the answer's X-Headtable-Kept header says "recorded" or "already" (sent before: nothing
   recorded twice; see tournament/views/kept.py), and only then is it removed. A send that
   fails says so ("Not sent yet: the Wi-Fi dropped. Your report is kept on this phone and will
   be sent when it is back"), the form's fields come back when the page is loaded again, and
   the entry is sent again by itself when the phone comes back online, when any page of the
   site is loaded, and every 20 seconds while one waits (a Wi-Fi that drops without the phone
   noticing never fires "online"). A refusal ("refused": the round's bell rang meanwhile, the
   guest was removed meanwhile) is kept with its reason for the guest to read, and is not sent
   again until they send the form again or forget it; a form the server gives back with its
   errors beside the fields, at its first send, is shown as the server's own page.

   Why the page's own handler and not a service worker (Workbox's background sync): the party
   is served over plain HTTP on the venue's Wi-Fi (docs/deployment.md), where browsers give no
   service worker at all (they need HTTPS), and background sync is Chromium's only. The pages
   are open while a guest plays, so the page can resend itself. */
(function () {
  "use strict";
  var PREFIX = "headtable-kept:", NEWS = "headtable-kept-news", RETRY_MS = 20000;
  var sending = {};  // request ids on their way now: "first" (sent from its form) or "again"
  var leaving = false;  // the page is going to the server's answer: send nothing more from it
  function storage() { try { return window.localStorage; } catch (e) { return null; } }
  function newId() {
    var bytes = new Uint8Array(16), out = "";
    (window.crypto || window.msCrypto).getRandomValues(bytes);  // randomUUID needs HTTPS; this does not
    bytes.forEach(function (b) { out += (b < 16 ? "0" : "") + b.toString(16); });
    return out;
  }
  function entries() {
    var store = storage(), out = [];
    if (!store) return out;
    for (var i = 0; i < store.length; i++) {
      var key = store.key(i);
      if (key && key.indexOf(PREFIX) === 0) {
        try { out.push(JSON.parse(store.getItem(key))); } catch (e) { /* a damaged entry: skip it */ }
      }
    }
    return out.sort(function (a, b) { return a.at - b.at; });
  }
  function save(entry) {
    try { storage().setItem(PREFIX + entry.id, JSON.stringify(entry)); } catch (e) { /* full or private storage: the page keeps it */ }
  }
  function drop(entry) {
    var store = storage();
    if (!store) return;
    store.removeItem(PREFIX + entry.id);
    (entry.drafts || []).forEach(function (key) { store.removeItem(key); });  // the form's draft (below)
  }
  function words(text) { return (text || "").replace(/\s+/g, " ").trim(); }
  function capital(text) { return text.charAt(0).toUpperCase() + text.slice(1); }

  // What the form holds, in words, for the guest to read while it is kept.
  function summary(form) {
    var shown = form.querySelectorAll("[data-keep-show]"), parts = [];
    if (shown.length) return Array.prototype.map.call(shown, function (el) { return words(el.innerText); }).join(" ");
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || el.disabled || /^(hidden|submit|button|reset|file)$/.test(el.type) || !el.value) return;
      if ((el.type === "checkbox" || el.type === "radio") && !el.checked) return;
      var label = el.labels && el.labels.length ? words(el.labels[0].textContent) : "";
      var box = el.closest("fieldset"), legend = box && box.querySelector("legend");
      if (el.type === "checkbox" || el.type === "radio") parts.push((legend ? words(legend.textContent) + " " : "") + label);
      else if (el.tagName === "SELECT") parts.push(label + " " + words(el.options[el.selectedIndex].textContent));
      else parts.push(label + " " + el.value);
    });
    return parts.join("; ");
  }
  function fields(form) {  // the form's fields as [name, value] pairs (files are never kept)
    var out = [];
    new FormData(form).forEach(function (value, name) { if (typeof value === "string") out.push([name, value]); });
    return out;
  }
  function idField(form) {
    var field = form.querySelector("input[name=request_id]");
    if (!field) {
      field = document.createElement("input");
      field.type = "hidden"; field.name = "request_id";
      form.appendChild(field);
    }
    if (!field.value) field.value = newId();
    return field;
  }
  function entryFor(form, submitter, old) {
    var what = (submitter && submitter.getAttribute("data-keep")) || form.getAttribute("data-keep") || "what you entered";
    return {
      id: idField(form).value, url: actionOf(form), page: location.pathname, what: what,
      fields: fields(form), button: submitter && submitter.name ? [submitter.name, submitter.value] : null, summary: [submitter && submitter.name ? words(submitter.textContent) : "", summary(form)].filter(Boolean).join("; "),
      drafts: [draftKey(form)].concat((form.getAttribute("data-keep-drafts") || "").split(" ").filter(Boolean)),
      htmx: form.hasAttribute("hx-post"), state: "sending", words: "", at: old ? old.at : Date.now()
    };
  }
  function actionOf(form) {  // not form.action: a button named "action" hides it
    return new URL(form.getAttribute("action") || location.href, location.href).href.split("#")[0];
  }
  function find(id) { return entries().filter(function (e) { return e.id === id; })[0]; }

  // The drafts: what a guest enters in a form is kept on the phone from the first tap or key,
  // before it is sent (a reload, a phone that sleeps and a browser that drops the page lose
  // nothing), under DRAFT + the page, the form's action and its place among the page's forms.
  // It goes with the form's entry when sent and is removed once the server confirms it (drop,
  // above). A draft is restored only into the form as the server wrote it when the draft began
  // (its "base"): a form the server writes differently since (its answer to a post, a form
  // given back with its errors, another round or result) has what it knows, and the draft is
  // forgotten. A form opts in with data-keep (it is also sent by this file) or data-keep-draft
  // (kept only, sent the plain way: the poker showdown helper). House rule: a draft older than
  // DRAFT_HOURS is from another evening and forgotten.
  var DRAFT = "headtable-draft:", DRAFT_HOURS = 12, DRAFTED = "form[data-keep], form[data-keep-draft]";
  var bases = typeof WeakMap === "function" ? new WeakMap() : null;
  function draftKey(form) {
    var same = Array.prototype.filter.call(document.querySelectorAll(DRAFTED), function (f) { return actionOf(f) === actionOf(form); });
    return DRAFT + location.pathname + " " + actionOf(form) + " " + Math.max(0, same.indexOf(form));
  }
  function kept(name) { return name && name !== "csrfmiddlewaretoken" && name !== "request_id"; }
  function written(form) {  // the form's fields as the server wrote them (their defaults), in order
    var out = [];
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!kept(el.name) || el.disabled || /^(submit|button|reset|file|image)$/.test(el.type)) return;
      if (el.type === "checkbox" || el.type === "radio") { if (el.defaultChecked) out.push([el.name, el.value]); }
      else if (el.tagName === "SELECT") {
        var chosen = Array.prototype.filter.call(el.options, function (o) { return o.defaultSelected; });
        if (!chosen.length && !el.multiple && el.options.length) chosen = [el.options[0]];  // what the browser shows
        chosen.forEach(function (o) { out.push([el.name, o.value]); });
      } else out.push([el.name, el.defaultValue]);
    });
    return JSON.stringify(out);
  }
  function baseOf(form) {  // taken when the form is first seen, before any script changes it
    if (!bases) return written(form);
    if (!bases.has(form)) bases.set(form, written(form));
    return bases.get(form);
  }
  function entered(form) { return fields(form).filter(function (kv) { return kept(kv[0]); }); }
  function draftSave(form) {
    var store = storage(), key = draftKey(form), now = entered(form), base = baseOf(form);
    if (!store) return;
    try {
      if (JSON.stringify(now) === base) store.removeItem(key);  // nothing entered: nothing to keep
      else store.setItem(key, JSON.stringify({ base: base, fields: now, at: Date.now() }));
    } catch (e) { /* a full or private storage: what was entered stays on the page only */ }
  }
  function draftRestore(form) {
    var store = storage(), key = draftKey(form), draft, base = baseOf(form);
    if (!store) return;
    try { draft = JSON.parse(store.getItem(key) || "null"); } catch (e) { draft = null; }
    if (!draft) return;
    if (draft.base !== base || !(Date.now() - draft.at < DRAFT_HOURS * 3600000)) { store.removeItem(key); return; }
    fill(form, draft.fields, true);
    form.setAttribute("data-draft-restored", "");  // for the page's own script: e.g. a verdict shown is stale
  }
  function draftsRestore() { Array.prototype.forEach.call(document.querySelectorAll(DRAFTED), draftRestore); }
  // Every field named in ``pairs`` ([name, value]) takes its value; with ``whole``, the pairs are
  // all the form held, so a box they do not name is unticked.
  function fill(form, pairs, whole) {
    var byName = {}, used = {};
    pairs.forEach(function (kv) { (byName[kv[0]] = byName[kv[0]] || []).push(kv[1]); });
    Array.prototype.forEach.call(form.elements, function (el) {
      var values = byName[el.name];
      if (!kept(el.name) || (!values && !whole) || /^(submit|button|reset|file|image)$/.test(el.type)) return;
      values = values || [];
      if (el.type === "checkbox" || el.type === "radio") el.checked = values.indexOf(el.value) >= 0;
      else if (values.length) { used[el.name] = used[el.name] || 0; el.value = values[Math.min(used[el.name]++, values.length - 1)]; }
    });
  }

  // The notices: one line per kept entry that waits or was refused, at the top of the page in
  // its own place (never over the form, headtable.css), scrolled into sight when a send from
  // this page has just failed.
  function box() {
    var el = document.querySelector(".kept-notes"), main = document.querySelector("main") || document.body;
    if (!el) {
      el = document.createElement("div");
      el.className = "kept-notes"; el.setAttribute("role", "status"); el.setAttribute("aria-live", "polite");
      var after = main.querySelector(":scope > [role=status]");  // the page's own messages come first
      main.insertBefore(el, after ? after.nextSibling : main.firstChild);
    }
    return el;
  }
  function note(entry) {
    var p = document.createElement("p"), what = capital(entry.what), here = entry.page === location.pathname;
    p.setAttribute("data-kept", entry.id);
    if (entry.state === "refused") {
      p.className = "error kept-refused";
      p.textContent = "Not recorded: " + entry.words + " " + what + " is kept on this phone" +
        (entry.summary ? ": " + entry.summary + "." : ".");
      var forget = document.createElement("button");
      forget.type = "button"; forget.className = "small secondary"; forget.textContent = "Forget it";
      forget.setAttribute("data-kept-forget", entry.id);
      p.appendChild(document.createTextNode(" ")); p.appendChild(forget);
    } else {
      p.className = "warning kept-waiting";
      p.textContent = "Not sent yet: " + (entry.words || "the Wi-Fi dropped.") + " " + what +
        " is kept on this phone and will be sent when it is back.";
    }
    if (!here) {
      var open = document.createElement("a");
      open.href = entry.page; open.textContent = "Open it";
      p.appendChild(document.createTextNode(" ")); p.appendChild(open);
    }
    return p;
  }
  function show(reveal) {  // a form on its first way is not shown: only one that waits or was refused
    var list = entries().filter(function (e) { return sending[e.id] !== "first"; }), el = document.querySelector(".kept-notes");
    if (!list.length && !el) return;
    el = box();
    el.textContent = "";
    list.forEach(function (entry) { el.appendChild(note(entry)); });
    el.hidden = !list.length;
    if (reveal && list.length && el.getBoundingClientRect().top < 0) el.scrollIntoView({ block: "start" });
  }
  function news(text) {
    if (!text) return;
    var p = document.createElement("p");
    p.className = "kept-sent"; p.textContent = text;
    box().appendChild(p);
  }

  // What the server said (tournament/views/kept.py), or that it could not be reached.
  function answered(entry, outcome, said, to, status, first) {
    delete sending[entry.id];
    if (outcome === "recorded" || outcome === "already") {
      drop(entry);
      if (!first || !entry.htmx) {  // an htmx form's own answer is swapped in by htmx
        leaving = true;
        if (to) { go(to); return; }
        try { window.sessionStorage.setItem(NEWS, said || ("Sent: " + entry.what + ".")); } catch (e) { /* none */ }
        location.reload();
        return;
      }
    } else if (outcome === "refused" && first && !to && !entry.htmx && keptForm(entry)) {
      // The server gives the form back with its errors beside the fields: show its own page, by
      // sending the form once more the plain way (the phone has just reached the server); what
      // was entered is in that page's form.
      storage().removeItem(PREFIX + entry.id);
      leaving = true;
      plainSubmit(keptForm(entry), entry);
      return;
    } else if (outcome === "refused" || (status >= 400 && status < 500)) {
      entry.state = "refused";
      entry.words = said || (status === 404 ? "this link no longer works: ask the host." :
        status === 403 ? "the page was too old to send it: open it again and send it again." :
        "the server could not read it (error " + status + ").");
      save(entry);
    } else {
      entry.state = "waiting";
      entry.words = status ? "the server did not answer (error " + status + ")." : "";
      save(entry);
    }
    show(first);
  }
  function plainSubmit(form, entry) {
    if (entry.button) {
      var pressed = document.createElement("input");
      pressed.type = "hidden"; pressed.name = entry.button[0]; pressed.value = entry.button[1];
      form.appendChild(pressed);
    }
    HTMLFormElement.prototype.submit.call(form);  // no submit event: not kept again
  }
  function go(to) {  // the server's page; the same page with only a new #row is loaded again, not just scrolled
    var target = new URL(to, location.href);
    if (target.pathname + target.search !== location.pathname + location.search) { location.assign(target.href); return; }
    if (target.hash) history.replaceState(null, "", target.hash);
    location.reload();
  }
  function header(get, name) {
    var value = get(name);
    try { return value ? decodeURIComponent(value) : ""; } catch (e) { return value || ""; }
  }
  function token() {
    var field = document.querySelector("input[name=csrfmiddlewaretoken]");
    if (field) return field.value;
    try { return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || ""; } catch (e) { return ""; }
  }
  function send(entry, first) {
    if (sending[entry.id]) return Promise.resolve();
    sending[entry.id] = first ? "first" : "again";
    entry.state = "sending"; save(entry);
    var body = new URLSearchParams(), fresh = token();
    entry.fields.concat(entry.button ? [entry.button] : []).forEach(function (kv) {
      body.append(kv[0], kv[0] === "csrfmiddlewaretoken" && fresh ? fresh : kv[1]);  // this page's token: the cookie's own
    });
    return fetch(entry.url, {
      method: "POST", body: body, credentials: "same-origin",
      headers: { "X-Headtable-Keep": "1", "X-CSRFToken": fresh }
    }).then(function (r) {
      var get = r.headers.get.bind(r.headers);
      answered(entry, get("X-Headtable-Kept"), header(get, "X-Headtable-Words"), get("X-Headtable-Location"), r.status, first);
    }, function () { answered(entry, "", "", "", 0, first); });
  }
  function flush() {  // every waiting entry, one after the other, oldest first
    var waiting = entries().filter(function (e) { return e.state !== "refused" && !sending[e.id]; });
    return waiting.reduce(function (chain, entry) {
      return chain.then(function () { if (!leaving && find(entry.id)) return send(entry, false); });
    }, Promise.resolve());
  }

  // A kept form's fields come back when its page is loaded again.
  function restore(form, entry) {
    idField(form).value = entry.id;
    fill(form, entry.fields, false);
  }
  function keptForm(entry) {
    return Array.prototype.filter.call(document.querySelectorAll("form[data-keep]"), function (f) {
      return actionOf(f) === entry.url;
    })[0];
  }

  document.addEventListener("submit", function (e) {
    var form = e.target;
    if (!form.matches || !form.matches("form[data-keep]") || !storage()) return;
    var old = find((form.querySelector("input[name=request_id]") || {}).value || "");
    var entry = entryFor(form, e.submitter, old);
    save(entry);
    if (entry.htmx) { sending[entry.id] = "first"; return; }  // htmx sends it; its events answer below
    e.preventDefault();
    send(entry, true);
  }, true);  // capture: before htmx reads the form, so the request id goes with it
  document.addEventListener("htmx:configRequest", function (e) {
    var form = e.detail.elt && e.detail.elt.closest && e.detail.elt.closest("form[data-keep]");
    if (form) e.detail.headers["X-Headtable-Keep"] = "1";
  });
  function htmxEntry(e) {  // the kept entry an htmx request was sent for (by the request's own element)
    var config = e.detail.requestConfig, elt = (config && config.elt) || e.detail.elt;
    var form = elt && elt.closest && elt.closest("form[data-keep]");
    var field = form && form.querySelector("input[name=request_id]");
    return field && field.value ? find(field.value) : null;
  }
  // An answer, before htmx swaps it in (the swap may take the form out of the page, and an
  // element out of the page sends its later events to nobody).
  document.addEventListener("htmx:beforeSwap", function (e) {
    var entry = htmxEntry(e), xhr = e.detail.xhr;
    if (!entry || !xhr || !xhr.status) return;
    var get = function (name) { return xhr.getResponseHeader(name); };
    answered(entry, get("X-Headtable-Kept"), header(get, "X-Headtable-Words"), "", xhr.status, true);
  });
  document.addEventListener("htmx:afterRequest", function (e) {  // no answer: the Wi-Fi dropped
    var entry = htmxEntry(e), xhr = e.detail.xhr;
    if (entry && (!xhr || !xhr.status)) answered(entry, "", "", "", 0, true);
  });
  // Every tap and key is kept in the form's draft; after a failed send they update what is
  // kept too: the resend sends what the form shows.
  ["input", "change", "click"].forEach(function (type) {
    document.addEventListener(type, function (e) {
      var form = e.target.closest && e.target.closest(DRAFTED);
      if (!form) return;
      baseOf(form);  // now, before the score helper writes the tap in
      setTimeout(function () { if (form.isConnected) draftSave(form); }, 0);  // after the score helper has written its totals
      if (!form.matches("form[data-keep]") || (type === "click" && e.target.closest("button[type=submit], button:not([type]), input[type=submit]"))) return;
      setTimeout(function () {
        var field = form.querySelector("input[name=request_id]"), entry = field && field.value && find(field.value);
        if (!entry || sending[entry.id] || entry.url !== actionOf(form)) return;
        entry.fields = fields(form); entry.summary = summary(form) || entry.summary;
        save(entry);
      }, 0);
    });
  });
  document.addEventListener("click", function (e) {
    var forget = e.target.closest && e.target.closest("[data-kept-forget]");
    if (!forget) return;
    var entry = find(forget.getAttribute("data-kept-forget"));
    if (entry) drop(entry);
    show();
  });
  // Drafts and kept forms come back now, as the page is read (this file is deferred and comes
  // before the page's own scripts, e.g. the score helper and the showdown helper, which then
  // start from what is restored); a form htmx brings in later comes back as it arrives.
  function restoreAll() {
    draftsRestore();
    entries().forEach(function (entry) {
      var form = keptForm(entry);
      if (form) restore(form, entry);
      if (entry.state === "sending") { entry.state = "waiting"; save(entry); }  // the page went while it was on its way
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", restoreAll);
  else restoreAll();
  document.addEventListener("htmx:load", function (e) {
    var elt = e.detail && e.detail.elt;
    if (!elt || !elt.querySelectorAll || elt === document.body) return;
    var forms = Array.prototype.slice.call(elt.querySelectorAll(DRAFTED));
    if (elt.matches && elt.matches(DRAFTED)) forms.push(elt);
    forms.forEach(function (form) { if (!bases || !bases.has(form)) draftRestore(form); });  // a form new to the page only
  });
  document.addEventListener("DOMContentLoaded", function () {
    show();
    try { news(window.sessionStorage.getItem(NEWS)); window.sessionStorage.removeItem(NEWS); } catch (e) { /* none */ }
    flush();
    setInterval(function () { if (navigator.onLine !== false) flush(); }, RETRY_MS);
  });
  window.addEventListener("online", function () { flush(); });
})();
