import type { Organization } from './organizations.model.js';

/** The public Organization: copies, so a caller's change never reaches the store. */

export function renderOrganization(org: Organization) {
  return {
    id: org.id,
    name: org.name,
    locations: org.locations.map((l) => ({ ...l })),
    templates: org.templates.map(({ id, name, contract_type, cao }) => ({ id, name, contract_type, cao })),
    branding: { ...org.branding },
    allowed_origins: [...org.allowed_origins],
  };
}
