// The page's copy follows the core's rules: the same vectors the Swift tests run
// (Tests/Vectors/search.json), and the page's own clock and changes.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const path = require('node:path');
const fs = require('node:fs');
const copy = require('../../Sources/DocketWeb/Assets/copy.js');

const vectors = JSON.parse(
  fs.readFileSync(path.join(__dirname, '..', 'Vectors', 'search.json'), 'utf8'));

test('the vectors are many', () => {
  assert.ok(vectors.cases.length >= 30);
});

for (const vector of vectors.cases) {
  const name = `${vector.filter} "${vector.q}" ${vector.sort}${vector.done ? '' : ' hiding completed'}`;
  test(name, () => {
    const data = { issues: structuredClone(vectors.issues), tags: vectors.tags };
    const shown = copy.list(data, {
      filter: vector.filter, q: vector.q, sort: vector.sort, done: vector.done, now: vectors.now,
    });
    if (vector.expected === null) {
      assert.ok(shown.error, 'refused');
    } else {
      assert.strictEqual(shown.error, null);
      assert.deepStrictEqual(shown.issues.map((issue) => issue.id), vector.expected);
    }
  });
}

test('the counts of the sidebar', () => {
  const data = { issues: structuredClone(vectors.issues), tags: vectors.tags };
  const counts = copy.counts(data, { done: true, now: vectors.now });
  const open = vectors.issues.filter((issue) => !issue.completed).length;
  assert.strictEqual(counts.open, open);
  assert.strictEqual(counts.completed, vectors.issues.length - open);
  assert.strictEqual(counts.recent, copy.list(data, { filter: 'recent', q: '', done: true, now: vectors.now }).issues.length);
  for (const tag of vectors.tags) {
    assert.strictEqual(counts.tags[tag.id] || 0,
      copy.list(data, { filter: 'tag:' + tag.id, q: '', done: true, now: vectors.now }).issues.length);
  }
});

test('the clock never goes back and passes what it has seen', () => {
  const now = 1800000000000;
  const first = copy.nextStamp('0', now);
  assert.strictEqual(first, (BigInt(now) << 16n).toString());
  // The same millisecond: the counter goes up.
  assert.strictEqual(copy.nextStamp(first, now), (BigInt(first) + 1n).toString());
  // A clock set back: still after the last stamp.
  assert.ok(BigInt(copy.nextStamp(first, now - 5000)) > BigInt(first));
  // A stamp heard from the server ahead of this clock: after it.
  const ahead = ((BigInt(now + 60000) << 16n) + 7n).toString();
  assert.strictEqual(copy.nextStamp(ahead, now), (BigInt(ahead) + 1n).toString());
});

test('a change made offline shows in the copy at once', () => {
  const data = { issues: structuredClone(vectors.issues), tags: vectors.tags };
  const device = '0000b000-0000-4000-8000-000000000001';
  const id = copy.newID((count) => new Uint8Array(count).fill(0xab));
  assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  const issue = { title: 'Made offline', detail: '', priority: 2, completed: false, created: vectors.now };
  const create = copy.change('1', device, 'issue', id, 'create', null, copy.createValue(issue), vectors.now);
  assert.deepStrictEqual(JSON.parse(create.n), {
    title: 'Made offline', detail: '', priority: 2, completed: 0, created: String(vectors.now),
  });
  copy.applyToCopy(data, create);
  copy.applyToCopy(data, copy.change('2', device, 'link', id, vectors.tags[0].id, 0, 1, vectors.now));
  const found = copy.list(data, { filter: 'open', q: 'made off tag:bug', now: vectors.now }).issues;
  assert.deepStrictEqual(found.map((each) => each.id), [id]);
  copy.applyToCopy(data, copy.change('3', device, 'issue', id, 'completed', 0, 1, vectors.now + 1));
  assert.deepStrictEqual(copy.list(data, { filter: 'open', q: 'made', now: vectors.now }).issues, []);
  copy.applyToCopy(data, copy.change('4', device, 'issue', id, 'delete', null, null, vectors.now + 2));
  assert.deepStrictEqual(copy.list(data, { filter: 'all', q: 'made', now: vectors.now }).issues, []);
});

test('one copy answers every vector in turn, its kept orders following its changes', () => {
  // The same copy for all: what a sort keeps for the next search must be right for it too.
  const data = { issues: structuredClone(vectors.issues), tags: vectors.tags };
  for (const vector of vectors.cases) {
    const shown = copy.list(data, {
      filter: vector.filter, q: vector.q, sort: vector.sort, done: vector.done, now: vectors.now,
    });
    assert.deepStrictEqual(shown.error ? null : shown.issues.map((issue) => issue.id), vector.expected);
  }
  const place = { filter: 'all', q: '', sort: 'priority:desc', done: true, now: vectors.now };
  const last = copy.list(data, place).issues.at(-1);
  copy.applyToCopy(data, copy.change(copy.nextStamp('0', 1), 'd', 'issue', last.id, 'priority',
    last.priority, 2, vectors.now));
  copy.applyToCopy(data, copy.change(copy.nextStamp('0', 2), 'd', 'issue', last.id, 'completed',
    last.completed ? 1 : 0, 0, vectors.now));
  const afresh = (each) => copy.list({ issues: structuredClone(data.issues), tags: data.tags }, each)
    .issues.map((issue) => issue.id);
  const ids = (each) => copy.list(data, each).issues.map((issue) => issue.id);
  assert.deepStrictEqual(ids(place), afresh(place));
  assert.ok(ids(place).indexOf(last.id) < ids(place).length - 1, 'moved up');
  const made = copy.newID((size) => new Uint8Array(size).fill(7));
  copy.applyToCopy(data, copy.change(copy.nextStamp('0', 3), 'd', 'issue', made, 'create', null,
    copy.createValue({ title: 'Made here', detail: '', priority: 2, completed: false, created: vectors.now }),
    vectors.now));
  assert.ok(ids(place).includes(made));
  assert.deepStrictEqual(ids(place), afresh(place));
});

// The first `limit` issues of `vector`'s list, as copy.first gives them from `data`, are the
// expected ones (or the search is refused where the vector says it is).
function checkFirst(data, vector, limit, label) {
  const place = { filter: vector.filter, q: vector.q, sort: vector.sort, done: vector.done, now: vectors.now };
  const shown = copy.first(data, place, limit);
  if (vector.expected === null) {
    assert.ok(shown.error, 'refused');
    return;
  }
  assert.deepStrictEqual(shown.issues.map((issue) => issue.id), vector.expected.slice(0, limit),
    `${vector.q} ${vector.sort} ${limit}${label}`);
  assert.strictEqual(shown.total, vector.expected.length);
}

test('the first screen is the start of the list, without a kept order', () => {
  for (const vector of vectors.cases) {
    for (const limit of [1, 2, 3, 50]) {
      // A fresh copy each time: no order kept, so the first screen is chosen, not sliced.
      const data = { issues: structuredClone(vectors.issues), tags: vectors.tags };
      checkFirst(data, vector, limit, '');
    }
  }
});

test('the first screen is the start of the list with an order kept and the words indexed', () => {
  const data = { issues: structuredClone(vectors.issues), tags: vectors.tags };
  while (!copy.indexWords(data, 4));
  for (const vector of vectors.cases) {
    // The first call keeps the sort's order (copy.list); the rest slice what it kept.
    copy.list(data, { filter: 'all', q: '', sort: vector.sort, done: true, now: vectors.now });
    for (const limit of [1, 3, 50]) {
      checkFirst(data, vector, limit, ', kept and indexed');
    }
  }
});

test('search through the words\' index finds what a word-by-word search finds', () => {
  const data = { issues: structuredClone(vectors.issues), tags: vectors.tags };
  // Made a slice at a time, as the page makes it while idle.
  let slices = 0;
  while (!copy.indexWords(data, 3)) slices += 1;
  assert.ok(slices >= Math.floor(vectors.issues.length / 3) - 1);
  assert.ok(data.issues.every((issue) => issue._indexed));
  for (const vector of vectors.cases) {
    data._sorted = null;
    const shown = copy.list(data, {
      filter: vector.filter, q: vector.q, sort: vector.sort, done: vector.done, now: vectors.now,
    });
    assert.deepStrictEqual(shown.error ? null : shown.issues.map((issue) => issue.id), vector.expected,
      `"${vector.q}" through the index`);
  }
});

test('an issue changed after the index was made is found by its new words only', () => {
  const data = { issues: structuredClone(vectors.issues), tags: vectors.tags };
  while (!copy.indexWords(data, 100));
  const place = (q) => ({ filter: 'all', q: q, sort: 'priority:desc', done: true, now: vectors.now });
  const target = data.issues[0];
  const old = copy.words(target.title)[0];
  copy.applyToCopy(data, copy.change('9', 'd', 'issue', target.id, 'title', target.title,
    'Zebracrossing repainted', vectors.now));
  const ids = (q) => copy.list(data, place(q)).issues.map((issue) => issue.id);
  assert.ok(ids('zebracross').includes(target.id));
  assert.ok(!ids('-zebracross').includes(target.id));
  const afresh = { issues: structuredClone(data.issues), tags: data.tags };
  for (const issue of afresh.issues) delete issue._indexed;
  assert.deepStrictEqual(ids(old), copy.list(afresh, place(old)).issues.map((issue) => issue.id));
  const made = copy.newID((size) => new Uint8Array(size).fill(9));
  copy.applyToCopy(data, copy.change('10', 'd', 'issue', made, 'create', null,
    copy.createValue({ title: 'Quokka sighting', detail: '', priority: 1, completed: false, created: vectors.now }),
    vectors.now));
  assert.deepStrictEqual(ids('quok'), [made]);
});

test('an issue deleted while the index is being made leaves none of the others out', () => {
  const data = { issues: structuredClone(vectors.issues), tags: vectors.tags };
  copy.indexWords(data, 5);
  // Deleted from before the place the index has reached: the others move up one.
  const gone = data.issues[0];
  copy.applyToCopy(data, copy.change('9', 'd', 'issue', gone.id, 'delete', null, null, vectors.now));
  while (!copy.indexWords(data, 5));
  const place = { filter: 'all', q: '', sort: 'priority:desc', done: true, now: vectors.now };
  for (const issue of data.issues) {
    const word = copy.words(issue.title)[0];
    if (!word) continue;
    const found = copy.list(data, Object.assign({}, place, { q: word })).issues.map((each) => each.id);
    assert.ok(found.includes(issue.id), `"${word}" finds ${issue.title}`);
  }
});

test('a line refused as ahead is stamped again once, then kept waiting, never let go', () => {
  const once = {};
  const keys = [11, 12, 13];
  const lines = ['a', 'b', 'c'];
  // Lines 1 and 3 ahead of the server's clock: stamped again.
  const first = copy.restampable({ ahead: [1, 3], now: 100 }, keys, lines, once);
  assert.deepStrictEqual(first, { keys: [11, 13], lines: ['a', 'c'], stuck: [] });
  // Refused as ahead again: the server's clock is behind; they are stuck, not stamped twice.
  const second = copy.restampable({ ahead: [1, 2], now: 100 }, [11, 13], ['a2', 'c2'], once);
  assert.deepStrictEqual(second, { keys: [], lines: [], stuck: [11, 13] });
  // An answer without the server's time, or with numbers past the batch, stamps nothing.
  assert.deepStrictEqual(copy.restampable({ ahead: [1] }, keys, lines, {}),
    { keys: [], lines: [], stuck: [] });
  assert.deepStrictEqual(copy.restampable({ ahead: [7], now: 1 }, keys, lines, {}),
    { keys: [], lines: [], stuck: [] });
});
