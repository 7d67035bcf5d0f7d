/**
 * How Snowflake spells a double in its JSON result format (the one `snowflake-sdk` reads):
 * - a FLOAT column: 15 significant digits, C's `%.15g` (`123.456`, `1.23456789012346e+37`), as
 *   in the driver's own result fixtures; so a double needing 16 or 17 digits comes back rounded
 *   (`Math.PI` reads as 3.14159265358979), although Snowflake stores it exactly;
 * - a DOUBLE inside a VARIANT: C's `%.15e` (`1.912000000000000e+02`), as Snowflake's PARSE_JSON
 *   documentation prints one.
 */

/** A FLOAT column's value as the JSON result carries it. */
export function realText(value: number): string {
  if (!Number.isFinite(value)) return Number.isNaN(value) ? 'NaN' : value > 0 ? 'inf' : '-inf';
  if (value === 0) return Object.is(value, -0) ? '-0' : '0';
  const [mantissa, exponent] = value.toExponential(14).split('e') as [string, string];
  const power = Number(exponent);
  return power < -4 || power >= 15
    ? `${withoutTrailingZeros(mantissa)}${exponentText(power)}`
    : withoutTrailingZeros(value.toFixed(14 - power));
}

/** What a FLOAT read through the JSON result format is, for comparing with what was written. */
export function realAsRead(value: number): number {
  return Number(realText(value));
}

/** A DOUBLE inside a VARIANT as Snowflake prints it. */
export function variantDoubleText(value: number): string {
  if (!Number.isFinite(value)) return String(value); // NaN, Infinity, -Infinity: not JSON, as Snowflake prints them
  const [mantissa, exponent] = value.toExponential(15).split('e') as [string, string];
  return `${mantissa}${exponentText(Number(exponent))}`;
}

/** C's exponent: a sign and at least two digits. */
function exponentText(power: number): string {
  return `e${power < 0 ? '-' : '+'}${String(Math.abs(power)).padStart(2, '0')}`;
}

function withoutTrailingZeros(text: string): string {
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}
