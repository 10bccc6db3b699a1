import type { Principal } from '../organizations/organizations.access.js';
import { fail } from '../../core/errors.js';
import { hostAllowed } from '../organizations/organizations.origins.js';
import { METADATA_MAX_KEYS, type Metadata, type MetadataValue } from '../common.schemas.js';
import { findPersonalData } from './onboardings.personal-data.js';

const KIND_NAMES = { email: 'an e-mail address', iban: 'an IBAN', bsn: 'a BSN', mobile: 'a Dutch mobile number' } as const;

/** 422 metadata_personal_data for the first value that looks like personal data. */
export function checkMetadataValues(metadata: Record<string, MetadataValue | null>): void {
  for (const [key, value] of Object.entries(metadata)) {
    if (value === null) continue;
    const kind = findPersonalData(value);
    if (kind) {
      throw fail(
        'metadata_personal_data',
        `metadata.${key}: the value looks like ${KIND_NAMES[kind]}; metadata must not hold personal data.`,
        `metadata.${key}`,
      );
    }
  }
}

/** Merge for PATCH: null deletes a key; the result still holds at most 20 keys. */
export function mergeMetadata(current: Metadata, patch: Record<string, MetadataValue | null>): Metadata {
  checkMetadataValues(patch);
  const merged: Metadata = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  const count = Object.keys(merged).length;
  if (count > METADATA_MAX_KEYS) {
    throw fail('parameter_invalid', `metadata: the merged metadata would have ${count} keys; at most ${METADATA_MAX_KEYS} are allowed.`, 'metadata');
  }
  return merged;
}

/**
 * return_url: https, on a domain from allowed_origins of the employer or of the partner.
 * What an entry admits is organizations.origins.ts's rule.
 */
export function checkReturnUrl(raw: string, p: Principal): void {
  const allowed = [...p.organization.allowed_origins, ...(p.partner?.allowed_origins ?? [])];
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw fail('return_url_not_allowed', 'options.return_url: not a valid URL.', 'options.return_url');
  }
  if (url.protocol !== 'https:') {
    throw fail('return_url_not_allowed', 'options.return_url: must use https.', 'options.return_url');
  }
  if (url.username || url.password) {
    throw fail('return_url_not_allowed', 'options.return_url: must not carry credentials.', 'options.return_url');
  }
  // The URL parser keeps `*` in a host; a wildcard is a rule of allowed_origins, never a place to return to.
  if (!/^([a-z0-9_-]+\.)*[a-z0-9_-]+\.?$|^\[[0-9a-f:.]+\]$/.test(url.hostname)) {
    throw fail('return_url_not_allowed', `options.return_url: ${url.hostname} is not a host name (a wildcard belongs in allowed_origins, never in a URL).`, 'options.return_url');
  }
  if (!hostAllowed(url.hostname, allowed)) {
    throw fail(
      'return_url_not_allowed',
      `options.return_url: ${url.hostname} is not in allowed_origins (${allowed.join(', ') || 'none set'}).`,
      'options.return_url',
    );
  }
}

