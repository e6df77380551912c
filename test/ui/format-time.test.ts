import {describe, expect, test} from 'vitest';
import {ageOf, formatAge} from '../../source/ui/format-time.js';

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

