// Quiet hours in the recipient's zone (daylight saving time included), the zones of a recipient,
// start times as people write them, and recipient gaps as durations: the pure parts.
import { problemEnglish } from '../../../src/shared/problem-english';
import { describe, expect, it } from 'vitest';
import { isQuiet, nextAllowed, parseQuietHours, type QuietHours } from '../../../src/main/engine/messaging/quiet-hours';
import { recipientZones, zoneCellProblem } from '../../../src/main/engine/messaging/recipient-zone';
import { holdZone, quietHold } from '../../../src/main/engine/messaging/send-hold';
import { parseAt, PAST_INSTEAD, pastProblem } from '../../../src/main/engine/queue/schedule';
import { formatGap, parseGap } from '../../../src/shared/durations';

function quiet(text: string): QuietHours {
  const q = parseQuietHours(text);
  if (!q.ok) throw new Error(q.reason);
  return q.value;
}

describe('quiet hours', () => {
  const night = quiet('21:00-08:00');

  it('end at 08:00 local on the morning daylight saving time starts and ends (Europe/Berlin)', () => {
    // Saturday 23:00 CET; the clocks go forward that night: 08:00 CEST is 06:00 UTC.
    expect(nextAllowed(night, ['Europe/Berlin'], Date.UTC(2026, 2, 28, 22, 0))).toBe(Date.UTC(2026, 2, 29, 6, 0));
    // Saturday 22:00 CEST; the clocks go back that night: 08:00 CET is 07:00 UTC.
    expect(nextAllowed(night, ['Europe/Berlin'], Date.UTC(2026, 9, 24, 20, 0))).toBe(Date.UTC(2026, 9, 25, 7, 0));
    // 07:59 CEST is still quiet; 08:00 is not; daytime is left alone.
    expect(isQuiet(night, 'Europe/Berlin', Date.UTC(2026, 2, 29, 5, 59))).toBe(true);
    expect(nextAllowed(night, ['Europe/Berlin'], Date.UTC(2026, 2, 29, 6, 0))).toBe(Date.UTC(2026, 2, 29, 6, 0));
    expect(nextAllowed(night, ['Europe/Berlin'], Date.UTC(2026, 6, 1, 12, 0))).toBe(Date.UTC(2026, 6, 1, 12, 0));
    // A stretch inside one day: 12:00-14:00 holds lunchtime until 14:00.
    expect(nextAllowed(quiet('12:00-14:00'), ['Europe/London'], Date.UTC(2026, 0, 5, 12, 30))).toBe(Date.UTC(2026, 0, 5, 14, 0));
  });

  it('a country with several zones waits until it is daytime in every one of them (US)', () => {
    const us = recipientZones('+12125550123', {}, 'UTC');
    expect(us.zones).toEqual(expect.arrayContaining(['America/New_York', 'America/Los_Angeles', 'Pacific/Honolulu', 'America/Adak']));
    expect(us.label).toMatch(/^US, daytime in all \d+ of its zones$/);
    // 13:00 UTC: 08:00 in New York but 03:00 in Honolulu and on Adak: held until 08:00 there (18:00 UTC).
    expect(nextAllowed(night, us.zones, Date.UTC(2026, 10, 21, 13, 0))).toBe(Date.UTC(2026, 10, 21, 18, 0));
    // Zones too far apart for the window never share a daytime: said, not waited for.
    const ru = recipientZones('+79161234567', {}, 'UTC');
    expect(nextAllowed(quiet('18:00-08:00'), ru.zones, Date.UTC(2026, 10, 21, 13, 0))).toBeNull();
  });

  it("a hold is said in the recipient's zone when their zones keep one clock, else in the batch's own zone (DE, US)", () => {
    // 01:00 UTC on 30 Nov: 02:00 in Berlin, inside 21:00-08:00; Germany's list also names Europe/Zurich.
    const now = Date.UTC(2026, 10, 30, 1, 0);
    const de = quietHold({ quiet_hours: '21:00-08:00', quiet_zone: 'UTC' }, '+4915120000000', {}, now);
    expect(de).toMatchObject({ kind: 'hold', until: Date.UTC(2026, 10, 30, 7, 0) });
    expect(de.kind === 'hold' ? de.message : '').toMatch(/^held until 2026-11-30 08:00 Europe\/Berlin \(quiet hours 21:00-08:00, /);
    // US recipients' zones show different clocks: the time is the batch's zone's, and that zone is named.
    const us = quietHold({ quiet_hours: '21:00-08:00', quiet_zone: 'Europe/Berlin' }, '+12125550123', {}, Date.UTC(2026, 10, 21, 13, 0));
    expect(us.kind === 'hold' ? us.message : '').toMatch(/^held until 2026-11-21 19:00 Europe\/Berlin \(quiet hours/);
    expect(holdZone([], 0, 'Europe/Paris')).toBe('Europe/Paris');
  });

  it("a timezone column overrides the number's country; e-mail without one uses the batch's zone", () => {
    expect(recipientZones('+12125550123', { timezone: 'Asia/Tokyo' }, 'UTC')).toEqual({ zones: ['Asia/Tokyo'], label: 'Asia/Tokyo' });
    expect(recipientZones('+4915123456789', { TZ: '' }, 'UTC').zones).toContain('Europe/Berlin');
    expect(recipientZones('jo@example.com', {}, 'Europe/Paris')).toEqual({
      zones: ['Europe/Paris'],
      label: "Europe/Paris, the batch's zone: no timezone column",
    });
    const zone = zoneCellProblem('timezone', 'Europe/Berln');
    expect(zone).toEqual({ code: 'timezone_bad', column: 'timezone', value: 'Europe/Berln' });
    expect(problemEnglish('m.csv', 3, zone as NonNullable<typeof zone>)).toMatch(
      /^Row 3: timezone "Europe\/Berln" is not a time zone name; write an IANA name such as Europe\/Berlin/,
    );
    expect(zoneCellProblem('timezone', 'America/New_York')).toBeNull();
  });

  it('refuses quiet hours it cannot read', () => {
    expect(parseQuietHours('9pm-8am')).toMatchObject({ ok: false, reason: expect.stringMatching(/write them like 21:00-08:00/) });
    expect(parseQuietHours('08:00-08:00').ok).toBe(false);
    expect(parseQuietHours(' 9:30 - 7:05 ')).toEqual({ ok: true, value: { start: 570, end: 425, text: '09:30-07:05' } });
  });
});

describe('start times and gaps', () => {
  it('reads local times, named zones and ISO offsets', () => {
    expect(parseAt('2026-12-01 09:00 Europe/Berlin')).toEqual({ ok: true, at: Date.UTC(2026, 11, 1, 8, 0) });
    expect(parseAt('2026-12-01T09:00+01:00')).toEqual({ ok: true, at: Date.UTC(2026, 11, 1, 8, 0) });
    expect(parseAt('2026-12-01 09:00Z')).toEqual({ ok: true, at: Date.UTC(2026, 11, 1, 9, 0) });
    expect(parseAt('2026-07-01 09:00', 'America/New_York')).toEqual({ ok: true, at: Date.UTC(2026, 6, 1, 13, 0) });
    expect(parseAt('2026-07-01 09:00:30', 'America/New_York')).toEqual({ ok: true, at: Date.UTC(2026, 6, 1, 13, 0, 30) });
    expect(parseAt('2026-07-01 09:00:61', 'America/New_York').ok).toBe(false);
    expect(parseAt('2026-02-31 09:00', 'UTC')).toMatchObject({ ok: false, reason: expect.stringMatching(/not a day of the calendar/) });
    expect(parseAt('tomorrow 9')).toMatchObject({ ok: false, reason: expect.stringMatching(/is not a date and time; write it as "2026-12-01 09:00"/) });
    expect(parseAt('2026-12-01 09:00 Mars/Olympus')).toMatchObject({ ok: false, reason: expect.stringMatching(/not a time zone name/) });
    expect(pastProblem(Date.UTC(2026, 0, 1), Date.UTC(2026, 5, 1), PAST_INSTEAD.create, 'UTC')).toMatch(
      /^The start time 2026-01-01 00:00 \(UTC\) is in the past \(it is now 2026-06-01 00:00\)/,
    );
    expect(pastProblem(Date.UTC(2026, 5, 2), Date.UTC(2026, 5, 1), PAST_INSTEAD.create, 'UTC')).toBeNull();
  });

  it('reads gaps as people type them', () => {
    expect(parseGap('10m')).toBe(600_000);
    expect(parseGap('1h30m')).toBe(5_400_000);
    expect(parseGap('2 h')).toBe(7_200_000);
    expect(parseGap('90s')).toBe(90_000);
    expect(parseGap('1d')).toBe(86_400_000);
    expect(parseGap('10')).toBeNull();
    expect(parseGap('ten minutes')).toBeNull();
    expect(formatGap(5_400_000)).toBe('1h30m');
  });
});
