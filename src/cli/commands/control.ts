import type { Command } from 'commander';
import { action, clientCommand, optionsOf, printJson } from '../client.js';
import { request, UsageError } from '../../client/http.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

export function registerControl(program: Command): void {
  clientCommand(program, 'control', 'Send any control (/_emulator/...) or API (/v1/...) request and print the JSON answer')
    .argument('<method>', `HTTP method: ${METHODS.join(', ')}`)
    .argument('<path>', 'path and query, e.g. /_emulator/health or /v1/onboardings?limit=5')
    .argument('[json]', 'request body as JSON; POST and PATCH send {} when left out')
    .addHelpText('after', [
      '',
      'Examples:',
      '  onboarding-emulator control GET /_emulator/health',
      '  onboarding-emulator control POST /_emulator/faults \'{"kind":"error","count":1}\'',
      '  onboarding-emulator control GET /v1/onboardings --key hrs_test_acme_owner',
    ].join('\n'))
    .action(action(async (method: string, path: string, json: string | undefined, _opts: unknown, cmd: Command) => {
      const o = optionsOf(cmd);
      const verb = method.toUpperCase();
      if (!METHODS.includes(verb)) throw new UsageError(`not a method: ${method} (one of ${METHODS.join(', ')})`);
      if (!path.startsWith('/')) throw new UsageError(`the path must start with /: ${path}`);
      let body: unknown;
      if (json !== undefined) {
        try {
          body = JSON.parse(json);
        } catch (err) {
          throw new UsageError(`the body is not valid JSON: ${(err as Error).message}`);
        }
      } else if (verb === 'POST' || verb === 'PATCH') {
        body = {};
      }
      const answer = await request(o, verb, path, body);
      // A text answer (?format=mermaid, ?format=junit) is printed as it came.
      if (typeof answer === 'string') process.stdout.write(answer.endsWith('\n') ? answer : `${answer}\n`);
      else if (o.json) process.stdout.write(`${JSON.stringify(answer ?? null)}\n`);
      else printJson(answer ?? null);
    }));
}
