// The page as a device of its own: it keeps a copy of the tracker in IndexedDB (kept up to date
// from `GET /copy` while the server answers), draws the list and the detail from it while the
// server does not, and keeps the changes made meanwhile as change lines stamped by its own
// clock, sent to `POST /changes` once the server answers, where they merge by the same field
// rules as any device's. The rules of filters, search and sort are the core's (copy.js).
(function () {
  'use strict';
  var Copy = window.DocketCopy;
  if (!Copy || !window.indexedDB || !window.fetch) return;
  var $ = function (selector, root) { return (root || document).querySelector(selector); };
  var $$ = function (selector, root) {
    return Array.prototype.slice.call((root || document).querySelectorAll(selector));
  };

  var words = null;
  function word(key) {
    if (!words) {
      var element = document.getElementById('copy-words');
      try { words = element ? JSON.parse(element.textContent) : {}; } catch (ignored) { words = {}; }
    }
    return words[key] || '';
  }
  function setting(key, otherwise) {
    word('');
    return key in words ? words[key] : otherwise;
  }
  function fill(text, value) { return text.replace('%@', function () { return value; }); }
  // A count in words: `one` for 1, else `other` with the number in place of 1234567.
  function counted(number, one, other) {
    return number === 1 ? word(one)
      : word(other).replace(/1[.,\u00a0\u202f ]?234[.,\u00a0\u202f ]?567/, String(number));
  }
  function count(number) { return counted(number, 'countOne', 'countOther'); }
  function escape(text) {
    return String(text).replace(/[&<>"']/g, function (character) {
      return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[character];
    });
  }
  function page() { return window.DocketPage || { announce: function () {} }; }

  // MARK: The store

  // The issues are kept in buckets by the first two digits of their ids, each in the order of
  // its ids: a store of a few hundred records writes and reads many times faster than one of a
  // record an issue, and read in order, the copy is in the order of its ids.
  var VERSION = 2;
  var opening = null;
  function open() {
    if (!opening) {
      opening = new Promise(function (resolve, reject) {
        var request = indexedDB.open('docket', VERSION);
        request.onupgradeneeded = function (event) {
          var db = request.result;
          if (event.oldVersion < 1) {
            db.createObjectStore('tags', { keyPath: 'id' });
            db.createObjectStore('meta');
            // The changes made here, in the order made, until the server has them.
            db.createObjectStore('outbox', { autoIncrement: true });
          }
          if (db.objectStoreNames.contains('issues')) db.deleteObjectStore('issues');
          db.createObjectStore('buckets');
          if (event.oldVersion >= 1) {
            // The issues are fetched again, whole; the device, its clock and what waits stay.
            var meta = request.transaction.objectStore('meta');
            var kept = meta.get('state');
            kept.onsuccess = function () {
              var state = kept.result;
              if (!state) return;
              delete state.database;
              delete state.seq;
              meta.put(state, 'state');
            };
          }
        };
        request.onsuccess = function () {
          // A newer page's script wants the store: this one lets go.
          request.result.onversionchange = function () { request.result.close(); opening = null; };
          resolve(request.result);
        };
        request.onerror = function () { reject(request.error); };
        request.onblocked = function () { reject(new Error('blocked')); };
      });
      opening.catch(function () { opening = null; });
    }
    return opening;
  }
  function bucketOf(id) { return String(id).slice(0, 2); }
  function byID(a, b) { return a.id < b.id ? -1 : a.id > b.id ? 1 : 0; }
  function done(request) {
    return new Promise(function (resolve, reject) {
      request.onsuccess = function () { resolve(request.result); };
      request.onerror = function () { reject(request.error); };
    });
  }
  // Runs `body` in one transaction of `stores`; resolves with its result once written.
  function within(stores, mode, body) {
    return open().then(function (db) {
      return new Promise(function (resolve, reject) {
        var transaction = db.transaction(stores, mode);
        var result;
        transaction.oncomplete = function () { resolve(result); };
        transaction.onerror = transaction.onabort = function () { reject(transaction.error); };
        Promise.resolve(body(transaction)).then(function (value) { result = value; }, function (error) {
          try { transaction.abort(); } catch (ignored) { /* done already */ }
          reject(error);
        });
      });
    });
  }

  // The copy in memory while the page draws from it: the server's copy and, on it, the changes
  // that wait (`waiting` of them, the last kept as `last`). Kept up to date with the server's
  // changes while nothing waits; let go of otherwise whenever the stored copy changes.
  var memory = null;
  var held = null;
  function loadCopy() {
    if (memory) return memory;
    var loading = memory = within(['buckets', 'tags', 'meta', 'outbox'], 'readonly', function (transaction) {
      var outbox = transaction.objectStore('outbox');
      return Promise.all([
        done(transaction.objectStore('buckets').getAll()),
        done(transaction.objectStore('tags').getAll()),
        done(transaction.objectStore('meta').get('state')),
        done(outbox.getAll()),
        done(outbox.getAllKeys()),
      ]);
    }).then(function (parts) {
      var issues = [].concat.apply([], parts[0]);
      var keys = parts[4];
      var copy = {
        issues: issues, tags: parts[1], state: parts[2] || {}, waiting: keys.length,
        last: keys.length ? keys[keys.length - 1] : 0,
      };
      parts[3].forEach(function (line) { Copy.applyToCopy(copy, line); });
      if (memory === loading) held = copy;
      if (window.performance && performance.mark) performance.mark('docket-copy-read');
      return copy;
    });
    loading.catch(function () { if (memory === loading) letGo(); });
    return loading;
  }
  function letGo() { memory = null; held = null; warming = null; }

  // The other tabs of this tracker in this browser share its copy and what waits: a change kept,
  // sent or stored here is said to them, and each reads the copy again (and draws it, if it
  // shows the copy) and counts what waits.
  var tabs = typeof BroadcastChannel === 'function' ? new BroadcastChannel('docket-copy') : null;
  function tellTabs() { if (tabs) tabs.postMessage('changed'); }
  if (tabs) {
    // A burst of messages (a flush said batch by batch) is drawn once, at the next frame.
    var redrawing = false;
    tabs.onmessage = function () {
      if (redrawing) return;
      redrawing = true;
      requestAnimationFrame(function () {
        redrawing = false;
        letGo();
        showWaiting();
        // Drawn again from the copy, unless a form is open: what is typed in it stays.
        if (document.documentElement.dataset.fromCopy === '1' && !$('#detail form.issue-form')) {
          show(window.location.href, 'none');
        }
      });
    };
  }

  // The server's changes (`copy`, as GET /copy sends them) made to the copy in memory, in
  // place: its index of words stays, and what it no longer holds is searched word by word.
  function follow(copy, state) {
    var kept = held;
    var changed = {};
    copy.issues.forEach(function (issue) { changed[issue.id] = issue; });
    (copy.goneIssues || []).forEach(function (id) { changed[id] = null; });
    var issues = kept.issues;
    var changedCount = issues.length;
    var at = 0;
    for (var i = 0; i < issues.length; i += 1) {
      var id = issues[i].id;
      if (id in changed) {
        if (changed[id]) issues[at++] = changed[id];
        delete changed[id];
      } else {
        issues[at++] = issues[i];
      }
    }
    issues.length = at;
    // An index being made steps through the issues by place: made again from the start.
    if (kept._index && !kept._index.keys && at < changedCount) kept._index = null;
    Object.keys(changed).forEach(function (id) { if (changed[id]) issues.push(changed[id]); });
    copy.issues.forEach(function (issue) { Copy.unindexed(kept, issue); });
    var tags = {};
    copy.tags.forEach(function (tag) { tags[tag.id] = tag; });
    (copy.goneTags || []).forEach(function (id) { tags[id] = null; });
    kept.tags = kept.tags.filter(function (tag) { return !(tag.id in tags); })
      .concat(copy.tags.filter(function (tag) { return tags[tag.id]; }));
    kept.state = state;
    kept._sorted = null;
  }

  // While the page is idle, what search as you type and every other order will want: the
  // current sort's order, then the index of the words, a slice at a time.
  var warming = null;
  function warm(copy, sort) {
    if (warming === copy) return;
    warming = copy;
    var idle = window.requestIdleCallback || function (work) {
      return setTimeout(function () { work({ timeRemaining: function () { return 8; } }); }, 16);
    };
    idle(function () {
      if (warming !== copy) return;
      Copy.list(copy, { filter: 'all', q: '', sort: sort, done: true, now: Date.now() / 1000 });
      idle(function step(deadline) {
        if (warming !== copy) return;
        var finished = false;
        do { finished = Copy.indexWords(copy, 500); } while (!finished && deadline.timeRemaining() > 4);
        if (!finished) { idle(step); return; }
        if (window.performance && performance.mark) performance.mark('docket-copy-indexed');
      });
    });
  }

  // MARK: Keeping the copy

  var refreshing = null;
  var refreshAgain = false;
  // Brings the stored copy up to date: what changed since the last, or all of it.
  function refresh() {
    if (refreshing) { refreshAgain = true; return refreshing; }
    refreshing = within(['meta'], 'readonly', function (transaction) {
      return done(transaction.objectStore('meta').get('state'));
    }).then(function (state) {
      state = state || {};
      var since = state.database && typeof state.seq === 'number' ? '?since=' + state.seq : '';
      return fetchCopy(since).then(function (copy) {
        // Another database answers (one put in the place of this one's): all of it again.
        if (copy && !copy.full && copy.database !== state.database) return fetchCopy('');
        return copy;
      }).then(function (copy) { if (copy) return store(copy, state); });
    }).catch(function () { /* out of reach: the copy stays as it is */ }).then(function () {
      refreshing = null;
      if (refreshAgain) { refreshAgain = false; return refresh(); }
    });
    return refreshing;
  }
  function fetchCopy(since) {
    return fetch('/copy' + since, { credentials: 'same-origin' }).then(function (response) {
      if (response.headers.get('X-Docket-Unpaired')) return forget().then(function () { return null; });
      if (!response.ok || response.headers.get('X-Docket-Copy')) return null;
      return response.json();
    });
  }
  function store(copy, before) {
    return within(['buckets', 'tags', 'meta'], 'readwrite', function (transaction) {
      var buckets = transaction.objectStore('buckets');
      var tags = transaction.objectStore('tags');
      if (copy.full) { buckets.clear(); tags.clear(); }
      copy.tags.forEach(function (tag) { tags.put(tag); });
      (copy.goneTags || []).forEach(function (id) { tags.delete(id); });
      // Each bucket a change touches, read (unless the copy is whole), changed, written.
      var touched = {};
      function bucket(id) {
        var key = bucketOf(id);
        return touched[key] || (touched[key] = { issues: {}, gone: {} });
      }
      copy.issues.forEach(function (issue) { bucket(issue.id).issues[issue.id] = issue; });
      (copy.goneIssues || []).forEach(function (id) { bucket(id).gone[id] = true; });
      var written = Object.keys(touched).map(function (key) {
        var read = copy.full ? Promise.resolve([]) : done(buckets.get(key));
        return read.then(function (kept) {
          var change = touched[key];
          var next = (kept || []).filter(function (issue) {
            return !change.gone[issue.id] && !change.issues[issue.id];
          });
          Object.keys(change.issues).forEach(function (id) { if (!change.gone[id]) next.push(change.issues[id]); });
          next.sort(byID);
          if (next.length) buckets.put(next, key); else buckets.delete(key);
        });
      });
      var next = { database: copy.database, device: copy.device, seq: copy.seq, clock: copy.clock };
      // How far this browser's clock is from the server's: its changes are stamped by the
      // server's time, so that a phone's wrong clock never stamps them ahead of every device.
      if (typeof copy.now === 'number' && isFinite(copy.now)) next.offset = copy.now - Date.now();
      return Promise.all(written).then(function () { return keepState(transaction, next); });
    }).then(function (state) {
      // A few changes while nothing waits: made to the copy in memory too. Else it is read
      // again when next wanted.
      // (Only from the state it holds: another tab may have stored a step meanwhile.)
      if (held && !copy.full && !held.waiting && held.state.database === copy.database &&
          held.state.seq === before.seq &&
          copy.issues.length + (copy.goneIssues || []).length <= 5000) {
        follow(copy, state);
      } else {
        letGo();
      }
      // The first screens kept are the copy's as it was: made again if it changed (or if a
      // page closed before it made them).
      if (copy.full || copy.seq !== before.seq || copy.issues.length || copy.tags.length ||
          (copy.goneIssues || []).length || (copy.goneTags || []).length) rememberLater();
      else keptScreens().then(function (kept) { if (!kept) rememberLater(); }, function () {});
      // For `make bench`: when the copy was last stored, since the page started.
      if (window.performance && performance.mark) performance.mark('docket-copy-stored');
    });
  }
  function later(a, b) { return !a ? b : !b ? a : BigInt(a) > BigInt(b) ? a : b; }
  // Writes the state the copy is at, its clock never going back: a change stamped here
  // meanwhile (or a copy fetched before it) keeps the later of the two.
  function keepState(transaction, state) {
    var meta = transaction.objectStore('meta');
    return done(meta.get('state')).then(function (kept) {
      var next = kept || {};
      Object.keys(state).forEach(function (key) { if (key !== 'clock') next[key] = state[key]; });
      next.clock = later(next.clock, state.clock);
      meta.put(next, 'state');
      return next;
    });
  }
  // Unpaired: nothing of the tracker stays in this browser.
  function forget() {
    letGo();
    return within(['buckets', 'tags', 'meta', 'outbox'], 'readwrite', function (transaction) {
      ['buckets', 'tags', 'meta', 'outbox'].forEach(function (name) { transaction.objectStore(name).clear(); });
    }).then(function () {
      tellTabs();
      return showWaiting();
    });
  }

  // MARK: Sending what waits

  var flushing = null;
  // A change as sent: JSON, with U+2028, U+2029 and NEL escaped (JSON leaves them as they are),
  // so that no line holds a line break.
  function lineText(line) {
    return JSON.stringify(line).replace(/[\u0085\u2028\u2029]/g, function (character) {
      return '\\u' + character.charCodeAt(0).toString(16).padStart(4, '0');
    });
  }
  // Its size in a request's body, as the form encodes it, with the line break between.
  function encodedSize(text) { return new URLSearchParams([['', text]]).toString().length + 2; }
  function sentSize(line) { return encodedSize(lineText(line)); }
  // The most a request carries, as sent (URL-encoded: a letter beyond ASCII takes up to
  // twelve bytes), well within the server's limit for a request's body.
  var MOST_BYTES = 800000;
  // Sends the changes that wait, oldest first, a batch at a time; then brings the copy up to
  // date. A line the server refuses is let go (it never would take it) and said; the others
  // beside it land.
  function flush() {
    if (flushing) return flushing;
    var sent = 0;
    var refused = [];
    var most = 500;
    // Changes stamped again this time (refused for a clock ahead): a second refusal keeps them.
    var stampedAgain = {};
    var readOnly = false;
    // Lines refused as ahead of the server's clock though stamped again by it: they wait.
    var behind = 0;
    function next() {
      return within(['outbox'], 'readonly', function (transaction) {
        var outbox = transaction.objectStore('outbox');
        return Promise.all([done(outbox.getAllKeys(null, most)), done(outbox.getAll(null, most))]);
      }).then(function (found) {
        var keys = found[0];
        if (!keys.length) return null;
        var lines = found[1].map(lineText);
        var size = 0;
        var take = 0;
        while (take < lines.length) {
          var bytes = encodedSize(lines[take]);
          if (take > 0 && size + bytes > MOST_BYTES) break;
          size += bytes;
          take += 1;
        }
        var body = new URLSearchParams();
        var csrf = $('meta[name="csrf"]');
        body.set('csrf', csrf ? csrf.content : '');
        body.set('changes', lines.slice(0, take).join('\n'));
        return fetch('/changes', { method: 'POST', body: body, credentials: 'same-origin' })
          .then(function (response) {
            if (response.ok || response.status === 422) {
              return response.json().catch(function () { return {}; }).then(function (answer) {
                var again = Copy.restampable(answer, keys.slice(0, take), found[1].slice(0, take), stampedAgain);
                var refusedHere = Array.isArray(answer.refused) ? answer.refused.length : 0;
                var kept = again.keys.length + again.stuck.length;
                refused = refused.concat((answer.refused || []).slice(0, refusedHere - kept));
                if (response.ok) sent += take - refusedHere;
                // Taken: full batches again (one too large made them smaller).
                most = 500;
                var gone = keys.slice(0, take).filter(function (key) {
                  return again.keys.indexOf(key) < 0 && again.stuck.indexOf(key) < 0;
                });
                behind += again.stuck.length;
                // Refused as ahead though stamped again: the server's clock is behind. They
                // wait for a later flush, and what follows them waits behind them, in order.
                return remove(gone).then(function () {
                  return again.keys.length ? restamp(again, answer) : null;
                }).then(function () { return again.stuck.length ? null : next(); });
              });
            }
            // Too large to take: smaller batches, down to one change, which is let go.
            if (response.status === 400 || response.status === 413) {
              if (take > 1) { most = Math.max(1, Math.floor(take / 2)); return next(); }
              refused.push(String(response.status));
              return remove(keys.slice(0, 1)).then(next);
            }
            // Not paired, read-only, or out of reach: they wait (read-only, it says so).
            if (response.headers.get('X-Docket-Read-Only')) readOnly = true;
            return null;
          });
      });
    }
    flushing = next().catch(function () { /* out of reach: they wait */ }).then(function () {
      flushing = null;
      if (refused.length) page().announce(fill(word('refused'), String(refused.length)), true);
      else if (behind) page().announce(fill(word('behindWaiting'), String(behind)), true);
      else if (readOnly) page().announce(word('readOnlyWaiting'), true);
      else if (sent) page().announce(word('sent'));
      return refresh();
    }).then(showWaiting);
    return flushing;
  }
  function restamp(again, answer) {
    var nowMs = answer.now * 1000;
    var bound = /^[0-9]+$/.test(answer.bound || '') ? BigInt(answer.bound) : null;
    var refused = {};
    again.keys.forEach(function (key, index) { refused[key] = again.lines[index].h; });
    return within(['outbox', 'meta'], 'readwrite', function (transaction) {
      var outbox = transaction.objectStore('outbox');
      var meta = transaction.objectStore('meta');
      return Promise.all([done(outbox.getAllKeys()), done(outbox.getAll()), done(meta.get('state'))])
        .then(function (found) {
          var keys = found[0];
          var state = found[2] || {};
          // The clock starts again past every stamp the server holds. Stamped again, in the
          // order they were made: the lines refused, if they wait still as they were sent (another
          // tab may have sent them meanwhile), and every other line stamped past the server's
          // bound, by the same clock.
          var clock = /^[0-9]+$/.test(answer.after || '') ? answer.after : '0';
          var kept = '0';
          found[1].forEach(function (line, index) {
            var key = keys[index];
            var ahead = bound !== null && BigInt(line.h) > bound;
            if (refused[key] !== line.h && !ahead) {
              kept = later(kept, line.h);
              return;
            }
            clock = Copy.nextStamp(clock, nowMs);
            var fresh = Object.assign({}, line, { h: clock });
            if (typeof fresh.m === 'number' && fresh.m > answer.now) fresh.m = answer.now;
            // A new issue made by that clock: made now, not days on.
            if (fresh.e === 'issue' && fresh.f === 'create' && typeof fresh.n === 'string') {
              try {
                var values = JSON.parse(fresh.n);
                if (Number(values.created) > answer.now) {
                  values.created = String(answer.now);
                  fresh.n = JSON.stringify(values);
                }
              } catch (ignored) { /* sent as it is; the server says what is wrong */ }
            }
            outbox.put(fresh, key);
          });
          // Never behind a line that waits, nor the server's stamps; the wrong clock is dropped.
          state.clock = later(clock, kept);
          state.offset = nowMs - Date.now();
          meta.put(state, 'state');
        });
    }).then(function () {
      letGo();
      tellTabs();
    });
  }
  function remove(keys) {
    return within(['outbox'], 'readwrite', function (transaction) {
      var outbox = transaction.objectStore('outbox');
      keys.forEach(function (key) { outbox.delete(key); });
    }).then(function () {
      letGo();
      tellTabs();
    });
  }

  // "3 changes waiting", in the header, while any do.
  function showWaiting() {
    return within(['outbox'], 'readonly', function (transaction) {
      return done(transaction.objectStore('outbox').count());
    }).then(function (waiting) {
      var indicator = $('#waiting');
      if (!indicator) {
        var header = $('header.top');
        if (!header || !waiting) return;
        indicator = document.createElement('p');
        indicator.id = 'waiting';
        indicator.className = 'waiting';
        indicator.setAttribute('role', 'status');
        header.appendChild(indicator);
      }
      indicator.hidden = !waiting;
      indicator.textContent = waiting ? counted(waiting, 'waitingOne', 'waitingOther') : '';
    }).catch(function () {});
  }

  // MARK: Changes made here

  function oneLine(text) {
    return (text || '').replace(/[\r\n\u000b\u000c\u0085\u2028\u2029]+/g, ' ').trim();
  }

  // Keeps the change a form asks for (`action`, its fields `body`) as this device's changes,
  // to be sent when the server answers, and shows the page the form goes back to. Resolves
  // false for a change that needs the server (the tags' page, a sort's is this page's alone).
  function record(action, body, focus) {
    var parts = new URL(action, window.location.href).pathname.split('/').filter(Boolean);
    // A restore needs the server, which keeps what was deleted.
    if (parts[0] !== 'issues' || parts.length > 3 || parts[2] === 'restore') return Promise.resolve(false);
    // Nothing is changed through a read-only server; a new tag is the server's to make.
    if (setting('readOnly', false) || (body.get('new_tags') || '').trim()) return Promise.resolve(false);
    return loadCopy().then(function (copy) {
      var device = copy.state.device;
      if (!device) return false;
      var nowMs = Date.now() + (typeof copy.state.offset === 'number' ? copy.state.offset : 0);
      var modified = nowMs / 1000;
      var lines = [];
      function add(entity, row, field, old, value) {
        copy.state.clock = Copy.nextStamp(copy.state.clock, nowMs);
        lines.push(Copy.change(copy.state.clock, device, entity, row, field, old, value, modified));
      }
      var back = new URL(body.get('back') || '/', window.location.href);
      var known = {};
      copy.tags.forEach(function (tag) { known[tag.id] = true; });
      var issue = parts[1] && copy.issues.find(function (each) { return each.id === parts[1]; });
      if (parts[1] && !issue) {
        page().announce(word('gone'), true);
        return true;
      }
      // As the form sends it (the newline after <textarea> is the parser's, not the text's).
      var detail = (body.get('detail') || '').replace(/\r\n?/g, '\n');
      function refusedText(title) {
        var problem = !title ? 'titleEmpty'
          : Array.from(title).length > setting('titleLimit', Infinity) ? 'titleTooLong'
            : Array.from(detail).length > setting('detailLimit', Infinity) ? 'detailTooLong' : null;
        if (!problem) return false;
        page().announce(word(problem), true);
        var field = $(problem === 'detailTooLong' ? '#f-detail' : '#f-title');
        if (field) field.focus();
        return true;
      }
      var priority = Copy.priorities[body.get('priority')] || 0;
      if (parts.length === 1) {
        var title = oneLine(body.get('title'));
        if (refusedText(title)) return true;
        var named = (body.get('id') || '').toLowerCase();
        var id = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(named) ? named
          : Copy.newID(function (size) { return crypto.getRandomValues(new Uint8Array(size)); });
        add('issue', id, 'create', null, Copy.createValue({
          title: title, detail: detail, priority: priority,
          completed: body.get('completed') === '1', created: modified,
        }));
        body.getAll('tag').forEach(function (tag) { if (known[tag]) add('link', id, tag, 0, 1); });
        back.searchParams.set('issue', id);
        back.searchParams.delete('mode');
      } else if (parts.length === 2) {
        // Only what was changed in the form, as the server saves an edit.
        var edits = [
          ['title', oneLine(body.get('title')), oneLine(body.get('base_title'))],
          ['detail', detail, (body.get('base_detail') || '').replace(/\r\n?/g, '\n')],
          ['priority', priority, Copy.priorities[body.get('base_priority')] || 0],
          ['completed', body.get('completed') === '1' ? 1 : 0, body.get('base_completed') === '1' ? 1 : 0],
        ];
        if (refusedText(edits[0][1])) return true;
        edits.forEach(function (edit) {
          var current = edit[0] === 'completed' ? (issue.completed ? 1 : 0) : issue[edit[0]];
          if (edit[1] !== edit[2] && edit[1] !== current) add('issue', issue.id, edit[0], current, edit[1]);
        });
        var was = body.getAll('base_tag');
        var now = body.getAll('tag');
        now.forEach(function (tag) {
          if (was.indexOf(tag) < 0 && known[tag] && issue.tags.indexOf(tag) < 0) add('link', issue.id, tag, 0, 1);
        });
        was.forEach(function (tag) {
          if (now.indexOf(tag) < 0 && issue.tags.indexOf(tag) >= 0) add('link', issue.id, tag, 1, 0);
        });
      } else if (parts[2] === 'complete') {
        var completed = body.get('completed') === '1';
        if (issue.completed !== completed) add('issue', issue.id, 'completed', completed ? 0 : 1, completed ? 1 : 0);
      } else if (parts[2] === 'delete') {
        add('issue', issue.id, 'delete', Copy.createValue(issue), null);
      } else {
        return false;
      }
      // A change one request could not carry (a detail of many pages, or the delete of an issue
      // with one) is refused now, while its form is still on screen, not lost later.
      if (lines.some(function (line) { return sentSize(line) > MOST_BYTES; })) {
        page().announce(word('tooLarge'), true);
        var large = $('#f-detail');
        if (large) large.focus();
        return true;
      }
      var keeping = lines.length
        ? within(['outbox', 'meta'], 'readwrite', function (transaction) {
          var outbox = transaction.objectStore('outbox');
          var added;
          lines.forEach(function (line) { added = outbox.add(line); });
          // (The request itself: its key is read once the changes are written.)
          return keepState(transaction, { clock: copy.state.clock }).then(function () { return added; });
        })
        : Promise.resolve(null);
      return keeping.then(function (added) {
        lines.forEach(function (line) { Copy.applyToCopy(copy, line); });
        if (added) { copy.waiting += lines.length; copy.last = added.result; }
        if (lines.length) tellTabs();
        return showWaiting();
      }).then(function () {
        return show(back.pathname + back.search, 'push',
          focus || (parts.length <= 2 ? '#detail-heading' : null));
      }).then(function () {
        if (lines.length) page().announce(word('kept'));
        return true;
      });
    });
  }

  // MARK: The first screen

  // The search an address asks for: its chips, then its text without a `#word` still being
  // typed (a suggestion in the making, as the server reads it).
  // The chips of an address, as the server reads them: trimmed, none empty or longer than it
  // takes, at most as many.
  var MOST_CHIPS = 20;
  var LONGEST_CHIP = 1024;
  function chipsOf(params) {
    return params.getAll('chip').map(function (chip) { return chip.trim(); })
      .filter(function (chip) { return chip && new TextEncoder().encode(chip).length <= LONGEST_CHIP; })
      .slice(0, MOST_CHIPS);
  }
  function searchOf(params) {
    var text = (params.get('q') || '').slice(0, 1000);
    var hash = text.lastIndexOf('#');
    if (hash >= 0 && !/\s/.test(text.slice(hash + 1)) && (hash === 0 || /\s/.test(text.charAt(hash - 1)))) {
      text = text.slice(0, hash);
    }
    return chipsOf(params).concat([text.trim()]).filter(Boolean).join(' ');
  }

  // The place an address shows: its filter, search, sort and whether completed issues show
  // (else as the page was drawn), at this time.
  function placeOf(params) {
    var sortField = $('#sort');
    var completedSwitch = $('#filters a[aria-pressed]');
    return {
      filter: params.get('filter') || 'open', q: searchOf(params),
      sort: params.get('sort') || (sortField ? sortField.value : 'priority:desc'),
      done: params.get('done') === '1' ? true : params.get('done') === '0' ? false
        : !completedSwitch || completedSwitch.getAttribute('aria-pressed') === 'true',
      now: Date.now() / 1000,
    };
  }
  function limitOf(params) { return Math.min(1000, Math.max(1, parseInt(params.get('n'), 10) || 50)); }
  function placeKey(place, limit) {
    return [place.filter, place.q, place.sort, place.done, limit].join('\u0000');
  }

  // The first screen of the places last shown (and of the list as the page opens), kept
  // with what the copy was at when it was made: the page opened with the server out of reach
  // draws it at once, reading a record rather than every issue, then reads the copy.
  var MOST_PLACES = 4;
  var places = [];
  function notePlace(place, limit) {
    var key = placeKey(place, limit);
    places = places.filter(function (kept) { return kept.key !== key; });
    places.unshift({ key: key, place: place, limit: limit });
    places.length = Math.min(places.length, MOST_PLACES);
    rememberLater();
  }
  var remembering = null;
  function rememberLater() {
    clearTimeout(remembering);
    remembering = setTimeout(function () {
      (window.requestIdleCallback || setTimeout)(remember);
    }, 1000);
  }
  function remember() {
    return loadCopy().then(function (copy) {
      if (!copy.state.database) return null;
      var now = Date.now() / 1000;
      var chosen = [{ place: placeOf(new URLSearchParams()), limit: 50 }].concat(places);
      var screens = {
        database: copy.state.database, seq: copy.state.seq, waiting: copy.waiting, last: copy.last,
        made: now, tags: copy.tags, places: {}, counts: {},
      };
      chosen.forEach(function (each) {
        var place = Object.assign({}, each.place, { now: now });
        var shown = Copy.first(copy, place, each.limit);
        screens.places[placeKey(place, each.limit)] = {
          error: shown.error, total: shown.total,
          issues: shown.issues.map(function (issue) {
            return {
              id: issue.id, title: issue.title, priority: issue.priority, completed: issue.completed,
              created: issue.created, modified: issue.modified, tags: issue.tags,
              ref: reference(copy, issue.id),
            };
          }),
        };
        screens.counts[String(place.done)] = Copy.counts(copy, place);
      });
      return within(['meta'], 'readwrite', function (transaction) {
        transaction.objectStore('meta').put(screens, 'screens');
      }).then(function () {
        if (window.performance && performance.mark) performance.mark('docket-screens-kept');
      });
    }).catch(function () { /* kept next time */ });
  }

  // The first screens kept, with the state of the copy, if they are still the copy's (and the
  // bucket of the issue `asked` for, if any); else null.
  function keptScreens(asked) {
    return within(['meta', 'outbox', 'buckets'], 'readonly', function (transaction) {
      var meta = transaction.objectStore('meta');
      var outbox = transaction.objectStore('outbox');
      return Promise.all([
        done(meta.get('state')), done(meta.get('screens')), done(outbox.count()),
        done(outbox.openKeyCursor(null, 'prev')),
        asked ? done(transaction.objectStore('buckets').get(bucketOf(asked))) : Promise.resolve(null),
      ]);
    }).then(function (parts) {
      var state = parts[0], screens = parts[1], waiting = parts[2], cursor = parts[3];
      var last = cursor ? cursor.key : 0;
      if (!state || !screens || screens.database !== state.database || screens.seq !== state.seq ||
          screens.waiting !== waiting || screens.last !== last) return null;
      return { state: state, screens: screens, waiting: waiting, bucket: parts[4] };
    });
  }

  // The first screen kept for a place, as a copy to draw from (with the issue asked for, read
  // from its bucket), if the copy is still what it was made from; else null.
  function screenFor(place, limit, asked) {
    return keptScreens(asked).then(function (kept) {
      if (!kept) return null;
      var screens = kept.screens, state = kept.state, waiting = kept.waiting;
      var screen = screens.places[placeKey(place, limit)];
      var counts = screens.counts[String(place.done)];
      if (!screen || !counts) return null;
      // What is recent moves with the clock; a list of it is kept for the minute.
      if (place.filter === 'recent' && Math.floor(screens.made / 60) !== Math.floor(place.now / 60)) return null;
      // An issue asked for, under changes that wait: from the copy itself.
      if (asked && waiting) return null;
      var issue = (kept.bucket || []).find(function (each) { return each.id === asked; });
      return {
        issues: issue ? [issue] : [], tags: screens.tags, state: state, screen: screen, counts: counts,
      };
    }).catch(function () { return null; });
  }

  // MARK: Drawing from the copy

  // The shortest start of an id that no other id of the copy shares (at least 4 digits), as
  // the server shows references.
  function reference(copy, id) {
    // Kept with the copy's orders, which go with every change to it.
    var kept = Copy.kept(copy);
    if (!kept.references) {
      // (Read from its buckets, the copy is in the order of its ids already, and the sort
      // has only the few made here to place.)
      kept.references = copy.issues.map(function (issue) { return issue.id; }).sort();
    }
    var sorted = kept.references;
    var low = 0, high = sorted.length;
    while (low < high) { var middle = (low + high) >> 1; if (sorted[middle] < id) low = middle + 1; else high = middle; }
    // Ids are written alike (hyphens in the same places): the digits two share from the start.
    function shared(other) {
      var digits = 0;
      for (var at = 0; other && at < id.length && other[at] === id[at]; at += 1) if (id[at] !== '-') digits += 1;
      return digits;
    }
    var after = sorted[low] === id ? sorted[low + 1] : sorted[low];
    var needed = Math.max(shared(sorted[low - 1]), shared(after)) + 1;
    return id.replace(/-/g, '').slice(0, Math.max(4, needed));
  }

  var formats = {};
  function relative(seconds) {
    var lang = document.documentElement.lang || 'en';
    var format = formats[lang] || (formats[lang] = new Intl.RelativeTimeFormat(lang, { numeric: 'auto' }));
    var ago = Date.now() / 1000 - seconds;
    if (ago < 60) return format.format(0, 'second');
    if (ago < 3600) return format.format(-Math.floor(ago / 60), 'minute');
    if (ago < 86400) return format.format(-Math.floor(ago / 3600), 'hour');
    if (ago < 30 * 86400) return format.format(-Math.floor(ago / 86400), 'day');
    if (ago < 365 * 86400) return format.format(-Math.floor(ago / (30 * 86400)), 'month');
    return format.format(-Math.floor(ago / (365 * 86400)), 'year');
  }

  function address(params, change) {
    var next = new URLSearchParams(params);
    change(next);
    var text = next.toString();
    return text ? '/?' + text : '/';
  }

  function row(copy, issue, params, tagsByID, current) {
    var href = address(params, function (p) { p.set('issue', issue.id); p.delete('mode'); p.delete('pane'); });
    var status = word(issue.completed ? 'completed' : 'open');
    var priority = word(Copy.priorityNames[issue.priority]);
    var names = issue.tags.map(function (id) { return tagsByID[id]; }).filter(Boolean);
    var when = Copy.activity(issue);
    var spoken = [issue.title, fill(word('rowPriority'), priority), status];
    if (names.length) spoken.push(fill(word('rowTags'), names.join(', ')));
    spoken.push(fill(word('rowChanged'), relative(when)));
    return '<li class="' + (issue.completed ? 'issue done' : 'issue') + '"><a href="' + escape(href) + '"' +
      (current ? ' aria-current="true"' : '') + ' aria-label="' + escape(spoken.join(', ')) + '">' +
      '<span class="status" title="' + escape(status) + '">' + (issue.completed ? '✓' : '○') +
      ' <span class="sr">' + escape(status) + '</span></span> <span class="title">' + escape(issue.title) +
      '</span> <span class="priority p-' + Copy.priorityNames[issue.priority] + '">' + escape(priority) +
      '</span> <span class="ref">' + (issue.ref || reference(copy, issue.id)) + '</span> <span class="meta">' +
      names.map(function (name) { return ' <span class="tag">' + escape(name) + '</span>'; }).join('') +
      ' <time class="when" datetime="' + new Date(when * 1000).toISOString() + '">' + escape(relative(when)) +
      '</time></span></a></li>';
  }

  function drawList(copy, params, place, tagsByID) {
    var pane = $('#list');
    var bar = pane && $('.list-bar', pane);
    if (!bar) return;
    var limit = limitOf(params);
    var shown = copy.screen || Copy.first(copy, place, limit);
    while (bar.nextSibling) bar.parentNode.removeChild(bar.nextSibling);
    var html;
    if (shown.error) {
      html = '<p class="problem" role="alert">' + escape(shown.error) + '</p>';
    } else if (!shown.issues.length) {
      html = '<p class="quiet">' + escape(word('noMatch')) + '</p>';
    } else {
      var current = params.get('issue');
      html = '<ol class="issues" id="issue-list" data-swipe-complete="' + escape(word('complete')) +
        '" data-swipe-reopen="' + escape(word('reopen')) + '" data-swipe-delete="' + escape(word('delete')) + '">' +
        shown.issues.map(function (issue) {
          return row(copy, issue, params, tagsByID, issue.id === current);
        }).join('') + '</ol>';
      if (shown.total > limit && limit < 1000) {
        html += '<p><a class="button" href="' + escape(address(params, function (p) { p.set('n', String(Math.min(limit * 2, 1000))); })) +
          '">' + escape(word('more') || '…') + '</a></p>';
      }
    }
    bar.insertAdjacentHTML('afterend', html);
    var counted = $('#list-count');
    if (counted) counted.textContent = shown.error ? '' : count(shown.total);
    var search = $('#q');
    if (search && document.activeElement !== search) search.value = params.get('q') || '';
    // Chips are added by the server (a suggestion, Enter); taken away here too.
    drawChips(params);
    // The sidebar: each filter's count, and which is chosen.
    drawCounts(copy.screen ? copy.counts : Copy.counts(copy, place), place);
    var heading = $('#list-heading');
    var chosen = $('#filters a[aria-current] .name');
    if (heading && chosen) heading.textContent = chosen.textContent;
  }

  // The search's chips as the address has them: the ones the page shows are kept (the server
  // put them in words), one it does not show is drawn here (a tag by its name), and each takes
  // itself away from this address.
  function drawChips(params) {
    var field = $('.search-field');
    if (!field) return;
    var chips = chipsOf(params);
    var shown = {};
    $$('#chips li').forEach(function (item) {
      var token = $('input[name="chip"]', item);
      if (token && chips.indexOf(token.value) >= 0) shown[token.value] = item;
      else item.remove();
    });
    var list = $('#chips');
    if (!chips.length) { if (list) list.remove(); return; }
    if (!list) {
      list = document.createElement('ul');
      list.className = 'chips';
      list.id = 'chips';
      list.setAttribute('aria-label', word('chips'));
      field.insertBefore(list, field.firstChild);
    }
    chips.forEach(function (chip, at) {
      var item = shown[chip];
      if (!item) {
        var query = Copy.parseSearch(chip);
        var label = query.tags.length === 1 && !query.text.length ? query.tags[0] : chip;
        item = document.createElement('li');
        item.innerHTML = hidden('chip', chip) + '<a class="chip" title="' + escape(chip) +
          '" aria-label="' + escape(fill(word('chipRemove'), label)) + '"><span class="chip-label">' +
          escape(label) + '</span><span class="chip-x" aria-hidden="true">×</span></a>';
      }
      list.appendChild(item);
      $('a', item).href = address(params, function (p) {
        p.delete('chip');
        chips.forEach(function (other, index) { if (index !== at) p.append('chip', other); });
        p.delete('n');
      });
    });
  }

  function drawCounts(counts, place) {
    $$('#filters a').forEach(function (link) {
      var url = new URL(link.href);
      if (url.pathname !== '/') return;
      var filter = url.searchParams.get('filter') || 'open';
      var number = link.querySelector('.count');
      if (number) {
        number.textContent = filter.indexOf('tag:') === 0
          ? String(counts.tags[filter.slice(4)] || 0) : String(counts[filter] || 0);
      }
      if (filter === place.filter) link.setAttribute('aria-current', 'page');
      else link.removeAttribute('aria-current');
    });
  }

  function hidden(name, value) {
    return '<input type="hidden" name="' + name + '" value="' + escape(value) + '">';
  }

  function drawDetail(copy, params, tagsByID) {
    var pane = $('#detail');
    if (!pane) return;
    var id = params.get('issue');
    var mode = params.get('mode');
    var back = address(params, function (p) { p.delete('issue'); p.delete('mode'); p.set('pane', 'list'); });
    var view = address(params, function (p) { p.delete('mode'); });
    var csrf = ($('meta[name="csrf"]') || {}).content || '';
    var html = '<div class="pane-head"><a class="phone-only button" href="' + escape(back) +
      '" data-key="Escape">' + escape(word('back')) + '</a></div>';
    var issue = id && copy.issues.find(function (each) { return each.id === id; });
    if (mode === 'new' || (mode === 'edit' && issue)) {
      var editing = mode === 'edit' ? issue : null;
      var values = editing || { title: '', detail: '', priority: 0, completed: false, tags: [] };
      var after = mode === 'new' ? address(params, function (p) { p.delete('mode'); p.delete('issue'); }) : view;
      html += '<h2 id="detail-heading" tabindex="-1">' + escape(word(editing ? 'editIssue' : 'newIssue')) + '</h2>' +
        '<form method="post" action="/issues' + (editing ? '/' + editing.id : '') + '" class="issue-form" data-inplace>' +
        hidden('csrf', csrf) + hidden('back', after);
      if (editing) {
        html += hidden('base_title', editing.title) + hidden('base_detail', editing.detail) +
          hidden('base_priority', Copy.priorityNames[editing.priority]) +
          hidden('base_completed', editing.completed ? '1' : '0') +
          editing.tags.map(function (tag) { return hidden('base_tag', tag); }).join('');
      }
      html += '<p><label for="f-title">' + escape(word('title')) + '</label><input id="f-title" name="title" value="' +
        escape(values.title) + '"></p><p><label for="f-detail">' + escape(word('detailField')) +
        '</label><textarea id="f-detail" name="detail" rows="8">\n' + escape(values.detail) + '</textarea></p>' +
        '<p><label for="f-priority">' + escape(word('priority')) + '</label><select id="f-priority" name="priority">' +
        Copy.priorityNames.map(function (name, index) {
          return '<option value="' + name + '"' + (index === values.priority ? ' selected' : '') + '>' + escape(word(name)) + '</option>';
        }).join('') + '</select></p><p class="check"><input type="checkbox" id="f-completed" name="completed" value="1"' +
        (values.completed ? ' checked' : '') + '><label for="f-completed">' + escape(word('completedField')) + '</label></p>';
      var tags = copy.tags.slice().sort(function (a, b) { return a.name.localeCompare(b.name); });
      if (tags.length) {
        html += '<fieldset><legend>' + escape(word('tags')) + '</legend><ul class="tag-choices">' +
          tags.map(function (tag, index) {
            return '<li><input type="checkbox" id="tag-' + index + '" name="tag" value="' + tag.id + '"' +
              (values.tags.indexOf(tag.id) >= 0 ? ' checked' : '') + '><label for="tag-' + index + '">' +
              escape(tag.name) + '</label></li>';
          }).join('') + '</ul></fieldset>';
      }
      html += '<p class="actions"><button type="submit" class="primary">' + escape(word(editing ? 'save' : 'create')) +
        '</button> <a class="button" href="' + escape(mode === 'new' ? after : view) + '" data-key="Escape">' +
        escape(word('cancel')) + '</a></p></form>';
    } else if (issue && mode === 'delete') {
      html += '<h2 id="detail-heading" tabindex="-1">' + escape(issue.title) + '</h2>' +
        '<form method="post" action="/issues/' + issue.id + '/delete" class="confirm">' + hidden('csrf', csrf) +
        hidden('back', address(params, function (p) { p.delete('issue'); p.delete('mode'); })) +
        '<p>' + escape(word('deleteQuestion')) + '</p><button type="submit" class="danger">' + escape(word('delete')) +
        '</button> <a class="button" href="' + escape(view) + '" data-key="Escape">' + escape(word('cancel')) + '</a></form>';
    } else if (issue) {
      var status = word(issue.completed ? 'completed' : 'open');
      var names = issue.tags.map(function (tag) { return tagsByID[tag] ? { id: tag, name: tagsByID[tag] } : null; }).filter(Boolean);
      html += '<article class="issue-detail"><h2 id="detail-heading" tabindex="-1">' + escape(issue.title) + '</h2>' +
        '<dl class="facts"><dt>' + escape(word('status')) + '</dt><dd class="' + (issue.completed ? 'done' : 'open') + '">' +
        (issue.completed ? '✓ ' : '○ ') + escape(status) + '</dd><dt>' + escape(word('priority')) +
        '</dt><dd class="priority p-' + Copy.priorityNames[issue.priority] + '">' + escape(word(Copy.priorityNames[issue.priority])) +
        '</dd><dt>' + escape(word('created')) + '</dt><dd>' + escape(relative(issue.created)) + '</dd>' +
        (issue.modified ? '<dt>' + escape(word('modified')) + '</dt><dd>' + escape(relative(issue.modified)) + '</dd>' : '') +
        '</dl><h3>' + escape(word('tags')) + '</h3><ul class="tags">' +
        (names.length ? names.map(function (tag) {
          return '<li><a class="tag" href="/?filter=tag:' + tag.id + '">' + escape(tag.name) + '</a></li>';
        }).join('') : '<li class="quiet">' + escape(word('noTags')) + '</li>') + '</ul>' +
        '<h3>' + escape(word('details')) + '</h3>' +
        (issue.detail ? '<div class="text">' + escape(issue.detail) + '</div>' : '<p class="quiet">' + escape(word('noDetail')) + '</p>') +
        '<div class="actions"><a class="button" href="' + escape(address(params, function (p) { p.set('mode', 'edit'); p.delete('pane'); })) +
        '" data-key="e">' + escape(word('edit')) + '</a><form method="post" action="/issues/' + issue.id + '/complete" data-inplace>' +
        hidden('csrf', csrf) + hidden('back', view) + hidden('completed', issue.completed ? '0' : '1') +
        '<button type="submit" data-key="x">' + escape(word(issue.completed ? 'reopen' : 'complete')) + '</button></form>' +
        '<a class="button danger" href="' + escape(address(params, function (p) { p.set('mode', 'delete'); p.delete('pane'); })) +
        '" data-key="d">' + escape(word('delete')) + '</a></div></article>';
    } else {
      html += '<h2 id="detail-heading" tabindex="-1">' + escape(word('detail')) + '</h2><p class="' +
        (id ? 'problem">' + escape(word('gone')) : 'quiet">' + escape(word('none'))) + '</p>';
    }
    pane.innerHTML = html;
  }

  // Draws the page at `where` from the copy, for a server that does not answer; resolves false
  // where there is no copy to draw from. `how` as app.js's load: push, replace, pop or none.
  function show(where, how, focus) {
    var url = new URL(where, window.location.href);
    if (url.pathname !== '/' || !$('#list')) return Promise.resolve(false);
    var params = url.searchParams;
    params.delete('said');
    var place = placeOf(params);
    var asked = params.get('issue');
    var source = held ? Promise.resolve(held) : screenFor(place, limitOf(params), asked).then(function (screen) {
      return screen || loadCopy();
    });
    // Where the focus was, to find again in what is drawn (a button by its key, a field by its
    // id), when the caller names no place for it.
    var active = document.activeElement;
    // (A redraw for another tab's change, `none`, keeps it too: a row link by its address.)
    var again = focus || (!active || active === document.body ? null
      : active.id ? '#' + CSS.escape(active.id)
        : active.dataset && active.dataset.key ? '[data-key="' + CSS.escape(active.dataset.key) + '"]'
          : active.tagName === 'A' && active.getAttribute('href')
            ? 'a[href="' + CSS.escape(active.getAttribute('href')) + '"]' : null);
    return source.then(function (copy) {
      if (!copy.state.database) return false;
      var tagsByID = {};
      copy.tags.forEach(function (tag) { tagsByID[tag.id] = tag.name; });
      drawList(copy, params, place, tagsByID);
      drawDetail(copy, params, tagsByID);
      var panes = $('.panes');
      if (panes) {
        panes.dataset.front = params.get('pane') ||
          (params.get('issue') || params.get('mode') === 'new' ? 'detail' : 'list');
      }
      var banner = $('#connection');
      if (banner) {
        banner.hidden = false;
        banner.textContent = word('offline');
      }
      document.documentElement.dataset.connected = '0';
      document.documentElement.dataset.fromCopy = '1';
      var target = url.pathname + (params.toString() ? '?' + params.toString() : '');
      if (how === 'push' && target !== window.location.pathname + window.location.search) {
        window.history.pushState({ from: window.location.pathname + window.location.search }, '', target);
      } else if (how === 'replace') {
        window.history.replaceState(null, '', target);
      }
      if (again && document.activeElement !== active || focus) {
        var element = again && $$(again).filter(function (each) { return each.offsetParent !== null; })[0];
        if (element) element.focus();
        else if (!focus && !active.isConnected) ($('#detail-heading') || $('#list-heading') || {focus: function () {}}).focus();
      }
      if (window.performance && performance.mark) performance.mark('docket-drawn-from-copy');
      if (copy.screen) {
        // Drawn from the first screen kept: the copy itself now, for what comes next, and the
        // counts as they are this minute.
        loadCopy().then(function (whole) {
          if (document.documentElement.dataset.fromCopy !== '1') return;
          var here = placeOf(new URL(window.location.href).searchParams);
          drawCounts(Copy.counts(whole, here), here);
          warm(whole, place.sort);
        }).catch(function () {});
      } else {
        warm(copy, place.sort);
        notePlace(place, limitOf(params));
      }
      return true;
    }).catch(function () { return false; });
  }


  window.DocketOffline = {
    show: show, record: record, flush: flush, refresh: refresh, showWaiting: showWaiting,
    // Whether the page shows the copy rather than the server's answer.
    showingCopy: function () { return document.documentElement.dataset.fromCopy === '1'; },
    // The page is the server's again: an answer is proof it is in reach (a page the service
    // worker gave up waiting for is drawn from the copy while the stream stays open, so the
    // stream's opening may never come to say so).
    answered: function () {
      if (document.documentElement.dataset.fromCopy !== '1') return;
      delete document.documentElement.dataset.fromCopy;
      var banner = $('#connection');
      if (banner && banner.textContent === word('offline')) {
        banner.hidden = true;
        banner.textContent = '';
        document.documentElement.dataset.connected = '1';
      }
      flush();
    },
  };
})();
