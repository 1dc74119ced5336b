// Light and dark themes: follows prefers-color-scheme until the user picks one with the toggle;
// the choice is remembered in localStorage (not in the share link: it is not part of the model).
const KEY = 'speccalc-theme';

function systemTheme() {
  return matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

function stored() {
  try {
    const v = localStorage.getItem(KEY);
    return v === 'dark' || v === 'light' ? v : null;
  } catch {
    return null;
  }
}

export function initTheme(button) {
  const apply = (theme) => {
    document.documentElement.dataset.theme = theme;
    button.setAttribute('aria-pressed', String(theme === 'dark'));
    document.dispatchEvent(new CustomEvent('themechange'));
  };
  apply(stored() || systemTheme());
  button.addEventListener('click', () => {
    const next = document.documentElement.dataset.theme === 'dark' ? 'light' : 'dark';
    try {
      localStorage.setItem(KEY, next);
    } catch {
      /* private mode: still switch */
    }
    apply(next);
  });
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => {
    if (!stored()) apply(systemTheme());
  });
}
