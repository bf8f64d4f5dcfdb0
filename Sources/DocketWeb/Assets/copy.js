// The rules of Docket's core for the page's own copy of the tracker: which issues a filter and
// a search show, in which order, and the changes the page makes as a device of its own. Nothing
// here touches the page: the same file runs under `node --test` against the test vectors the
// Swift core's tests run too (Tests/Vectors/search.json).
(function (root, make) {
  'use strict';
  if (typeof module === 'object' && module.exports) module.exports = make(require('./words.js'));
  else root.DocketCopy = make(root.DocketWords);
})(typeof self !== 'undefined' ? self : this, function (wordTable) {
  'use strict';

  var RECENT_SECONDS = 7 * 24 * 60 * 60;
  var PRIORITIES = { low: 0, l: 0, medium: 1, m: 1, med: 1, high: 2, h: 2 };
  var PRIORITY_NAMES = ['low', 'medium', 'high'];

  var MARKS = /\p{M}/gu;
  // eslint-disable-next-line no-control-regex
  var ASCII = /^[\x00-\x7f]*$/;
  // In ASCII the index's words are letters and digits, lower case.
  var ASCII_WORD = /[A-Za-z0-9]+/g;

  // The index's own rules for text beyond ASCII (words.js, made from SQLite's unicode61 with
  // diacritics removed): which code points end a word, and the form each keeps in one. Read
  // into a table when first wanted.
  var rules = null;
  function wordRules() {
    if (rules) return rules;
    var separates = new Uint8Array(0x10000);
    var beyond = [];
    var end = 0;
    wordTable.separators.split(',').forEach(function (run) {
      var parts = run.split('.');
      var start = end + parseInt(parts[0], 36);
      end = start + parseInt(parts[1], 36);
      for (var point = start; point < Math.min(end, 0x10000); point++) separates[point] = 1;
      if (end > 0x10000) beyond.push([Math.max(start, 0x10000), end]);
    });
    var folds = new Map();
    var last = 0;
    wordTable.folds.split(',').forEach(function (entry) {
      var parts = entry.split('.');
      last += parseInt(parts[0], 36);
      folds.set(last, parts[1] ? String.fromCodePoint(parseInt(parts[1], 36)) : '');
    });
    rules = {
      separates: function (point) {
        if (point < 0x10000) return separates[point] === 1;
        return beyond.some(function (run) { return point >= run[0] && point < run[1]; });
      },
      folds: folds,
    };
    return rules;
  }

  // Text cut into the index's words, each as the index keeps it.
  function words(text) {
    if (ASCII.test(text)) return (text.match(ASCII_WORD) || []).map(function (word) { return word.toLowerCase(); });
    var table = wordRules();
    var result = [];
    var word = '';
    for (var character of text) {
      var point = character.codePointAt(0);
      if (table.separates(point)) {
        if (word) result.push(word);
        word = '';
      } else {
        var kept = table.folds.get(point);
        word += kept === undefined ? character : kept;
      }
    }
    if (word) result.push(word);
    return result;
  }

  // A word as the index keeps it, its characters folded one by one.
  function fold(text) {
    if (ASCII.test(text)) return text.toLowerCase();
    var folds = wordRules().folds;
    var result = '';
    for (var character of text) {
      var kept = folds.get(character.codePointAt(0));
      result += kept === undefined ? character : kept;
    }
    return result;
  }

  // Every diacritic gone, as Foundation's folding for titles' order.
  function foldAll(text) {
    return text.normalize('NFD').replace(MARKS, '').toLowerCase();
  }


  // A tag name as names compare: its words joined by one space, in any case.
  function tagKey(name) {
    return name.split(/[\s\p{Cc}]+/u).filter(Boolean).join(' ').toLowerCase();
  }

  // A title's sort key (SortKey.fold): lower case, diacritics gone for text beyond ASCII.
  function sortKey(text) {
    // eslint-disable-next-line no-control-regex
    return /^[\x00-\x7f]*$/.test(text) ? text.toLowerCase() : foldAll(text);
  }

  // The terms of typed text: white space between, double quotes around a term with spaces.
  function terms(input) {
    var result = [];
    var raw = '', unquoted = '', firstQuote = -1, quoted = false;
    function finish() {
      if (raw) result.push({ raw: raw, unquoted: unquoted, firstQuote: firstQuote });
      raw = ''; unquoted = ''; firstQuote = -1;
    }
    for (var character of input) {
      if (character === '"') {
        if (firstQuote < 0) firstQuote = Array.from(unquoted).length;
        quoted = !quoted;
        raw += character;
      } else if (/\s/u.test(character) && !quoted) {
        finish();
      } else {
        raw += character;
        unquoted += character;
      }
    }
    finish();
    return result;
  }

  // What typed text asks for, by the core's rules (SearchParser); `error` names a token with a
  // value the core refuses.
  function parseSearch(input) {
    var query = {
      text: [], excludedText: [], tags: [], excludedTags: [], priorities: [],
      excludedPriorities: [], statuses: [], error: null,
    };
    function addText(body, negated) {
      var text = body.trim();
      if (!text) return;
      if (negated && words(text).length === 0) return;
      (negated ? query.excludedText : query.text).push(text);
    }
    terms(input).forEach(function (term) {
      if (query.error) return;
      var body = term.unquoted;
      var negated = false;
      var keyLimit = term.firstQuote < 0 ? Infinity : term.firstQuote;
      if (body.charAt(0) === '-' && term.firstQuote !== 0) {
        negated = true;
        body = body.slice(1);
        keyLimit -= 1;
      }
      var colon = body.indexOf(':');
      if (colon < 0 || Array.from(body.slice(0, colon)).length > keyLimit) {
        addText(body, negated);
        return;
      }
      var key = body.slice(0, colon).toLowerCase();
      var value = body.slice(colon + 1);
      if (key === 'tag' || key === 't') {
        var name = value.split(/[\s\p{Cc}]+/u).filter(Boolean).join(' ');
        if (!name) { query.error = term.raw; return; }
        var list = negated ? query.excludedTags : query.tags;
        if (!list.some(function (kept) { return tagKey(kept) === tagKey(name); })) list.push(name);
      } else if (key === 'priority' || key === 'p') {
        var priority = PRIORITIES[value.toLowerCase()];
        if (priority === undefined) { query.error = term.raw; return; }
        var priorities = negated ? query.excludedPriorities : query.priorities;
        if (priorities.indexOf(priority) < 0) priorities.push(priority);
      } else if (key === 'is' || key === 'status') {
        var named = value.toLowerCase();
        var status = ['open', 'o'].indexOf(named) >= 0 ? 'open'
          : ['completed', 'closed', 'done', 'c'].indexOf(named) >= 0 ? 'completed' : null;
        if (!status) { query.error = term.raw; return; }
        if (negated) status = status === 'open' ? 'completed' : 'open';
        if (query.statuses.indexOf(status) < 0) query.statuses.push(status);
      } else {
        addText(body, negated);
      }
    });
    return query;
  }

  // Whether a column's words hold the phrase's words in a row, the last as a prefix.
  function holds(column, phrase) {
    var last = phrase.length - 1;
    next: for (var start = 0; start + phrase.length <= column.length; start += 1) {
      for (var offset = 0; offset < phrase.length; offset += 1) {
        var word = column[start + offset];
        if (offset === last ? word.indexOf(phrase[offset]) !== 0 : word !== phrase[offset]) {
          continue next;
        }
      }
      return true;
    }
    return false;
  }

  // The issue's words, cut once and kept with it (they change only with its text).
  function issueWords(issue) {
    if (!issue._words || issue._words.title !== issue.title || issue._words.detail !== issue.detail) {
      issue._words = {
        title: issue.title, detail: issue.detail, t: words(issue.title), d: words(issue.detail),
      };
    }
    return issue._words;
  }

  function matchesText(issue, query) {
    if (!query.text.length && !query.excludedText.length) return true;
    var cut = issueWords(issue);
    function contains(term) {
      var phrase = words(term);
      return phrase.length === 0 || holds(cut.t, phrase) || holds(cut.d, phrase);
    }
    for (var i = 0; i < query.text.length; i += 1) if (!contains(query.text[i])) return false;
    for (var j = 0; j < query.excludedText.length; j += 1) {
      if (words(query.excludedText[j]).length && contains(query.excludedText[j])) return false;
    }
    return true;
  }

  function activity(issue) { return issue.modified === undefined || issue.modified === null ? issue.created : issue.modified; }

  // A location's filter: `open`, `completed`, `recent`, `all` or `tag:<id>`.
  function admits(issue, filter, showCompleted, now) {
    switch (filter) {
      case 'open': return !issue.completed;
      case 'completed': return issue.completed;
      case 'all': return true;
      case 'recent': return (showCompleted || !issue.completed) && activity(issue) >= now - RECENT_SECONDS;
      default:
        return (showCompleted || !issue.completed) && filter.indexOf('tag:') === 0 &&
          issue.tags.indexOf(filter.slice(4)) >= 0;
    }
  }

  // Which completion states show: a status token decides, else the filter's rule.
  function completion(filter, query, showCompleted) {
    if (query.statuses.length === 1) return query.statuses[0] === 'completed' ? [true] : [false];
    if (query.statuses.length) return [false, true];
    if (filter === 'open') return [false];
    if (filter === 'completed') return [true];
    if (filter === 'all') return [false, true];
    return showCompleted ? [false, true] : [false];
  }

  // A title's sort key, kept with the issue until its title changes.
  function titleKey(issue) {
    if (issue._titleKey === undefined || issue._keyOf !== issue.title) {
      issue._keyOf = issue.title;
      issue._titleKey = sortKey(issue.title);
    }
    return issue._titleKey;
  }

  function compareText(a, b) {
    // By code point, as the database orders text.
    var left = Array.from(a), right = Array.from(b);
    for (var i = 0; i < Math.min(left.length, right.length); i += 1) {
      var x = left[i].codePointAt(0), y = right[i].codePointAt(0);
      if (x !== y) return x < y ? -1 : 1;
    }
    return left.length - right.length;
  }

  // The order of a sort (`priority:desc`, `date:asc`, `title:asc` …), as the core's indexes
  // keep it: open before completed, then the field, then the oldest activity, then the id.
  function comparator(sort) {
    var parts = (sort || 'priority:desc').split(':');
    var field = parts[0], ascending = parts[1] === 'asc';
    return function (a, b) {
      if (a.completed !== b.completed) return a.completed ? 1 : -1;
      var order = 0;
      if (field === 'priority') order = ascending ? a.priority - b.priority : b.priority - a.priority;
      else if (field === 'title') {
        order = compareText(titleKey(a), titleKey(b));
        if (!ascending) order = -order;
      }
      if (order) return order;
      var when = activity(a) - activity(b);
      if (field === 'date' && !ascending) when = -when;
      if (when) return when < 0 ? -1 : 1;
      return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
    };
  }

  // The issues of the copy a location shows, in order: `place` holds filter, q, sort, done
  // (show completed) and now (seconds since 1970). Tags are looked up by name in `tags`.
  function list(copy, place) {
    // The same place again (an issue opened from the list, the list shown again): its answer
    // kept with the copy, for the minute (`recent` moves with the clock).
    var kept = keptFor(copy);
    var key = [place.filter || 'open', place.q || '', place.sort || '', place.done !== false,
      Math.floor(place.now / 60)].join('\u0000');
    if (kept.lists[key]) return kept.lists[key];
    var answer = listAfresh(copy, place);
    if (Object.keys(kept.lists).length >= 16) kept.lists = {};
    kept.lists[key] = answer;
    return answer;
  }

  function listAfresh(copy, place) {
    var order = sorted(copy, place.sort);
    var test = matcher(copy, place);
    if (test.error) return { error: test.error, issues: [] };
    var candidates = test.candidates && test.candidates();
    if (!candidates) return { error: null, issues: order.filter(test.admits) };
    // Only the places in the order of the issues that hold the words (and those the index
    // does not know) are tried.
    var at = new Uint8Array(order.length);
    candidates.forEach(function (issue) { at[issue._rank] = 1; });
    var shown = [];
    for (var i = 0; i < at.length; i += 1) if (at[i] && test.admits(order[i])) shown.push(order[i]);
    return { error: null, issues: shown };
  }

  // The first `limit` issues a location shows and how many it shows in all: the same as the
  // start of `list`, without sorting every issue when no order is kept yet (the page's first
  // screen), by keeping the best `limit` of those that match.
  function first(copy, place, limit) {
    var kept = keptFor(copy);
    var shown;
    if (kept.by[place.sort || 'priority:desc']) {
      shown = list(copy, place);
      return { error: shown.error, issues: shown.issues.slice(0, limit), total: shown.issues.length };
    }
    var test = matcher(copy, place);
    if (test.error) return { error: test.error, issues: [], total: 0 };
    var compare = comparator(place.sort);
    var best = [];
    var total = 0;
    copy.issues.forEach(function (issue) {
      if (!test.admits(issue)) return;
      total += 1;
      if (best.length >= limit && compare(issue, best[best.length - 1]) >= 0) return;
      var low = 0, high = best.length;
      while (low < high) {
        var middle = (low + high) >> 1;
        if (compare(best[middle], issue) <= 0) low = middle + 1; else high = middle;
      }
      best.splice(low, 0, issue);
      if (best.length > limit) best.pop();
    });
    return { error: null, issues: best, total: total };
  }

  // Whether an issue is one a location shows (filter, search, completion), or the search's
  // error.
  function matcher(copy, place) {
    var query = parseSearch(place.q || '');
    if (query.error) return { error: query.error };
    var filter = place.filter || 'open';
    var showCompleted = place.done !== false;
    var states = completion(filter, query, showCompleted);
    // A name stands for every tag of that name (one on each device, before sync made them one).
    var byKey = {};
    copy.tags.forEach(function (tag) {
      var key = tagKey(tag.name);
      (byKey[key] = byKey[key] || []).push(tag.id);
    });
    var wanted = query.tags.map(function (name) { return byKey[tagKey(name)] || []; });
    var unwanted = [].concat.apply([], query.excludedTags.map(function (name) {
      return byKey[tagKey(name)] || [];
    }));
    function carries(issue, ids) {
      return ids.some(function (id) { return issue.tags.indexOf(id) >= 0; });
    }
    var tagged = filter.indexOf('tag:') === 0 ? filter.slice(4) : null;
    var since = place.now - RECENT_SECONDS;
    var text = textTest(copy, query);
    return {
      error: null,
      candidates: text.candidates,
      admits: function (issue) {
        if (states.indexOf(!!issue.completed) < 0) return false;
        // The filter beyond completion, which a status token decides.
        if (filter === 'recent' && activity(issue) < since) return false;
        if (tagged !== null && issue.tags.indexOf(tagged) < 0) return false;
        for (var i = 0; i < wanted.length; i += 1) if (!carries(issue, wanted[i])) return false;
        if (unwanted.length && carries(issue, unwanted)) return false;
        if (query.priorities.length && query.priorities.indexOf(issue.priority) < 0) return false;
        if (query.excludedPriorities.indexOf(issue.priority) >= 0) return false;
        return text(issue);
      },
    };
  }

  // MARK: The words' index

  // Which issues hold each word, for search as you type: built a slice at a time (`indexWords`)
  // while the page is idle, and used once whole. An issue indexed carries the index's mark;
  // one changed or made since is searched word by word, as every issue is without an index.
  var indexes = 0;
  var marks = 0;
  function indexWords(copy, most) {
    var index = copy._index;
    if (!index || index.issues !== copy.issues) {
      indexes += 1;
      index = copy._index = {
        issues: copy.issues, at: 0, words: new Map(), keys: null, mark: indexes, unindexed: [],
      };
    }
    var end = Math.min(copy.issues.length, index.at + (most || Infinity));
    for (; index.at < end; index.at += 1) {
      var issue = copy.issues[index.at];
      var found = words(issue.title).concat(words(issue.detail));
      for (var i = 0; i < found.length; i += 1) {
        var holders = index.words.get(found[i]);
        if (!holders) index.words.set(found[i], holders = []);
        if (holders[holders.length - 1] !== issue) holders.push(issue);
      }
      issue._indexed = index.mark;
    }
    if (index.at >= copy.issues.length && !index.keys) {
      index.keys = Array.from(index.words.keys()).sort();
    }
    return !!index.keys;
  }

  // Marks (`field` set to `stamp`) each issue the index holds with `phrase`, of those the
  // previous term marked (`before`), or of all (null).
  function markHolders(index, phrase, field, stamp, before) {
    function mark(issue) {
      if (before !== null && issue[field] !== before) return;
      if (phrase.length > 1) {
        var cut = issueWords(issue);
        if (!holds(cut.t, phrase) && !holds(cut.d, phrase)) return;
      }
      if (issue[field] !== stamp) marked.push(issue);
      issue[field] = stamp;
    }
    var marked = [];
    var head = phrase[0];
    if (phrase.length > 1) {
      // Every word of a phrase but the last is whole.
      (index.words.get(head) || []).forEach(mark);
      return marked;
    }
    var keys = index.keys;
    var low = 0, high = keys.length;
    while (low < high) {
      var middle = (low + high) >> 1;
      if (keys[middle] < head) low = middle + 1; else high = middle;
    }
    for (; low < keys.length && keys[low].indexOf(head) === 0; low += 1) {
      index.words.get(keys[low]).forEach(mark);
    }
    return marked;
  }

  // Whether an issue holds the search's text (each term's words, none of an excluded term's).
  function textTest(copy, query) {
    if (!query.text.length && !query.excludedText.length) return function () { return true; };
    var index = copy._index;
    if (!index || index.issues !== copy.issues || !index.keys) {
      return function (issue) { return matchesText(issue, query); };
    }
    var before = null;
    var holders = null;
    query.text.map(words).forEach(function (phrase) {
      if (!phrase.length) return;
      marks += 1;
      holders = markHolders(index, phrase, '_found', marks, before);
      before = marks;
    });
    var found = before;
    marks += 1;
    var excluded = marks;
    query.excludedText.map(words).forEach(function (phrase) {
      if (phrase.length) markHolders(index, phrase, '_excluded', excluded, null);
    });
    var test = function (issue) {
      if (issue._indexed !== index.mark) return matchesText(issue, query);
      return (found === null || issue._found === found) && issue._excluded !== excluded;
    };
    // Those that may hold the words: the index's, and the issues it holds no words of.
    if (holders) test.candidates = function () { return holders.concat(index.unindexed); };
    return test;
  }

  // The copy's issues in a sort's order, kept with the copy until it changes (applyToCopy, or
  // issues put in or taken out by hand: a copy of another length): a filter keeps the order,
  // so search as you type sorts nothing.
  function keptFor(copy) {
    var kept = copy._sorted;
    if (!kept || kept.issues !== copy.issues || kept.length !== copy.issues.length) {
      kept = copy._sorted = { issues: copy.issues, length: copy.issues.length, by: {}, lists: {}, counts: {} };
    }
    return kept;
  }
  function sorted(copy, sort) {
    var kept = keptFor(copy);
    var key = sort || 'priority:desc';
    if (!kept.by[key]) kept.by[key] = copy.issues.slice().sort(comparator(key));
    // Each issue's place in the last order asked for.
    if (kept.ranked !== key) {
      kept.ranked = key;
      kept.by[key].forEach(function (issue, rank) { issue._rank = rank; });
    }
    return kept.by[key];
  }

  // How many issues each filter of the sidebar counts.
  function counts(copy, place) {
    var showCompleted = place.done !== false;
    var kept = keptFor(copy);
    var key = showCompleted + ' ' + Math.floor(place.now / 60);
    if (!kept.counts[key]) kept.counts = {};
    kept.counts[key] = kept.counts[key] || countsAfresh(copy, place, showCompleted);
    return kept.counts[key];
  }
  function countsAfresh(copy, place, showCompleted) {
    var result = { open: 0, completed: 0, recent: 0, tags: {} };
    copy.issues.forEach(function (issue) {
      if (issue.completed) result.completed += 1; else result.open += 1;
      if (admits(issue, 'recent', showCompleted, place.now)) result.recent += 1;
      if (showCompleted || !issue.completed) {
        issue.tags.forEach(function (tag) { result.tags[tag] = (result.tags[tag] || 0) + 1; });
      }
    });
    return result;
  }

  // The page's clock: milliseconds since 1970 shifted 16 bits, a counter below, never going
  // back and past every stamp it has seen (`seen`, as decimal text).
  function nextStamp(seen, nowMs) {
    var wall = BigInt(Math.floor(nowMs)) << 16n;
    var after = BigInt(seen || '0') + 1n;
    return (wall > after ? wall : after).toString();
  }

  // A change line of this device: see Change in the Swift core.
  function change(stamp, device, entity, row, field, old, value, modified) {
    var line = { h: stamp, d: device, e: entity, r: row, f: field };
    if (old !== null && old !== undefined) line.o = old;
    if (value !== null && value !== undefined) line.n = value;
    if (modified !== undefined) line.m = modified;
    return line;
  }

  // A create's value: every field of the issue, its time as exact text.
  function createValue(issue) {
    return JSON.stringify({
      title: issue.title, detail: issue.detail, priority: issue.priority,
      completed: issue.completed ? 1 : 0, created: String(issue.created),
    });
  }

  // An issue put in the copy, or its text changed, after its words were indexed: searched word
  // by word from now on.
  function unindexed(copy, issue) {
    delete issue._indexed;
    if (copy._index) copy._index.unindexed.push(issue);
  }

  // What a change does to the copy, until the server's copy says how it merged.
  function applyToCopy(copy, line) {
    copy._sorted = null;
    var issue = copy.issues.find(function (each) { return each.id === line.r; });
    if (line.e === 'issue' && line.f === 'create') {
      var fields = JSON.parse(line.n);
      if (issue) return;
      var made = {
        id: line.r, title: fields.title, detail: fields.detail, priority: fields.priority,
        completed: !!fields.completed, created: Number(fields.created), modified: line.m, tags: [],
      };
      copy.issues.push(made);
      unindexed(copy, made);
      return;
    }
    if (!issue) return;
    if (line.e === 'issue' && line.f === 'delete') {
      copy.issues.splice(copy.issues.indexOf(issue), 1);
      // An index being made steps through the issues by place: made again from the start.
      if (copy._index && !copy._index.keys) copy._index = null;
    } else if (line.e === 'issue') {
      issue[line.f] = line.f === 'completed' ? !!line.n : line.n;
      // Its words are searched one by one until the index is made again.
      if (line.f === 'title' || line.f === 'detail') unindexed(copy, issue);
      issue.modified = line.m;
    } else if (line.e === 'link') {
      var at = issue.tags.indexOf(line.f);
      if (line.n === 1 && at < 0) issue.tags.push(line.f);
      if (line.n === 0 && at >= 0) issue.tags.splice(at, 1);
      issue.modified = line.m;
    }
  }

  // A new issue's id: random, version 4.
  function newID(random) {
    var bytes = random(16);
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    var hex = Array.prototype.map.call(bytes, function (byte) {
      return (byte + 0x100).toString(16).slice(1);
    }).join('');
    return hex.slice(0, 8) + '-' + hex.slice(8, 12) + '-' + hex.slice(12, 16) + '-' +
      hex.slice(16, 20) + '-' + hex.slice(20);
  }

  // The lines of a batch the server refused only because they were stamped (or dated) ahead of
  // its clock, each once (`once` holds the keys stamped again already): the page's clock was
  // wrong when they were made and is put right by the server's time now. Made later than they
  // were, they are not lost.
  // Those refused so again, stamped once already, are `stuck`: kept waiting, never let go.
  function restampable(answer, keys, lines, once) {
    var result = { keys: [], lines: [], stuck: [] };
    if (!Array.isArray(answer.ahead) || typeof answer.now !== 'number') return result;
    answer.ahead.forEach(function (number) {
      var key = keys[number - 1];
      if (key === undefined) return;
      if (once[key]) { result.stuck.push(key); return; }
      once[key] = true;
      result.keys.push(key);
      result.lines.push(lines[number - 1]);
    });
    return result;
  }

  return {
    fold: fold, words: words, parseSearch: parseSearch, list: list, first: first, counts: counts,
    indexWords: indexWords, unindexed: unindexed, kept: keptFor,
    nextStamp: nextStamp, change: change, createValue: createValue, applyToCopy: applyToCopy,
    newID: newID, restampable: restampable, priorityNames: PRIORITY_NAMES, priorities: PRIORITIES,
    activity: activity,
  };
});
