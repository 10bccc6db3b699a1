/**
 * Auto-escaping HTML templates for the pages a person opens. Every value put into an `html`
 * template is escaped unless it is itself the result of one (or of `trusted`), so data can
 * never become markup: there is no way to concatenate a string into a page unescaped.
 */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

type Value = Html | string | number | boolean | null | undefined | readonly Value[];

function render(value: Value): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

/** `html\`<p>${name}</p>\``: the template's own text is markup, every value is escaped. */
export function html(strings: TemplateStringsArray, ...values: Value[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]!) + strings[i + 1]!;
  return new Html(out);
}

/** Markup the emulator wrote itself (a constant), never data. */
export const trusted = (markup: string): Html => new Html(markup);

/** A JSON value for a <script type="application/json"> block: `<` cannot close the element. */
export const jsonForScript = (value: unknown): Html => new Html(JSON.stringify(value).replace(/</g, '\\u003c'));
