// "From an engine's metrics": a measured vLLM or SGLang acceptance metric becomes the α that
// gives it on the draft being evaluated. The core does both steps: `eval-tree` names the draft
// (chain or tree) and `convert` turns the metric into every other one (docs/tree-model.md).
import { $ } from '../dom.mjs';
import { callJson, describeError } from '../api.mjs';
import * as fmt from '../format.mjs';

// "0.6" -> 0.6, "0.8, 0.6" -> [0.8, 0.6]; other text goes to the core as is, which says why.
function valueOf(text) {
  const parts = text.split(/[\s,;]+/).filter(Boolean);
  const nums = parts.map(Number);
  if (!parts.length || nums.some((x) => !Number.isFinite(x))) return text;
  return nums.length === 1 && !text.includes(',') ? nums[0] : nums;
}

// One press of "Convert and use" (the controller loads this module on the first press).
export async function convertAndUse(root, { current, apply }) {
  const out = $('#c-out', root);
  const config = current();
  if (!config) return;
  try {
    const tree = await callJson('eval-tree', config);
    const metric = $('#c-metric', root).value;
    const conv = await callJson('convert', {
      choices: tree.choices,
      [metric]: valueOf($('#c-value', root).value),
    });
    out.className = 'hint';
    out.textContent = `τ ${fmt.tau(conv.tau)} on this draft (${tree.nodes} nodes): α ${fmt.plain(conv.alpha)}, applied.`;
    out.dataset.alpha = String(conv.alpha);
    await apply({ ...config, acceptance: { alpha: conv.alpha } });
  } catch (e) {
    out.className = 'field-error';
    out.textContent = describeError(e);
  }
}
