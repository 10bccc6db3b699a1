import { createRequire } from 'node:module';

/**
 * newman (Postman's runner) through its node API, typed for what the tests read: it ships no
 * types. A run resolves with its summary: every request sent, its answer and each assertion.
 */
interface NewmanExecution {
  item: { id: string; name: string };
  request: { method: string; url: { toString(): string } };
  response?: { code: number };
  assertions?: { assertion: string; error?: { message: string } }[];
}
export interface NewmanSummary {
  run: {
    stats: { requests: { total: number; failed: number }; assertions: { total: number; failed: number } };
    failures: { error: { message: string; test?: string }; source?: { name?: string } }[];
    executions: NewmanExecution[];
  };
}
interface Newman {
  run(options: Record<string, unknown>, done: (err: Error | null, summary: NewmanSummary) => void): void;
}

const require = createRequire(import.meta.url);
const newman = require('newman') as Newman;

/** Runs a collection to its end; `envVar`: values that take precedence over the collection's variables. */
export function runCollection(collection: object, envVar: Record<string, string> = {}, timeoutMs = 60_000): Promise<NewmanSummary> {
  return new Promise((resolve, reject) => {
    newman.run(
      { collection, envVar: Object.entries(envVar).map(([key, value]) => ({ key, value })), reporters: [], timeoutRequest: 10_000, timeout: timeoutMs },
      (err, summary) => (err ? reject(err) : resolve(summary)),
    );
  });
}
