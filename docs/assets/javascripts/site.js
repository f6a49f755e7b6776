// Language menu: keep the reader's place (both languages share heading ids) and
// mark the current language.
(function () {
  function update() {
    var lang = document.documentElement.lang;
    document.querySelectorAll("a.md-select__link[hreflang]").forEach(function (a) {
      var url = new URL(a.href, location.href);
      url.hash = location.hash;
      a.href = url.href;
      if (a.getAttribute("hreflang") === lang) a.setAttribute("aria-current", "true");
    });
  }
  window.addEventListener("hashchange", update);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", update);
  else update();
})();

// Code annotation markers are links with no text: give them a name screen readers
// can announce ("注释 1" / "Note 1"). Material adds them after the page loads.
(function () {
  var word = document.documentElement.lang === "en" ? "Note " : "注释 ";
  function label(root) {
    root.querySelectorAll("a.md-annotation__index:not([aria-label])").forEach(function (a) {
      var id = a.querySelector("[data-md-annotation-id]");
      a.setAttribute("aria-label", word + (id ? id.getAttribute("data-md-annotation-id") : ""));
    });
  }
  new MutationObserver(function () { label(document); })
    .observe(document.documentElement, { childList: true, subtree: true });
  label(document);
})();
