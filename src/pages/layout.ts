import { createHash } from 'node:crypto';
import { accentInks } from './contrast.js';
import { html, trusted, type Html } from './html.js';

/**
 * The page shell for the server-rendered pages: the document, its one style block and a strict
 * Content-Security-Policy. No script at all; the style is admitted by its SHA-256 hash, so no
 * file has to be served for it and no injected markup could bring its own style or script.
 */
const BASE_CSS = `
:root{--accent:#1f4e79;--on-accent:#fff;--accent-ink:#1f4e79;--ink:#1b1b1b;--muted:#555;--error:#b00020;--line:#c8c8c8}
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);background:#f6f6f4}
header.brand{background:var(--accent);color:var(--on-accent);padding:.75rem 1.25rem}
header.brand p{margin:0;font-weight:600;font-size:1.1rem}
main{max-width:40rem;margin:1.5rem auto;padding:1.5rem;background:#fff;border:1px solid var(--line);border-radius:6px}
h1{font-size:1.5rem;margin-top:0}
label{display:block;font-weight:600;margin-top:1rem}
.hint{display:block;font-weight:400;color:var(--muted);font-size:.9rem}
input[type=text],input[type=date],input[type=file],input:not([type]){display:block;width:100%;max-width:24rem;padding:.45rem;font:inherit;border:1px solid #767676;border-radius:3px}
input[aria-invalid=true]{border:2px solid var(--error)}
fieldset{border:1px solid var(--line);border-radius:4px;margin:1rem 0;padding:.25rem 1rem 1rem}
legend{font-weight:700;padding:0 .25rem}
button{margin-top:1.25rem;padding:.6rem 1.2rem;font:inherit;font-weight:600;color:var(--on-accent);background:var(--accent);border:0;border-radius:4px;cursor:pointer}
button.secondary{background:#fff;color:var(--accent-ink);border:2px solid var(--accent-ink)}
button:focus-visible,input:focus-visible,a:focus-visible{outline:3px solid #0b0c0c;outline-offset:2px;box-shadow:0 0 0 8px #ffdd00}
.field-error{color:var(--error);font-weight:600;margin:.25rem 0 0}
.error-summary{border:3px solid var(--error);padding:.75rem 1rem;margin-bottom:1rem}
.error-summary h2{margin:0 0 .5rem;font-size:1.1rem}
.error-summary a{color:var(--error)}
.notice{padding:.75rem 1rem;border-left:5px solid var(--accent);background:#eef3f7}
.notice.error{border-color:var(--error);background:#fdecee}
.note{color:var(--muted);font-size:.9rem}
footer{max-width:40rem;margin:0 auto 2rem;padding:0 1.5rem;color:var(--muted);font-size:.85rem}
`;

/** A colour from settings, only as #rgb or #rrggbb: anything else could end the declaration. */
const COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

export interface PageShell {
  title: string;
  body: Html;
  /** The organization the page speaks for, shown in a header in its colour. */
  brand?: { name: string; color: string | null } | undefined;
  footer?: Html | undefined;
}

export interface PagePolicy {
  /** Sources allowed to frame the page; default `'none'`. */
  frameAncestors?: string | undefined;
  /** Where forms may post and redirect to besides the emulator ('self'): a return_url's origin. */
  formAction?: readonly string[] | undefined;
}

const styles = new Map<string, { css: string; hash: string }>();

function styleFor(color: string | null | undefined): { css: string; hash: string } {
  const accent = color && COLOR.test(color) ? color : '';
  let style = styles.get(accent);
  if (!style) {
    // The text on the brand colour, and the brand colour as text, chosen by luminance: any colour stays readable.
    const inks = accent ? accentInks(accent) : undefined;
    const css = inks ? `${BASE_CSS}:root{--accent:${accent};--on-accent:${inks.onAccent};--accent-ink:${inks.accentInk}}\n` : BASE_CSS;
    style = { css, hash: createHash('sha256').update(css).digest('base64') };
    styles.set(accent, style);
  }
  return style;
}

/** Origins only (`https://host:port`), so a setting can never add a directive. */
const ORIGIN = /^https?:\/\/[a-z0-9.-]+(?::\d+)?$/i;

function contentSecurityPolicy(styleHash: string, policy: PagePolicy = {}): string {
  const formAction = ["'self'", ...(policy.formAction ?? []).filter((o) => ORIGIN.test(o))];
  return [
    "default-src 'none'",
    `style-src 'sha256-${styleHash}'`,
    "img-src 'self'",
    "base-uri 'none'",
    `form-action ${formAction.join(' ')}`,
    `frame-ancestors ${policy.frameAncestors ?? "'none'"}`,
  ].join('; ');
}

/**
 * The policy of what the page paths serve besides pages (embed.js, the review's script and
 * style, the contract PDF, redirects): nothing may load, frame it or be posted from it; the
 * contract PDF may be framed where its link's pages may. A script or style sheet is governed by
 * the policy of the page that includes it, so this one only counts when the file is opened by
 * itself; Chromium's PDF viewer shows the PDF under it.
 */
export const resourcePolicy = (frameAncestors = "'none'"): string =>
  ["default-src 'none'", "base-uri 'none'", "form-action 'none'", `frame-ancestors ${frameAncestors}`].join('; ');
export const RESOURCE_POLICY = resourcePolicy();

/** The whole document and the policy to send with it. */
export function renderPage(shell: PageShell, policy: PagePolicy = {}): { html: string; csp: string } {
  const style = styleFor(shell.brand?.color);
  const header = shell.brand ? html`<header class="brand"><p>${shell.brand.name}</p></header>` : '';
  const footer = shell.footer ? html`<footer>${shell.footer}</footer>` : '';
  const doc = html`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="referrer" content="no-referrer"><title>${shell.title}</title><style>${trusted(style.css)}</style></head><body>${header}<main>${shell.body}</main>${footer}</body></html>`;
  return { html: doc.text, csp: contentSecurityPolicy(style.hash, policy) };
}

/** Headers for every page: the policy, no caching (tokens are in URLs), no Referer, no sniffing. */
export function pageHeaders(csp: string): Record<string, string> {
  return {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': csp,
    'Cache-Control': 'no-store',
    'Referrer-Policy': 'no-referrer',
    'X-Content-Type-Options': 'nosniff',
  };
}
