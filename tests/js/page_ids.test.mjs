// index.html's ids are unique: the views find their elements by id ($('#...')), and a second
// element with the same id is silently never found (a results list once took section 8's
// #analyze-results, and the run's results never showed).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ROOT } from '../../scripts/lib/node-core.mjs';

test('index.html: every id is used once', () => {
  const html = readFileSync(join(ROOT, 'index.html'), 'utf8');
  const ids = [...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]);
  assert.ok(ids.length > 100, `${ids.length} ids found`);
  const seen = new Map();
  for (const id of ids) seen.set(id, (seen.get(id) ?? 0) + 1);
  assert.deepEqual(
    [...seen].filter(([, n]) => n > 1),
    [],
  );
});
