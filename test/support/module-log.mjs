// Loaded with `node --import` (NODE_OPTIONS): appends to the file MODULE_LOG names the URL of every
// module loaded whose URL contains MODULE_LOG_MATCH. A test reads the file to tell which modules a
// process loaded, and when. In-thread hooks (registerHooks) where Node has them; Node 20 has only
// the loader thread's (register), which later Nodes deprecate.
import { appendFileSync } from 'node:fs';
import * as mod from 'node:module';
import { register } from 'node:module';

if (typeof mod.registerHooks === 'function') {
  mod.registerHooks({
    load(url, context, nextLoad) {
      const file = process.env.MODULE_LOG;
      if (file && url.includes(process.env.MODULE_LOG_MATCH ?? '')) appendFileSync(file, `${url}\n`);
      return nextLoad(url, context);
    },
  });
} else {
  register('./module-log.hooks.mjs', import.meta.url);
}
