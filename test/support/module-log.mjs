// Loaded with `node --import` (NODE_OPTIONS): registers load hooks that append to the file
// MODULE_LOG names the URL of every module loaded whose URL contains MODULE_LOG_MATCH. A test
// reads the file to tell which modules a process loaded, and when.
import { register } from 'node:module';

register('./module-log.hooks.mjs', import.meta.url);
