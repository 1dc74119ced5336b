// Wires the page: URL fragment -> config -> core -> views, and form edits -> core -> URL.
// Views only draw; the core computes; this file decides what runs when.
import { callJson, callText, describeError, SpecCalcError } from './api.mjs';
import {
  currentFragment,
  decodeFragment,
  encodeConfig,
  joinFragment,
  splitFragment,
  writeFragment,
} from './state.mjs';
import { $, download, el } from './dom.mjs';
import { engineIdOf } from './engine-view.mjs';
import { InputsView } from './views/inputs.mjs';
import { ResultsView, resultCsv } from './views/results.mjs';
import { initTheme } from './views/theme.mjs';
import { onModeChange, startWorker } from './worker/client.mjs';

// What a first visit shows: a common 7B chat model on an A100 with a small draft model.
const EDIT_DELAY_MS = 300;
const CHART_DELAY_MS = 150;
const BUSY_AFTER_MS = 100;

const root = document.documentElement;
const banner = $('#banner');
const busyBox = $('#busy');

let pending = 0;
let busyTimer = null;
// Progress indicator for any work over 100 ms; data-pending lets tests wait for quiet.
function busy(label = 'Computing…') {
  pending += 1;
  root.dataset.pending = String(pending);
  if (pending === 1) {
    busyTimer = setTimeout(() => {
      busyBox.textContent = label;
      busyBox.hidden = false;
    }, BUSY_AFTER_MS);
  }
  let done = false;
  return () => {
    if (done) return;
    done = true;
    pending -= 1;
    root.dataset.pending = String(pending);
    if (pending === 0) {
      clearTimeout(busyTimer);
      busyBox.hidden = true;
    }
  };
}

function showBanner(text, kind = 'error') {
  banner.textContent = text;
  banner.className = `banner ${kind}`;
  banner.hidden = !text;
}

const state = {
  invalid: null, // the core's error while the form holds an invalid field, else null
  config: null, // last normalized config that evaluated
  result: null, // its result
  fragment: null, // the fragment this page wrote last
  seq: 0, // evaluation sequence number; stale answers are dropped
  lists: null,
  compare: null, // the scenario compared against: {config, result, fragment}, or null
};

const inputs = new InputsView($('#inputs'), onEdit);
const results = new ResultsView($('#results'));
// "Use q4_k_m weights" / "Use fp8 for the KV cache" under a setup that does not fit: the form's own
// dtype edit.
results.useDtype = (field, format) => {
  const select = $(field === 'kv' ? '#f-dtype-kv' : '#f-dtype-weights');
  select.value = format;
  select.dispatchEvent(new Event('change', { bubbles: true }));
};
// The charts and the published table sit below the result: their views (and the chart kit)
// load with their sections, not with the page (issue 14: first load within 250 KB).
let charts = null;
async function chartsView() {
  if (!charts) {
    const { ChartsView } = await import('./views/charts.mjs');
    if (!charts) {
      charts = new ChartsView(document);
      charts.batchAxis = state.lists.ui.batch_axis; // the batches the core sweeps (list ui)
    }
  }
  return charts;
}
let tables = null;
async function tablesView() {
  if (!tables) {
    const { TablesView } = await import('./views/tables.mjs');
    if (!tables)
      tables = new TablesView($('#data-view'), {
        onUse: applyConfig,
        busy,
        loadCharts: () => loadChartLibrary(),
      });
  }
  return tables;
}
// Compare's view is loaded when a comparison starts or a link carries one (the first-load
// budget, issue 14): until then the section is index.html's start button alone.
let compare = null;
async function compareView() {
  if (!compare) {
    const { CompareView } = await import('./views/compare.mjs');
    compare =
      compare || new CompareView($('#compare'), { onStop: stopCompare, onSwap: swapCompare });
    if (state.lists) compare.setLabels(state.lists);
  }
  return compare;
}
$('#compare-start').addEventListener('click', () => startCompare());

// Compare: the scenario on screen becomes "A" (kept), edits go on as "B"; both are in the link.
async function setCompare(config) {
  if (!config) {
    state.compare = null;
    return;
  }
  const result = await callJson('eval', config);
  state.compare = { config: result.config, result, fragment: await encodeConfig(result.config) };
}
async function startCompare() {
  if (!state.config) return;
  await setCompare(state.config);
  await evaluate(state.config, { force: true });
}
async function stopCompare() {
  state.compare = null;
  if (state.config) await evaluate(state.config, { force: true });
}
async function swapCompare() {
  if (!state.compare) return;
  const other = state.compare.config;
  await setCompare(state.config);
  await evaluate(other, { force: true });
}

// Evaluates a config. On success everything is redrawn and the URL updated; on failure the
// core's message goes beside its field and the last good result stays, marked stale.
// url: 'push' (a user's edit: Back undoes it), 'replace' (a link opened as is) or 'none'.
async function evaluate(config, { force = false, url = 'push' } = {}) {
  const seq = ++state.seq;
  const done = busy();
  try {
    const result = await callJson('eval', config);
    const fragment = await encodeConfig(result.config);
    if (state.compare) await compareView();
    if (seq !== state.seq) return null;
    state.config = result.config;
    state.result = result;
    state.fragment = joinFragment(fragment, state.compare && state.compare.fragment);
    if (url !== 'none') writeFragment(state.fragment, { push: url === 'push' });
    state.invalid = null;
    inputs.clearErrors();
    inputs.tauHint = Number(result.tau.toFixed(2));
    inputs.show(result.config, { force });
    inputs.showEngine(result.engine);
    results.show(result);
    results.setStale(false);
    root.dataset.fragment = fragment;
    if (compare) compare.show(state.compare, result);
    // Engine settings and sizing run in the full module (loaded on demand): only once the
    // reader opens the settings or scrolls to sizing (issue 14's first-load budget).
    if (enginesWanted) showEngines(result.config, seq);
    // A workload preset's traces also bound what any k or proposer could do (full module).
    if (result.band && result.config.acceptance && result.config.acceptance.workload)
      showBounds(result.config, seq);
    else results.showBounds(null);
    scheduleCharts();
    showLoad(result.config);
    showBench(result.config);
    return result;
  } catch (e) {
    if (seq !== state.seq) return null;
    if (e instanceof SpecCalcError) {
      showInvalid(e);
    } else {
      showBanner(`Internal error: ${describeError(e)}`);
    }
    return null;
  } finally {
    done();
  }
}

async function showBounds(config, seq) {
  try {
    const out = await callJson('bounds', config);
    if (seq === state.seq) results.showBounds(out.bounds);
  } catch {
    if (seq === state.seq) results.showBounds(null); // e.g. a tree the traces do not cover
  }
}

// Engine settings that reproduce the current method (the core's export command).
async function showEngines(config, seq) {
  try {
    const exp = await callJson('export', config);
    if (seq === state.seq) results.showEngines(exp);
  } catch (e) {
    if (seq === state.seq) results.showEngines(null, describeError(e));
  }
}

// An invalid field: the core's message beside it, brought into view (the field may sit far
// below the one that was edited), the last good result kept and marked stale. Later edits still
// evaluate the whole form, so no field is ever frozen by another's error.
function showInvalid(error) {
  state.invalid = error;
  inputs.showError(error);
  results.setStale(state.result !== null);
  const shown = $('#inputs [data-testid=field-error]') || $('#form-error:not([hidden])');
  // Centered: 'nearest' leaves the box on the screen's edge (a fraction of a pixel cut off).
  if (shown) shown.scrollIntoView({ block: 'center' });
}

let editTimer = null;
let lastEditField = null;
function onEdit({ field, immediate }) {
  clearTimeout(editTimer);
  // An evaluation still in flight answers a form the user has since changed: drop its answer
  // (it would refill this edit's field once the field loses focus); this edit's own follows.
  ++state.seq;
  // A family or acceptance-mode switch must be read as such even if a text edit is pending.
  if (lastEditField !== 'method.family' && lastEditField !== 'acceptance') lastEditField = field;
  else if (field === 'method.family' || field === 'acceptance') lastEditField = field;
  editTimer = setTimeout(
    () => {
      const changed = lastEditField;
      lastEditField = null;
      showBanner('');
      let config;
      try {
        config = inputs.read(changed);
      } catch (e) {
        // The form itself could not be read (a custom JSON box that does not parse).
        showInvalid(e);
        return;
      }
      if (state.config?.load && !config.load) config.load = state.config.load; // Under load
      // What the form has no input for comes along from the state the link holds: the memory
      // fraction and a streaming offload.
      if (state.config?.memory_utilization !== undefined)
        config.memory_utilization = state.config.memory_utilization;
      if (state.config?.offload?.target_weights && !config.offload)
        config.offload = state.config.offload;
      // A setup edit is carried by the core to a config that runs (inputs.carry); a later edit
      // made while the core carries this one supersedes it.
      const edit = state.seq;
      inputs.carry(config, changed, state.config).then((carried) => {
        if (edit === state.seq) evaluate(carried);
      });
    },
    immediate ? 0 : EDIT_DELAY_MS,
  );
}

// Replaces the whole state (a new link, an imported file, a published row).
async function applyConfig(config) {
  showBanner('');
  return evaluate(config, { force: true });
}

async function openFragment(fragment) {
  const done = busy();
  try {
    const { main, other } = splitFragment(fragment);
    const config = await decodeFragment(main);
    await setCompare(other === null ? null : await decodeFragment(other));
    showBanner('');
    await evaluate(config, { force: true, url: 'replace' });
  } catch (e) {
    // A link that cannot be opened: say why, keep (or load) a working calculator, and leave
    // the address bar alone until the user edits something.
    showBanner(`This link could not be opened — ${describeError(e)}`);
    const had = state.result !== null;
    if (!had) await evaluate(starterConfig(), { force: true, url: 'none' });
    if (e instanceof SpecCalcError) inputs.showError(e);
    // The result shown is not the link's setup (the walk: a broken link under an untagged 1.79x
    // read as the shared setup's result).
    if (state.result)
      results.setStale(
        true,
        had
          ? "(the previous setup's result: the link could not be opened)"
          : "(the starting setup's result, not the link's: it could not be opened)",
      );
  } finally {
    done();
  }
}

// The config the page opens with (the core's `list ui`).
function starterConfig() {
  return state.lists.ui.starter;
}

let chartTimer = null;
let chartSeq = 0;
let chartsDone = null; // the busy token held from scheduling until the latest drawing finishes
function scheduleCharts() {
  clearTimeout(chartTimer);
  if (!chartsDone) chartsDone = busy('Computing sweeps…');
  chartTimer = setTimeout(drawCharts, CHART_DELAY_MS);
}

async function drawCharts() {
  chartTimer = null;
  const seq = ++chartSeq;
  const config = state.config;
  const result = state.result;
  // The token is released by the latest drawing only, and only while no newer one is waiting
  // on its timer: a drawing that ends after a new schedule but before its timer fired would
  // otherwise end the busy state early (CI, 3 Dec 10:15: a chart note read from the previous
  // config while the new one's drawing was still due).
  const done = () => {
    if (seq === chartSeq && chartTimer === null && chartsDone) {
      chartsDone();
      chartsDone = null;
    }
  };
  if (!config) {
    done();
    return;
  }
  // Each view draws on its own: a failing one says so in its own note and the rest still draw.
  // Published points join the charts once the table is loaded (see whenShown below).
  const measured = tablesLoaded ? await tables.measuredFor(config.target) : [];
  // Sizing runs in the worker after the sweeps queued below; it has its own progress line.
  let sized = false;
  const startSizing = () => {
    if (sized) return;
    sized = true;
    whenSizingShown(() => {
      if (seq === chartSeq)
        sizingView().then((view) => {
          if (seq === chartSeq) view.show(config, result.speedup);
        });
    });
  };
  // The charts and the tree panel sit below the result: they (and the chart library) wait
  // until the reader scrolls towards them (issue 14: first load within 250 KB).
  let cv = null;
  if (chartsShown) {
    try {
      cv = await chartsView();
    } catch (e) {
      showBanner(`The charts could not load: ${describeError(e)}`);
    }
  }
  const steps = cv
    ? [
        [null, loadChartLibrary],
        [cv.roofline, () => cv.showRoofline(result)],
        [cv.k, () => cv.showK(config, state.lists.methods, measured)],
        [cv.batch, () => cv.showBatch(config, measured)],
        [cv.families, () => cv.showFamilies(config, state.lists.methods, measured)],
        [null, () => treeView().then((view) => view.show(config))],
        [null, startSizing],
      ]
    : [[null, startSizing]];
  if (!chartsShown && !chartsWatched) {
    chartsWatched = true;
    whenShown($('#charts-view'), () => {
      chartsShown = true;
      if (state.result) scheduleCharts();
    });
  }
  try {
    for (const [slot, step] of steps) {
      // Yield between views: the page stays responsive, paints what is done, and the progress
      // indicator appears once the work passes 100 ms (each core call is synchronous).
      await new Promise((r) => setTimeout(r, 0));
      if (seq !== chartSeq) return;
      try {
        await step();
      } catch (e) {
        if (e && e.superseded) return; // a newer drawing replaced this sweep
        if (slot) {
          slot.destroy();
          slot.setNote(`Could not draw: ${describeError(e)}`);
        }
      }
    }
  } finally {
    done();
  }
}

// The example buttons under the header: labels and configs from the core's `list ui`.
function showExamples(examples) {
  const nav = $('#examples');
  for (const old of nav.querySelectorAll('[data-example]')) old.remove();
  examples.forEach((example, i) => {
    nav.append(
      el('button', {
        type: 'button',
        'data-example': String(i),
        text: example.label,
        onclick: () => applyConfig(example.config),
      }),
    );
  });
}

function wireSharing() {
  $('#copy-link').addEventListener('click', async () => {
    const button = $('#copy-link');
    if (state.invalid) {
      // The address bar holds the last valid setup, not what the form shows: copy nothing.
      showBanner(
        'Fix the highlighted field first — the link would share the last valid setup, not the one shown.',
        'info',
      );
      button.textContent = 'Not copied';
      const shown = $('#inputs [data-testid=field-error]') || $('#form-error:not([hidden])');
      // Centered: 'nearest' leaves the box on the screen's edge (a fraction of a pixel cut off).
      if (shown) shown.scrollIntoView({ block: 'center' });
      setTimeout(() => {
        button.textContent = 'Copy link';
      }, 2000);
      return;
    }
    try {
      await navigator.clipboard.writeText(location.href);
      button.textContent = 'Link copied';
    } catch {
      // No clipboard permission (e.g. plain http): show the link so it can be copied by hand.
      showBanner(`Share link: ${location.href}`, 'info');
      button.textContent = 'Link shown above';
    }
    setTimeout(() => {
      button.textContent = 'Copy link';
    }, 2000);
  });
  $('#export-config').addEventListener('click', () => {
    if (state.config)
      download('speccalc-config.json', `${JSON.stringify(state.config, null, 2)}\n`);
  });
  $('#export-result-json').addEventListener('click', () => {
    if (state.result)
      download('speccalc-result.json', `${JSON.stringify(state.result, null, 2)}\n`);
  });
  $('#export-result-csv').addEventListener('click', () => {
    if (state.result) download('speccalc-result.csv', resultCsv(state.result), 'text/csv');
  });
  $('#import-config').addEventListener('change', async (e) => {
    const file = e.target.files && e.target.files[0];
    e.target.value = '';
    if (!file) return;
    const text = await file.text();
    try {
      // The core parses and validates the file; the page never interprets it.
      const config = JSON.parse(await callText('normalize', text));
      await applyConfig(config);
    } catch (err) {
      showBanner(`The file could not be imported — ${describeError(err)}`);
    }
  });
}

// Paste a vLLM --speculative-config or SGLang flags: the core's import-engine turns them into
// a config (on top of the current one), which then evaluates like any other edit.
function wireImport() {
  const form = $('#import-form');
  const status = $('#import-status');
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    try {
      const out = await callJson('import-engine', {
        engine: $('#i-engine').value,
        text: $('#i-text').value,
        config: state.config,
      });
      status.className = 'hint';
      // One line each (app.css keeps the line breaks): the core's notes, then what it did not read.
      status.textContent = ['Imported.', ...out.notes].join('\n');
      await applyConfig(out.config);
    } catch (err) {
      status.className = 'field-error';
      status.textContent = describeError(err);
    }
  });
}

async function loadLists() {
  const kinds = ['models', 'hardware', 'runtimes', 'methods', 'drafts', 'acceptance', 'ui'];
  const lists = await Promise.all(kinds.map((k) => callJson('list', k).catch(() => [])));
  return Object.fromEntries(kinds.map((k, i) => [k, lists[i]]));
}

// The published table (1.1 MB, 30 KB gzip) is fetched the first time its section comes into
// view, not on first load (issue 14: first load within 250 KB); then the charts redraw with
// the published points.
let tablesLoaded = false;

let chartsShown = false;
let chartsWatched = false;
// uPlot (the vendored chart library, web/vendor/) is fetched with the first chart.
let chartLibrary = null;
function loadChartLibrary() {
  if (!chartLibrary) {
    chartLibrary = new Promise((resolve) => {
      if (typeof globalThis.uPlot === 'function') return resolve();
      const script = document.createElement('script');
      script.src = new URL('../vendor/uPlot.iife.min.js', import.meta.url).href;
      script.onload = () => resolve();
      script.onerror = () => resolve(); // each chart then says the library did not load
      document.head.appendChild(script);
    });
  }
  return chartLibrary;
}

let tree = null;
// The tree panel sits with the charts, below the result: its module loads when they are shown.
async function treeView() {
  if (!tree) {
    const { TreeView } = await import('./views/tree.mjs');
    tree ??= new TreeView($('#tree-view'));
  }
  return tree;
}

// The sizing view (views/sizing.mjs) is imported the first time its section comes into view
// (issue 23: the first load within 250 KB); the worker mode and the core's defaults it is told
// before that wait here.
let sizing = null;
let sizingMode = null;
let sizingDefaults = null;
async function sizingView() {
  if (!sizing) {
    const { SizingView } = await import('./views/sizing.mjs');
    if (!sizing) {
      sizing = new SizingView($('#sizing-view'), { onApply: applyConfig });
      if (sizingDefaults) sizing.setDefaults(sizingDefaults);
      if (sizingMode) sizing.setWorkerMode(...sizingMode);
    }
  }
  return sizing;
}

// Sizing needs the full module: it starts the first time the sizing section comes into view,
// then for every later result.
let sizingShown = false;
let sizingWaiting = null;
function whenSizingShown(fn) {
  if (sizingShown) return fn();
  const first = sizingWaiting === null;
  sizingWaiting = fn; // only the latest result is sized
  if (first) {
    whenShown($('#sizing-view'), () => {
      sizingShown = true;
      sizingWaiting();
    });
  }
}

// Engine settings (the export command) once their details are opened.
let enginesWanted = false;
function wireEngineSettings() {
  const details = $('#engine-settings');
  details.addEventListener('toggle', () => {
    if (!details.open || enginesWanted) return;
    enginesWanted = true;
    if (state.result) showEngines(state.result.config, state.seq);
  });
}

// Under load (issue 21): its module (views/load.mjs) is imported when the section comes into
// view; then it redraws for every result.
// A press of Apply or Remove load before the module is there is kept and carried out once it
// is (the walk: Apply pressed as the section scrolled in did nothing).
let loadView = null;
let loadWatched = false;
let loadPressed = null; // 'apply' | 'remove' | null
function showLoad(config) {
  if (loadView) return loadView.show(config);
  if (loadWatched) return;
  loadWatched = true;
  const section = $('#load-view');
  const early = (what) => () => {
    if (!loadView) loadPressed = what;
  };
  $('#load-form', section).addEventListener('submit', early('apply'));
  $('#load-off', section).addEventListener('click', early('remove'));
  whenShown(section, async () => {
    await loadChartLibrary();
    const { LoadView } = await import('./views/load.mjs');
    loadView = new LoadView(section, {
      workloads: state.lists.ui.load_workloads,
      defaults: state.lists.ui.load,
      onApply: (load) => {
        const config = { ...state.config };
        if (load) config.load = load;
        else delete config.load;
        return evaluate(config);
      },
    });
    if (state.result) await loadView.show(state.result.config);
    const pressed = loadPressed;
    loadPressed = null;
    if (pressed === 'apply') await loadView.apply();
    else if (pressed === 'remove') await loadView.onApply(null);
  });
}

// Local benchmark calibration (issue 22): the box shows when the core's `list runtimes` names
// the paste the engine calibrates from (calibrates_from: llama_bench, mlx_lm), which is also the
// key the paste goes under; its view (views/bench.mjs) is imported when one is first submitted.
let benchView = null;
let benchKey = null;
function showBench(config) {
  const id = engineIdOf(config.runtime);
  const engine = (state.lists.runtimes || []).find((r) => r.id === id);
  benchKey = (engine && engine.calibrates_from) || null;
  $('#llama-bench').hidden = !benchKey;
  if (benchView) benchView.show(config);
}
function wireBench() {
  $('#bench-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    if (!state.config || !benchKey) return;
    const done = busy('Calibrating…');
    try {
      if (!benchView) {
        const { BenchView } = await import('./views/bench.mjs');
        benchView = new BenchView($('#llama-bench'), { apply: applyConfig });
      }
      await benchView.fit(state.config, benchKey);
    } catch (err) {
      showBanner(`The benchmark calibration could not load: ${describeError(err)}`);
    } finally {
      done();
    }
  });
}

// The metric converter and the measured-calibration form sit in closed <details>: their modules
// load on first use, as the llama-bench box's does (issue 23: the first load within 250 KB).
function wireOnDemand() {
  const ctx = { current: () => state.config, apply: applyConfig };
  $('#c-go').addEventListener('click', async () => {
    const { convertAndUse } = await import('./views/convert.mjs');
    await convertAndUse($('#inputs'), ctx);
  });
  $('#measured-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    const { calibrateMeasured } = await import('./views/measured.mjs');
    await calibrateMeasured(document, ctx);
  });
}

function whenShown(section, fn) {
  if (typeof IntersectionObserver !== 'function') return fn();
  const observer = new IntersectionObserver(
    (entries) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      observer.disconnect();
      fn();
    },
    { rootMargin: '200px' },
  );
  observer.observe(section);
}

async function main() {
  initTheme($('#theme-toggle'));
  // No form on the page is ever sent anywhere: a submit before its view's module has loaded
  // (Under load's Apply, reached before the section's lazy import finished) would otherwise
  // be a navigation, which the CSP's form-action 'none' blocks with a console error.
  for (const form of document.querySelectorAll('form'))
    form.addEventListener('submit', (e) => e.preventDefault());
  // "Skip to results" moves focus without touching the address bar's fragment (the share link).
  $('.skip').addEventListener('click', (e) => {
    e.preventDefault();
    $('#results-title').scrollIntoView({ block: 'start' });
    $('#results').focus({ preventScroll: true });
  });
  onModeChange((mode, reason) => {
    sizingMode = [mode, reason];
    if (sizing) sizing.setWorkerMode(mode, reason);
  });
  startWorker();
  $('#goto-sizing').addEventListener('click', () => {
    const section = $('#sizing-view');
    section.scrollIntoView({ behavior: 'smooth', block: 'start' });
    section.focus({ preventScroll: true });
  });
  document.addEventListener('themechange', () => {
    if (state.result) scheduleCharts();
  });
  wireSharing();
  wireEngineSettings();
  wireImport();
  wireBench();
  wireOnDemand();
  const done = busy('Loading the calculator…');
  try {
    state.lists = await loadLists();
    inputs.setPresets(state.lists);
    if (compare) compare.setLabels(state.lists);
    // The core's labels of each family's keys (list methods), beside the form's own.
    inputs.paramLabels = new Map(state.lists.methods.map((m) => [m.id, m.param_labels || {}]));
    showExamples(state.lists.ui.examples || []);
    sizingDefaults = state.lists.ui.sizing;
    if (sizing) sizing.setDefaults(sizingDefaults);
    // A fragment naming an element of the page (the "Skip to results" link's #results) is an
    // in-page jump, not a share link.
    const anchor = (f) => /^[a-z][a-z0-9-]*$/i.test(f) && document.getElementById(f) !== null;
    const fragment = currentFragment();
    if (fragment && !anchor(fragment)) await openFragment(fragment);
    else
      await evaluate(starterConfig(), { force: true, url: anchor(fragment) ? 'none' : 'replace' });
    // A pasted link (hashchange) or Back / Forward through edits (popstate): show that state.
    const follow = () => {
      const f = currentFragment();
      if (f && f !== state.fragment && !anchor(f)) openFragment(f);
    };
    window.addEventListener('hashchange', follow);
    window.addEventListener('popstate', follow);
    // The published table (1.1 MB) and the full module load when their section is first shown.
    whenShown($('#data-view'), () =>
      tablesView()
        .then((view) => view.init())
        .then(() => {
          tablesLoaded = true;
          if (state.result) scheduleCharts();
        })
        .catch((e) => showBanner(`Published data unavailable: ${describeError(e)}`)),
    );
  } catch (e) {
    showBanner(`The calculator could not start: ${describeError(e)}`);
  } finally {
    done();
    root.dataset.ready = 'true';
  }
}

main();
