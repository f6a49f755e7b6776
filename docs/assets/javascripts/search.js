// The header's search box is Material's; the answers come from Pagefind (the index
// tools/build/search.py writes to pagefind/<lang>/, one record per section). Material's
// script talks to a search worker: this file hands it a stand-in that answers each
// query with Pagefind's results in the shape Material renders (a section, then its
// page). Pagefind is loaded at the first query, not with the page, so a page costs
// nothing until the reader searches; the page's <html lang> picks the index.
(function () {
  var RealWorker = window.Worker;
  var root = new URL("../../", document.currentScript.src); // assets/javascripts/ -> site root
  var LANG = document.documentElement.getAttribute("lang") === "en" ? "en" : "zh";
  var SHOWN = 8; // records whose text is fetched: about two phone screens of results
  // Pagefind in the page (no worker: one file fewer to fetch). The search fields
  // (tools/build/search.py): a heading's words (t) count far more than the same words
  // in the text, the page's title (p) a little more. A query that reads like a
  // pasted message (an XxxError: or a Warning:, or a long sentence) weighs the message
  // an error entry answers (m) most; a query that compares (x vs y, x and y, x 和 y 区别) is a
  // question, and the FAQ's questions (q) then count as much as headings again.
  var WEIGHTS = { t: 10, p: 3, m: 0, q: 0, title: 0, page: 0 };
  var MESSAGE = /\b\w*(Error|Warning)\b/;
  var COMPARISON = /\b(vs\.?|versus|differences?|different|or|and)\b|区别|不同|还是|[和与或]/i;
  function weights(query) {
    var w = {};
    for (var k in WEIGHTS) w[k] = WEIGHTS[k];
    var latin = query.split(/\s+/).filter(function (c) {
      return /^[\x21-\x7e]+$/.test(c) && STOP_EN.indexOf(c.toLowerCase()) < 0;
    });
    if (MESSAGE.test(query)) w.m = 40;
    else if (latin.length >= 4) w.m = 20;
    if (COMPARISON.test(query)) w.q = 10;
    return w;
  }
  var OPTIONS = { noWorker: true, ranking: { metaWeights: WEIGHTS } };
  var SENTINEL = "\u2063"; // the record's text for readers ends here (tools/build/search.py)
  // A word of every record (EVERY_RECORD): searched with a filter, it lists the records
  // the filter selects from one chunk of the index (a search for nothing fetches all).
  var EVERY = "siterecord";
  var HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff";
  var HAN_RUN = new RegExp("[" + HAN + "]+", "g");
  var CJK = HAN + "\u3000-\u303f\uff00-\uffef";
  var CJK_GAP = new RegExp("([" + CJK + "]) +(?=[" + CJK + "])", "g");
  var IDENT = /\.?[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*/g;

  // Words that say nothing about what is searched for: "detach 和 clone 区别" searches
  // detach and clone. Kept when the query has nothing else.
  var STOP_EN = ["vs", "vs.", "versus", "and", "or", "the", "a", "an", "of", "what", "is",
    "are", "between", "difference", "differences", "how", "does", "do", "to", "i", "in"];
  var STOP_ZH = new RegExp("有什么|什么|区别|不同|怎么|如何|还是|(?<![" + HAN + "])[和与的吗呢](?![" + HAN + "])", "g");

  // The query cut into the index's words (tools/build/search.py, index_words): a run
  // of Chinese characters as its pairs, identifiers whole, no stop words.
  function cut(query) {
    var words = [], shown = [];
    function add(list, w) { if (list.indexOf(w) < 0) list.push(w); }
    query.replace(STOP_ZH, " ").split(/\s+/).forEach(function (chunk) {
      if (!chunk || STOP_EN.indexOf(chunk.toLowerCase()) >= 0) return;
      (chunk.match(HAN_RUN) || []).forEach(function (run) {
        add(shown, run);
        if (run.length === 1) return add(words, run);
        for (var i = 0; i + 1 < run.length; i++) add(words, run.slice(i, i + 2));
      });
      (chunk.replace(HAN_RUN, " ").match(IDENT) || []).forEach(function (ident) {
        if (ident.replace(/^\./, "").length < 2) return;
        add(words, ident.toLowerCase());
        add(shown, ident.replace(/^\./, ""));
      });
    });
    var asked = askedNames(query);
    return { words: words, shown: shown, names: asked.names, args: asked.args, topic: topicWords(query) };
  }

  // A short query in plain words (GAN, 叶子节点, saved tensors) may name a page's topic:
  // its words as the filter topic has them (tools/build/search.py, topic_words), or
  // none for a query with code in it, a comparison or more than three words.
  function topicWords(query) {
    if (COMPARISON.test(query)) return [];
    var chunks = query.replace(STOP_ZH, " ").split(/\s+/).filter(function (w) {
      return w && STOP_EN.indexOf(w.toLowerCase()) < 0;
    });
    var plain = new RegExp("^[A-Za-z" + HAN + "-]+$");
    if (!chunks.length || chunks.length > 3 || !chunks.every(function (c) { return plain.test(c); })) return [];
    var words = [];
    chunks.join(" ").toLowerCase().split(/[^0-9a-z\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+/).forEach(function (chunk) {
      (chunk.match(HAN_RUN) || []).forEach(function (run) {
        if (run.length === 1) words.push(run);
        for (var i = 0; i + 1 < run.length; i++) words.push(run.slice(i, i + 2));
      });
      chunk.replace(HAN_RUN, " ").split(" ").forEach(function (w) { if (w) words.push(w); });
    });
    return words.filter(function (w, i) { return words.indexOf(w) === i; });
  }

  // The records of the pages whose title has every word of a topic query, in the
  // site's reading order (a page's own record before its sections); none when more
  // than TOPIC_RECORDS records are (detach: the site's subject, not a page's topic).
  var TOPIC_RECORDS = 40;
  function topical(pf, q) {
    if (!q.topic.length || q.message) return Promise.resolve([]);
    return pf.search(EVERY, { filters: { topic: { all: q.topic } }, sort: { order: "asc" } }).then(function (r) {
      return r.results.length > TOPIC_RECORDS ? [] : r.results;
    });
  }

  // What a query that is one identifier asks for by name (its arguments aside:
  // model.to(device) asks for model.to, then for to with the word "model"), or a few
  // bare words that spell one (no grad: no_grad); a keyword argument
  // (persistent=False) asks for an argument.
  function askedNames(query) {
    var names = [], args = [];
    var chunks = query.replace(/\([^()]*\)/g, " ").replace(STOP_ZH, " ").split(/\s+/).filter(function (w) {
      return w && STOP_EN.indexOf(w.toLowerCase()) < 0;
    });
    if (!chunks.length || /[\u3400-\u9fff]/.test(chunks.join(""))) return { names: names, args: args };
    if (chunks.length === 1 && /^[A-Za-z_]\w*=/.test(chunks[0])) {
      return { names: names, args: [chunks[0].split("=")[0].toLowerCase()] };
    }
    var idents = (chunks.join(" ").match(IDENT) || []).map(function (i) { return i.toLowerCase().replace(/^\./, ""); });
    if (idents.length === 1) {
      var parts = idents[0].split(".");
      for (var i = 0; i < parts.length; i++) {
        names.push({ name: parts.slice(i).join("."), rest: parts.slice(0, i) });
        // an argument has an underscore (retain_graph) or was written after a dot
        if (/_/.test(parts[i]) || i) args.push(parts.slice(i).join("."));
      }
    } else if (idents.length <= 3 && chunks.every(function (w) { return /^[A-Za-z]+$/.test(w); })) {
      names.push({ name: idents.join("_"), rest: [] }, { name: idents.join("."), rest: [] });
      // or a name and one of its arguments (numpy force: Tensor.numpy(force=False))
      if (idents.length === 2) {
        names.push({ name: idents[0], arg: idents[1], rest: [] }, { name: idents[1], arg: idents[0], rest: [] });
      }
      args.push(idents.join("_"));
    }
    return { names: names, args: args };
  }

  var pagefind = null;
  function load() {
    if (!pagefind) {
      pagefind = import(new URL("pagefind/" + LANG + "/pagefind.js", root).href).then(function (pf) {
        // The index's words are already cut (no language: nothing stemmed or segmented),
        // and Pagefind reads the language from <html lang> when it starts.
        var html = document.documentElement;
        html.setAttribute("lang", "und");
        var instance = pf.createInstance(window.siteSearchOptions || OPTIONS);
        html.setAttribute("lang", LANG);
        return instance;
      });
    }
    return pagefind;
  }

  function escapeHtml(s) {
    return s.replace(/[&<>"]/g, function (c) { return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]; });
  }

  // What readers see of a record: the text before the sentinel, Chinese unspaced.
  function readable(text) {
    return text.split(SENTINEL)[0].replace(CJK_GAP, "$1").replace(/\s+/g, " ").trim();
  }

  // A few words around the first word searched for, those words marked.
  function excerpt(text, shown) {
    var lower = text.toLowerCase(), at = -1;
    shown.forEach(function (w) {
      var i = lower.indexOf(w.toLowerCase());
      if (i >= 0 && (at < 0 || i < at)) at = i;
    });
    var start = Math.max(0, at - 30);
    var piece = (start > 0 ? "…" : "") + text.slice(start, start + 140);
    var html = escapeHtml(piece);
    shown.slice().sort(function (a, b) { return b.length - a.length; }).forEach(function (w) {
      var word = escapeHtml(w).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      // a Latin word is marked whole (not "graph" inside retain_graph); Chinese has no gaps
      if (/^[\x00-\x7f]+$/.test(w)) {
        if (/^\w/.test(w)) word = "(?<!\\w)" + word;
        if (/\w$/.test(w)) word += "(?!\\w)";
      }
      var re = new RegExp("(" + word + ")(?![^<]*>)", "gi");
      html = html.replace(re, "<mark>$1</mark>");
    });
    return html;
  }

  // A section's text starts with its heading, which the result shows as its title.
  function withoutTitle(text, title) {
    return title && text.indexOf(title) === 0 ? text.slice(title.length).trim() : text;
  }

  // One result per page, in Material's shape: the best section of the page first,
  // then the page, then its other sections found.
  function groups(records, shown) {
    var byPage = {}, out = [], terms = {};
    shown.forEach(function (w) { terms[w.toLowerCase()] = true; });
    records.forEach(function (data, rank) {
      var hash = data.url.indexOf("#");
      var pageUrl = hash < 0 ? data.url : data.url.slice(0, hash);
      var top = 1000 - rank;
      var group = byPage[pageUrl];
      if (!group) {
        group = byPage[pageUrl] = [];
        out.push(group);
        group.page = { location: pageUrl, title: readable(data.meta.page || data.meta.title), text: "", terms: terms, score: top - 1 };
      }
      var title = readable(data.meta.title);
      var text = excerpt(withoutTitle(readable(data.content), title), shown);
      var entry = { location: data.url, title: title, text: text, terms: terms, score: group.length ? top - 1 : top };
      if (hash < 0) {
        group.page.text = entry.text;
        group.page.score = top;
      } else {
        group.push(entry);
      }
    });
    return out.map(function (group) {
      return group.length ? [group[0], group.page].concat(group.slice(1)) : [group.page];
    });
  }

  // Every word must match; when no record has them all (a pasted message with the
  // reader's own values in it), the records that have most of them, best first.
  // The records a code heading names first, then those that list it as an
  // argument, then every record that has the words.
  function find(pf, q) {
    return Promise.all([topical(pf, q), named(pf, q), all(pf, q.words, q.message)]).then(function (lists) {
      var seen = {};
      return lists[0].concat(lists[1], lists[2]).filter(function (r) {
        if (seen[r.id]) return false;
        return (seen[r.id] = true);
      });
    });
  }

  // The records whose code heading gives the name, the longest name first; several
  // with one name in the site's reading order, or, when the query named more
  // (model.to), by that word. Then the records that list it as an argument.
  function named(pf, q) {
    var tries = q.names.map(function (n) { return { filters: n.arg ? { name: n.name, arg: n.arg } : { name: n.name }, rest: n.rest }; })
      .concat(q.args.map(function (a) { return { filters: { arg: a }, rest: [] }; }));
    return tries.reduce(function (chain, t) {
      return chain.then(function (found) {
        if (found.length) return found;
        var filters = t.filters;
        var inOrder = { filters: filters, sort: { order: "asc" } };
        var first = t.rest.length ? pf.search(t.rest.join(" "), { filters: filters }) : pf.search(EVERY, inOrder);
        return first.then(function (r) {
          if (r.results.length || !t.rest.length) return r.results;
          return pf.search(EVERY, inOrder).then(function (r2) { return r2.results; });
        });
      });
    }, Promise.resolve([]));
  }

  // Records with every word: those whose heading (t) and page title (p) both have
  // query words first, then one of them, then the others; Pagefind's order within each.
  // A pasted message is left in Pagefind's order (its words are the message field's).
  function byHeading(results, message) {
    if (message) return results;
    function tier(r) {
      var fields = r.matchedMetaFields || [];
      return (fields.indexOf("t") >= 0 ? 1 : 0) + (fields.indexOf("p") >= 0 ? 1 : 0);
    }
    return results.map(function (r, i) { return { r: r, i: i, tier: tier(r) }; }).sort(function (a, b) {
      return b.tier - a.tier || a.i - b.i;
    }).map(function (x) { return x.r; });
  }

  function all(pf, words, message) {
    return pf.search(words.join(" ")).then(function (found) {
      if (found.results.length) return byHeading(found.results, message);
      if (words.length < 2) return found.results;
      return Promise.all(words.map(function (w) { return pf.search(w); })).then(function (each) {
        var byId = {};
        each.forEach(function (found) {
          found.results.forEach(function (r) {
            var hit = byId[r.id] || (byId[r.id] = { result: r, words: 0, score: 0 });
            hit.words += 1;
            hit.score += r.score;
          });
        });
        return Object.keys(byId).map(function (id) { return byId[id]; }).sort(function (a, b) {
          return b.words - a.words || b.score - a.score;
        }).map(function (hit) { return hit.result; });
      });
    });
  }

  // One query at a time: each sets the weights its searches use.
  var queue = Promise.resolve();
  function search(query) {
    var answer = queue.then(function () { return searchNow(query); });
    queue = answer.catch(function () {});
    return answer;
  }

  function searchNow(query) {
    var q = cut(query || "");
    if (!q.words.length) return Promise.resolve([]);
    var w = weights(query);
    q.message = w.m > 0;
    return load().then(function (pf) {
      return pf.options({ ranking: { metaWeights: w } }).then(function () { return pf; });
    }).then(function (pf) {
      return find(pf, q);
    }).then(function (results) {
      return Promise.all(results.slice(0, SHOWN).map(function (r) { return r.data(); }));
    }).then(function (records) {
      return groups(records, q.shown);
    });
  }
  window.siteSearch = search; // the browser tests ask it directly

  // The stand-in for Material's search worker: SETUP (0) -> READY (1), QUERY (2) ->
  // RESULT (3). Only the answer to the latest query is delivered.
  // A phone's paste and an input method's commit change the box with no key pressed,
  // and Material's box searches on keyup: pass such a change on as one.
  ["input", "compositionend"].forEach(function (type) {
    document.addEventListener(type, function (event) {
      var box = event.target;
      if (box && box.matches && box.matches("input.md-search__input")) {
        box.dispatchEvent(new KeyboardEvent("keyup", { bubbles: true }));
      }
    }, true);
  });

  var TYPING_PAUSE_MS = 250;
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
      // Typed letter by letter, a query waits for a pause: each prefix searched would
      // fetch index chunks of its own (a phone's data), and only the last is shown.
      var id = ++self.latest;
      clearTimeout(self.pause);
      self.pause = setTimeout(function () {
        if (id !== self.latest) return;
        search(message.data).then(function (items) {
          if (id === self.latest) self.deliver({ type: 3, data: { items: items } });
        }, function (err) {
          console.warn("search failed:", err);
          if (id === self.latest) self.deliver({ type: 3, data: { items: [] } });
        });
      }, TYPING_PAUSE_MS);
    }
  };
  SearchWorker.prototype.terminate = function () {};

  window.Worker = function (url, options) {
    if (/\/workers\/search\.[^/]*\.js$/.test(String(url))) return new SearchWorker();
    return new RealWorker(url, options);
  };
  window.Worker.prototype = RealWorker.prototype;
})();
