/**
 * The review pages' policy: only the emulator's own script and style files (no inline script,
 * so injected markup could not run even if it got through the escaping), forms post back to
 * the emulator only, and framing is limited to `ancestors`.
 */
export function reviewPolicy(ancestors: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    `frame-ancestors ${ancestors}`,
  ].join('; ');
}
