import { fail } from '../core/errors.js';
import { createIds } from '../core/ids.js';
import { createRandom } from '../core/random.js';
import type { Static } from '../core/schema.js';
import type { Workspace } from '../core/workspace.js';
import type { UrlPolicy } from '../delivery/address-policy.js';
import { isSessionUrl, sessionUrl, type RelayHub } from '../delivery/relay.js';
import { dashboardPrincipal } from '../resources/organizations/organizations.access.js';
import type { Environment, Organization } from '../resources/organizations/organizations.model.js';
import { createWebhook, deleteWebhook } from '../resources/webhooks/webhooks.service.js';
import type { OpenRelayBody } from './relay.schemas.js';

/**
 * A session address's id and secret come from the OS, never the workspace's seeded source: a
 * test run with `listen` beside it gets the same seeded ids as one without.
 */
const SESSION_IDS = createIds(createRandom());

/**
 * Opening a relay, with its session address where one is asked for: like `stripe listen
 * --forward-to`, a relay with no address to take registers one for its own session, answers its
 * secret to the opener alone, and removes it however the relay ends. Either both are made or
 * neither (a refused address closes the relay again).
 */
export function openRelay(ws: Workspace, hub: RelayHub, body: Static<typeof OpenRelayBody>) {
  const policy: UrlPolicy | undefined = ws.delivery?.urlPolicy;
  const owner = body.session_address ? ownerOf(ws, body.session_address.organization_id) : null;
  const environment: Environment = body.session_address?.environment ?? 'test';
  removeLeftOverSessions(ws, hub);
  const prefix = body.url_prefix ?? null;
  const addresses = ws.store.webhooks.values().filter((w) => !isSessionUrl(w.url));
  const taken = addresses.filter((w) => prefix === null || w.url.startsWith(prefix));
  const { token, ...relay } = hub.open(ws.id, body, policy);
  let session = null;
  // Without forward_to there is nowhere to post a session address's messages: the relay says so and makes none.
  if (owner && taken.length === 0 && relay.forward_to !== null) {
    let made;
    try {
      made = createWebhook(ws, dashboardPrincipal(owner, environment), {
        url: sessionUrl(relay.id), description: `listen session of relay ${relay.id}, removed when it ends`,
      }, SESSION_IDS);
    } catch (err) {
      hub.close(ws.id, relay.id, token);
      throw err;
    }
    hub.attachSession(relay.id, { id: made.id, url: made.url, remove: () => removeAddress(ws, made.id) });
    session = { id: made.id, url: made.url, secret: made.secret, organization_id: made.organization_id, environment: made.environment };
  }
  return {
    ...relay,
    token,
    session_address_id: session?.id ?? null,
    session_address: session,
    workspace_addresses: addresses.length,
    taken_addresses: taken.map((w) => ({ id: w.id, url: w.url, status: w.status, events: [...w.events] })),
  };
}

/** The session address's organization: the one named, else the workspace's first employer. */
function ownerOf(ws: Workspace, id: string | undefined): Organization {
  const orgs = ws.store.organizations.values();
  const org = id === undefined ? orgs.find((o) => o.kind === 'employer') ?? orgs[0] : orgs.find((o) => o.id === id);
  if (!org) {
    throw id === undefined
      ? fail('parameter_invalid', 'This workspace has no organization to own a session address.', 'session_address')
      : fail('parameter_invalid', `session_address.organization_id: no organization ${id} in this workspace.`, 'session_address.organization_id');
  }
  return org;
}

/** A session address whose relay is gone (a relay killed before the emulator restarted from its state file) goes at the next open. */
function removeLeftOverSessions(ws: Workspace, hub: RelayHub): void {
  const live = hub.sessionUrls(ws.id);
  for (const w of ws.store.webhooks.values()) if (isSessionUrl(w.url) && !live.has(w.url)) removeAddress(ws, w.id);
}

function removeAddress(ws: Workspace, id: string): void {
  const w = ws.store.webhooks.get(id);
  const org = w && ws.store.organizations.get(w.organization_id);
  if (w && org) deleteWebhook(ws, dashboardPrincipal(org, w.environment), id);
}
