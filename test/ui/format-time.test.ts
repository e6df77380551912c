import {describe, expect, test} from 'vitest';
import {ageOf, formatAge, formatClockTime} from '../../source/ui/format-time.js';

process.env['TZ'] = 'UTC';

describe('formatAge', () => {
	test.each([
		[0, '0s'],
		[58_999, '58s'],
		[60_000, '1m'],
		[3 * 60_000 + 59_000, '3m'],
		[3_600_000, '1h'],
		[47 * 3_600_000, '47h'],
		[2 * 86_400_000, '2d'],
		[-5000, '0s'],
	])('%i ms → %s', (ms, text) => {
		expect(formatAge(ms)).toBe(text);
	});
});

describe('formatClockTime', () => {
	const now = Date.parse('2026-11-30T11:05:00Z');

	test('same day: time with seconds; another day: date and minutes', () => {
		expect(formatClockTime('2026-11-30T11:02:51Z', now)).toBe('11:02:51');
		expect(formatClockTime('2021-06-10T09:14:41Z', now)).toBe('2021-06-10 09:14');
	});

	test('missing or unparsable: nothing', () => {
		expect(formatClockTime(undefined, now)).toBeUndefined();
		expect(formatClockTime('yesterday', now)).toBeUndefined();
		expect(ageOf('not a time', now)).toBeUndefined();
		expect(ageOf('2026-11-30T11:04:00Z', now)).toBe(60_000);
	});
});
