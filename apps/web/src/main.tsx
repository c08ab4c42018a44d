// First: it configures zod and the style nonce before any other module runs.
import './lib/csp';
import { hydrate } from '@tanstack/react-query';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App, loadPageData } from './app';
import { pinClock, RenderTime } from './components/relative-time';
import './index.css';
import { chooseLanguage, isLanguage } from '@cubes/api/languages';
import { activateLanguage } from './lib/i18n';
import { inertWhileHidden } from './lib/inert-hidden';
import { loadParts } from './lib/lazy-part';
import { RENDERED_STATE_ID, type RenderedState, renderedJson } from './lib/rendered-state';
import { createQueryClient } from './lib/trpc';
import { registerServiceWorker } from './pwa/register-sw';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// The text face (preloaded by index.html, build/preload-font.ts) is loaded now, not at the first
// layout that uses it: that layout would paint the fallback face and re-wrap the hero's heading
// when Inter arrived, a layout shift. The first render takes longer than the load.
void document.fonts?.load('1em "Inter Variable"');

// The landing page's chunk is asked for now, beside the first render (its data once the app's
// query cache exists: PageData in app.tsx). The render reaches the router only after several
// slices, and on a slow phone the chunk was asked for only then (bench/README.md, "Lighthouse
// (bench:web)").
const pageCode = loadPageData(null, window.location.pathname);

// Before anything renders: what a modal layer hides from screen readers cannot take focus either.
inertWhileHidden();

// The first render is a transition, so React renders it in slices and the main thread is free
// between them (one task of 0.6–1.0 s on a 4×-slowed phone before; Lighthouse counts it as
// blocking time): bench/README.md, "Lighthouse (bench:web)".
//
// A page the server rendered (entry-server.tsx) carries the query cache it was rendered from: the
// app starts from it and hydrates the HTML, asking the API for nothing it has. Only for the page it
// was rendered for: any other is rendered afresh.
const text = document.getElementById(RENDERED_STATE_ID)?.textContent;
const rendered = text ? renderedJson.parse<RenderedState>(text) : null;

// The page's language, its catalog loaded before the first render: the one the server rendered
// the page in (`<html lang>`), else the same rule's choice here (@cubes/api/languages). A
// `.then`, not a top-level await: with one, Rolldown split the entry into many more chunks, and
// the first page grew by 18 KB.
//
// A page rendered on the server hydrates once its code is in as well: the page's chunk, then the
// lazy parts it drew (lib/lazy-part.ts), so that it hydrates in one pass and no press is lost on a
// part still waiting for its code.
const served = document.documentElement.lang;
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
void Promise.all([
  activateLanguage(
    rendered && isLanguage(served)
      ? served
      : chooseLanguage({
          query: new URLSearchParams(window.location.search).get('lang'),
          cookies: document.cookie,
          accepted: navigator.languages,
        }),
  ),
  // In a task of its own: asking for a part's module (Vite's preload helper looks up each of its
  // chunks among the page's links, and adds one for each it lacks) took 10–30 ms of a fast
  // machine's main thread, beside the entry's own evaluation in one task.
  rendered && pageCode.then(nextTask).then(() => loadParts(rendered.parts)),
]).then(() =>
  startTransition(() => {
    if (rendered && rendered.url === window.location.pathname + window.location.search) {
      const queryClient = createQueryClient();
      hydrate(queryClient, rendered.queries);
      pinClock(rendered.renderedAt);
      hydrateRoot(
        root,
        <StrictMode>
          <RenderTime value={rendered.renderedAt} hydrating>
            <App rendered={{ queryClient, url: rendered.url, shell: rendered.shell }} />
          </RenderTime>
        </StrictMode>,
        {
          // A hydration mismatch (#418) that React recovered from: the production build's message
          // names no component, so the component stack goes with it to the console.
          onRecoverableError: (error, { componentStack }) => console.error(error, componentStack),
        },
      );
    } else {
      root.replaceChildren();
      createRoot(root).render(
        <StrictMode>
          <App />
        </StrictMode>,
      );
    }
    // The app has started. On a page the server rendered, a click from here on is React's: it
    // hydrates the part clicked at once and replays the click there; one before was the HTML's
    // alone. (The e2e tests wait for this mark before they act on such a page: helpers.ts, appStarted.)
    document.documentElement.dataset.app = 'started';
  }),
);

registerServiceWorker();
