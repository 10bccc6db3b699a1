/**
 * What a request most likely meant, for the requests that matched nothing: the route or key
 * nearest to what was sent, by edit distance, when it is near enough to be a slip.
 */

/** Levenshtein distance: insertions, deletions and substitutions, one each. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** Longer than this, what was sent is no slip of a route or a key: nothing is compared (the work is length squared). */
const LONGEST = 200;

/**
 * The candidate nearest `given`, when at most a third of it differs (and never an exact match:
 * that would have matched). A candidate whose length alone differs by more is not compared.
 */
export function nearest(given: string, candidates: Iterable<string>, shown: (candidate: string) => string = (c) => c): string | null {
  if (given.length > LONGEST) return null;
  const allowed = Math.max(2, Math.floor(given.length / 3));
  let best: { text: string; distance: number } | null = null;
  for (const candidate of candidates) {
    const text = shown(candidate);
    if (Math.abs(text.length - given.length) > allowed) continue;
    const distance = editDistance(given, text);
    if (best === null || distance < best.distance) best = { text: candidate, distance };
  }
  return best !== null && best.distance > 0 && best.distance <= allowed ? best.text : null;
}

/**
 * A route template as the given path would fill it: `/v1/onboardings/{id}` against
 * `/v1/onbordings/onb_1` reads `/v1/onboardings/onb_1`, so only the fixed segments count.
 */
export function filledTemplate(template: string, path: string): string {
  const given = path.split('/');
  return template.split('/').map((segment, i) => (segment.startsWith('{') ? (given[i] ?? segment) : segment)).join('/');
}

/**
 * The names other tools give a readiness or liveness probe (Kubernetes' /healthz and /readyz,
 * a load balancer's /ping): a request to one of them, at the root or under /_emulator, meant
 * the emulator's one health route. One list, so every such guess gets the same answer.
 */
const PROBE_NAMES = new Set(['health', 'healthz', 'healthcheck', 'ready', 'readyz', 'readiness', 'live', 'livez', 'liveness', 'alive', 'status', 'ping']);

/** The health route, when the path is a readiness or liveness probe by another name. */
export function probeAlias(path: string): string | null {
  const match = /^\/(?:_emulator\/)?([a-z]+)\/?$/i.exec(path);
  return match !== null && PROBE_NAMES.has(match[1]!.toLowerCase()) ? '/_emulator/health' : null;
}
