// Browser tests for the published measurements and "Reproduce the papers" (issue 12, item 8):
// the table filtered by GPU and temperature in the core, every row reachable page by page (no
// silent cap), models by their normalized name; the validation scatter, the error of each
// source and every row not predicted with its reason. Expected values come from the native CLI
// and, for the counts, from core/data/published.json read here.
// Run from run.mjs (same server, browser and request/console watchers).
import fs from 'node:fs';
import path from 'node:path';
import {
  test,
  assert,
  eq,
  cli,
  cliLink,
  repo,
  waitQuiet,
  cellsOf,
  sameCells,
  screenshotWithViews,
} from './lib.mjs';
import * as fmt from '../../web/js/format.mjs';

const TABLE = JSON.parse(fs.readFileSync(path.join(repo, 'core/data/published.json'), 'utf8'));
const CONFIG = {
  target: 'vicuna-7b-v1.3',
  hardware: 'rtx-3090',
  method: { family: 'eagle2' },
  acceptance: { alpha: 0.7 },
};

function cliRun(command, input) {
  return JSON.parse(cli(['run', command, '-'], JSON.stringify(input)));
}

async function openTable(page, url) {
  await page.goto(`${url}#${cliLink(CONFIG)}`);
  await waitQuiet(page);
  await page.evaluate(() => document.querySelector('#data-view').scrollIntoView());
  await page.waitForSelector('[data-testid=published-table]', { timeout: 60000 });
  await waitQuiet(page);
}

// "Reproduce the papers": click and wait until the scatter is drawn.
async function showReproduce(page) {
  await page.click('[data-testid=reproduce-button]');
  await page.waitForFunction(
    () => document.querySelector('[data-testid=validation-scatter]')?.dataset.sources,
    null,
    { timeout: 120000 },
  );
  await waitQuiet(page);
}

async function shownPage(page) {
  return page.evaluate(() => {
    const c = document.querySelector('[data-testid=published-count]');
    return {
      text: c.textContent,
      total: Number(c.dataset.total),
      ids: [...document.querySelectorAll('[data-testid=published-table] tbody tr')].map(
        (r) => r.dataset.id,
      ),
      models: [
        ...document.querySelectorAll('[data-testid=published-table] tbody td[data-col=model]'),
      ].map((td) => td.textContent),
    };
  });
}

// Picks the option of a filter select whose label starts with `label` (the core's choice).
async function choose(page, selector, label) {
  const value = await page.$eval(
    selector,
    (s, l) => [...s.options].find((o) => o.textContent.startsWith(l))?.value,
    label,
  );
  assert(value !== undefined, `${selector} offers ${label}`);
  await page.selectOption(selector, value);
}

export async function publishedTests({ url, newPage, shots }) {
  const page = await newPage();

  await test('published table: GPU and temperature filters, every row page by page, one name per model', async () => {
    await openTable(page, url);
    // The first view: all 764 rows, the first page of them, the count says so.
    const first = await shownPage(page);
    assert(first.ids.length > 0, 'the first page shows no row');
    eq(first.total, TABLE.length, 'every published row is counted');
    eq(first.text, `Rows 1–${first.ids.length} of ${TABLE.length}.`, 'count text');
    await choose(page, '#t-hardware', 'rtx-3090');
    await choose(page, '#t-temperature', '0 (greedy)');
    // Counted here from the raw table: greedy rows measured on (or assumed to be) an RTX 3090.
    const want = TABLE.filter((r) => r.hardware_id === 'rtx-3090' && r.temperature === 0);
    assert(want.length > 60, `more rows than the old 60-row cap: ${want.length}`);
    await page.waitForFunction(
      (n) => Number(document.querySelector('[data-testid=published-count]').dataset.total) === n,
      want.length,
      { timeout: 20000 },
    );
    await waitQuiet(page);
    const expected = cliRun('tables', { hardware: 'rtx-3090', temperature: 0, format: 'page' });
    // Page by page with "Next rows" until it is disabled: every matching row, once, in order.
    const seen = [];
    for (let guard = 0; guard < 50; guard += 1) {
      const shown = await shownPage(page);
      const from = seen.length;
      eq(
        shown.text,
        `Rows ${from + 1}–${from + shown.ids.length} of ${want.length}.`,
        'rows X–Y of N',
      );
      if (from === 0) {
        eq(shown.ids.join(','), expected.rows.map((r) => r.id).join(','), "the CLI's first page");
        eq(
          shown.models.join(','),
          expected.rows.map((r) => r.model).join(','),
          "the core's normalized model names",
        );
        // Every cell of the first page: the CLI's row as the page words and formats it.
        sameCells(
          await cellsOf(page, '[data-testid=published-table] tbody tr'),
          expected.rows.map((r) => [
            r.source_id || r.source,
            r.duplicate_of ? `${r.table} (reprint)` : r.table,
            r.method,
            r.model,
            r.dataset,
            typeof r.temperature === 'number' ? String(r.temperature) : '—',
            r.hardware_id || '—',
            typeof r.tau === 'number' ? r.tau.toFixed(2) : '—',
            typeof r.speedup === 'number' ? `${r.speedup.toFixed(2)}×` : '—',
            r.use.ok ? 'Use' : r.use.label,
          ]),
          'first page',
        );
      }
      seen.push(...shown.ids);
      if (await page.$eval('[data-testid=published-next]', (b) => b.disabled)) break;
      await page.click('[data-testid=published-next]');
      await page.waitForFunction(
        (n) => document.querySelector('[data-testid=published-count]').dataset.first === String(n),
        seen.length + 1,
        { timeout: 20000 },
      );
    }
    eq(seen.join(','), want.map((r) => r.id).join(','), 'every matching row, in table order');
    // The first page holds EAGLE-2's reprints of EAGLE-1's RTX 3090 rows: they say so.
    assert(
      expected.rows.some((r) => r.duplicate_of),
      'the first 3090 page has a reprinted row to show',
    );
    // One name per model: the sources' four spellings of Vicuna-7B v1.3 show as one.
    const spellings = new Set(
      TABLE.filter((r) => r.target_id === 'vicuna-7b-v1.3').map((r) => r.target_model),
    );
    assert(spellings.size >= 4, `the sources spell it ${spellings.size} ways`);
    const names = new Set((await shownPage(page)).models);
    assert(
      ![...spellings].some((s) => s !== 'vicuna-7b-v1.3' && names.has(s)),
      `no raw spelling shown: ${[...names]}`,
    );
  });

  await test('"Reproduce the papers": scatter by source, errors in-sample and held out, every row not predicted with its reason', async () => {
    await openTable(page, url);
    const report = cliRun('validate', { format: 'json' });
    await showReproduce(page);
    const shown = await page.evaluate(() => {
      const f = document.querySelector('[data-testid=validation-scatter]');
      return {
        marks: JSON.parse(f.dataset.marks || '{}'),
        xTicks: f.dataset.xTicks || '',
        yTicks: f.dataset.yTicks || '',
        sources: f.dataset.sources.split(','),
        bad: [...document.querySelectorAll('[data-testid=reproduce] td.bad')].filter(
          (td) => !td.closest('[data-testid=validation-time-checks]'),
        ).length,
        checksBad: document.querySelectorAll('[data-testid=validation-time-checks] td.bad').length,
        rows: [...document.querySelectorAll('[data-testid=validation-sources] tbody tr')].map(
          (r) => ({
            id: r.dataset.source,
            predicted: r.querySelector('[data-col=predicted]').textContent,
            notPredicted: r.querySelector('[data-col=not-predicted]').textContent,
            mape: r.querySelector('[data-col=mape]').textContent,
            heldOut: r.querySelector('[data-col=held-out]').textContent,
          }),
        ),
        checks: [...document.querySelectorAll('[data-testid=validation-time-checks] tbody tr')].map(
          (r) => ({
            id: r.dataset.check,
            measured: r.querySelector('[data-col=measured]').textContent,
            predicted: r.querySelector('[data-col=predicted]').textContent,
            error: r.querySelector('[data-col=error]').textContent,
          }),
        ),
        summary: document.querySelector('[data-testid=coverage-summary]').textContent,
        reasons: [...document.querySelectorAll('[data-testid=validation-coverage] tbody tr')].map(
          (r) => [r.dataset.reason, r.cells[1].textContent],
        ),
      };
    });
    // Every step-time check the core reports, in its order, with its numbers as the core gave
    // them (the page formats, never recomputes).
    eq(
      shown.checks.map((c) => c.id).join(','),
      report.engines.time_checks.map((c) => c.id).join(','),
      'one row per time check',
    );
    assert(shown.checks.length >= 7, `time checks shown: ${shown.checks.length}`);
    report.engines.time_checks.forEach((c, i) => {
      eq(shown.checks[i].measured, fmt.seconds(c.measured_s), `${c.id}: measured`);
      eq(shown.checks[i].predicted, fmt.seconds(c.predicted_s), `${c.id}: predicted`);
      eq(shown.checks[i].error, fmt.signedPercent(c.error_pct), `${c.id}: error`);
    });
    // One mark per predicted row, drawn where the core's numbers put it: a paper's row at
    // (measured, predicted), an engine row at (measured_reference, predicted); a measured range
    // is met by any prediction inside it, so its reference is the prediction clamped into it.
    const expected = new Map();
    for (const r of report.rows) {
      if (!expected.has(r.source_id)) expected.set(r.source_id, []);
      expected.get(r.source_id).push([r.measured, r.predicted]);
    }
    for (const r of report.engines.rows) {
      const ref = r.measured_range
        ? Math.min(Math.max(r.predicted, r.measured_range[0]), r.measured_range[1])
        : r.measured;
      eq(r.measured_reference, ref, `${r.id}: reference by hand`);
      if (!expected.has(r.source)) expected.set(r.source, []);
      expected.get(r.source).push([ref, r.predicted]);
    }
    let marked = 0;
    for (const [source, pts] of expected) {
      const got = shown.marks[source] || [];
      eq(got.length, pts.length, `${source}: marks drawn`);
      pts.forEach(([x, y], i) => {
        eq(got[i][0], x, `${source} mark ${i}: measured`);
        eq(got[i][1], y, `${source} mark ${i}: predicted`);
      });
      marked += got.length;
    }
    eq(marked, report.rows.length + report.engines.rows.length, 'one mark per predicted row');
    // The marks are painted: the canvas differs from its background at their centres.
    const all = [...expected.keys()].flatMap((k) => shown.marks[k]);
    const painted = await page.$eval(
      '[data-testid=validation-scatter] canvas',
      (c, pts) => {
        const ctx = c.getContext('2d');
        const bg = ctx.getImageData(1, 1, 1, 1).data.join();
        return pts.filter(([, , cx, cy]) => ctx.getImageData(cx, cy, 1, 1).data.join() !== bg)
          .length;
      },
      all,
    );
    eq(painted, all.length, 'every mark painted on the canvas');
    // Ticks at the speedups people read that lie within the marks' extent (0.9 x min to
    // 1.1 x max of every mark's two values), each labelled.
    const values = [...expected.values()].flat(2);
    const lo = Math.min(...values) * 0.9;
    const hi = Math.max(...values) * 1.1;
    const ticks = [0.5, 0.75, 1, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20].filter(
      (t) => t >= lo && t <= hi,
    );
    assert(ticks.length >= 3, `ticks expected: ${ticks}`);
    eq(shown.xTicks, ticks.join(','), 'measured-axis ticks');
    eq(shown.yTicks, ticks.join(','), 'predicted-axis ticks');
    // Rows beyond the core's large-error threshold are marked, counted here from error_pct.
    eq(
      shown.bad,
      report.rows.filter((r) => Math.abs(r.error_pct) > report.large_error_pct).length,
      'rows marked as large errors',
    );
    eq(report.large_error_pct, 25, "the core's threshold");
    eq(
      shown.checksBad,
      report.engines.time_checks.filter((c) => Math.abs(c.error_pct) > report.large_error_pct)
        .length,
      'time checks marked as large errors',
    );
    const drawn = report.sources.filter((s) => s.stock.rows > 0).map((s) => s.source_id);
    eq(
      shown.sources.join(','),
      [...drawn, ...Object.keys(report.engines.by_source)].join(','),
      'one colour per source (papers, then engines)',
    );
    for (const [id, s] of Object.entries(report.engines.by_source)) {
      const row = shown.rows.find((r) => r.id === id);
      assert(row, `engine source ${id} listed`);
      eq(row.predicted, String(s.rows), `${id} predicted`);
      eq(row.mape, `${s.mape_pct.toFixed(1)} %`, `${id} MAPE`);
      eq(
        row.heldOut,
        s.cross_validated && s.cross_validated.rows
          ? `${s.cross_validated.mape_pct.toFixed(1)} %`
          : '—',
        `${id} held out`,
      );
    }
    // The rows of each source, cell by cell (method, model, dataset, GPU, τ, measured,
    // predicted, error), in the report's order.
    const tables = await page.$$eval('[data-testid=reproduce] > details', (ds) =>
      ds.map((d) =>
        [...d.querySelectorAll('tbody tr')].map((r) => [...r.cells].map((c) => c.textContent)),
      ),
    );
    const withRows = report.sources.filter((src) => src.stock.rows);
    eq(tables.length, withRows.length, 'one table per source with predicted rows');
    withRows.forEach((src, i) =>
      sameCells(
        tables[i],
        report.rows
          .filter((r) => r.source_id === src.source_id)
          .map((r) => [
            r.method,
            r.model,
            r.dataset,
            `${r.gpus > 1 ? `${r.gpus}× ` : ''}${r.hardware}`,
            r.tau.toFixed(2),
            `${r.measured.toFixed(2)}×`,
            `${r.predicted.toFixed(2)}×`,
            fmt.signedPercent(r.error_pct),
          ]),
        `rows of ${src.source_id}`,
      ),
    );
    for (const s of report.sources) {
      const row = shown.rows.find((r) => r.id === s.source_id);
      assert(row, `source ${s.source_id} listed`);
      eq(row.predicted, String(s.stock.rows), `${s.source_id} predicted`);
      eq(row.notPredicted, String(s.not_predicted), `${s.source_id} not predicted`);
      if (s.stock.rows) {
        eq(row.mape, `${s.stock.mape_pct.toFixed(1)} %`, `${s.source_id} MAPE`);
        eq(row.heldOut, `${s.cross_validated.mape_pct.toFixed(1)} %`, `${s.source_id} held out`);
      }
    }
    // The whole table is accounted for, counted here from the raw table.
    const c = report.coverage;
    eq(c.published_rows, TABLE.length, 'coverage covers every row');
    eq(
      c.reasons.reduce((n, g) => n + g.rows, 0),
      TABLE.length - report.rows.length,
      'reasons count every row not predicted',
    );
    const noTau = TABLE.filter((r) => r.tau === null && r.speedup !== null).length;
    eq(
      c.reasons.find((g) => g.reason.startsWith('no tau reported')).rows,
      noTau,
      'rows without a tau, counted from the table',
    );
    eq(
      shown.summary,
      `${TABLE.length} published rows: ${report.rows.length} predicted, ${TABLE.length - report.rows.length} not predicted, by reason:`,
      'coverage sentence',
    );
    eq(
      JSON.stringify(shown.reasons),
      JSON.stringify(c.reasons.map((g) => [g.reason, String(g.rows)])),
      "the core's reasons and counts",
    );
  });

  if (shots) {
    await test('screenshots: the validation scatter and the error by source', async () => {
      // The view the test above drew; drawn here when that test was filtered out.
      if (!(await page.$('[data-testid=validation-scatter][data-sources]'))) {
        await openTable(page, url);
        await showReproduce(page);
      }
      await screenshotWithViews(page, path.join(shots, 'scatter.png'), {
        selector: '[data-testid=validation-summary]',
        require: ['[data-testid=validation-scatter]', '[data-testid=validation-sources]'],
      });
    });
  }

  await page.close();
}
