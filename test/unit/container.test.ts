import { describe, expect, it } from 'vitest';
import { detectContainer, loopbackHint } from '../../src/delivery/container.js';

describe('detectContainer: what container engines leave behind', () => {
  const files = (...present: string[]) => (path: string) => present.includes(path);
  it.each([
    ['Docker', {}, files('/.dockerenv'), true],
    ['Podman', {}, files('/run/.containerenv'), true],
    ['a Kubernetes pod', { KUBERNETES_SERVICE_HOST: '10.0.0.1' }, files(), true],
    ['systemd-nspawn and Podman', { container: 'podman' }, files(), true],
    ['a plain machine', {}, files(), false],
    ['a machine whose file system cannot be read', {}, () => { throw new Error('EACCES'); }, false],
  ])('%s', (_, env, exists, inside) => expect(detectContainer(env, exists)).toBe(inside));
});

describe('loopbackHint', () => {
  it.each(['http://127.0.0.1:3000/hooks', 'http://127.8.0.1/x', 'http://localhost:3000/', 'http://api.localhost/', 'http://[::1]:3000/', 'http://[::ffff:127.0.0.1]/'])('explains a refused connection to %s', (url) => {
    expect(loopbackHint(url, 'connection refused')).toMatch(/^connection refused: .* is this container itself/);
  });

  it('leaves other addresses and other errors as they are', () => {
    expect(loopbackHint('http://receiver:3000/hooks', 'connection refused')).toBe('connection refused');
    expect(loopbackHint('http://10.0.0.5/hooks', 'connection refused')).toBe('connection refused');
    expect(loopbackHint('http://127.0.0.1:3000/hooks', 'timed out after 10000 ms')).toBe('timed out after 10000 ms');
    expect(loopbackHint('http://127.0.0.1:3000/hooks', null)).toBeNull();
  });
});
