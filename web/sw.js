// The service worker of the app served over http(s) (dist/sw.js): after one visit the page opens
// and works with the network off. scripts/lib/offline.mjs writes dist/sw.js from this file, with
// __CACHE_NAME__ ("roofline-lab-" and a hash of the files it caches: a new build is a new cache)
// and __APP_FILES__ (the files, relative to this one) filled in. Not bundled: it stands alone.
/* global __CACHE_NAME__, __APP_FILES__ */
const CACHE = __CACHE_NAME__;
const FILES = __APP_FILES__;
const PREFIX = 'roofline-lab-';

// Install: every file of this version, fetched past the HTTP cache, into this version's cache.
self.addEventListener('install', (event) => {
  event.waitUntil(
    caches.open(CACHE).then((cache) => cache.addAll(FILES.map((f) => new Request(f, { cache: 'reload' })))),
  );
});

// Active: the caches of other versions go; the open pages are served from now on.
self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith(PREFIX) && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

// A new version waits until the page says "use it" (its update notice's button).
self.addEventListener('message', (event) => {
  if (event.data === 'skip-waiting') self.skipWaiting();
});

// The app's files from this version's cache; anything else of this origin from the network.
self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(
    caches
      .open(CACHE)
      .then((cache) => cache.match(request, { ignoreSearch: true }))
      .then((hit) => hit || fetch(request)),
  );
});
