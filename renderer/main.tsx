// Entry of the renderer: connect to the engine (Electron bridge or web host), create the store, render.
import { createRoot } from 'react-dom/client';
import { connectApi } from './api/connect';
import { App } from './app/App';
import { hashFromRoute, routeFromHash } from './app/route-hash';
import { connectEvents, createStudioStore } from './store/store';
import { StudioProvider } from './store/react';
import type { Theme } from './store/app-slice';
import { makeCommands } from './app/commands';
import './styles/base.css';
import './styles/layout.css';
import './styles/components.css';
import './styles/views-inspect.css';
import './styles/views-curate.css';
import './styles/views-story.css';

const THEME_KEY = 'lots-theme';
const saved = localStorage.getItem(THEME_KEY);
const theme: Theme = saved === 'dark' || saved === 'light' ? saved : window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
document.documentElement.dataset.theme = theme;

const api = connectApi();
const store = createStudioStore(api, { route: routeFromHash(window.location.hash), theme, devtools: import.meta.env.DEV });

// The URL hash follows the route (reload returns to the same view), the theme is remembered.
store.subscribe((s, prev) => {
  if (s.route !== prev.route) {
    const hash = hashFromRoute(s.route);
    if (hash !== window.location.hash) history.replaceState(null, '', hash);
  }
  if (s.theme !== prev.theme) localStorage.setItem(THEME_KEY, s.theme);
});
window.addEventListener('hashchange', () => store.setState({ route: routeFromHash(window.location.hash) }));

// Native menu commands go through the same commands as the page's buttons.
const menuCommands = makeCommands(api, store, {
  promptPath: () => store.getState().navigate({ view: 'home' }),
  pickTraceFiles: () => document.querySelector<HTMLInputElement>('[data-testid="trace-file-input"]')?.click(),
  focusSearch: () => requestAnimationFrame(() => document.getElementById('heatmap-search')?.focus()),
});
connectEvents(api, store, (command) => menuCommands.run(command));
void store.getState().boot();

createRoot(document.getElementById('root')!).render(
  <StudioProvider store={store} api={api}>
    <App />
  </StudioProvider>,
);
