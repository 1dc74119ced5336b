// Engine settings (the core's `export` output, or `size`'s export of the best choice) as
// copy-ready blocks: flag objects as a command-line fragment, the rest as JSON.
import { el } from '../dom.mjs';

function shellWord(v) {
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`;
}

export function exportText(settings) {
  const entries = Object.entries(settings).filter(([k]) => k !== 'note' && k !== 'notes');
  if (entries.length && entries.every(([k]) => k.startsWith('--')))
    // A switch (store_true flag) comes as true: the flag alone.
    return entries.map(([k, v]) => (v === true ? k : `${k} ${shellWord(v)}`)).join(' \\\n  ');
  return JSON.stringify(Object.fromEntries(entries), null, 1)
    .replace(/\[\s+([\d\s,]+?)\s+\]/g, (m, inner) => `[${inner.replace(/\s+/g, '')}]`)
    .replace(/\[\s+((?:\[[\d,]*\],?\s*)+)\]/g, (m, inner) => `[${inner.replace(/\s+/g, '')}]`);
}

const ENGINE_TITLES = {
  lookahead_decoding: 'Lookahead decoding reference code',
  eagle: 'EAGLE reference code (EaModel.from_pretrained)',
  sglang: 'SGLang server flags',
  vllm: 'vLLM',
  tensorrt_llm: 'TensorRT-LLM',
  hf_transformers: 'Hugging Face transformers generate()',
  medusa: 'Medusa reference code',
  hydra: 'Hydra reference code',
  llama_server: 'llama-server flags (llama.cpp)',
  lm_studio: 'LM Studio REST request fields',
  lm_studio_sdk: 'LM Studio SDK prediction config (experimental fields)',
  mlx_lm: 'mlx_lm.generate / mlx_lm.server flags',
};

// Blocks in the core's `order` (the engine the config prices first); `priced` names that one.
export function engineBlocks(exp, testid) {
  const wrap = el('div', { class: 'engine-exports', 'data-testid': testid });
  for (const engine of exp.order || []) {
    const settings = exp[engine];
    const title = ENGINE_TITLES[engine] || engine;
    const text = exportText(settings);
    const code = el('code', { text });
    const copy = el('button', {
      type: 'button',
      text: 'Copy',
      'aria-label': `Copy the ${title} settings`,
      onclick: async () => {
        try {
          await navigator.clipboard.writeText(text);
          copy.textContent = 'Copied';
        } catch {
          // No clipboard permission: select the text so Ctrl+C copies it.
          const range = document.createRange();
          range.selectNodeContents(code);
          getSelection().removeAllRanges();
          getSelection().addRange(range);
          copy.textContent = 'Selected: press Ctrl+C';
        }
        setTimeout(() => {
          copy.textContent = 'Copy';
        }, 2000);
      },
    });
    wrap.append(
      el(
        'div',
        { class: 'engine', 'data-engine': engine },
        el(
          'div',
          { class: 'engine-head' },
          el(
            'h4',
            { text: title },
            engine === exp.priced
              ? el('span', { class: 'badge', 'data-priced': '', text: 'the engine priced' })
              : null,
          ),
          copy,
        ),
        el('pre', { tabindex: '0', 'aria-label': `${title} settings` }, code),
        typeof settings.note === 'string' ? el('p', { class: 'hint', text: settings.note }) : null,
      ),
    );
  }
  for (const n of exp.notes || []) wrap.append(el('p', { class: 'hint', text: n }));
  return wrap;
}
