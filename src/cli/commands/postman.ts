import type { Command } from 'commander';
import { action, clientCommand, optionsOf, printJson, WORKSPACE_OPTION } from '../client.js';
import { httpControl } from '../../client/http.js';

/** `postman`: the Postman collection of the /v1 API, for a workspace, on stdout. */
export function registerPostman(program: Command): void {
  clientCommand(program, 'postman', "A Postman collection (v2.1) of the /v1 API made from the OpenAPI document, the workspace's keys as variables, on stdout (GET /_emulator/postman)")
    .option(...WORKSPACE_OPTION)
    .addHelpText('after', [
      '',
      'The collection holds the workspace\'s test keys. Run it with newman:',
      '  onboarding-emulator postman > collection.json',
      '  npx newman run collection.json --env-var webhookUrl=http://127.0.0.1:3000/webhooks',
    ].join('\n'))
    .action(action(async (opts: { workspace?: string }, cmd: Command) => {
      printJson(await httpControl(optionsOf(cmd), opts.workspace).postman.collection());
    }));
}
