import { describe, expect, it } from 'vitest';
import { html, jsonForScript, trusted } from '../../src/pages/html.js';

describe('html templates', () => {
  it('escapes every value, nested templates and trusted markup excepted', () => {
    const name = '<img src=x onerror=alert(1)>';
    const page = html`<p title="${name}">${name}</p>${html`<b>${"O'Brien & co"}</b>`}${trusted('<hr>')}`;
    expect(page.text).toBe('<p title="&lt;img src=x onerror=alert(1)&gt;">&lt;img src=x onerror=alert(1)&gt;</p><b>O&#39;Brien &amp; co</b><hr>');
  });

  it('renders lists, numbers and leaves out null, undefined and false', () => {
    expect(html`<ul>${['<a>', 'b'].map((x) => html`<li>${x}</li>`)}</ul>${null}${undefined}${false}${0}`.text).toBe('<ul><li>&lt;a&gt;</li><li>b</li></ul>0');
  });

  it('keeps JSON for a script block from closing the element', () => {
    expect(jsonForScript({ a: '</script><script>alert(1)</script>' }).text).not.toContain('</script>');
  });
});
