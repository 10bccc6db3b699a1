import type { EventRecord } from './events.model.js';

/** In GET /v1/events, api_version is the version of the request. */
export function renderEvent(e: EventRecord, apiVersion: string) {
  return {
    id: e.id,
    object: 'event' as const,
    type: e.type,
    api_version: apiVersion,
    created_at: e.created_at,
    organization_id: e.organization_id,
    data: { ...e.data, metadata: { ...e.data.metadata } },
  };
}
