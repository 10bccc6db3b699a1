import type { ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { serve } from '../support/serve.js';

/** The ready line names the URL clients use (the unit cases, container ones included: test/unit/ready-address.test.ts). */
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

describe('serve: the ready line', () => {
  it('names EMULATOR_PUBLIC_URL as the url, and the inspector under it, with the address listened on beside it', async () => {
    const served = await serve([], children, { EMULATOR_PUBLIC_URL: 'http://emulator:4010' });
    expect(served.ready).toMatchObject({
      url: 'http://emulator:4010',
      inspector: 'http://emulator:4010/_emulator/ui',
      explorer: 'http://emulator:4010/_emulator/docs',
      msg: 'onboarding emulator listening',
    });
    expect(served.ready.listening).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // `listening` is where this process answers.
    expect((await fetch(`${String(served.ready.listening)}/_emulator/health`)).status).toBe(200);
  });

  it('names the address listened on without a public URL, also in a container when that address is loopback (only clients inside reach it)', async () => {
    const served = await serve([], children, { container: 'podman' });
    expect(served.ready.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(served.ready).not.toHaveProperty('listening');
    expect(served.ready.msg).toBe('onboarding emulator listening');
  });
});
