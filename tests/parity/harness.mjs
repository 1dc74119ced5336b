// Shared by the parity runners (run.mjs, property.mjs) and the golden corpus (scripts/golden.mjs):
// loads the WASM module the page ships (dist/, by the names in dist/manifest.json, handing a
// command that reads a table the module does not embed the file the page would fetch) and
// calls both builds the same way. Every call's result
// is {ok, text}: text is the output on success, "field: message" (Error::describe) on error.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

// The path of a shipped file by its original name (dist/manifest.json, scripts/assemble-dist.mjs).
export function distFile(dist, name) {
  const manifestPath = path.join(dist, 'manifest.json');
  if (!fs.existsSync(manifestPath))
    throw new Error(`${manifestPath} not found: run scripts/build.sh first`);
  const hashed = JSON.parse(fs.readFileSync(manifestPath, 'utf8'))[name];
  if (!hashed) throw new Error(`${name} is not in ${manifestPath}`);
  return path.join(dist, hashed);
}

export async function loadWasmAfterChecks(dist, nativeBin) {
  if (!fs.existsSync(nativeBin))
    throw new Error(`${nativeBin} not found: run scripts/build.sh first`);
  const api = await import(pathToFileURL(distFile(dist, 'speccalc-api.mjs')).href);
  // The page's first-load module and the full one (every command): a command runs in the
  // first-load module when it has it, as on the page, so both are held to native's bytes.
  const first = await api.load({ wasmBinary: fs.readFileSync(distFile(dist, 'speccalc.wasm')) });
  const { default: fullFactory } = await import(
    pathToFileURL(distFile(dist, 'speccalc-full.mjs')).href
  );
  const full = api.bind(
    await fullFactory({ wasmBinary: fs.readFileSync(distFile(dist, 'speccalc-full.wasm')) }),
  );
  const firstNames = new Set(first.commandNames());
  const tables = new Map();
  const table = (name) => {
    if (!tables.has(name))
      tables.set(name, fs.readFileSync(distFile(dist, `${name}.json`), 'utf8'));
    return tables.get(name);
  };
  return {
    run(command, input) {
      const core = firstNames.has(command) ? first : full;
      const name = core.dataNeeded(command);
      return core.run(command, input, name ? table(name) : '');
    },
    // Comma separated, as the core's command_names() prints them (the full module's list).
    commandNames: () => full.commandNames().join(', '),
    // The page module's own list, for tests that check what the first load carries.
    firstLoadCommandNames: () => first.commandNames(),
  };
}

export const okResult = (output) => ({ ok: true, text: output });
export const errResult = (describe) => ({ ok: false, text: describe });

// The WASM side: the binding's {ok, output, field, message} as {ok, text}.
export function runWasm(mod, command, input) {
  const r = mod.run(command, input);
  return r.ok ? okResult(r.output) : errResult(r.field ? `${r.field}: ${r.message}` : r.message);
}

// Native, one process per call: `speccalc run COMMAND -` with the input on stdin. Exit 0: stdout
// (one trailing newline dropped). Exit 2: stderr must be exactly one line
// "speccalc: error: <describe>" (the CLI prints newlines in a message as spaces). Anything else
// (crash, other exit code, extra output) is reported as such and never matches.
export function runNative(bin, command, input) {
  return new Promise((resolve) => {
    // A hung or crashing command must fail the test, not stall it.
    const child = spawn(bin, ['run', command, '-'], {
      stdio: ['pipe', 'pipe', 'pipe'],
      timeout: 30000,
      killSignal: 'SIGKILL',
    });
    const out = [];
    const err = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => err.push(d));
    child.on('error', (e) => resolve(errResult(`<spawn failed: ${e.message}>`)));
    child.on('close', (code, signal) => {
      const stdout = Buffer.concat(out).toString('utf8');
      const stderr = Buffer.concat(err).toString('utf8');
      if (code === 0 && stderr === '') {
        resolve(okResult(stdout.endsWith('\n') ? stdout.slice(0, -1) : stdout));
      } else if (code === 2 && stdout === '' && /^speccalc: error: [^\n]*\n$/.test(stderr)) {
        resolve(errResult(stderr.slice('speccalc: error: '.length, -1)));
      } else {
        resolve(
          errResult(
            `<native exit ${code}${signal ? ' signal ' + signal : ''}; ` +
              `stdout ${JSON.stringify(stdout.slice(0, 200))}; stderr ${JSON.stringify(stderr.slice(0, 200))}>`,
          ),
        );
      }
    });
    child.stdin.on('error', () => {}); // the child may exit before reading everything
    child.stdin.end(input);
  });
}

// Native, many calls in one process: `speccalc batch` reads frames "COMMAND LENGTH\n" + bytes
// and answers "ok|error LENGTH\n" + output (or "field: message", newlines kept). Same core call
// as `run`, without a process start per call. items: [{command, input}].
export function runNativeBatch(bin, items, timeoutMs = 120000) {
  return new Promise((resolve) => {
    const child = spawn(bin, ['batch'], {
      stdio: ['pipe', 'pipe', 'pipe'],
      timeout: timeoutMs,
      killSignal: 'SIGKILL',
    });
    const out = [];
    const err = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => err.push(d));
    child.on('error', () => {}); // reported below as missing results
    child.on('close', (code, signal) => {
      const buf = Buffer.concat(out);
      const results = [];
      let pos = 0;
      while (pos < buf.length && results.length < items.length) {
        const nl = buf.indexOf(10, pos);
        if (nl < 0) break;
        const m = /^(ok|error) (\d+)$/.exec(buf.subarray(pos, nl).toString('utf8'));
        if (!m) break;
        const len = Number(m[2]);
        const body = buf.subarray(nl + 1, nl + 1 + len).toString('utf8');
        results.push(m[1] === 'ok' ? okResult(body) : errResult(body));
        pos = nl + 1 + len;
      }
      const stderr = Buffer.concat(err).toString('utf8').slice(0, 200);
      const problem = `<native batch exit ${code}${signal ? ' signal ' + signal : ''}; stderr ${JSON.stringify(stderr)}>`;
      while (results.length < items.length) results.push(errResult(problem));
      resolve(results);
    });
    child.stdin.on('error', () => {});
    const frames = items.map((k) => {
      const body = Buffer.from(k.input, 'utf8');
      return Buffer.concat([Buffer.from(`${k.command} ${body.length}\n`, 'utf8'), body]);
    });
    child.stdin.end(Buffer.concat(frames));
  });
}
