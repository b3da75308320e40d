// Ethiopian phone numbers, stored as E.164 (+251 and nine digits).

const ETHIOPIAN_NUMBER = /^\+251[1-9]\d{8}$/;

/** `+251911234567`, `251911234567`, `0911234567` and `911 23 45 67` all become `+251911234567`; else null. */
export function normalizeEthiopianPhone(input: string): string | null {
  const digits = input.replace(/[\s\-().]/g, "");
  let candidate = digits;
  if (/^0\d{9}$/.test(digits)) candidate = `+251${digits.slice(1)}`;
  else if (/^[1-9]\d{8}$/.test(digits)) candidate = `+251${digits}`;
  else if (/^251\d{9}$/.test(digits)) candidate = `+${digits}`;
  return ETHIOPIAN_NUMBER.test(candidate) ? candidate : null;
}
