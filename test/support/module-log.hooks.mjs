// The hooks module-log.mjs registers; they run on the loader's own thread and share the environment.
import { appendFileSync } from 'node:fs';

export async function load(url, context, nextLoad) {
  const file = process.env.MODULE_LOG;
  if (file && url.includes(process.env.MODULE_LOG_MATCH ?? '')) appendFileSync(file, `${url}\n`);
  return nextLoad(url, context);
}
