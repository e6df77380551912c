import {expect, test} from 'vitest';
import {formatDuration, formatDurationFitting, formatDurationWords} from '../../source/model/format-duration.js';

test('clock style for tree columns', () => {
	expect(formatDuration(0)).toBe('0:00');
	expect(formatDuration(999)).toBe('0:00');
	expect(formatDuration(41_000)).toBe('0:41');
	expect(formatDuration(221_000)).toBe('3:41');
	expect(formatDuration(3_599_999)).toBe('59:59');
	expect(formatDuration(3_600_000)).toBe('1:00:00');
	expect(formatDuration(3_723_000)).toBe('1:02:03');
	expect(formatDuration(100 * 3_600_000)).toBe('100:00:00');
	expect(formatDuration(-5000)).toBe('0:00');
	expect(formatDuration(Number.NaN)).toBe('0:00');
});

test('words for sentences', () => {
	expect(formatDurationWords(0)).toBe('0s');
	expect(formatDurationWords(400)).toBe('0s');
	expect(formatDurationWords(41_000)).toBe('41s');
	expect(formatDurationWords(72_000)).toBe('1m12s');
	expect(formatDurationWords(600_000)).toBe('10m');
	expect(formatDurationWords(3_600_000)).toBe('1h');
	expect(formatDurationWords(3_603_000)).toBe('1h0m3s');
	expect(formatDurationWords(3_723_000)).toBe('1h2m3s');
	expect(formatDurationWords(3_720_000)).toBe('1h2m');
	expect(formatDurationWords(Number.POSITIVE_INFINITY)).toBe('0s');
});

test.each([
	[221_000, 8, '3:41'],
	[(100 * 3600) * 1000, 9, '100:00:00'],
	[(13_115 * 3600 + 55 * 60 + 12) * 1000, 8, '546d11h'],
	[(13_115 * 3600 + 55 * 60 + 12) * 1000, 6, '13115h'],
	[(13_115 * 3600 + 55 * 60 + 12) * 1000, 4, '546d'],
	[(13_115 * 3600 + 55 * 60 + 12) * 1000, 2, '546d'],
	[(30 * 3600 + 5 * 60) * 1000, 7, '1d6h'],
	[(23 * 3600 + 5 * 60) * 1000, 6, '23h5m'],
	[(23 * 3600 + 5 * 60) * 1000, 3, '23h'],
])('formatDurationFitting(%i ms, %i) = %s: units that fit instead of a cut', (ms, width, text) => {
	expect(formatDurationFitting(ms, width)).toBe(text);
});
