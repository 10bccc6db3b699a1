import type { DocumentRecord } from '../onboardings/onboardings.model.js';

/** The public Document: the record without the name of the file behind it. */
export function renderDocument({ file: _file, ...doc }: DocumentRecord) {
  return doc;
}
