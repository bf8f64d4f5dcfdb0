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

  var opening = null;
  function open() {
    if (!opening) {
      opening = new Promise(function (resolve, reject) {
        var request = indexedDB.open('docket', 1);
        request.onupgradeneeded = function () {
          var db = request.result;
          db.createObjectStore('issues', { keyPath: 'id' });
          db.createObjectStore('tags', { keyPath: 'id' });
          db.createObjectStore('meta');
          // The changes made here, in the order made, until the server has them.
          db.createObjectStore('outbox', { autoIncrement: true });
        };
        request.onsuccess = function () { resolve(request.result); };
        request.onerror = function () { reject(request.error); };
      });
      opening.catch(function () { opening = null; });
    }
    return opening;
  }
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
  // that wait. Let go of whenever the stored copy changes.
  var memory = null;
  function loadCopy() {
    if (memory) return memory;
    memory = within(['issues', 'tags', 'meta', 'outbox'], 'readonly', function (transaction) {
      return Promise.all([
        done(transaction.objectStore('issues').getAll()),
        done(transaction.objectStore('tags').getAll()),
        done(transaction.objectStore('meta').get('state')),
        done(transaction.objectStore('outbox').getAll()),
      ]);
    }).then(function (parts) {
      var copy = { issues: parts[0], tags: parts[1], state: parts[2] || {}, waiting: parts[3].length };
      parts[3].forEach(function (line) { Copy.applyToCopy(copy, line); });
      return copy;
    });
    memory.catch(function () { memory = null; });
    return memory;
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
  function store(copy, state) {
    return within(['issues', 'tags', 'meta'], 'readwrite', function (transaction) {
      var issues = transaction.objectStore('issues');
      var tags = transaction.objectStore('tags');
      if (copy.full) { issues.clear(); tags.clear(); }
      copy.issues.forEach(function (issue) { issues.put(issue); });
      copy.tags.forEach(function (tag) { tags.put(tag); });
      (copy.goneIssues || []).forEach(function (id) { issues.delete(id); });
      (copy.goneTags || []).forEach(function (id) { tags.delete(id); });
      var state = { database: copy.database, device: copy.device, seq: copy.seq, clock: copy.clock };
      // How far this browser's clock is from the server's: its changes are stamped by the
      // server's time, so that a phone's wrong clock never stamps them ahead of every device.
      if (typeof copy.now === 'number' && isFinite(copy.now)) state.offset = copy.now - Date.now();
      return keepState(transaction, state);
    }).then(function () {
      memory = null;
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
    });
  }
  // Unpaired: nothing of the tracker stays in this browser.
  function forget() {
    memory = null;
    return within(['issues', 'tags', 'meta', 'outbox'], 'readwrite', function (transaction) {
      ['issues', 'tags', 'meta', 'outbox'].forEach(function (name) { transaction.objectStore(name).clear(); });
    }).then(showWaiting);
  }

  // MARK: Sending what waits

  var flushing = null;
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
    function next() {
      return within(['outbox'], 'readonly', function (transaction) {
        var outbox = transaction.objectStore('outbox');
        return Promise.all([done(outbox.getAllKeys(null, most)), done(outbox.getAll(null, most))]);
      }).then(function (found) {
        var keys = found[0];
        if (!keys.length) return null;
        // JSON leaves U+2028, U+2029 and NEL as they are; escaped, no line holds a line break.
        var lines = found[1].map(function (line) {
          return JSON.stringify(line).replace(/[\u0085\u2028\u2029]/g, function (character) {
            return '\\u' + character.charCodeAt(0).toString(16).padStart(4, '0');
          });
        });
        var size = 0;
        var take = 0;
        while (take < lines.length) {
          var bytes = encodeURIComponent(lines[take]).length + 3;
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
                if (Array.isArray(answer.refused)) refused = refused.concat(answer.refused);
                if (response.ok) sent += take - (Array.isArray(answer.refused) ? answer.refused.length : 0);
                return remove(keys.slice(0, take)).then(next);
              });
            }
            // Too large to take: smaller batches, down to one change, which is let go.
            if (response.status === 400 || response.status === 413) {
              if (take > 1) { most = Math.max(1, Math.floor(take / 2)); return next(); }
              refused.push(String(response.status));
              return remove(keys.slice(0, 1)).then(next);
            }
            // Not paired, read-only, or out of reach: they wait.
            return null;
          });
      });
    }
    flushing = next().catch(function () { /* out of reach: they wait */ }).then(function () {
      flushing = null;
      if (refused.length) page().announce(fill(word('refused'), String(refused.length)), true);
      else if (sent) page().announce(word('sent'));
      return refresh();
    }).then(showWaiting);
    return flushing;
  }
  function remove(keys) {
    return within(['outbox'], 'readwrite', function (transaction) {
      var outbox = transaction.objectStore('outbox');
      keys.forEach(function (key) { outbox.delete(key); });
    }).then(function () { memory = null; });
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
  function record(action, body) {
    var parts = new URL(action, window.location.href).pathname.split('/').filter(Boolean);
    if (parts[0] !== 'issues' || parts.length > 3) return Promise.resolve(false);
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
      var keeping = lines.length
        ? within(['outbox', 'meta'], 'readwrite', function (transaction) {
          var outbox = transaction.objectStore('outbox');
          lines.forEach(function (line) { outbox.add(line); });
          return keepState(transaction, { clock: copy.state.clock });
        })
        : Promise.resolve();
      return keeping.then(function () {
        lines.forEach(function (line) { Copy.applyToCopy(copy, line); });
        return showWaiting();
      }).then(function () {
        return show(back.pathname + back.search, 'push', parts.length === 1 ? '#detail-heading' : null);
      }).then(function () {
        if (lines.length) page().announce(word('kept'));
        return true;
      });
    });
  }

  // MARK: Drawing from the copy

  var references = null;
  // The shortest start of an id that no other id of the copy shares (at least 4 digits), as
  // the server shows references.
  function reference(copy, id) {
    if (!references || references.copy !== copy) {
      references = { copy: copy, sorted: copy.issues.map(function (issue) { return issue.id.replace(/-/g, ''); }).sort() };
    }
    var hex = id.replace(/-/g, '');
    var sorted = references.sorted;
    var low = 0, high = sorted.length;
    while (low < high) { var middle = (low + high) >> 1; if (sorted[middle] < hex) low = middle + 1; else high = middle; }
    function shared(other) {
      var length = 0;
      while (other && length < hex.length && other[length] === hex[length]) length += 1;
      return length;
    }
    var needed = Math.max(shared(sorted[low - 1]), shared(sorted[low + 1])) + 1;
    return hex.slice(0, Math.max(4, needed));
  }

  function relative(seconds) {
    var format = new Intl.RelativeTimeFormat(document.documentElement.lang || 'en', { numeric: 'auto' });
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
      '</span> <span class="ref">' + reference(copy, issue.id) + '</span> <span class="meta">' +
      names.map(function (name) { return ' <span class="tag">' + escape(name) + '</span>'; }).join('') +
      ' <time class="when" datetime="' + new Date(when * 1000).toISOString() + '">' + escape(relative(when)) +
      '</time></span></a></li>';
  }

  function drawList(copy, params, place, tagsByID) {
    var pane = $('#list');
    var bar = pane && $('.list-bar', pane);
    if (!bar) return;
    var shown = Copy.list(copy, place);
    var limit = Math.min(1000, Math.max(1, parseInt(params.get('n'), 10) || 50));
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
        shown.issues.slice(0, limit).map(function (issue) {
          return row(copy, issue, params, tagsByID, issue.id === current);
        }).join('') + '</ol>';
      if (shown.issues.length > limit && limit < 1000) {
        html += '<p><a class="button" href="' + escape(address(params, function (p) { p.set('n', String(Math.min(limit * 2, 1000))); })) +
          '">' + escape(word('more') || '…') + '</a></p>';
      }
    }
    bar.insertAdjacentHTML('afterend', html);
    var counted = $('#list-count');
    if (counted) counted.textContent = shown.error ? '' : count(shown.issues.length);
    var search = $('#q');
    if (search && document.activeElement !== search) search.value = place.q;
    // The sidebar: each filter's count, and which is chosen.
    var counts = Copy.counts(copy, place);
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
    var heading = $('#list-heading');
    var chosen = $('#filters a[aria-current] .name');
    if (heading && chosen) heading.textContent = chosen.textContent;
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
    return loadCopy().then(function (copy) {
      if (!copy.state.database) return false;
      var params = url.searchParams;
      params.delete('said');
      var sortField = $('#sort');
      var completedSwitch = $('#filters a[aria-pressed]');
      var place = {
        filter: params.get('filter') || 'open', q: params.get('q') || '',
        sort: params.get('sort') || (sortField ? sortField.value : 'priority:desc'),
        done: params.get('done') === '1' ? true : params.get('done') === '0' ? false
          : !completedSwitch || completedSwitch.getAttribute('aria-pressed') === 'true',
        now: Date.now() / 1000,
      };
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
      if (focus) {
        var element = $(focus);
        if (element) element.focus();
      }
      if (window.performance && performance.mark) performance.mark('docket-drawn-from-copy');
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
