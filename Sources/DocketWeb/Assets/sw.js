// Docket's service worker: keeps a copy of the pages this browser opened, and of the script,
// style and icons, so that the app opens from the home screen and shows its last copy while the
// server cannot be reached. Everything goes to the server first; the copy answers only when the
// server does not.
"use strict";

const CACHE = "docket-pages-3";
const SHELL = [
  "/static/app.css", "/static/words.js", "/static/copy.js", "/static/offline.js", "/static/app.js",
  "/static/icons/icon-192.png",
];
// Pages kept, the most recently opened; older ones are let go.
const MOST_PAGES = 60;
// How long the server has to answer before the copy does.
const WAIT_MS = 4000;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  // Live updates stream from the server alone; pairing goes to it untouched.
  // (The copy of the tracker's data is the page's own, in IndexedDB.)
  if (url.origin !== self.location.origin || url.pathname === "/events" ||
      url.pathname === "/copy") return;
  if (url.searchParams.has("token")) return;
  event.respondWith(answer(event));
});

async function answer(event) {
  const request = event.request;
  const cache = await caches.open(CACHE);
  const network = fetch(request);
  // A copy may answer first; the network's failure after that is no one's.
  network.catch(() => {});
  let response;
  try {
    // A server out of reach (a phone away from home) may not answer for a minute: after a few
    // seconds a copy answers instead, where there is one.
    response = await Promise.race([
      network,
      new Promise((resolve, reject) => setTimeout(() => reject(new Error("slow")), WAIT_MS)),
    ]);
  } catch (error) {
    const kept = await cache.match(request);
    if (kept) return fromCopy(kept);
    // A page not kept: the list as last seen, rather than the browser's error page (the page
    // draws what its address asks for from its own copy).
    if (request.mode === "navigate" || new URL(request.url).pathname === "/") {
      const list = await cache.match("/");
      if (list) return fromCopy(list);
    }
    // No copy: the server's answer, however long it takes (or its failure).
    response = await network;
  }
  if (response.headers.get("X-Docket-Unpaired")) {
    // Unpaired: nothing of the tracker stays in this browser.
    await caches.delete(CACHE);
  } else if (response.status === 200 && response.type === "basic" &&
             !new URL(request.url).searchParams.has("q") &&
             !new URL(request.url).searchParams.has("chip")) {
    // (A search, typed letter by letter or chosen a chip at a time, would push the pages
    // opened out of the copy; the page searches its own copy offline.)
    // Kept after the page is on its way: the copy never holds up the answer.
    event.waitUntil(keep(cache, request, response.clone()));
  }
  return response;
}

// A page from the copy says so, to the page's script (an attribute of its root element) and to
// a fetch that asked for it (a header): what it shows may be out of date.
async function fromCopy(kept) {
  if (!(kept.headers.get("Content-Type") || "").startsWith("text/html")) return kept;
  const text = await kept.text();
  const headers = new Headers(kept.headers);
  headers.set("X-Docket-Copy", "1");
  return new Response(text.replace("<html ", "<html data-from-copy=\"1\" "), {
    status: kept.status, statusText: kept.statusText, headers: headers,
  });
}

async function keep(cache, request, response) {
  // Put again at the end: the cache lists its entries in the order they were put.
  await cache.delete(request);
  await cache.put(request, response);
  const pages = (await cache.keys()).filter((entry) => !new URL(entry.url).pathname.startsWith("/static/"));
  for (const old of pages.slice(0, Math.max(0, pages.length - MOST_PAGES))) await cache.delete(old);
}
