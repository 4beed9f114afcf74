// Issue 14 item 5, the parts that are plain functions: every roof of section 8's figure has its
// own colour or dash (both colour schemes, as many roofs as the page can draw and more), and a log
// axis spanning many decades labels only powers of ten, so its labels cannot overlap.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { otherRoofStyle, PALETTES } from '../../web/figures/analysis_chart.js';
import { DENSE_TICK_DECADES, logTick } from '../../web/figures/chart_common.js';
import { HARDWARE_PRESETS } from '../../web/model/hardware_presets.js';

describe('section 8 figure styles', () => {
  test('every other roof has its own colour and dash pair, in light and dark', () => {
    // The page draws the presets, the lesson's budgets and up to two measured roofs; 2x that here.
    const count = 2 * (HARDWARE_PRESETS.length + 3);
    const kinds = ['specification', 'hypothetical', 'measurement'];
    for (const [scheme, palette] of Object.entries(PALETTES)) {
      assert.equal(new Set(palette.other).size, palette.other.length, `${scheme}: the colours differ`);
      assert.ok(palette.other.length >= HARDWARE_PRESETS.length, `${scheme}: a colour per preset`);
      for (const kind of kinds) {
        const styles = Array.from({ length: count }, (_, i) => otherRoofStyle(i, kind, palette));
        const keys = styles.map((s) => `${s.color} ${s.dash.join(',')}`);
        assert.equal(
          new Set(keys).size,
          Math.min(count, 2 * palette.other.length),
          `${scheme} ${kind}: ${keys.join(' | ')}`,
        );
      }
      // The presets alone (all specifications, solid) never share a colour.
      const presets = HARDWARE_PRESETS.map((_, i) => otherRoofStyle(i, 'specification', palette).color);
      assert.equal(new Set(presets).size, presets.length);
    }
  });

  test('log ticks: 1, 2, 5 per decade on a narrow axis; powers of ten only on a wide one', () => {
    assert.deepEqual(
      [1, 2, 5, 3, 1000].map((v) => logTick(v, 3)),
      ['1', '2', '5', '', '1000'],
    );
    const wide = DENSE_TICK_DECADES + 3;
    assert.deepEqual(
      [1e6, 5e5, 2e5, 1e5, 1e4, 100, 50, 0.001, 1e-4].map((v) => logTick(v, wide)),
      ['1e6', '', '', '1e5', '10000', '100', '', '0.001', '1e-4'],
    );
    assert.equal(logTick(0, wide), '');
  });
});

describe('what the axes and the legend say (issue 22, item 9)', () => {
  test('a legend key is drawn as its series is: a line with its dash and width, a point with its shape', async () => {
    const { legendKey } = await import('../../web/figures/axes.js');
    const dashed = legendKey({
      showLine: true,
      borderColor: '#123',
      backgroundColor: '#123',
      borderDash: [3, 3, 12, 3],
      borderWidth: 2,
    });
    assert.deepEqual([dashed.line, dashed.dash, dashed.width, dashed.color], [true, [3, 3, 12, 3], 2, '#123']);
    assert.deepEqual(
      legendKey({ showLine: true, borderColor: '#000', backgroundColor: '#000', borderWidth: 3 }).dash,
      [],
      'solid stays solid',
    );
    const star = legendKey({ showLine: false, borderColor: '#0a0', backgroundColor: '#0a0', pointStyle: 'star' });
    assert.deepEqual([star.line, star.pointStyle, star.dash], [false, 'star', null]);
    assert.equal(legendKey({ showLine: false, backgroundColor: '#fff', borderColor: '#d84315' }).pointStyle, 'circle');
  });

  test('the y axes say what is plotted: measured roofs and points are not hypothetical ceilings', async () => {
    const { rooflineYTitle } = await import('../../web/model/figure_model.js');
    const { analysisYTitle } = await import('../../web/model/analysis_view.js');
    const figure = {
      lesson: { ylabel: 'hypothetical ceiling (GFLOP/s)' },
      measured: {
        layers: [
          { cores: 1, roofs: [{}], points: [{}] },
          { cores: 4, roofs: [{}], points: [] },
        ],
      },
    };
    const off = { measuredRoof: false, measuredPoint: false, allCoresRoof: false, allCoresPoint: false };
    assert.equal(rooflineYTitle(figure, off), 'hypothetical ceiling (GFLOP/s)');
    assert.equal(
      rooflineYTitle({ ...figure, measured: null }, { ...off, measuredRoof: true }),
      'hypothetical ceiling (GFLOP/s)',
      'nothing measured yet',
    );
    assert.equal(
      rooflineYTitle(figure, { ...off, allCoresRoof: true }),
      'GFLOP/s: hypothetical ceiling, measured roofs (this machine)',
    );
    assert.equal(
      rooflineYTitle(figure, { ...off, measuredRoof: true, measuredPoint: true }),
      'GFLOP/s: hypothetical ceiling, measured roofs and measured tanh(A@B) (this machine)',
    );
    assert.equal(
      rooflineYTitle(figure, { ...off, allCoresPoint: true }),
      'hypothetical ceiling (GFLOP/s)',
      'the all-cores layer has no points here',
    );
    assert.equal(analysisYTitle(false), 'ceiling under the roof (GFLOP/s)');
    assert.match(analysisYTitle(true), /achieved \(measurement\)/);
  });
});
