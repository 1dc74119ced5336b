// The URL fragment holds the whole state. The core owns the codec: "link" turns a config into
// the fragment, "decode-link" turns a fragment back into the normalized config (or an error that
// says why an old or hostile link cannot be opened).
import { callJson, callText } from './api.mjs';

// Links longer than the core accepts are refused by the core itself; this is only a guard so a
// huge fragment is not copied around the page before the core sees it.
const MAX_FRAGMENT_CHARS = 1 << 20;

export function currentFragment() {
  return location.hash.startsWith('#') ? location.hash.slice(1) : location.hash;
}

export async function decodeFragment(fragment) {
  if (fragment.length > MAX_FRAGMENT_CHARS) {
    const e = new Error(`the link is ${fragment.length} characters; the limit is ${MAX_FRAGMENT_CHARS}`);
    e.field = '';
    throw e;
  }
  return callJson('decode-link', `#${fragment}`);
}

export async function encodeConfig(config) {
  const link = await callText('link', config);
  return link.startsWith('#') ? link.slice(1) : link;
}

// Replace (not push) so editing a field does not fill the history; replaceState fires no
// hashchange, so the page only reacts to fragments it did not write itself.
export function writeFragment(fragment) {
  if (currentFragment() === fragment) return;
  history.replaceState(null, '', `#${fragment}`);
}

export function shareUrl() {
  return location.href;
}
