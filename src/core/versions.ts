/** Dated API versions (spec section Versioning). */
export const API_VERSIONS = ['2026-10-01'] as const;
export const CURRENT_API_VERSION: string = API_VERSIONS[API_VERSIONS.length - 1]!;

export function isKnownVersion(v: string): boolean {
  return (API_VERSIONS as readonly string[]).includes(v);
}
