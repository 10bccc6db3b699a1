import { systemResolver, type Resolver, type UrlPolicy } from './address-policy.js';
import { runningInContainer } from './container.js';
import { RelayHub } from './relay.js';
import { httpTransport, type Transport } from './transport.js';

/** How a workspace delivers webhooks; one object per emulator, injectable in tests. */
export interface DeliverySettings {
  transport: Transport;
  resolver: Resolver;
  urlPolicy: UrlPolicy;
  /** `t` of the signature: wall time (receivers with a real clock) or the workspace clock. */
  signatureClock: 'wall' | 'emulated';
  timeoutMs: number;
  /** Attempts in flight at once, across workspaces: a hanging receiver costs one timeout, not one per delivery. */
  limit: Limiter;
  /** Relays that carry the attempts of the addresses they take (`onboarding-emulator listen`). */
  relays: RelayHub;
  /**
   * Whether the emulator runs in a container (detected; tests set it): a refused connection to
   * a loopback address then explains that 127.0.0.1 is the container and points to the relay.
   */
  inContainer: boolean;
}

declare module '../core/workspace.js' {
  interface WorkspaceKept {
    deliverySettings: DeliverySettings;
  }
}

type Limiter = <T>(work: () => Promise<T>) => Promise<T>;

function createLimiter(max: number): Limiter {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (work) => {
    if (running >= max) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await work();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}

export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;

export function deliverySettings(overrides: Partial<DeliverySettings> = {}): DeliverySettings {
  return {
    transport: overrides.transport ?? httpTransport(),
    resolver: overrides.resolver ?? systemResolver,
    urlPolicy: overrides.urlPolicy ?? 'local',
    signatureClock: overrides.signatureClock ?? 'wall',
    timeoutMs: overrides.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS,
    limit: overrides.limit ?? createLimiter(64),
    relays: overrides.relays ?? new RelayHub(),
    inContainer: overrides.inContainer ?? runningInContainer(),
  };
}
