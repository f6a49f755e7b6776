// The header's search box is Material's; the answers come from Pagefind (the index
// tools/search/build.py writes to pagefind/, one per language). Material's script
// talks to a search worker: this file hands it a stand-in that answers each query
// with Pagefind's results in the shape Material renders (a page, then its best
// section). Pagefind is loaded at the first query, not with the page, so a page costs
// nothing until the reader searches; the page's <html lang> picks the index.
(function () {
  var RealWorker = window.Worker;
  var root = new URL("../../", document.currentScript.src); // assets/javascripts/ -> site root
  var SHOWN = 3; // results whose text is fetched: what a phone shows on its first screen
  // Reference pages hold many entries: a long page is not a worse answer, and a word in
  // a heading counts more than the same word repeated in prose.
  var RANKING = { pageLength: 0, termFrequency: 0 }; // results whose text is fetched: a phone's first screen, and a few more

  // Words that say nothing about what is searched for: "detach 和 clone 区别" searches
  // detach and clone. Kept when the query has nothing else.
  var STOP_EN = ["vs", "vs.", "versus", "and", "or", "the", "a", "an", "of", "what", "is",
    "are", "between", "difference", "differences", "how", "does", "do", "to", "i", "in"];
  var STOP_ZH = /有什么|什么|区别|不同|怎么|如何|(?<![\u4e00-\u9fff])[和与的吗呢](?![\u4e00-\u9fff])/g;

  function words(query) {
    var kept = query
      .replace(STOP_ZH, " ")
      .split(/\s+/)
      .filter(function (w) { return w && STOP_EN.indexOf(w.toLowerCase()) < 0; });
    return kept.length ? kept.join(" ") : query.trim();
  }

  var pagefind = null;
  function load() {
    if (!pagefind) {
      pagefind = import(new URL("pagefind/pagefind.js", root).href).then(function (pf) {
        return pf.options({ excerptLength: 24, ranking: RANKING }).then(function () { return pf; });
      });
    }
    return pagefind;
  }

  function score(sub) {
    return sub.weighted_locations.reduce(function (sum, w) { return sum + w.balanced_score; }, 0);
  }

  // One page's group in Material's shape: the page first for its title, then its best
  // section (Material shows the sections that score as high as the group's first entry).
  function group(data, rank) {
    var terms = {};
    (data.excerpt.match(/<mark>[^<]*<\/mark>/g) || []).forEach(function (m) {
      terms[m.slice(6, -7).toLowerCase()] = true;
    });
    var subs = data.sub_results
      .filter(function (s) { return s.anchor && s.anchor.element !== "h1"; }) // h1: the page
      .map(function (s) { return { sub: s, score: score(s) }; })
      .sort(function (a, b) { return b.score - a.score; });
    var top = 1000 - rank;
    var page = { location: data.url, title: data.meta.title, text: data.excerpt, terms: terms, score: top };
    if (!subs.length) return [page];
    var sections = subs.map(function (s, i) {
      return { location: s.sub.url, title: s.sub.title, text: s.sub.excerpt, terms: terms, score: i ? top - 1 : top };
    });
    return [sections[0], page].concat(sections.slice(1));
  }

  function search(query) {
    var q = words(query || "");
    if (!q) return Promise.resolve([]);
    return load().then(function (pf) {
      return pf.search(q);
    }).then(function (found) {
      return Promise.all(found.results.slice(0, SHOWN).map(function (r) { return r.data(); }));
    }).then(function (pages) {
      return pages.map(group);
    });
  }
  window.siteSearch = search; // the browser tests ask it directly

  // The stand-in for Material's search worker: SETUP (0) -> READY (1), QUERY (2) ->
  // RESULT (3). Only the answer to the latest query is delivered.
  function SearchWorker() {
    this.target = document.createElement("span");
    this.latest = 0;
  }
  SearchWorker.prototype.addEventListener = function (type, fn, opts) {
    this.target.addEventListener(type, fn, opts);
  };
  SearchWorker.prototype.removeEventListener = function (type, fn, opts) {
    this.target.removeEventListener(type, fn, opts);
  };
  SearchWorker.prototype.deliver = function (data) {
    var event = new MessageEvent("message", { data: data });
    if (this.onmessage) this.onmessage(event);
    this.target.dispatchEvent(event);
  };
  SearchWorker.prototype.postMessage = function (message) {
    var self = this;
    if (message.type === 0) {
      setTimeout(function () { self.deliver({ type: 1 }); });
    } else if (message.type === 2) {
      var id = ++self.latest;
      search(message.data).then(function (items) {
        if (id === self.latest) self.deliver({ type: 3, data: { items: items } });
      }, function (err) {
        console.warn("search failed:", err);
        if (id === self.latest) self.deliver({ type: 3, data: { items: [] } });
      });
    }
  };
  SearchWorker.prototype.terminate = function () {};

  window.Worker = function (url, options) {
    if (/\/workers\/search\.[^/]*\.js$/.test(String(url))) return new SearchWorker();
    return new RealWorker(url, options);
  };
  window.Worker.prototype = RealWorker.prototype;
})();
