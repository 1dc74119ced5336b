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
    const e = new Error(
      `the link is ${fragment.length} characters; the limit is ${MAX_FRAGMENT_CHARS}`,
    );
    e.field = '';
    throw e;
  }
  return callJson('decode-link', `#${fragment}`);
}

export async function encodeConfig(config) {
  const link = await callText('link', config);
  return link.startsWith('#') ? link.slice(1) : link;
}

// Each edit pushes one history entry (the controller debounces typing into one edit), so Back
// and Forward step through edits; opening a link or the first load replaces. Neither fires
// hashchange, so the page only reacts to fragments it did not write itself (and to popstate).
export function writeFragment(fragment, { push = false } = {}) {
  if (currentFragment() === fragment) return;
  if (push) history.pushState(null, '', `#${fragment}`);
  else history.replaceState(null, '', `#${fragment}`);
}

// A comparison holds two scenarios in one link: the one being edited, then "&compare&" and the
// other's own v=1 link (each half is a link the core reads alone; a v=1 link never contains
// "&compare&", since every key has a value). Old one-scenario links are unchanged.
const COMPARE = '&compare&';

export function splitFragment(fragment) {
  const i = fragment.indexOf(COMPARE);
  return i < 0
    ? { main: fragment, other: null }
    : { main: fragment.slice(0, i), other: fragment.slice(i + COMPARE.length) };
}

export function joinFragment(main, other) {
  return other ? `${main}${COMPARE}${other}` : main;
}

export function shareUrl() {
  return location.href;
}
