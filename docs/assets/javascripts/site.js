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
