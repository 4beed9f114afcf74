// Each rule, message and list in exactly one place: the core's. These tests fail if a second copy
// comes back in JS (web/, scripts/): the families list, the exercises' feedback and hints, the
// roofline's formulas, the lesson's dtypes; and they check that the CLI and the page's code print
// the same report object.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { buildLesson } from '../../web/model/lesson.js';
import { loadNodeCore, ROOT } from '../../scripts/lib/node-core.mjs';

let core;
before(async () => {
  core = await loadNodeCore();
});

/** Every .js/.mjs file under web/ and scripts/, with its text. */
function sources() {
  const out = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(m?js)$/.test(name))
        out.push({ path: path.slice(ROOT.length + 1), text: readFileSync(path, 'utf8') });
    }
  };
  walk(join(ROOT, 'web'));
  walk(join(ROOT, 'scripts'));
  return out;
}

const holding = (needle) =>
  sources()
    .filter((f) => f.text.includes(needle))
    .map((f) => f.path);

test('the families are listed once, in the core: no family id or label is written in web/ or scripts/', () => {
  const families = core.exerciseFamilies().value;
  assert.ok(families.length >= 5);
  // The ids that are not also ordinary words of the page (bound, fusion, traffic_factor are).
  for (const id of families.map((f) => f.id).filter((x) => x.includes('_') && x !== 'traffic_factor')) {
    assert.deepEqual(holding(id), [], `${id} is written in JS`);
  }
  for (const { label } of families) assert.deepEqual(holding(label), [], `"${label}" is written in JS`);
  // And the CLI's help lists them from the core.
  const help = spawnSync(process.execPath, [join(ROOT, 'scripts', 'exercises.mjs'), '--help'], {
    encoding: 'utf8',
  }).stdout;
  for (const f of families) assert.match(help, new RegExp(`${f.id}\\s+${f.label}`));
});

test("the exercises' feedback and hints live in the core only", () => {
  // What the core says: the hints of generated and lesson exercises, and its feedback on the
  // lesson exercise's likely mistakes, cut into the sentences that carry no number.
  const texts = [];
  for (const seed of ['a', 'b', 'c', 'd'])
    for (const e of core.generateExercises(seed, 10).value) for (const q of e.questions) texts.push(...q.hints);
  const { report } = buildLesson(core);
  for (const q of report.exercise.questions) texts.push(...q.hints);
  const wrong = {
    work: ['13824', String(27648 + 48 * 12), String(13824 + 576)],
    traffic: ['2016', '4032', '6912', '16128', String(8064 + 2304)],
    ratio: ['7/24', '12/7'],
    bound: ['compute', 'fast'],
  };
  for (const [id, answers] of Object.entries(wrong)) {
    for (const answer of answers) {
      const built = buildLesson(core, {}, { answers: { [id]: answer } });
      texts.push(built.check[id].feedback);
    }
  }
  texts.push(
    buildLesson(core, { bandwidth: 20, peak: 20 * (27648 / 8064) }, { answers: { bound: 'memory' } }).check.bound
      .feedback,
  );
  const sentences = [
    ...new Set(
      texts
        .flatMap((t) => t.split(/(?<=[.:;])\s+/))
        .map((s) => s.trim())
        .filter((s) => s.length >= 24 && !/\d/.test(s)),
    ),
  ];
  assert.ok(sentences.length >= 20, `${sentences.length} sentences`);
  for (const s of sentences) assert.deepEqual(holding(s), [], `"${s}" is written in JS`);
});

test("no roofline or model formula is written in JS: ridge, ceiling, bound, work and traffic are the core's", () => {
  const formulas = [
    [/\bpeak\s*\/\s*[\w.]*bandwidth/i, 'a ridge (peak / bandwidth)'],
    [/Math\.min\([^)]*peak/i, 'a ceiling (min(peak, …))'],
    [/bandwidth\w*\s*\*\s*[\w.]*intensity/i, 'a bandwidth ceiling (bandwidth · intensity)'],
    [/flops\w*\s*\/\s*[\w.]*peak/i, 'a compute time (flops / peak)'],
    [/bytes\w*\s*\/\s*[\w.]*bandwidth/i, 'a memory time (bytes / bandwidth)'],
    [/2\s*\*\s*m\s*\*\s*k\s*\*\s*n/, 'work (2·m·k·n)'],
    [/itemsize\s*\*\s*\(/, 'traffic (itemsize·(mk + kn + mn))'],
    [/\bbf16\s*:\s*2\b|\bf32\s*:\s*4\b/, "the dtypes' itemsizes"],
  ];
  // Code only: comments and the text of strings may explain a formula.
  const inString = (line, at) => ["'", '"', '`'].some((q) => (line.slice(0, at).split(q).length - 1) % 2 === 1);
  for (const { path, text } of sources()) {
    for (const line of text.split('\n')) {
      if (/^\s*(\/\/|\*|\/\*)/.test(line)) continue;
      for (const [re, what] of formulas) {
        const m = re.exec(line);
        assert.ok(!m || inString(line, m.index), `${path} computes ${what}: ${line.trim()}`);
      }
    }
  }
  // And roofs.js no longer offers its own versions.
  const roofs = readFileSync(join(ROOT, 'web', 'model', 'roofs.js'), 'utf8');
  for (const name of ['ridgeOf', 'opBound', 'ceilingAt', 'timeLowerBound', 'roofCurve'])
    assert.doesNotMatch(roofs, new RegExp(`export function ${name}\\b`));
});

test('the CLI prints the report object the page holds', () => {
  const out = spawnSync(
    process.execPath,
    [join(ROOT, 'scripts', 'lesson.mjs'), '--json', '--no-measure', '--m', '48', '--dtype-free-check'],
    { encoding: 'utf8' },
  );
  assert.equal(out.status, 1, 'an unknown option is refused'); // (the CLI has no dtype option: the itemsize picks it)
  const cli = JSON.parse(
    spawnSync(
      process.execPath,
      [join(ROOT, 'scripts', 'lesson.mjs'), '--json', '--no-measure', '--m', '48', '--peak', '50'],
      { encoding: 'utf8' },
    ).stdout,
  );
  const { measurements_skipped: skipped, ...rest } = cli;
  assert.equal(skipped, 'skipped (--no-measure)');
  assert.deepEqual(rest, buildLesson(core, { m: 48, peak: 50 }).report);
});
