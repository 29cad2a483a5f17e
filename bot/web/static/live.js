// The game page, live: its event stream says the game's version; at a new one the page's <main>
// is fetched again and swapped in place (no reload, no polling). Times show in the reader's zone.
"use strict";
(function () {
  var body = document.body;

  function localTimes(root) {
    var format = new Intl.DateTimeFormat(document.documentElement.lang || undefined,
                                         { dateStyle: "full", timeStyle: "short" });
    root.querySelectorAll("time[data-local]").forEach(function (time) {
      var moment = new Date(time.getAttribute("datetime"));
      if (!isNaN(moment)) { time.textContent = format.format(moment); }
    });
  }

  function refresh() {
    fetch(window.location.href, { cache: "no-store", credentials: "omit" })
      .then(function (answer) { return answer.ok ? answer.text() : null; })
      .then(function (html) {
        if (html === null) { return; }
        var fresh = new DOMParser().parseFromString(html, "text/html").querySelector("main");
        var current = document.querySelector("main");
        if (!fresh || !current) { return; }
        current.replaceWith(document.importNode(fresh, true));
        body.setAttribute("data-version", fresh.getAttribute("data-version"));
        localTimes(document);
      });
  }

  localTimes(document);
  var url = body.getAttribute("data-events");
  if (!url || !window.EventSource) { return; }
  var stream = new EventSource(url);
  stream.addEventListener("open", function () { document.getElementById("live").hidden = false; });
  stream.addEventListener("error", function () { document.getElementById("live").hidden = true; });
  stream.addEventListener("version", function (event) {
    if (event.data !== body.getAttribute("data-version")) { refresh(); }
  });
})();
