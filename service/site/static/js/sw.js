// The service worker (served as /sw.js, so it may look after every page): the pages' shells and
// their scripts, styles and icons are answered from a cache at once and refreshed behind (so a seat
// page opens instantly, and offline, where it says "offline, retrying"). Nothing else is ever
// cached: no API answer, so no card and no token, reaches the cache.
const CACHE = "gin-shell-v1";
const PAGES = /^\/(|my-games|player|docs|docs\/walkthrough|(play|watch|join|replay)\/[A-Za-z0-9_-]+)$/;

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(
  caches.keys().then((names) => Promise.all(names.filter((n) => n !== CACHE).map((n) => caches.delete(n))))
    .then(() => self.clients.claim())));

function isShell(request) {
  const url = new URL(request.url);
  return request.method === "GET" && url.origin === self.location.origin && !request.headers.has("Authorization")
    && (url.pathname.startsWith("/assets/") || PAGES.test(url.pathname));
}

self.addEventListener("fetch", (event) => {
  if (!isShell(event.request)) return;  // the API, and anything else: straight to the network
  event.respondWith(caches.open(CACHE).then(async (cache) => {
    const key = event.request.url.split("#")[0];
    const cached = await cache.match(key);
    const fresh = fetch(event.request).then((response) => {
      if (response.ok && response.type === "basic") cache.put(key, response.clone());
      return response;
    });
    if (cached) { event.waitUntil(fresh.catch(() => null)); return cached; }
    return fresh;
  }));
});
