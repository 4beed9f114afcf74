// Catch2 test names as ctest discovers them: catch_discover_tests splits a name at ';' (a CMake
// list), so "a; b" became two tests that each ran nothing and failed as "No tests ran" (four
// names so far). Every TEST_CASE name under tests/cpp is read here, its string pieces joined.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ROOT } from '../../scripts/lib/node-core.mjs';

function cppFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? cppFiles(join(dir, e.name)) : e.name.endsWith('.cpp') ? [join(dir, e.name)] : [],
  );
}

test("no Catch2 test name under tests/cpp holds a ';' (ctest's discovery would split it)", () => {
  const names = [];
  for (const file of cppFiles(join(ROOT, 'tests', 'cpp'))) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/TEST_CASE\(\s*((?:"(?:[^"\\]|\\.)*"\s*)+)/g)) {
      const name = [...m[1].matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((p) => p[1]).join('');
      names.push([file.slice(ROOT.length + 1), name]);
    }
  }
  assert.ok(names.length > 300, `${names.length} TEST_CASE names read`);
  assert.deepEqual(
    names.filter(([, n]) => n.includes(';')),
    [],
  );
});
