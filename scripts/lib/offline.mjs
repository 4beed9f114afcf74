// What makes dist/ installable and usable offline when it is served over http(s): the icons
// (drawn here, PNG written here: no binary is committed), the web app manifest, and the service
// worker (web/sw.js with this build's cache name and files). scripts/bundle.mjs calls
// writeOfflineFiles(dist) after it has written the app; a test calls it again on a changed copy
// of dist/ to make "a new build".
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { ROOT } from './node-core.mjs';

/** The app's colours (style.css's --focus and --bg, light). */
export const THEME_COLOR = '#1565c0';
export const BACKGROUND_COLOR = '#fbfbfd';
export const ICON_SIZES = [192, 512];

/** The files the service worker caches, relative to dist/ ('./' is index.html by its folder's name). */
export const CACHED_FILES = [
  './',
  'index.html',
  'app.js',
  'style.css',
  'manifest.webmanifest',
  ...ICON_SIZES.map((s) => `icon-${s}.png`),
];

// ---- PNG, written by hand: 8-bit RGBA, one IDAT, filter 0 ----------------------------------
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'ascii');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}
/** A PNG file of `size`×`size` RGBA pixels (rows top to bottom). */
export function encodePNG(size, rgba) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bits per channel
  header[9] = 6; // RGBA
  const raw = Buffer.alloc(size * (1 + 4 * size));
  for (let y = 0; y < size; y++) rgba.copy(raw, y * (1 + 4 * size) + 1, y * 4 * size, (y + 1) * 4 * size);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const rgb = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));

/**
 * The icon: a roofline (the bandwidth slope up to the ridge, then the flat peak) in white on the
 * theme colour, with a point under the roof; antialiased by distance to the strokes.
 */
export function drawIcon(size) {
  const px = Buffer.alloc(size * size * 4);
  const [br, bg, bb] = rgb(THEME_COLOR);
  const u = size / 100; // drawn on a 100×100 grid
  const roof = [
    [14, 82],
    [52, 30],
    [88, 30],
  ];
  const width = 7 * u;
  const dot = { x: 40, y: 66, r: 7 };
  const segment = (x, y, [ax, ay], [bx, by]) => {
    const dx = bx - ax;
    const dy = by - ay;
    const t = Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)));
    return Math.hypot(x - (ax + t * dx), y - (ay + t * dy));
  };
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const gx = (x + 0.5) / u;
      const gy = (y + 0.5) / u;
      const line = Math.min(segment(gx, gy, roof[0], roof[1]), segment(gx, gy, roof[1], roof[2])) * u;
      const point = (Math.hypot(gx - dot.x, gy - dot.y) - dot.r) * u;
      const ink = Math.max(Math.min(1, Math.max(0, width / 2 - line + 0.5)), Math.min(1, Math.max(0, 0.5 - point)));
      const i = 4 * (y * size + x);
      px[i] = Math.round(br + (255 - br) * ink);
      px[i + 1] = Math.round(bg + (255 - bg) * ink);
      px[i + 2] = Math.round(bb + (255 - bb) * ink);
      px[i + 3] = 255;
    }
  }
  return encodePNG(size, px);
}

export function manifest() {
  return {
    name: 'Roofline Lab',
    short_name: 'Roofline Lab',
    description:
      'Reason with HLO and the roofline model: the lesson, your own programs, classroom exercises. Works offline.',
    start_url: './index.html',
    scope: './',
    display: 'standalone',
    background_color: BACKGROUND_COLOR,
    theme_color: THEME_COLOR,
    icons: ICON_SIZES.map((s) => ({ src: `icon-${s}.png`, sizes: `${s}x${s}`, type: 'image/png', purpose: 'any' })),
  };
}

/**
 * Writes the icons, the manifest and sw.js into `dir` (a built dist/). The cache's name carries a
 * hash of every cached file, so any change to the app makes a new cache, which the page offers as
 * an update. Returns the cache's name.
 */
export function writeOfflineFiles(dir) {
  for (const s of ICON_SIZES) writeFileSync(join(dir, `icon-${s}.png`), drawIcon(s));
  writeFileSync(join(dir, 'manifest.webmanifest'), `${JSON.stringify(manifest(), null, 2)}\n`);
  const hash = createHash('sha256');
  for (const f of CACHED_FILES.filter((name) => name !== './')) hash.update(f).update(readFileSync(join(dir, f)));
  const cacheName = `roofline-lab-${hash.digest('hex').slice(0, 16)}`;
  const source = readFileSync(join(ROOT, 'web', 'sw.js'), 'utf8');
  for (const token of ['__CACHE_NAME__', '__APP_FILES__']) {
    if (!source.includes(`= ${token};`)) throw new Error(`offline: web/sw.js no longer has "= ${token};"`);
  }
  writeFileSync(
    join(dir, 'sw.js'),
    source
      .replace('= __CACHE_NAME__;', `= ${JSON.stringify(cacheName)};`)
      .replace('= __APP_FILES__;', `= ${JSON.stringify(CACHED_FILES)};`),
  );
  return cacheName;
}
