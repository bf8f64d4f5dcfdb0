// Docket's own script for the pages of `docket serve`. The pages work without it; it adds live
// updates, the terminal app's keys, changes made in place and search as you type.
(function () {
  'use strict';
  var PANES = ['#filters', '#list', '#detail', 'main.single'];
  var $ = function (selector, root) { return (root || document).querySelector(selector); };
  var $$ = function (selector, root) {
    return Array.prototype.slice.call((root || document).querySelectorAll(selector));
  };

  // Says `text` in the status region, which shows it on screen too: a message about a change
  // made for a while, one about a failure (`lasting`) until the next message.
  var fading = null;
  function fadeLater(region) {
    fading = window.setTimeout(function () {
      // Not while its Undo is being reached for: it waits for the focus or pointer to leave.
      if (region.matches(':focus-within, :hover')) {
        fadeLater(region);
        return;
      }
      region.classList.add('faded');
      // Faded, the words go too, so a screen reader browsing the page does not find them stale.
      fading = window.setTimeout(function () { region.textContent = ''; }, 400);
    }, 8000);
  }
  // A failure said until the next message goes once the server answers again.
  var failing = false;
  function settle() {
    var region = $('#announce');
    if (failing && region) {
      failing = false;
      region.textContent = '';
    }
  }
  // `undo`, when given, is offered beside the message as a button until it fades.
  var showing = null;
  function announce(text, lasting, undo) {
    var region = $('#announce');
    if (!region || !text) return;
    region.textContent = '';
    region.classList.remove('faded');
    window.clearTimeout(fading);
    window.clearTimeout(showing);
    failing = !!lasting;
    showing = window.setTimeout(function () {
      region.textContent = text;
      if (undo) {
        var button = document.createElement('button');
        button.type = 'button';
        button.className = 'undo';
        button.textContent = document.body.dataset.undo;
        button.addEventListener('click', function () {
          // The focus goes back to the list before the button it is on goes.
          var list = $('#list-heading');
          if (list && visible(list)) list.focus();
          region.textContent = '';
          undo();
        });
        region.appendChild(document.createTextNode(' '));
        region.appendChild(button);
      }
      if (!lasting) fadeLater(region);
    }, 60);
  }
  // For the copy's script (offline.js), which says what it keeps and sends here too.
  window.DocketPage = { announce: function (text, lasting) { announce(text, lasting); } };
  var offline = function () { return window.DocketOffline; };

  // What a change that failed says stays until the next message: a passphrase that did not
  // open the remote is read, and typed again, with the message on screen.
  var LASTING = ['wrongPassphrase'];

  // A message the page came with (a change, before the script took over the forms) fades too,
  // unless it says what failed.
  (function () {
    var region = $('#announce');
    var said = new URL(window.location.href).searchParams.get('said');
    if (region && region.textContent && LASTING.indexOf(said) < 0) fadeLater(region);
  })();

  // The address without the one-time message of a change.
  function clean(address) {
    var url = new URL(address, window.location.href);
    url.searchParams.delete('said');
    url.searchParams.delete('fields');
    return url.pathname + url.search;
  }

  function visible(element) { return element && element.offsetParent !== null; }

  // Whether a pane holds work that a live refresh must not throw away: an open form, or the
  // field being typed in.
  function busy(pane, active) {
    // A row under a finger stays the row it is until the finger lifts.
    if (pane.querySelector('.issue-form, form.confirm, li.touched')) return true;
    return !!(active && pane.contains(active) && active.form &&
              active.form.method.toLowerCase() === 'post');
  }

  // Where the focus is, in words that still find it in a page drawn again.
  function focusKey(active) {
    if (!active || active === document.body) return null;
    if (active.id) return { id: active.id };
    if (active.dataset && active.dataset.key) return { key: active.dataset.key };
    if (active.tagName === 'A') return { href: active.getAttribute('href') };
    return null;
  }

  function findFocus(key) {
    if (!key) return null;
    if (key.id) return document.getElementById(key.id);
    if (key.key) return $$('[data-key="' + key.key + '"]').filter(visible)[0];
    return $$('a').filter(function (a) { return a.getAttribute('href') === key.href; })[0];
  }

  // Puts the panes of a page fetched in the background in place of these, keeping scroll
  // positions and the focus. A live refresh (`live`) leaves a pane with work in it alone;
  // `keepValue` keeps what is being typed in the focused field.
  function swap(doc, live, keepValue) {
    var active = document.activeElement;
    var key = focusKey(active);
    var typed = active && (active.tagName === 'INPUT' || active.tagName === 'TEXTAREA');
    var value = typed ? active.value : null;
    var caret = typed && 'selectionStart' in active ? active.selectionStart : null;
    PANES.forEach(function (selector) {
      var old = $(selector);
      var fresh = $(selector, doc);
      if (!old || !fresh) return;
      if (live && busy(old, active)) return;
      var scroll = old.scrollTop;
      old.replaceWith(fresh);
      fresh.scrollTop = scroll;
    });
    var panes = $('.panes');
    var freshPanes = $('.panes', doc);
    if (panes && freshPanes) panes.dataset.front = freshPanes.dataset.front;
    var version = $('meta[name="live-version"]', doc);
    var mine = $('meta[name="live-version"]');
    if (version && mine) mine.content = version.content;
    document.title = doc.title;
    var again = findFocus(key);
    if (again && again !== document.activeElement) {
      again.focus({ preventScroll: true });
      if (typed && keepValue && again.value !== value) again.value = value;
      if (caret !== null && 'setSelectionRange' in again) {
        try { again.setSelectionRange(caret, caret); } catch (ignored) { /* not a text field */ }
      }
    }
  }

  function parse(text) { return new DOMParser().parseFromString(text, 'text/html'); }

  // Goes on to `address` in the history, keeping in the entry left how far the page was
  // scrolled (`y`, before the new page was put in), for Back to come back to. The pages are drawn in place, so the browser's own
  // restoring would come too early.
  if ('scrollRestoration' in window.history) window.history.scrollRestoration = 'manual';
  function leave(address, y) {
    var from = clean(window.location.href);
    var kept = window.history.state || {};
    window.history.replaceState({ y: y, from: kept.from }, '');
    // The same address again (a change made in place): no new entry for Back to stop at.
    if (address === from) return;
    window.history.pushState({ from: from }, '', address);
  }
  // Left for another page altogether (Tags, Awards): the place is kept for Back too, and put
  // back when the page is shown again.
  window.addEventListener('pagehide', function () {
    var kept = window.history.state || {};
    window.history.replaceState({ y: window.scrollY, from: kept.from }, '');
  });
  (function () {
    var kept = window.history.state;
    if (kept && typeof kept.y === 'number') window.scrollTo(0, kept.y);
  })();

  // Every navigation and change counts up; a page fetched for an older one is not shown, so a
  // live refresh that started before a change never puts the old page back.
  var generation = 0;
  // Shows the page at `address` in place. `how`: 'push' or 'replace' (search as you type) for
  // the history, 'pop' after Back or Forward, 'none' for a live refresh of the page shown.
  function load(address, how, focus) {
    // Going somewhere else: a search still waiting for the typing to pause would undo it.
    if (how === 'push' || how === 'pop') window.clearTimeout(typing);
    var state = window.history.state;
    var y = window.scrollY;
    var mine = how === 'none' ? generation : ++generation;
    var from = window.location.href;
    return fetch(address, { credentials: 'same-origin' }).then(function (response) {
      // The service worker's copy of a page, for a server that does not answer: the page is
      // drawn from the tracker's own copy instead, which knows more.
      if (response.headers.get('X-Docket-Copy') && offline()) {
        return offline().show(address, how === 'pop' ? 'none' : how, focus).then(function (shown) {
          if (!shown && how !== 'none') announce(document.body.dataset.loadFailed, true);
        });
      }
      return response.text().then(function (text) {
        if (mine !== generation || (how === 'none' && window.location.href !== from)) return;
        if (offline()) offline().answered();
        // A live refresh that started while this was on its way is out of date now.
        if (how !== 'none') generation += 1;
        var doc = parse(text);
        swap(doc, how === 'none', how === 'none' || how === 'replace');
        settle();
        if (how === 'push') leave(clean(response.url), y);
        if (how === 'replace') window.history.replaceState(null, '', clean(response.url));
        // Back or Forward: the page where it was when it was left (on a phone, the list's
        // place, which the whole page scrolls).
        if (how === 'pop' && state && typeof state.y === 'number') window.scrollTo(0, state.y);
        if (how !== 'none') announce(($('#announce', doc) || {}).textContent);
        if (focus) {
          var target = $(focus);
          if (target) {
            target.focus();
            // In the search field, typing goes on after the token just chosen.
            if (target.id === 'q') target.setSelectionRange(target.value.length, target.value.length);
          }
        }
      });
    }, function () {
      // No answer at all: drawn from the tracker's copy in this browser; without one, the page
      // stays as it is, and says so (a live refresh says nothing: the connection's banner does).
      if (how === 'none') return;
      var drawn = offline() ? offline().show(address, how === 'pop' ? 'none' : how, focus)
        : Promise.resolve(false);
      return drawn.then(function (shown) {
        if (!shown) announce(document.body.dataset.loadFailed, true);
      });
    }).catch(function () { if (how !== 'none') window.location.href = address; });
  }

  function submitInPlace(form) {
    // (A form that comes back with an error puts the focus in its title: `post` sees to it.)
    post(form.action, new URLSearchParams(new FormData(form)),
      form.classList.contains('sort') ? '#sort' : '#detail-heading');
  }

  // Other changes whose message offers Undo: the server's undo of this device's latest step.
  // (A dismissed conflict, a delete for good and a sort are no steps: they offer none.)
  var UNDOABLE = ['created', 'saved', 'restored', 'tagCreated', 'tagRenamed', 'tagDeleted',
    'tagsMerged', 'used', 'undone', 'redone'];

  // Completing, reopening and deleting can be taken back, offered with the message that says
  // it was done: the same change the other way, or the issue restored as it was (which works
  // offline too, from the browser's outbox).
  function undoFor(action, body, said) {
    if (said === 'deleted' && /\/delete$/.test(action)) {
      return function () {
        var restore = new URLSearchParams();
        restore.set('csrf', body.get('csrf') || '');
        restore.set('back', clean(window.location.href));
        post(action.replace(/\/delete$/, '/restore'), restore, '#list-heading');
      };
    }
    if (!/\/complete$/.test(action) || !body.has('completed')) return null;
    return function () {
      var back = new URLSearchParams(body);
      back.set('completed', body.get('completed') === '1' ? '0' : '1');
      post(action, back, null);
    };
  }

  // Posts a change and shows the page that comes back in place, the focus on `focus` (null:
  // where it was).
  function post(action, body, focus) {
    var y = window.scrollY;
    // A new issue is named here: sent again, or kept offline and sent later, it is made once.
    if (new URL(action, window.location.href).pathname === '/issues' && !body.get('id') &&
        window.DocketCopy && window.crypto) {
      body.set('id', window.DocketCopy.newID(function (size) {
        return crypto.getRandomValues(new Uint8Array(size));
      }));
    }
    var mine = ++generation;
    fetch(action, { method: 'POST', body: body, credentials: 'same-origin' })
      .then(function (response) {
        return response.text().then(function (text) {
          if (mine !== generation) return;
          generation += 1;
          var doc = parse(text);
          swap(doc, false, false);
          settle();
          if (response.ok) leave(clean(response.url), y);
          // Undo only where something was changed (not "already so").
          var said = new URL(response.url).searchParams.get('said');
          announce(($('#announce', doc) || {}).textContent,
            !response.ok || LASTING.indexOf(said) >= 0,
            response.ok && ['completed', 'reopened', 'deleted'].indexOf(said) >= 0
              ? undoFor(action, body, said)
              : response.ok && UNDOABLE.indexOf(said) >= 0
                ? function () { undoOnServer(false); } : null);
          if (focus === null) return;
          if ($('#form-error')) focus = '#f-title';
          var target = $(focus) || $('#list-heading');
          if (target) target.focus();
        }).catch(function () {
          // The change was made; only showing it failed: show the page as it is now.
          window.location.reload();
        });
      }, function () {
        // No answer: the change is kept in this browser, to go to the server when it answers
        // (a new issue has its id from here, so that one the server did make meanwhile is
        // not made twice). One that needs the server stays in its form, to be sent again by
        // hand.
        generation += 1;
        var kept = offline() ? offline().record(action, body, focus) : Promise.resolve(false);
        kept.then(function (recorded) {
          if (!recorded) announce(document.body.dataset.offline, true);
        }, function () { announce(document.body.dataset.offline, true); });
      });
  }

  // Links and forms of the page, handled in place.
  document.addEventListener('click', function (event) {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey ||
        event.shiftKey || event.altKey) return;
    var link = event.target.closest('a[href]');
    if (!link || link.origin !== window.location.origin || link.hasAttribute('download')) return;
    // Only links within the tracker's page; the other pages load as pages.
    if (link.pathname !== '/' || window.location.pathname !== '/') return;
    event.preventDefault();
    // The detail's Back on a phone goes back where the list was left, as the browser's does
    // (not to a form the issue came from).
    var state = window.history.state;
    if (link.closest('#detail') && link.classList.contains('phone-only') && state && state.from &&
        !/[?&]mode=/.test(state.from)) {
      window.history.back();
      return;
    }
    var focus = '#detail-heading';
    if (link.closest('#filters') || link.closest('.pane-head')) focus = '#list-heading';
    if (link.closest('#suggestions') || link.closest('#chips')) focus = '#q';
    if (link.search.indexOf('pane=filters') >= 0) focus = '#filters-heading';
    // A new issue and an edit start in the title, ready to type.
    if (/[?&]mode=(new|edit)(&|$)/.test(link.search)) focus = '#f-title';
    load(link.href, 'push', focus);
  });

  document.addEventListener('submit', function (event) {
    var form = event.target;
    if (form.method.toLowerCase() === 'get' && form.getAttribute('action') === '/' &&
        window.location.pathname === '/') {
      event.preventDefault();
      var address = formAddress(form);
      // Enter in the search: the server makes the tokens typed by hand chips.
      if (form.classList.contains('search')) address += (address.indexOf('?') < 0 ? '?' : '&') + 'enter=1';
      load(address, 'push', '#list-heading');
    } else if (form.hasAttribute('data-inplace') || form.classList.contains('confirm')) {
      event.preventDefault();
      submitInPlace(form);
    }
  });

  window.addEventListener('popstate', function () { load(window.location.href, 'pop'); });

  // Touch: a row swiped right completes or reopens its issue, swiped left asks to delete it.
  // What the swipe will do shows under the row as it moves; let go before the mark and nothing
  // happens.
  (function () {
    var row = null;
    var start = null;
    var moved = 0;
    var swiping = false;
    var tapAfterSwipe = false;
    // How far a row must go, measured as the finger lands.
    function mark() { return Math.min(120, width * 0.3); }
    // The moves and the lift are heard on the row itself: a page drawn again while the finger
    // is down takes the row out of the document, and its events no longer reach it.
    var width = 0;
    function move(event) {
      if (!row) return;
      // A row drawn again meanwhile is not the row on screen: nothing is done to it.
      if (!row.isConnected) { moved = 0; release(); return; }
      var x = event.touches[0].clientX - start.x;
      var y = event.touches[0].clientY - start.y;
      if (!swiping) {
        if (Math.abs(x) < 12) return;
        // Up and down is the list scrolling, not a swipe.
        if (Math.abs(y) > Math.abs(x)) { release(); return; }
        swiping = true;
      }
      moved = x;
      var item = row.parentNode;
      var list = row.closest('#issue-list');
      var completing = x > 0;
      item.classList.add('swiping');
      item.dataset.swipe = completing ? 'complete' : 'delete';
      item.dataset.action = completing
        ? (item.classList.contains('done') ? list.dataset.swipeReopen : list.dataset.swipeComplete)
        : list.dataset.swipeDelete;
      item.classList.toggle('armed', Math.abs(x) >= mark());
      row.style.transform = 'translateX(' + x + 'px)';
    }
    function release() {
      if (!row) return null;
      var link = row;
      row = null;
      link.removeEventListener('touchmove', move);
      link.removeEventListener('touchend', end);
      link.removeEventListener('touchcancel', cancel);
      link.style.transform = '';
      link.parentNode.classList.remove('touched', 'swiping', 'armed');
      return link;
    }
    function cancel() {
      moved = 0;
      end();
    }
    function end() {
      var link = release();
      if (!link || !swiping || !link.isConnected) return;
      var item = link.parentNode;
      // The tap a browser may see at the end of a swipe opens nothing.
      tapAfterSwipe = true;
      window.setTimeout(function () { tapAfterSwipe = false; }, 400);
      if (Math.abs(moved) < mark()) return;
      var address = new URL(link.href);
      var id = address.searchParams.get('issue');
      if (!id) return;
      if (moved > 0) {
        var body = new URLSearchParams();
        body.set('csrf', $('meta[name="csrf"]').content);
        body.set('back', clean(window.location.href));
        body.set('completed', item.classList.contains('done') ? '0' : '1');
        post('/issues/' + id + '/complete', body, null);
      } else {
        address.searchParams.set('mode', 'delete');
        load(address.pathname + address.search, 'push', '#detail-heading');
      }
    }
    document.addEventListener('touchstart', function (event) {
      var link = event.target.closest('#issue-list[data-swipe-delete] a');
      if (!link || event.touches.length !== 1) return;
      release();
      row = link;
      width = link.offsetWidth;
      // Under a finger, the row is not drawn again by a live update until it lifts.
      link.parentNode.classList.add('touched');
      start = { x: event.touches[0].clientX, y: event.touches[0].clientY };
      moved = 0;
      swiping = false;
      link.addEventListener('touchmove', move, { passive: true });
      link.addEventListener('touchend', end);
      link.addEventListener('touchcancel', cancel);
    }, { passive: true });
    document.addEventListener('click', function (event) {
      if (tapAfterSwipe && event.target.closest('#issue-list')) {
        event.preventDefault();
        event.stopImmediatePropagation();
      }
    }, true);
  })();

  // Mouse and keyboard: each row's menu (complete or reopen, edit, delete), from the button at
  // the row's end, a right click on the row, or `.` (or Shift-F10, or the menu key) on a row in
  // focus. One menu for the page, made when it opens; a touch screen swipes instead.
  (function () {
    var menu = null;
    var opener = null;
    var anchor = null;
    var words = null;
    // Puts the menu beside where it opened, inside the window; a row gone from the list or out
    // of sight takes its menu with it.
    function place() {
      if (!menu) return;
      var row = anchor.item.getBoundingClientRect();
      if (!anchor.item.isConnected || row.bottom < 0 || row.top > window.innerHeight) {
        close(false);
        return;
      }
      var width = menu.offsetWidth, height = menu.offsetHeight;
      var left = Math.min(row.left + anchor.right - width, window.innerWidth - width - 8);
      var below = row.top + anchor.bottom;
      var top = below + height + 8 > window.innerHeight ? row.top + anchor.top - height : below;
      menu.style.left = Math.max(8, left) + 'px';
      menu.style.top = Math.max(8, top) + 'px';
    }
    function word(key) {
      if (!words) {
        var element = document.getElementById('copy-words');
        try { words = element ? JSON.parse(element.textContent) : {}; } catch (ignored) { words = {}; }
      }
      return words[key] || '';
    }
    function rowOf(element) {
      var item = element && element.closest('#issue-list[data-swipe-delete] li.issue');
      return item && $('a', item) ? item : null;
    }
    function titleOf(item) { return ($('.title', item) || {}).textContent || ''; }
    // A button at the end of each row, for the mouse; added as rows come (a page drawn in place,
    // a live update, the list drawn from the copy).
    function decorate() {
      $$('#issue-list[data-swipe-delete] li.issue').forEach(function (item) {
        if ($('.row-menu-button', item)) return;
        var button = document.createElement('button');
        button.type = 'button';
        button.className = 'row-menu-button';
        button.tabIndex = -1;
        button.setAttribute('aria-haspopup', 'menu');
        button.setAttribute('aria-label', word('rowMenu').replace('%@', function () { return titleOf(item); }));
        button.textContent = '⋯';
        item.appendChild(button);
      });
    }
    // (A touch screen swipes: no buttons to make there, nor rows to watch for them.)
    var touch = window.matchMedia && window.matchMedia('(pointer: coarse)').matches;
    if (!touch) {
      new MutationObserver(function () {
        decorate();
        // The row drawn again (a live update): its menu would act on what it was.
        if (menu && !anchor.item.isConnected) close(false);
      }).observe(document.querySelector('.panes') || document.body, { childList: true, subtree: true });
      decorate();
    }

    function close(refocus) {
      if (!menu) return;
      var back = opener;
      menu.remove();
      menu = null;
      opener = null;
      anchor = null;
      $$('.row-menu-button[aria-expanded]').forEach(function (button) {
        button.removeAttribute('aria-expanded');
      });
      if (refocus && back && back.isConnected) back.focus();
    }
    function choose(item, what) {
      var link = $('a', item);
      var address = new URL(link.href);
      var id = address.searchParams.get('issue');
      close(false);
      if (!id) return;
      if (what === 'complete') {
        var body = new URLSearchParams();
        body.set('csrf', $('meta[name="csrf"]').content);
        body.set('back', clean(window.location.href));
        body.set('completed', item.classList.contains('done') ? '0' : '1');
        post('/issues/' + id + '/complete', body, '#list-heading');
        return;
      }
      address.searchParams.set('mode', what);
      load(address.pathname + address.search, 'push', what === 'edit' ? '#f-title' : '#detail-heading');
    }
    // Opens the menu of `item` beside `at` (a point, or the row's button).
    function open(item, at) {
      close(false);
      opener = $('a', item);
      menu = document.createElement('div');
      menu.className = 'row-menu';
      menu.setAttribute('role', 'menu');
      menu.setAttribute('aria-label', word('rowMenu').replace('%@', function () { return titleOf(item); }));
      [['complete', item.classList.contains('done') ? 'reopen' : 'complete'], ['edit', 'edit'],
        ['delete', 'delete']].forEach(function (entry) {
        var choice = document.createElement('button');
        choice.type = 'button';
        choice.setAttribute('role', 'menuitem');
        choice.tabIndex = -1;
        choice.dataset.act = entry[0];
        choice.textContent = word(entry[1]);
        if (entry[0] === 'delete') choice.className = 'danger';
        menu.appendChild(choice);
      });
      document.body.appendChild(menu);
      // Where it opened, from the row's corner: it follows the row as the list scrolls.
      var row = item.getBoundingClientRect();
      var spot = at.getBoundingClientRect ? at.getBoundingClientRect()
        : { left: at.x, right: at.x, top: at.y, bottom: at.y };
      anchor = { item: item, left: spot.left - row.left, right: spot.right - row.left,
        top: spot.top - row.top, bottom: spot.bottom - row.top };
      place();
      var button = $('.row-menu-button', item);
      if (button) button.setAttribute('aria-expanded', 'true');
      menu.addEventListener('click', function (event) {
        var choice = event.target.closest('[role=menuitem]');
        if (choice) choose(item, choice.dataset.act);
      });
      menu.addEventListener('keydown', function (event) {
        var items = $$('[role=menuitem]', menu);
        var at = items.indexOf(document.activeElement);
        var step = { ArrowDown: 1, ArrowUp: -1, Home: -at, End: items.length - 1 - at }[event.key];
        if (step !== undefined) {
          items[(at + step + items.length) % items.length].focus();
        } else if (event.key === 'Escape' || event.key === 'Tab') {
          close(true);
        } else {
          // Enter and Space choose (the item's click); the page's own keys wait.
          event.stopPropagation();
          return;
        }
        event.preventDefault();
        event.stopPropagation();
      });
      $('[role=menuitem]', menu).focus();
    }
    document.addEventListener('click', function (event) {
      var button = event.target.closest('.row-menu-button');
      if (button) {
        event.preventDefault();
        if (menu && button.getAttribute('aria-expanded')) close(false);
        else open(button.closest('li'), button);
        return;
      }
      if (menu && !event.target.closest('.row-menu')) close(false);
    });
    document.addEventListener('contextmenu', function (event) {
      var item = rowOf(event.target);
      if (!item) return;
      event.preventDefault();
      open(item, { x: event.clientX, y: event.clientY });
    });
    document.addEventListener('keydown', function (event) {
      var item = rowOf(event.target);
      if (!item || event.target !== $('a', item)) return;
      if (event.key === '.' || event.key === 'ContextMenu' || (event.key === 'F10' && event.shiftKey)) {
        event.preventDefault();
        event.stopPropagation();
        // Beside its button where the button shows (not on a touch screen), else the row.
        var button = $('.row-menu-button', item);
        open(item, button && button.offsetParent !== null ? button : event.target);
      }
    }, true);
    window.addEventListener('resize', place);
    document.addEventListener('scroll', place, true);
  })();

  // The address a form of the tracker's page asks for (a search: its chips and its text).
  function formAddress(form) {
    var url = new URL('/', window.location.href);
    new FormData(form).forEach(function (value, name) { url.searchParams.append(name, value); });
    return url.pathname + url.search;
  }

  // Search as you type, and a new sort as soon as it is chosen.
  var typing = null;
  document.addEventListener('input', function (event) {
    if (event.target.id !== 'q') return;
    window.clearTimeout(typing);
    typing = window.setTimeout(function () { load(formAddress(event.target.form), 'replace'); }, 200);
  });

  // Backspace at the start of the search's text takes back the last chip, as in the terminal.
  function removeLastChip(field) {
    var chips = $$('#chips li');
    if (!chips.length) return false;
    chips[chips.length - 1].remove();
    if (!$$('#chips li').length) $('#chips').remove();
    window.clearTimeout(typing);
    load(formAddress(field.form), 'replace');
    return true;
  }
  document.addEventListener('change', function (event) {
    if (event.target.id === 'sort' && event.target.form) event.target.form.requestSubmit();
  });

  // The terminal app's keys.
  function press(key) {
    var target = $$('[data-key="' + key + '"]').filter(visible)[0];
    if (target) { target.click(); return true; }
    return false;
  }

  function move(step) {
    var links = $$('#issue-list a');
    if (!links.length) return;
    var index = links.findIndex(function (link) { return link.getAttribute('aria-current'); });
    var next = links[Math.max(0, Math.min(links.length - 1, index < 0 ? 0 : index + step))];
    load(next.href, 'push').then(function () {
      var current = $('#issue-list a[aria-current]');
      if (current) current.focus();
    });
  }

  // This device's latest change taken back (Shift: made again), on every device: the server's
  // undo, which leaves what was changed since as it is.
  function undoOnServer(redo) {
    var token = $('input[name=csrf]');
    if (!token) return;
    var body = new URLSearchParams();
    body.set('csrf', token.value);
    body.set('back', clean(window.location.href));
    post(redo ? '/redo' : '/undo', body, null);
  }

  document.addEventListener('keydown', function (event) {
    // Ctrl-Z (Cmd-Z on a Mac) outside a text field, where the browser's own undo does not work.
    if ((event.ctrlKey || event.metaKey) && !event.altKey && (event.key === 'z' || event.key === 'Z') &&
        !event.target.closest('input, textarea, select, [contenteditable]') && !$('dialog[open]')) {
      undoOnServer(event.shiftKey);
      event.preventDefault();
      return;
    }
    if (event.metaKey || event.ctrlKey || event.altKey) return;
    // The keys' list is open: its own keys (Esc closes it) and nothing behind it.
    if ($('dialog[open]')) return;
    var field = event.target.closest('input, textarea, select');
    if (field) {
      if (event.key === 'Escape' && field.id === 'q') { field.blur(); event.preventDefault(); }
      if (event.key === 'Backspace' && field.id === 'q' && field.selectionStart === 0 &&
          field.selectionEnd === 0 && removeLastChip(field)) event.preventDefault();
      if (event.key === 'ArrowDown' && field.id === 'q') {
        var first = $('#suggestions a');
        if (first) { first.focus(); event.preventDefault(); }
      }
      return;
    }
    if (event.target.closest('#suggestions') && (event.key === 'ArrowDown' || event.key === 'ArrowUp')) {
      var items = $$('#suggestions a');
      var at = items.indexOf(event.target.closest('a'));
      var to = items[at + (event.key === 'ArrowDown' ? 1 : -1)];
      if (to) to.focus(); else $('#q').focus();
      event.preventDefault();
      return;
    }
    var handled = true;
    switch (event.key) {
      case 'j': move(1); break;
      case 'k': move(-1); break;
      case '/': var search = $('#q'); if (search) { search.focus(); search.select(); } break;
      case '?': var dialog = $('#keys'); if (dialog && !dialog.open) dialog.showModal(); break;
      case 'n': case 'e': case 'x': case 'd': case 'Escape': handled = press(event.key); break;
      default: handled = false;
    }
    if (handled) event.preventDefault();
  });

  function ready() {
    if (offline()) {
      // A page the service worker kept, shown as the server does not answer: drawn from the
      // tracker's copy for this address. Otherwise the copy is brought up to date.
      if (document.documentElement.dataset.fromCopy) offline().show(window.location.href, 'none');
      else offline().flush();
      offline().showWaiting();
    }
    if (window.location.search.indexOf('said=') >= 0) {
      window.history.replaceState(null, '', clean(window.location.href));
    }
    var keys = $('.keys-button');
    if (keys) {
      keys.hidden = false;
      keys.addEventListener('click', function () { $('#keys').showModal(); });
    }
    // Live: a change anywhere reloads the panes in place. The stream starts from the version
    // the page was drawn at, so a change made meanwhile is not missed; a hidden tab lets its
    // stream go (a browser keeps only a few connections to one server) and catches up when seen.
    var meta = $('meta[name="live-version"]');
    if (window.EventSource && meta) {
      var pending = false;
      var refreshing = false;
      var refresh = function () {
        if (refreshing) { pending = true; return; }
        refreshing = true;
        load(window.location.href, 'none').then(function () {
          refreshing = false;
          document.documentElement.dataset.live = String(Date.now());
          if (pending) { pending = false; refresh(); }
        });
      };
      var events = null;
      var losing = null;
      var listen = function () {
        var since = ($('meta[name="live-version"]') || meta).content;
        events = new EventSource('/events?since=' + encodeURIComponent(since));
        events.addEventListener('change', function () {
          refresh();
          // The tracker's copy in this browser follows too.
          if (offline()) offline().refresh();
        });
        events.addEventListener('open', function () {
          window.clearTimeout(losing);
          losing = null;
          document.documentElement.dataset.connected = '1';
          var banner = $('#connection');
          var back = (offline() && offline().showingCopy()) || (banner && !banner.hidden);
          if (banner && !banner.hidden) {
            banner.hidden = true;
            banner.textContent = '';
            settle();
          }
          // Back: what waits in this browser goes first, then the page is the server's again.
          if (back) {
            var sending = offline() ? offline().flush() : Promise.resolve();
            sending.then(refresh);
          }
        });
        // The stream tries again by itself; a server still silent after a moment is said on
        // screen until it answers, as what is shown may be out of date.
        events.addEventListener('error', function () {
          // A stream answered with an error (a proxy's 502 while the server restarts) is
          // closed for good by the browser: it is opened again a moment later.
          if (events && events.readyState === EventSource.CLOSED) {
            events = null;
            window.setTimeout(function () { if (!events && !document.hidden) listen(); }, 3000);
          }
          // Each failed try to connect again says so: the first starts the count.
          if (losing !== null) return;
          losing = window.setTimeout(function () {
            losing = null;
            var banner = $('#connection');
            if (!banner || !banner.hidden) return;
            document.documentElement.dataset.connected = '0';
            banner.hidden = false;
            // Its words put in as it shows: a screen reader hears them once.
            banner.textContent = banner.dataset.lost;
          }, 2000);
        });
      };
      listen();
      document.addEventListener('visibilitychange', function () {
        if (document.hidden && events) {
          events.close();
          events = null;
        } else if (!document.hidden && !events) {
          listen();
        }
      });
    }
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', ready);
  else ready();

  // The service worker keeps a copy of the pages opened, for when the server cannot be reached
  // (and makes the app installable). Browsers offer it only over https or on this machine.
  if ('serviceWorker' in navigator && window.isSecureContext) {
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(function () {});
  }
})();
