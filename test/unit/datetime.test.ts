import { formatDate, formatDateTime } from '../../rest-facade/response/datetime';

describe('formatDateTime', () => {
  it('formats in the viewer zone with a +hhmm offset (v3 §1.6)', () => {
    expect(formatDateTime('2014-05-19T12:54:59.000Z', 'America/New_York')).toBe('2014/05/19 08:54:59 -0400');
    expect(formatDateTime('2014-01-19T12:54:59.999Z', 'America/New_York')).toBe('2014/01/19 07:54:59 -0500');
    expect(formatDateTime('2014-05-19T12:54:59Z', 'UTC')).toBe('2014/05/19 12:54:59 +0000');
    expect(formatDateTime('2014-05-19T12:54:59Z', 'Etc/UTC')).toBe('2014/05/19 12:54:59 +0000');
    expect(formatDateTime('2014-05-19T12:54:59Z', 'Europe/London')).toBe('2014/05/19 13:54:59 +0100');
  });

  it('handles half- and quarter-hour zones and dates crossing midnight', () => {
    expect(formatDateTime('2014-05-19T20:00:00Z', 'Asia/Kolkata')).toBe('2014/05/20 01:30:00 +0530');
    expect(formatDateTime('2014-05-19T12:00:00Z', 'Asia/Kathmandu')).toBe('2014/05/19 17:45:00 +0545');
    expect(formatDateTime('2014-05-19T02:00:00Z', 'America/St_Johns')).toBe('2014/05/18 23:30:00 -0230');
    expect(formatDateTime('2014-05-19T02:00:00Z', 'Pacific/Chatham')).toBe('2014/05/19 14:45:00 +1245');
  });

  it('is exact around DST changes (America/New_York, 2014-03-09 and 2014-11-02)', () => {
    const NY = 'America/New_York';
    expect(formatDateTime('2014-03-09T06:59:59Z', NY)).toBe('2014/03/09 01:59:59 -0500');
    expect(formatDateTime('2014-03-09T07:00:00Z', NY)).toBe('2014/03/09 03:00:00 -0400');
    expect(formatDateTime('2014-03-09T04:59:59Z', NY)).toBe('2014/03/08 23:59:59 -0500');
    expect(formatDateTime('2014-11-02T05:30:00Z', NY)).toBe('2014/11/02 01:30:00 -0400');
    expect(formatDateTime('2014-11-02T06:30:00Z', NY)).toBe('2014/11/02 01:30:00 -0500');
    expect(formatDateTime('2014-11-02T23:59:59Z', NY)).toBe('2014/11/02 18:59:59 -0500');
    // Asked twice: the second answer comes from the per-day cache and must agree.
    expect(formatDateTime('2014-11-02T05:30:00Z', NY)).toBe('2014/11/02 01:30:00 -0400');
    expect(formatDateTime('2014-03-08T12:00:00Z', NY)).toBe('2014/03/08 07:00:00 -0500');
    expect(formatDateTime('2014-03-08T12:00:00Z', NY)).toBe('2014/03/08 07:00:00 -0500');
  });

  it('agrees with Intl for many instants across years and zones', () => {
    for (const tz of ['America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe', 'Europe/Berlin', 'America/Sao_Paulo']) {
      const intl = new Intl.DateTimeFormat('en-CA', {
        timeZone: tz,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      });
      for (let ms = Date.UTC(2010, 0, 1); ms < Date.UTC(2016, 0, 1); ms += 7_919_993_000 / 13) {
        const t = Math.floor(ms / 1000) * 1000;
        const expected = intl.format(t).replace(/-/g, '/').replace(', ', ' ');
        expect(formatDateTime(new Date(t), tz)!.slice(0, 19)).toBe(expected);
      }
    }
  });

  it('accepts Date objects and epoch milliseconds, drops sub-seconds', () => {
    expect(formatDateTime(new Date('2014-05-19T12:54:59.987Z'), 'UTC')).toBe('2014/05/19 12:54:59 +0000');
    expect(formatDateTime(Date.UTC(2014, 4, 19, 12, 54, 59), 'Asia/Kolkata')).toBe('2014/05/19 18:24:59 +0530');
    expect(formatDateTime('2014-05-19T08:54:59-04:00', 'UTC')).toBe('2014/05/19 12:54:59 +0000');
  });

  it('returns null for null and undefined', () => {
    expect(formatDateTime(null, 'UTC')).toBeNull();
    expect(formatDateTime(undefined, 'America/New_York')).toBeNull();
  });

  it('throws RangeError for an unparseable value or an unknown zone', () => {
    expect(() => formatDateTime('not a date', 'UTC')).toThrow(RangeError);
    expect(() => formatDateTime('2014-05-19T12:54:59Z', 'Mars/Olympus')).toThrow(RangeError);
  });

  it('formats years before 1000 with four digits', () => {
    expect(formatDateTime('0999-01-02T03:04:05Z', 'UTC')).toBe('0999/01/02 03:04:05 +0000');
  });

  it('shows local mean time without its seconds, and 1 BC as year 0 (src/common/zones.ts reads the era)', () => {
    expect(formatDateTime('1883-11-18T16:59:59Z', 'America/New_York')).toBe('1883/11/18 12:03:57 -0456'); // -4:56:02
    expect(formatDateTime('0001-01-01T02:00:00Z', 'America/New_York')).toBe('0000/12/31 21:03:58 -0456');
    expect(formatDate('0001-01-01T02:00:00Z', 'America/New_York')).toBe('0000/12/31');
  });
});

describe('formatDate', () => {
  it('reformats calendar dates without zone shifting', () => {
    expect(formatDate('2014-05-19')).toBe('2014/05/19');
    expect(formatDate('2014-05-19', 'Pacific/Kiritimati')).toBe('2014/05/19');
    expect(formatDate('2014-05-19', 'Pacific/Pago_Pago')).toBe('2014/05/19');
    expect(formatDate('2014/05/19')).toBe('2014/05/19');
  });

  it('shows instants as their date in the zone (UTC without one)', () => {
    expect(formatDate('2014-05-19T20:00:00Z', 'Asia/Kolkata')).toBe('2014/05/20');
    expect(formatDate('2014-05-19T02:00:00Z', 'America/New_York')).toBe('2014/05/18');
    expect(formatDate('2014-05-19T02:00:00Z')).toBe('2014/05/19');
    expect(formatDate(new Date('2014-05-19T23:00:00Z'), 'UTC')).toBe('2014/05/19');
  });

  it('returns null for null and undefined', () => {
    expect(formatDate(null)).toBeNull();
    expect(formatDate(undefined, 'UTC')).toBeNull();
  });
});
