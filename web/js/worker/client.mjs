// The page's side of the core worker (core-worker.mjs). Calls queue in order; a call made with
// a `slot` replaces that slot's call still waiting to be sent (a newer sizing request supersedes
// an older one that has not started). If the worker cannot start, every call runs on the page
// thread instead (same core, same bytes) and `mode` says so for the UI and the tests.
import { callText as mainThreadCall, SpecCalcError } from '../api.mjs';

const START_TIMEOUT_MS = 20000;
const root = document.documentElement;

let worker = null;
let mode = 'starting'; // 'starting' | 'worker' | 'fallback'
let reason = '';
let started = null;
let nextId = 1;
const inFlight = new Map(); // id -> {resolve, reject}
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

function start() {
  if (started) return started;
  started = new Promise((resolve) => {
    let settled = false;
    // Before or after start: fall back to the page thread; calls in flight fail once.
    const fail = (why) => {
      settled = true;
      if (worker) worker.terminate();
      worker = null;
      setMode('fallback', why);
      for (const { reject } of inFlight.values()) reject(new Error(`the background worker stopped: ${why}`));
      inFlight.clear();
      resolve(false);
    };
    const timer = setTimeout(() => fail(`it did not start within ${START_TIMEOUT_MS / 1000} s`), START_TIMEOUT_MS);
    try {
      worker = new Worker(new URL('./core-worker.mjs', import.meta.url), { type: 'module', name: 'speccalc-core' });
    } catch (e) {
      clearTimeout(timer);
      fail(String(e && e.message ? e.message : e));
      return;
    }
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
          setMode('worker');
          resolve(true);
        }
        return;
      }
      const job = inFlight.get(m.id);
      if (!job) return;
      inFlight.delete(m.id);
      if (m.ok) job.resolve(m.output);
      else job.reject(m.core ? new SpecCalcError(m.field, m.message) : new Error(m.message));
    };
  });
  return started;
}

const waiting = new Map(); // slot -> {command, text, resolve, reject}
const busySlots = new Set();

async function send(command, text) {
  if ((await start()) && worker) {
    root.dataset.workerCalls = String(Number(root.dataset.workerCalls || 0) + 1);
    return new Promise((resolve, reject) => {
      const id = nextId++;
      inFlight.set(id, { resolve, reject });
      worker.postMessage({ id, command, input: text });
    });
  }
  // Fallback: let the progress indicator paint first, since this call blocks the page.
  await new Promise((r) => setTimeout(r, 0));
  return mainThreadCall(command, text);
}

// Runs a core command off the page thread; resolves to the output text or rejects with
// SpecCalcError. With `slot`, at most one call per slot runs and one waits; a waiting call
// that is replaced rejects with {superseded: true}.
export function heavyText(command, input, { slot } = {}) {
  const text = typeof input === 'string' ? input : JSON.stringify(input);
  if (!slot) return send(command, text);
  return new Promise((resolve, reject) => {
    const old = waiting.get(slot);
    if (old) old.reject(Object.assign(new Error('superseded'), { superseded: true }));
    waiting.set(slot, { command, text, resolve, reject });
    pump(slot);
  });
}

async function pump(slot) {
  if (busySlots.has(slot)) return;
  const job = waiting.get(slot);
  if (!job) return;
  waiting.delete(slot);
  busySlots.add(slot);
  try {
    job.resolve(await send(job.command, job.text));
  } catch (e) {
    job.reject(e);
  } finally {
    busySlots.delete(slot);
    pump(slot);
  }
}

export async function heavyJson(command, input, options) {
  return JSON.parse(await heavyText(command, input, options));
}

export function startWorker() {
  return start();
}
