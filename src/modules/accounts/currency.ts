import type { CurrencyInfo } from '../../context/viewer';

export type { CurrencyInfo };

const LIST: readonly CurrencyInfo[] = [
  { code: 'USD', name: 'US Dollar', symbol: '$', decimals: 2 },
  { code: 'EUR', name: 'Euro', symbol: '€', decimals: 2 },
  { code: 'GBP', name: 'British Pound', symbol: '£', decimals: 2 },
  { code: 'CAD', name: 'Canadian Dollar', symbol: '$', decimals: 2 },
  { code: 'AUD', name: 'Australian Dollar', symbol: '$', decimals: 2 },
  { code: 'CHF', name: 'Swiss Franc', symbol: 'CHF', decimals: 2 },
  { code: 'JPY', name: 'Japanese Yen', symbol: '¥', decimals: 0 },
  { code: 'INR', name: 'Indian Rupee', symbol: '₹', decimals: 2 },
  { code: 'BRL', name: 'Brazilian Real', symbol: 'R$', decimals: 2 },
  { code: 'SEK', name: 'Swedish Krona', symbol: 'kr', decimals: 2 },
  { code: 'KWD', name: 'Kuwaiti Dinar', symbol: 'KD', decimals: 3 },
];

export const CURRENCIES: ReadonlyMap<string, CurrencyInfo> = new Map(LIST.map((c) => [c.code, c]));

export function currencyOf(code: string): CurrencyInfo {
  return CURRENCIES.get(code) ?? { code, name: code, symbol: code, decimals: 2 };
}
