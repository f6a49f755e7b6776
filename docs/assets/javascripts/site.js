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

// Tables too wide for the text column (a phone, a long cell): each row becomes a card
// (site.css, .site-table--cards), each cell labelled with its column's header (the
// build adds data-label). Checked again when the window is resized.
(function () {
  function fit() {
    document.querySelectorAll(".md-typeset table:not([class*='doc-'])").forEach(function (table) {
      if (!table.querySelector("td[data-label]")) return;
      table.classList.remove("site-table--cards");
      // An empty class="" would stop Material's table:not([class]) rules from matching.
      if (!table.classList.length) table.removeAttribute("class");
      var wrap = table.closest(".md-typeset__scrollwrap") || table.parentElement;
      var column = table.closest("article") || document.body;
      var tooWide =
        wrap.scrollWidth > wrap.clientWidth + 1 ||
        table.getBoundingClientRect().right > column.getBoundingClientRect().right + 1;
      if (tooWide) table.classList.add("site-table--cards");
    });
  }
  var timer, width = window.innerWidth;
  window.addEventListener("resize", function () {
    if (window.innerWidth === width) return; // a phone's toolbar hiding changes the height only
    width = window.innerWidth;
    clearTimeout(timer);
    timer = setTimeout(fit, 100);
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", fit);
  else fit();
  // A table in a tab or a closed <details> has no width until it is shown.
  document.addEventListener("toggle", fit, true);
  document.addEventListener("change", fit, true);
})();

// Search results: titles and excerpts without the zero-width spaces and tabs the index
// separates Chinese words with (the index keeps them, so words are still found).
(function () {
  function clean(root) {
    var walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (var n = walker.nextNode(); n; n = walker.nextNode()) {
      if (/[\u200b\t]/.test(n.nodeValue)) n.nodeValue = n.nodeValue.replace(/[\u200b\t]/g, "");
    }
  }
  var list = document.querySelector(".md-search-result__list");
  if (list) new MutationObserver(function () { clean(list); }).observe(list, { childList: true, subtree: true });
})();

// The page title in the header (shown once the page scrolls) gets the heading's word
// breaks (<wbr>, which the build puts between Chinese words), so on a phone it wraps
// between words, as the heading does: "保存的张量与 / 计算图", not "保存的张量与计 / 算图".
(function () {
  function copy() {
    var h1 = document.querySelector(".md-content h1");
    var topic = document.querySelector(".md-header__topic + .md-header__topic > .md-ellipsis");
    if (!h1 || !topic || !h1.querySelector("wbr")) return;
    var clone = h1.cloneNode(true);
    clone.querySelectorAll(".headerlink").forEach(function (a) { a.remove(); });
    if (clone.textContent.trim() !== topic.textContent.trim()) return; // another title
    topic.innerHTML = clone.innerHTML;
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", copy);
  else copy();
})();

// Phones: a wrapped code line hangs 4ch deeper than its own indent (site.css reads
// --hang); aligned outputs wider than the screen get a "scroll sideways" cue.
(function () {
  function mark() {
    document.querySelectorAll(".md-typeset pre > code > span[id^='__span']").forEach(function (line) {
      // capped: a deep hang (an aligned continuation) would widen the whole block
      var indent = Math.min(line.textContent.match(/^ */)[0].length, 8);
      if (indent) line.style.setProperty("--hang", indent + 4 + "ch");
    });
    document.querySelectorAll(".md-typeset .output-aligned").forEach(function (box) {
      var code = box.querySelector("pre > code"); // Material scrolls the code element
      box.classList.toggle("is-wide", !!code && code.scrollWidth > code.clientWidth + 1);
    });
  }
  var width = window.innerWidth;
  window.addEventListener("resize", function () {
    if (window.innerWidth !== width) { width = window.innerWidth; mark(); }
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", mark);
  else mark();
})();

// Desktop sidebar: the current page's entry is in view, clear of the sidebar's sticky
// title, and the first entry shown is whole: Material's scroll to the current entry
// could leave an entry half under the title (reader review D22).
(function () {
  function centre() {
    var wrap = document.querySelector(".md-sidebar--primary .md-sidebar__scrollwrap");
    if (!wrap || !wrap.clientHeight) return;
    var links = wrap.querySelectorAll("a.md-nav__link--active[href]");
    var link = Array.prototype.filter.call(links, function (a) { return a.clientHeight; }).pop();
    if (!link) return;
    var title = wrap.querySelector(".md-nav--primary > .md-nav__title");
    var top = title && getComputedStyle(title).position === "sticky" ? title.getBoundingClientRect().bottom : wrap.getBoundingClientRect().top;
    var box = link.getBoundingClientRect();
    var bottom = wrap.getBoundingClientRect().bottom;
    if (box.top < top || box.bottom > bottom) wrap.scrollTop += box.top - (top + bottom - box.height) / 2;
    // The first entry shown starts below the title, not half under it.
    var entries = wrap.querySelectorAll(".md-nav--primary .md-nav__link");
    for (var i = 0; i < entries.length; i++) {
      var r = entries[i].getBoundingClientRect();
      if (getComputedStyle(entries[i]).visibility !== "visible") continue; // a closed section
      if (r.height && r.top < top - 1 && r.bottom > top + 1) {
        wrap.scrollTop -= top - r.top;
        break;
      }
    }
  }
  window.addEventListener("load", function () {
    requestAnimationFrame(function () { setTimeout(centre, 0); });
  });
})();
