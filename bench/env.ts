/** A bench setting from the environment: `fallback` when unset or empty; anything but a positive number stops the run, naming it. */
export function positive(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, got "${raw}"`);
  return n;
}

/** As `positive`, a whole number (a count of rows). */
export function positiveWhole(name: string, fallback: number): number {
  const n = positive(name, fallback);
  if (!Number.isInteger(n)) throw new Error(`${name} must be a whole number, got "${process.env[name]}"`);
  return n;
}
