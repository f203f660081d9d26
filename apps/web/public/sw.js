/*
 * The WMS service worker: keeps the app shell (the page and its hashed code, styles, fonts, translations) so the
 * installed app opens at once and still opens on a flaky warehouse Wi-Fi. It never keeps API data: every /api/ call,
 * and anything else that is not a GET of this origin, goes to the network untouched (stock must be live).
 *   - /assets/* (file names carry a content hash, never change): cache first, stored on first use.
 *   - page navigations: network first (a new release is picked up at once), the last good shell when offline.
 * A new release gets a new cache name only for the shell; old hashed assets are dropped on activate.
 */
const SHELL = 'wms-shell-v1';
const ASSETS = 'wms-assets-v1';

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(SHELL)
      .then((cache) => cache.addAll(['/', '/manifest.webmanifest', '/icons/icon-192.png']))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((n) => n !== SHELL && n !== ASSETS).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const req = event.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith('/api/') || url.pathname === '/sw.js') return;
  if (url.pathname.startsWith('/assets/')) {
    event.respondWith(
      caches.open(ASSETS).then((cache) =>
        cache.match(req).then(
          (hit) =>
            hit ||
            fetch(req).then((res) => {
              if (res.ok) cache.put(req, res.clone());
              return res;
            }),
        ),
      ),
    );
    return;
  }
  if (req.mode === 'navigate') {
    event.respondWith(
      fetch(req)
        .then((res) => {
          if (res.ok) {
            const copy = res.clone();
            void caches.open(SHELL).then((cache) => cache.put('/', copy));
          }
          return res;
        })
        .catch(() =>
          caches
            .open(SHELL)
            .then((cache) => cache.match('/'))
            .then((hit) => hit || Response.error()),
        ),
    );
  }
});
