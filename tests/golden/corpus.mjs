// The golden corpus on disk: case lists (cases/*.json, cli.json) and one expected file per
// case and command (expected/<group>/<name>.<command>.txt). Used by scripts/golden.mjs, which
// checks (npm test) and regenerates (--update) them; see README.md in this folder.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const goldenDir = path.dirname(fileURLToPath(import.meta.url));
export const testsDir = path.resolve(goldenDir, '..');
const casesDir = path.join(goldenDir, 'cases');
export const expectedDir = path.join(goldenDir, 'expected');

const NAME = /^[a-z0-9][a-z0-9._-]*$/;

// Every core case: {id, group, name, command, input, file}. A case names one `command` or a
// list of `commands` run on the same input. `input` is the text itself when it is a string and
// JSON.stringify of it otherwise (both builds read the same text, so JS formatting is fine);
// `input_file` reads the text from a file under tests/ (the parity corpus, shared).
export function loadCases() {
  const out = [];
  const seen = new Set();
  for (const f of fs
    .readdirSync(casesDir)
    .filter((x) => x.endsWith('.json'))
    .sort()) {
    const group = f.slice(0, -'.json'.length);
    const doc = JSON.parse(fs.readFileSync(path.join(casesDir, f), 'utf8'));
    if (!Array.isArray(doc.cases)) throw new Error(`cases/${f}: needs a "cases" list`);
    for (const c of doc.cases) {
      const where = `cases/${f} case ${JSON.stringify(c.name)}`;
      if (typeof c.name !== 'string' || !NAME.test(c.name)) throw new Error(`${where}: bad name`);
      const commands = c.commands ?? [c.command];
      if (!commands.every((x) => typeof x === 'string' && x.length > 0)) {
        throw new Error(`${where}: needs "command" or "commands"`);
      }
      let input;
      if (c.input_file !== undefined)
        input = fs.readFileSync(path.join(testsDir, c.input_file), 'utf8');
      else if (typeof c.input === 'string') input = c.input;
      else if (c.input !== undefined) input = JSON.stringify(c.input);
      else throw new Error(`${where}: needs "input" or "input_file"`);
      for (const command of commands) {
        const id = `${group}/${c.name}.${command}`;
        if (seen.has(id)) throw new Error(`${where}: duplicate case ${id}`);
        seen.add(id);
        out.push({
          id,
          group,
          name: c.name,
          command,
          input,
          file: path.join(expectedDir, `${id}.txt`),
        });
      }
    }
  }
  return out;
}

// CLI cases (native only): {id, name, args, stdin, file}; they pin argument handling and --help.
export function loadCliCases() {
  const doc = JSON.parse(fs.readFileSync(path.join(goldenDir, 'cli.json'), 'utf8'));
  return doc.cases.map((c) => {
    if (!NAME.test(c.name) || !Array.isArray(c.args))
      throw new Error(`cli.json: bad case ${c.name}`);
    const id = `cli/${c.name}`;
    return {
      id,
      name: c.name,
      args: c.args,
      stdin: c.stdin ?? '',
      file: path.join(expectedDir, `${id}.txt`),
    };
  });
}

// Every expected file on disk, so files no case produces can be reported (and removed by --update).
export function expectedFiles() {
  const files = [];
  const walk = (dir) => {
    if (!fs.existsSync(dir)) return;
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else files.push(p);
    }
  };
  walk(expectedDir);
  return files;
}

// ---- expected-file format -------------------------------------------------------------------
// First line "ok json", "ok text" or "error"; the rest is the output (or "field: message").
// "ok json" bodies are the core's compact JSON with line breaks and indentation added between
// tokens only, so a change shows in `git diff` as the lines that changed; removing whitespace
// outside strings gives back the exact bytes the core printed, which is what is compared.

// Indents compact JSON without touching a token (numbers keep the core's spelling).
export function prettyJson(text) {
  let out = '';
  let depth = 0;
  let inString = false;
  const newline = () => '\n' + '  '.repeat(depth);
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      out += ch;
      if (ch === '\\') out += text[++i];
      else if (ch === '"') inString = false;
    } else if (ch === '"') {
      inString = true;
      out += ch;
    } else if (ch === '{' || ch === '[') {
      const close = ch === '{' ? '}' : ']';
      if (text[i + 1] === close) {
        out += ch + close;
        i++;
      } else {
        depth++;
        out += ch + newline();
      }
    } else if (ch === '}' || ch === ']') {
      depth--;
      out += newline() + ch;
    } else if (ch === ',') {
      out += ',' + newline();
    } else if (ch === ':') {
      out += ': ';
    } else {
      out += ch;
    }
  }
  return out;
}

// Drops whitespace outside strings: the inverse of prettyJson on compact input.
export function compactJson(text) {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      out += ch;
      if (ch === '\\') out += text[++i];
      else if (ch === '"') inString = false;
    } else if (ch === '"') {
      inString = true;
      out += ch;
    } else if (ch !== ' ' && ch !== '\n' && ch !== '\t' && ch !== '\r') {
      out += ch;
    }
  }
  return out;
}

// True for an object or array printed without whitespace between tokens (nlohmann's dump()).
function isCompactJson(text) {
  if (!/^[[{]/.test(text)) return false;
  try {
    JSON.parse(text);
  } catch {
    return false;
  }
  return compactJson(text) === text;
}

export function encodeResult(r) {
  if (!r.ok) return `error\n${r.text}`;
  if (isCompactJson(r.text)) return `ok json\n${prettyJson(r.text)}\n`;
  return `ok text\n${r.text}`;
}

export function decodeResult(fileText) {
  const nl = fileText.indexOf('\n');
  const head = nl < 0 ? fileText : fileText.slice(0, nl);
  const body = nl < 0 ? '' : fileText.slice(nl + 1);
  if (head === 'ok json') return { ok: true, text: compactJson(body) };
  if (head === 'ok text') return { ok: true, text: body };
  if (head === 'error') return { ok: false, text: body };
  throw new Error(`unknown header '${head.slice(0, 40)}'`);
}

// The readable form of a result, for diffs: what the expected file would hold.
export const readable = (r) => encodeResult(r);

// CLI results: exit code, stdout and stderr, each part verbatim.
export function encodeCli(r) {
  return `exit ${r.code}\n--- stdout\n${r.stdout}--- stderr\n${r.stderr}`;
}
