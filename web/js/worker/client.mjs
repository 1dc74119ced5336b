// The page's side of the core worker (core-worker.mjs), the page's one door to the core.
// Plain calls (the result card, links, lists) go to the worker at once; `slot` calls (sweeps,
// sizing, validation) wait until the worker is idle, so a long sizing never holds up the
// result of an edit by more than the one already running. A call made with a `slot` replaces that
// slot's call still waiting (a newer sizing request supersedes an older one not yet started).
// If the worker cannot start, every call runs on the page thread instead (same core, same
// bytes) and `mode` says so for the UI and the tests.
import { SpecCalcError } from '../../speccalc-error.mjs';
import { boot } from './boot.mjs';
import { loadCore } from './core-loader.mjs';

const START_TIMEOUT_MS = 20000;
const decoder = new TextDecoder(); // the worker sends the core's output as UTF-8 bytes
const root = document.documentElement;

let worker = null;
let mode = 'starting'; // 'starting' | 'worker' | 'fallback'
let reason = '';
let started = null;
let pageCore = null; // Promise<speccalc-api> on the page thread (fallback only)
const listeners = new Set();

function setMode(m, why = '') {
  mode = m;
  reason = why;
  root.dataset.worker = m;
  for (const fn of listeners) fn(m, why);
}

export function onModeChange(fn) {
  listeners.add(fn);
  fn(mode, reason);
}

export function workerMode() {
  return { mode, reason };
}

function fallbackCore() {
  if (!pageCore) pageCore = loadCore();
  return pageCore;
}

const inFlight = new Map(); // id -> job, posted to the worker and not answered yet
let nextId = 1;
let slotInFlight = false;

// Resolves true once the worker runs the core, false when the page thread must.
function start() {
  if (started) return started;
  started = new Promise((resolve) => {
    let settled = false;
    // Before or after start: fall back to the page thread; a call in flight fails once.
    const fail = (why) => {
      if (worker) worker.terminate();
      worker = null;
      setMode('fallback', why);
      for (const job of inFlight.values())
        job.reject(new Error(`the background worker stopped: ${why}`));
      inFlight.clear();
      slotInFlight = false;
      settled = true;
      resolve(false);
      Promise.resolve().then(pumpAll); // not from inside this executor: `started` is set after it
    };
    const timer = setTimeout(
      () => fail(`it did not start within ${START_TIMEOUT_MS / 1000} s`),
      START_TIMEOUT_MS,
    );
    if (!boot.worker) {
      clearTimeout(timer);
      fail(String(boot.error && boot.error.message ? boot.error.message : boot.error));
      return;
    }
    worker = boot.worker;
    worker.onerror = (e) => {
      clearTimeout(timer);
      e.preventDefault();
      fail(e.message || 'the worker script failed to load');
    };
    worker.onmessage = (event) => {
      const m = event.data;
      if ('ready' in m) {
        clearTimeout(timer);
        if (!m.ready) fail(m.message);
        else if (!settled) {
          settled = true;
          performance.mark('speccalc-core-ready'); // read by bench/browser_bench.mjs
          setMode('worker');
          resolve(true);
        }
        return;
      }
      const job = inFlight.get(m.id);
      inFlight.delete(m.id);
      if (job && job.slot) slotInFlight = false;
      if (job) {
        if (m.ok) job.resolve(decoder.decode(m.bytes));
        else job.reject(m.core ? new SpecCalcError(m.field, m.message) : new Error(m.message));
      }
      pumpAll();
    };
    // What the worker said before this module was listening (boot.mjs kept it), in order.
    for (const e of boot.early.splice(0))
      (e.type === 'error' ? worker.onerror : worker.onmessage)(e);
  });
  return started;
}

// Waiting calls. Plain ones go to the worker at once (the worker answers in order); a slot
// one only when nothing else is in the worker, so a plain call never waits behind more than the
// one slot call already running.
const plain = [];
const slotted = new Map(); // slot -> job (insertion order = arrival order)

function nextSlotJob() {
  for (const [slot, job] of slotted) {
    slotted.delete(slot);
    return job;
  }
  return null;
}

function post(job) {
  const id = nextId++;
  inFlight.set(id, job);
  if (job.slot) slotInFlight = true;
  root.dataset.workerCalls = String(Number(root.dataset.workerCalls || 0) + 1);
  worker.postMessage({ id, command: job.command, input: job.text });
}

let pumping = false;
async function pumpAll() {
  if (pumping) return;
  pumping = true;
  try {
    const inWorker = await start();
    if (inWorker && worker) {
      while (plain.length) post(plain.shift());
      if (inFlight.size === 0 && !slotInFlight) {
        const job = nextSlotJob();
        if (job) post(job);
      }
      return;
    }
    // Fallback: one call at a time on the page thread, plain ones first.
    for (let job = plain.shift() || nextSlotJob(); job; job = plain.shift() || nextSlotJob()) {
      // Let the progress indicator paint first, since this call blocks the page.
      await new Promise((r) => setTimeout(r, 0));
      try {
        const api = await fallbackCore();
        job.resolve(await api.call(job.command, job.text));
      } catch (e) {
        job.reject(e);
      }
    }
  } finally {
    pumping = false;
  }
}

// Runs a core command; resolves to the output text or rejects with SpecCalcError. With `slot`,
// at most one call per slot waits; a waiting call that is replaced rejects with {superseded: true}.
export function coreText(command, input, { slot } = {}) {
  const text = typeof input === 'string' ? input : JSON.stringify(input);
  return new Promise((resolve, reject) => {
    const job = { command, text, slot, resolve, reject };
    if (slot) {
      const old = slotted.get(slot);
      if (old) old.reject(Object.assign(new Error('superseded'), { superseded: true }));
      slotted.delete(slot); // re-inserted last: a newer request waits behind the other slots
      slotted.set(slot, job);
    } else {
      plain.push(job);
    }
    pumpAll();
  });
}

// The heavy calls (sweeps, sizing, validation) of the views; same door, same worker.
export const heavyText = coreText;

export async function heavyJson(command, input, options) {
  return JSON.parse(await coreText(command, input, options));
}

export function startWorker() {
  return start();
}

// The worker itself started earlier (boot.mjs); adopting it now lets the ready message through.
start();
