// The service worker: the client's own files for a phone with no network, and a page
// that says so. It keeps only files of the client: the content-hashed ones the page
// loads (`?v=…`, never changing under their address) and the offline page with what it
// needs. API answers, the socket and anything with a player's data go to the network
// only and are never kept.

// Named in app/web/js/main.js too, which puts the catalogue the page came with here.
const CACHE = "domino-client-v1";
const OFFLINE = ["/offline.html", "/offline.js", "/css/style.css", "/icons/icon.svg"];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(OFFLINE)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

/** Whether a request is for one of the client's files (not the API, the socket or metrics). */
function clientFile(url) {
  return url.origin === self.location.origin && /^\/(js|dist|css|lang|icons)\//.test(url.pathname);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (request.mode === "navigate") {
    // The page itself from the network; without one, the offline page.
    event.respondWith(fetch(request).catch(() => caches.match("/offline.html")));
    return;
  }
  if (!clientFile(url) && !OFFLINE.includes(url.pathname)) return;
  if (url.searchParams.has("v")) {
    // A hashed address never changes: kept at first sight, served from the cache after.
    event.respondWith(caches.match(request).then((kept) => kept || fetch(request).then((answer) => {
      if (answer.ok) {
        const copy = answer.clone();
        caches.open(CACHE).then((cache) => cache.put(request, copy));
      }
      return answer;
    })));
    return;
  }
  event.respondWith(fetch(request).catch(() => caches.match(request, { ignoreSearch: true })));
});
