/**
 * What the page does to live under the server's strict Content Security Policy (no inline
 * scripts or styles, no eval; docs/architecture.md, "The request path"). Imported first by main.tsx, before any
 * other module runs:
 * - zod is told not to compile parsers with `new Function` (nor to probe whether it may: the
 *   probe alone is reported as a violation);
 * - the `<style>` elements Radix's scroll lock adds (react-style-singleton) carry the nonce the
 *   server put in index.html for this page load (`<meta property="csp-nonce" nonce>`; browsers
 *   hide the attribute, the property keeps it).
 */
import { setNonce } from 'get-nonce';

// zod keeps its one global config on `globalThis.__zod_globalConfig` (zod/v4/core/core.js), shared
// by every copy and created by whichever comes first. Setting it here, rather than calling
// `config()` from 'zod/v4/core', keeps zod out of the first page: that import alone brought
// zod's whole util module (3 KB Brotli). csp.test.ts checks that zod reads it.
type ZodGlobal = { __zod_globalConfig?: { jitless?: boolean } };
const zodGlobal = globalThis as ZodGlobal;
zodGlobal.__zod_globalConfig ??= {};
zodGlobal.__zod_globalConfig.jitless = true;

const meta = typeof document === 'undefined' ? null : document.querySelector('meta[property="csp-nonce"]');
const nonce = meta !== null && meta instanceof HTMLMetaElement ? meta.nonce : '';
// The placeholder stays only where no server fills it in (Vite's dev server): no nonce then.
if (nonce && nonce !== '__CSP_NONCE__') setNonce(nonce);
