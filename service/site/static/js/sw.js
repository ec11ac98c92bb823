// The service worker (served as /sw.js, so it may look after every page): the pages' shells and
// their scripts, styles and icons are answered from a cache at once and refreshed behind (so a seat
// page opens instantly, and offline, where it says "offline, retrying"). Nothing else is ever
// cached: no API answer, so no card and no token, reaches the cache. It also shows the pushes
// (Web Push) and opens the seat a notification is clicked for.
const CACHE = "gin-shell-v3";  // a new name when files are renamed: activate drops the old cache whole
const PAGES = /^\/(|my-games|player|docs|docs\/walkthrough|(play|watch|join|replay)\/[A-Za-z0-9_-]+)$/;

// The installed app's start page (/my-games) and the landing page open offline from the first
// launch: cached at install with every file they load (their scripts' imports followed), not only
// once visited.
const START = ["/", "/my-games"];

async function precache() {
  const cache = await caches.open(CACHE);
  const queue = [...START], seen = new Set();
  while (queue.length) {
    const path = queue.shift();
    if (seen.has(path)) continue;
    seen.add(path);
    const url = new URL(path, self.location.origin);
    const response = await fetch(url, { credentials: "omit" });
    if (!response.ok) continue;
    await cache.put(url.href, response.clone());
    if (!(START.includes(path) || path.endsWith(".js"))) continue;  // pages and scripts name more files
    const text = await response.text();
    for (const m of text.matchAll(/(?:src|href)="(\/assets\/[^"#?]+)"/g)) queue.push(m[1]);
    for (const m of text.matchAll(/(?:from|import)\s*"(\.\/[a-z_]+\.js)"/g)) queue.push(new URL(m[1], url).pathname);
  }
}

self.addEventListener("install", (event) => event.waitUntil(precache().catch(() => null).then(() => self.skipWaiting())));
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

// A push (issue 39, notify/push/notice.py): the notification it asks for. It carries the players'
// names, the deadline and the seat page's path, never a card or a token: the page a click opens
// reads the seat's token from this browser's storage, where the seat page keeps it.
self.addEventListener("push", (event) => {
  let shown = {};
  try { shown = event.data ? event.data.json() : {}; } catch { shown = {}; }
  const deadline = shown.deadline ? new Date(shown.deadline) : null;
  event.waitUntil(self.registration.showNotification(shown.title || "Gin Rummy", {
    body: deadline ? `Deadline: ${deadline.toLocaleString()}` : "",
    tag: shown.tag || "gin", renotify: true, icon: "/assets/icon-192.png",
    data: { url: seatPath(shown.url) },
  }));
});

// Only a seat page of this site (else My games): a push cannot send a click elsewhere.
function seatPath(url) {
  return typeof url === "string" && /^\/play\/[A-Za-z0-9_-]+$/.test(url) ? url : "/my-games";
}

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  event.waitUntil(openSeat(seatPath(event.notification.data && event.notification.data.url)));
});

// A window on that seat page already: brought forward. Else a window on My games (the list of the
// seats): taken to the seat. Else a new window.
async function openSeat(path) {
  const target = new URL(path, self.location.origin).href;
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const there = windows.find((w) => w.url.split("#")[0] === target);
  if (there) return there.focus();
  const list = windows.find((w) => new URL(w.url).pathname === "/my-games");
  if (list) {
    try {
      const moved = await list.navigate(target);
      if (moved) return moved.focus().catch(() => moved);
    } catch { /* not this worker's page: a new window instead */ }
  }
  return self.clients.openWindow(target);
}
