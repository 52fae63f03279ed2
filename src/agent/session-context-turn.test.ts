import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { enUsDate, sessionDate } from './session-context-turn.js';

const OPTIONS: Intl.DateTimeFormatOptions = {
  weekday: 'long',
  year: 'numeric',
  month: 'long',
  day: 'numeric',
};

/** Dates spread over 1000–9999 (seeded), plus the first and last millisecond of some local days. */
function sampleDates(): Date[] {
  let seed = 28;
  const next = (): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const out: Date[] = [];
  const min = new Date(1000, 0, 1).getTime();
  const max = new Date(9999, 11, 31, 23, 59, 59, 999).getTime();
  for (let i = 0; i < 2000; i++) out.push(new Date(min + Math.floor(next() * (max - min))));
  for (const [y, m, d] of [
    [2026, 11, 3],
    [2024, 1, 29],
    [2026, 2, 8],
    [2026, 10, 1],
    [1000, 0, 1],
    [9999, 11, 31],
  ] as const) {
    out.push(new Date(y, m, d, 0, 0, 0, 0), new Date(y, m, d, 23, 59, 59, 999));
  }
  return out;
}

describe('the session context date', () => {
  const tz = process.env.TZ;
  afterEach(() => {
    if (tz === undefined) delete process.env.TZ;
    else process.env.TZ = tz;
  });

  for (const zone of [
    'UTC',
    'America/Los_Angeles',
    'Asia/Kolkata',
    'Pacific/Kiritimati',
    'Pacific/Pago_Pago',
  ]) {
    it(`spells en-US dates as ICU does (TZ=${zone})`, () => {
      process.env.TZ = zone;
      for (const date of sampleDates())
        expect([date.toISOString(), enUsDate(date)]).toEqual([
          date.toISOString(),
          date.toLocaleDateString('en-US', OPTIONS),
        ]);
    });
  }

  it('is the default locale’s date in this process, whatever it is', () => {
    for (const date of [...sampleDates().slice(0, 50), new Date(999, 5, 1), new Date(NaN)])
      expect(sessionDate(date)).toBe(date.toLocaleDateString(undefined, OPTIONS));
  });

  it('takes the hand-written path only when ICU’s default date locale is en-US', () => {
    const script =
      'const d = Intl.DateTimeFormat().resolvedOptions();' +
      'process.stdout.write(JSON.stringify([new Intl.PluralRules().resolvedOptions().locale, d.locale, d.calendar, d.numberingSystem]))';
    const envs: Record<string, string>[] = [
      {},
      { LANG: 'C' },
      { LANG: 'C.UTF-8' },
      { LANG: 'POSIX' },
      { LANG: 'en_US.UTF-8' },
      { LANG: 'en_US@calendar=buddhist' },
      { LANG: 'en_GB.UTF-8' },
      { LANG: 'de_DE.UTF-8' },
      { LANG: 'en_US.UTF-8', LC_ALL: 'de_DE.UTF-8' },
      { LANG: 'de_DE.UTF-8', LC_MESSAGES: 'en_US.UTF-8' },
    ];
    const seen = new Set<string>();
    for (const extra of envs) {
      const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, ...extra };
      const [plural, locale, calendar, numbering] = JSON.parse(
        execFileSync(process.execPath, ['-e', script], { env, encoding: 'utf8' }),
      ) as string[];
      seen.add(String(plural));
      if (plural === 'en-US')
        expect([locale, calendar, numbering]).toEqual(['en-US', 'gregory', 'latn']);
      else expect(locale).not.toBe('en-US');
    }
    // Both branches were exercised.
    expect(seen.has('en-US')).toBe(true);
    expect([...seen].some((l) => l !== 'en-US')).toBe(true);
  });
});
