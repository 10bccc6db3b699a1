import { describe, expect, it, vi } from 'vitest';
import { checkAddressUrl, checkDeliveryTarget, isInternalAddress, type Resolver } from '../../src/delivery/address-policy.js';

describe('isInternalAddress', () => {
  it.each([
    // IPv4
    ['127.0.0.1', true],
    ['127.255.255.254', true],
    ['10.0.0.1', true],
    ['10.255.255.255', true],
    ['172.16.0.1', true],
    ['172.31.255.255', true],
    ['172.15.255.255', false],
    ['172.32.0.0', false],
    ['192.168.1.10', true],
    ['192.169.0.1', false],
    ['169.254.0.1', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['100.127.255.255', true],
    ['100.63.255.255', false],
    ['100.128.0.0', false],
    ['100.100.100.200', true],
    ['0.0.0.0', true],
    ['0.1.2.3', true],
    ['224.0.0.1', true],
    ['239.255.255.250', true],
    ['255.255.255.255', true],
    ['192.0.0.1', true],
    ['192.0.0.192', true],
    ['192.0.1.1', false],
    ['198.18.0.1', true],
    ['198.19.255.255', true],
    ['198.20.0.0', false],
    ['168.63.129.16', true],
    ['8.8.8.8', false],
    ['1.1.1.1', false],
    ['93.184.216.34', false],
    ['203.0.113.10', false],
    // IPv6
    ['::', true],
    ['::1', true],
    ['0:0:0:0:0:0:0:1', true],
    ['fe80::1', true],
    ['fe80::1%eth0', true],
    ['febf:ffff::1', true],
    ['fec0::1', true],
    ['fc00::1', true],
    ['fd12:3456:789a::1', true],
    ['fd00:ec2::254', true],
    ['ff02::1', true],
    ['FF05::2', true],
    ['::ffff:127.0.0.1', true],
    ['::ffff:7f00:1', true],
    ['::ffff:10.1.2.3', true],
    ['::ffff:169.254.169.254', true],
    ['::ffff:192.168.0.1', true],
    ['::ffff:8.8.8.8', false],
    ['::ffff:0:10.0.0.1', true],
    ['::127.0.0.1', true],
    ['64:ff9b::7f00:1', true],
    ['64:ff9b::8.8.8.8', false],
    ['64:ff9b:1::1', true],
    ['2002:7f00:1::1', true],
    ['2002:0808:0808::1', false],
    ['100::1', true],
    ['2001:4860:4860::8888', false],
    ['2606:4700:4700::1111', false],
    ['2001:db8::1', false],
  ])('%s → %s', (ip, internal) => {
    expect(isInternalAddress(ip)).toBe(internal);
  });

  it.each(['', 'localhost', 'example.com', '256.0.0.1', '1.2.3', '::g', '[::1]', '010.0.0.1'])('treats %j, not an IP address, as internal', (text) => {
    expect(isInternalAddress(text)).toBe(true);
  });
});

describe('checkAddressUrl', () => {
  it.each([
    ['https://hooks.example.com/receive', 'local'],
    ['https://hooks.example.com/receive', 'strict'],
    ['https://hooks.example.com:8443/a/b?x=1&y=2', 'strict'],
    ['http://127.0.0.1:4010/hooks', 'local'],
    ['http://localhost:3000/', 'local'],
    ['https://[::1]:8443/', 'local'],
    ['https://10.0.0.1/hooks', 'local'],
  ] as const)('accepts %s under %s', (url, policy) => {
    expect(checkAddressUrl(url, policy)).toBeNull();
  });

  it.each(['local', 'strict'] as const)('refuses credentials under %s', (policy) => {
    for (const url of ['https://user:pass@hooks.example.com/', 'https://user@hooks.example.com/', 'https://:secret@hooks.example.com/', 'https://@hooks.example.com/', 'https://:@hooks.example.com/']) {
      expect(checkAddressUrl(url, policy)).toMatch(/user name or password/);
    }
  });

  it('refuses http under strict only', () => {
    expect(checkAddressUrl('http://hooks.example.com/', 'strict')).toMatch(/https/);
    expect(checkAddressUrl('http://hooks.example.com/', 'local')).toBeNull();
  });

  it.each(['local', 'strict'] as const)('refuses a fragment under %s', (policy) => {
    expect(checkAddressUrl('https://hooks.example.com/a#b', policy)).toMatch(/fragment/);
    expect(checkAddressUrl('https://hooks.example.com/a#', policy)).toMatch(/fragment/);
  });

  it.each([
    '',
    'hooks.example.com/receive',
    '/relative/path',
    'not a url',
    'ftp://hooks.example.com/',
    'ws://hooks.example.com/',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'mailto:ops@example.com',
    'https://',
    'https:hooks.example.com/',
    'https:/hooks.example.com/',
    ' https://hooks.example.com/',
    'https://hooks.exa\nmple.com/',
    'https://hooks.example.com/\t',
    `https://hooks.example.com/${'a'.repeat(2100)}`,
    42 as unknown as string,
  ])('refuses %j', (url) => {
    for (const policy of ['local', 'strict'] as const) {
      const reason = checkAddressUrl(url, policy);
      expect(reason).toEqual(expect.any(String));
      expect(reason).toMatch(/\.$/);
    }
  });
});

describe('checkAddressUrl: internal address literals', () => {
  // [URL as written, the address the URL parser reads in it]
  it.each([
    // IPv4, dotted
    ['https://10.0.0.1/hook', '10.0.0.1'],
    ['https://172.16.0.1/', '172.16.0.1'],
    ['https://192.168.1.1:8443/x', '192.168.1.1'],
    ['https://127.0.0.1/', '127.0.0.1'],
    ['https://0.0.0.0/', '0.0.0.0'],
    ['https://169.254.169.254/latest/meta-data/', '169.254.169.254'],
    ['https://100.64.0.1/', '100.64.0.1'],
    ['https://100.100.100.200/', '100.100.100.200'],
    ['https://224.0.0.1/', '224.0.0.1'],
    ['https://255.255.255.255/', '255.255.255.255'],
    // IPv4, other notations the URL parser reads as an address
    ['https://2852039166/', '169.254.169.254'],
    ['https://0251.0376.0251.0376/', '169.254.169.254'],
    ['https://0xa9fea9fe/', '169.254.169.254'],
    ['https://0xA9.0xFE.0xA9.0xFE/', '169.254.169.254'],
    ['https://017700000001/', '127.0.0.1'],
    ['https://10.1/', '10.0.0.1'],
    ['https://127.1:8443/', '127.0.0.1'],
    ['https://0/', '0.0.0.0'],
    ['https://10.0.0.1./', '10.0.0.1'],
    ['https://%31%30.0.0.1/', '10.0.0.1'],
    ['https://\uff11\uff10.0.0.1/', '10.0.0.1'],
    // IPv6
    ['https://[::]/', '[::]'],
    ['https://[::1]:8443/', '[::1]'],
    ['https://[fe80::1]/', '[fe80::1]'],
    ['https://[FE80::1]/', '[fe80::1]'],
    ['https://[fd00::1]/', '[fd00::1]'],
    ['https://[fc00::1]/', '[fc00::1]'],
    ['https://[fd00:ec2::254]/', '[fd00:ec2::254]'],
    ['https://[fec0::1]/', '[fec0::1]'],
    ['https://[ff02::1]/', '[ff02::1]'],
    // IPv4 inside IPv6: mapped, translated, compatible, NAT64, 6to4
    ['https://[::ffff:10.0.0.1]/', '[::ffff:a00:1]'],
    ['https://[::ffff:a00:1]/', '[::ffff:a00:1]'],
    ['https://[::ffff:169.254.169.254]/', '[::ffff:a9fe:a9fe]'],
    ['https://[0:0:0:0:0:ffff:7f00:1]/', '[::ffff:7f00:1]'],
    ['https://[::ffff:0:10.0.0.1]/', '[::ffff:0:a00:1]'],
    ['https://[::10.0.0.1]/', '[::a00:1]'],
    ['https://[64:ff9b::10.0.0.1]/', '[64:ff9b::a00:1]'],
    ['https://[2002:a00:1::1]/', '[2002:a00:1::1]'],
  ])('refuses %s (%s) under strict, accepts it under local', (url, address) => {
    const reason = checkAddressUrl(url, 'strict');
    expect(reason).toMatch(/ is an internal address, refused by the strict URL policy\.$/);
    expect(reason).toContain(address);
    expect(checkAddressUrl(url, 'local')).toBeNull();
  });

  it('names the host as written when the parser reads it as another spelling', () => {
    expect(checkAddressUrl('https://2852039166/', 'strict')).toBe('2852039166 (169.254.169.254) is an internal address, refused by the strict URL policy.');
    expect(checkAddressUrl('https://[::ffff:10.0.0.1]:8443/', 'strict')).toBe('[::ffff:10.0.0.1] ([::ffff:a00:1]) is an internal address, refused by the strict URL policy.');
    expect(checkAddressUrl('https://10.0.0.1:8443/hook', 'strict')).toBe('10.0.0.1 is an internal address, refused by the strict URL policy.');
  });

  it('still refuses http first, so the reason is the one about the scheme', () => {
    expect(checkAddressUrl('http://10.0.0.1/', 'strict')).toBe('must use https under the strict URL policy.');
  });

  it.each([
    'https://93.184.216.34/',
    'https://1572395042/',
    'https://8.8.8.8:8443/hook',
    'https://100.128.0.1/',
    'https://203.0.113.10/',
    'https://[2606:4700::1]/',
    'https://[2001:db8::1]/',
    'https://[::ffff:93.184.216.34]/',
    'https://[64:ff9b::808:808]/',
    'https://[2002:808:808::1]/',
  ])('accepts the public literal %s under strict', (url) => {
    expect(checkAddressUrl(url, 'strict')).toBeNull();
  });

  it.each([
    'https://internal.corp/hook',
    'https://10.0.0.1.nip.io/',
    'https://10.0.0.1a/',
    'https://0x7f.example.com/',
    'https://localhost:8443/',
  ])('leaves the name %s to the check before each delivery (nothing is resolved at registration)', (url) => {
    expect(checkAddressUrl(url, 'strict')).toBeNull();
  });
});

describe('checkDeliveryTarget', () => {
  /** A fake DNS: names map to addresses, anything else fails like getaddrinfo does. */
  function fakeResolver(table: Record<string, string[]>) {
    return vi.fn<Resolver>(async (hostname) => {
      const found = table[hostname];
      if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
      return found;
    });
  }
  const dns = {
    'hooks.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
    'private.example.com': ['10.0.0.1'],
    'loop.example.com': ['127.0.0.1'],
    'loop6.example.com': ['::1'],
    'metadata.example.com': ['169.254.169.254'],
    'mixed.example.com': ['93.184.216.34', '192.168.0.5'],
    'mapped.example.com': ['::ffff:127.0.0.1'],
    'empty.example.com': [],
  };

  it('lets a public name through after resolving it', async () => {
    const resolver = fakeResolver(dns);
    expect(await checkDeliveryTarget('https://hooks.example.com/receive', 'strict', resolver)).toBeNull();
    expect(resolver).toHaveBeenCalledWith('hooks.example.com');
  });

  it.each([
    ['private.example.com', '10.0.0.1'],
    ['loop.example.com', '127.0.0.1'],
    ['loop6.example.com', '::1'],
    ['metadata.example.com', '169.254.169.254'],
    ['mixed.example.com', '192.168.0.5'],
    ['mapped.example.com', '::ffff:127.0.0.1'],
  ])('refuses %s, which resolves to %s', async (host, address) => {
    const reason = await checkDeliveryTarget(`https://${host}/receive`, 'strict', fakeResolver(dns));
    expect(reason).toContain(address);
    expect(reason).toBe(`${host} resolves to ${address}, an internal address.`);
  });

  it('refuses a name that does not resolve, or resolves to nothing', async () => {
    expect(await checkDeliveryTarget('https://nowhere.example.com/', 'strict', fakeResolver(dns))).toMatch(/could not be resolved \(ENOTFOUND\)/);
    expect(await checkDeliveryTarget('https://empty.example.com/', 'strict', fakeResolver(dns))).toMatch(/no address/);
    const throwsString: Resolver = () => Promise.reject('boom');
    expect(await checkDeliveryTarget('https://hooks.example.com/', 'strict', throwsString)).toMatch(/could not be resolved \(boom\)/);
  });

  it('checks IP literals as they are, without resolving', async () => {
    const resolver = fakeResolver(dns);
    expect(await checkDeliveryTarget('https://127.0.0.1:8443/', 'strict', resolver)).toMatch(/127\.0\.0\.1 is an internal address/);
    expect(await checkDeliveryTarget('https://[::1]/', 'strict', resolver)).toMatch(/::1 is an internal address/);
    expect(await checkDeliveryTarget('https://[::ffff:a9fe:a9fe]/', 'strict', resolver)).toMatch(/internal address/);
    // The URL parser normalizes other spellings of 127.0.0.1 first.
    expect(await checkDeliveryTarget('https://2130706433/', 'strict', resolver)).toMatch(/127\.0\.0\.1 is an internal address/);
    expect(await checkDeliveryTarget('https://0x7f.1/', 'strict', resolver)).toMatch(/127\.0\.0\.1 is an internal address/);
    expect(await checkDeliveryTarget('https://93.184.216.34/', 'strict', resolver)).toBeNull();
    expect(resolver).not.toHaveBeenCalled();
  });

  it('refuses localhost names without asking the resolver', async () => {
    const resolver = fakeResolver({ localhost: ['93.184.216.34'], 'app.localhost': ['93.184.216.34'] });
    expect(await checkDeliveryTarget('https://localhost/', 'strict', resolver)).toMatch(/loopback/);
    expect(await checkDeliveryTarget('https://LOCALHOST./', 'strict', resolver)).toMatch(/loopback/);
    expect(await checkDeliveryTarget('https://app.localhost/', 'strict', resolver)).toMatch(/loopback/);
    expect(resolver).not.toHaveBeenCalled();
  });

  it('requires https and a well-formed URL under strict', async () => {
    const resolver = fakeResolver(dns);
    expect(await checkDeliveryTarget('http://hooks.example.com/', 'strict', resolver)).toMatch(/only https/);
    expect(await checkDeliveryTarget('https://u:p@hooks.example.com/', 'strict', resolver)).toMatch(/user name or password/);
    expect(await checkDeliveryTarget('nonsense', 'strict', resolver)).toBe('the URL must be an absolute http or https URL.');
    expect(resolver).not.toHaveBeenCalled();
  });

  it('answers null under local without calling the resolver', async () => {
    const resolver = fakeResolver(dns);
    for (const url of ['http://127.0.0.1:4010/hooks', 'https://private.example.com/', 'http://localhost/', 'https://nowhere.example.com/']) {
      expect(await checkDeliveryTarget(url, 'local', resolver)).toBeNull();
    }
    expect(resolver).not.toHaveBeenCalled();
  });
});
