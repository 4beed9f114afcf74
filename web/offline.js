// Installing the app and using it offline, when dist/ is served over http(s) (any static host;
// scripts/demo locally): the web app manifest (manifest.webmanifest: name, icons, colours) lets
// a browser install it, and a service worker (sw.js, from web/sw.js) caches every file of this
// build, so that after one visit it opens with the network off. A new build is a new cache; the
// page says so when it is ready ("Reload to use it"). On file:// and in the single file
// (roofline-lab.html, whose script is inline) none of this is attempted: those open offline anyway.

// The script element running this bundle: app.js loaded as its own file has a src; inline has none.
const script = typeof document === 'undefined' ? null : document.currentScript;

/** Whether this page can install and cache itself: served over http(s), as dist/'s files. */
export function canWorkOffline() {
  return (
    (location.protocol === 'http:' || location.protocol === 'https:') &&
    Boolean(script?.src) &&
    'serviceWorker' in navigator
  );
}

/**
 * Adds the manifest and registers the service worker. `onUpdateReady(use)` is called once a new
 * version is installed and waiting; calling `use()` switches to it and reloads the page.
 * Registration failures leave the page as it is (it works online without them).
 */
export function installOffline(onUpdateReady) {
  if (!canWorkOffline()) return false;
  const link = document.createElement('link');
  link.rel = 'manifest';
  link.href = 'manifest.webmanifest';
  document.head.append(link);
  let switching = false;
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (switching) globalThis.location.reload(); // the new version now serves: show it
  });
  navigator.serviceWorker
    .register('sw.js')
    .then((registration) => {
      const offer = () => {
        if (!registration.waiting || !navigator.serviceWorker.controller) return; // a first install needs no reload
        onUpdateReady(() => {
          switching = true;
          registration.waiting.postMessage('skip-waiting');
        });
      };
      // A new version may be waiting already, still installing, or found later.
      const watch = (worker) =>
        worker?.addEventListener('statechange', () => {
          if (worker.state === 'installed') offer();
        });
      offer();
      watch(registration.installing);
      registration.addEventListener('updatefound', () => watch(registration.installing));
    })
    .catch(() => {});
  return true;
}
