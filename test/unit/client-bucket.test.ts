import { clientBucketOf } from '../../src/http/auth';

describe('clientBucketOf (failed-authentication buckets)', () => {
  it('keeps IPv4 as is and unwraps IPv4-mapped IPv6', () => {
    expect(clientBucketOf('203.0.113.7')).toBe('203.0.113.7');
    expect(clientBucketOf('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('charges an IPv6 client by its /64, however the address is written', () => {
    expect(clientBucketOf('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(clientBucketOf('2001:db8:1:2::9')).toBe('2001:db8:1:2::/64');
    expect(clientBucketOf('2001:0db8:0001:0002:ffff::1')).toBe('2001:db8:1:2::/64');
    expect(clientBucketOf('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientBucketOf('::1')).toBe('0:0:0:0::/64');
    expect(clientBucketOf('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientBucketOf(undefined)).toBe('unknown');
  });
});
