import { describe, expect, it } from 'vitest';
import { readyAddress } from '../../src/cli/ready-address.js';
import { detectContainer } from '../../src/delivery/container.js';

/** detectContainer's own seam: the `container` variable Podman and systemd set. */
const inContainer = detectContainer({ container: 'podman' }, () => false);
const onMachine = detectContainer({}, () => false);

describe('readyAddress: the URL the ready line tells clients to use', () => {
  it('is the address listened on, outside a container', () => {
    expect(readyAddress({ local: 'http://127.0.0.1:4010', host: '0.0.0.0', publicUrl: undefined, inContainer: onMachine })).toEqual({
      message: 'onboarding emulator listening',
      fields: { url: 'http://127.0.0.1:4010' },
      base: 'http://127.0.0.1:4010',
    });
  });

  it('is --public-url when set, the address listened on beside it, in a container or not', () => {
    for (const inside of [inContainer, onMachine]) {
      const ready = readyAddress({ local: 'http://127.0.0.1:4010', host: '0.0.0.0', publicUrl: 'http://emulator:4010', inContainer: inside });
      expect(ready).toEqual({ message: 'onboarding emulator listening', fields: { url: 'http://emulator:4010', listening: 'http://127.0.0.1:4010' }, base: 'http://emulator:4010' });
    }
  });

  it.each(['0.0.0.0', '::'])('inside a container listening on %s, names no URL: the port inside it, and the published port or --public-url for clients', (host) => {
    const ready = readyAddress({ local: 'http://127.0.0.1:4010', host, publicUrl: undefined, inContainer });
    expect(ready.fields).toEqual({ port: 4010, listening: 'http://127.0.0.1:4010' });
    expect(ready.fields).not.toHaveProperty('url');
    expect(ready.base).toBe('');
    expect(ready.message).toMatch(/^onboarding emulator listening on port 4010 inside a container: from outside it, clients use the port published for it .*--public-url/);
  });

  it('inside a container listening on loopback only, the URL is right: only clients in the container reach it', () => {
    const ready = readyAddress({ local: 'http://127.0.0.1:4010', host: '127.0.0.1', publicUrl: undefined, inContainer });
    expect(ready.fields).toEqual({ url: 'http://127.0.0.1:4010' });
  });
});
