import { centsOf, fromCents, MoneyError, showMoney, toMoney } from '../../src/common/money';

describe('money as exact decimal text', () => {
  it('rounds half away from zero on the digits, never through a float', () => {
    expect(toMoney('12.345', 2)).toBe('12.35');
    expect(toMoney('-12.345', 2)).toBe('-12.35');
    expect(toMoney(0.1 + 0.2, 2)).toBe('0.30');
    expect(toMoney('5000', 2)).toBe('5000.00');
    expect(toMoney('0.5', 0)).toBe('1');
    expect(toMoney('-0.001', 2)).toBe('0.00');
    expect(toMoney('', 2)).toBeNull();
    expect(() => toMoney('12,5', 2)).toThrow(MoneyError);
    expect(() => toMoney('1'.repeat(16), 2)).toThrow(/too large/);
  });

  it('shows stored numeric(19,4) text exactly as toMoney would, for every currency precision', () => {
    // Seeded pseudo-random stored amounts: PostgreSQL's numeric text (no leading zeros, 4 places).
    let seed = 42;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    const samples = ['0.0000', '-0.0050', '0.0050', '12.3450', '-12.3449', '999999999999999.9999', '5000.0000', '-5000.5000', '0.9999'];
    for (let i = 0; i < 2000; i++) {
      const whole = String(next() % 1_000_000);
      const fraction = String(next() % 10_000).padStart(4, '0');
      const zeros = next() % 3 === 0 ? fraction.slice(0, 2) + '00' : fraction;
      samples.push(`${next() % 2 ? '-' : ''}${whole}.${zeros}`);
    }
    for (const stored of samples)
      for (const decimals of [0, 2, 3, 4])
        expect([stored, decimals, showMoney(stored, decimals)]).toEqual([stored, decimals, toMoney(stored, decimals, false)]);
    expect(showMoney(null, 2)).toBeNull();
    // The largest stored amount shown with fewer places rounds past the written limit: shown, not a 500.
    expect(showMoney('999999999999999.9999', 2)).toBe('1000000000000000.00');
    expect(() => toMoney('999999999999999.9999', 2)).toThrow(/too large/);
  });

  it('cents both ways', () => {
    expect(centsOf('12.345')).toBe(1235);
    expect(centsOf(null)).toBeNull();
    expect(fromCents(1235, 2)).toBe('12.35');
    expect(fromCents(1235, 0)).toBe('12');
    expect(() => fromCents(0.5, 2)).toThrow(MoneyError);
  });
});
