import type { Workspace } from '../core/workspace.js';
import { runReceiverCheck, type ReceiverCheckReport } from '../delivery/receiver-check.js';
import type { ReceiverCheckBody } from './receiver-check.schemas.js';

/**
 * A receiver check run by the emulator (POST /_emulator/receiver-checks and the in-process
 * helper): with the emulator's own webhook URL policy, resolver and transport, so an address it
 * would not deliver to is not checked either. The workspace's state is neither read nor changed.
 */
export function receiverCheck(ws: Workspace, body: ReceiverCheckBody): Promise<ReceiverCheckReport> {
  const settings = ws.delivery;
  return runReceiverCheck(
    {
      url: body.url,
      secret: body.secret,
      ...(body.previous_secret !== undefined ? { previousSecret: body.previous_secret } : {}),
      ...(body.timeout_ms !== undefined ? { timeoutMs: body.timeout_ms } : {}),
      ...(body.burst !== undefined ? { burst: body.burst } : {}),
    },
    settings ? { transport: settings.transport, urlPolicy: settings.urlPolicy, resolver: settings.resolver } : {},
  );
}
