import {describe, expect, it} from 'vitest';
import {durationFlag, parseDuration} from '../../source/model/parse-duration.js';

describe('parseDuration', () => {
	it.each([
		['0', 0],
		['45s', 45_000],
		['5m', 300_000],
		['1h30m', 5_400_000],
		['1.5h', 5_400_000],
		['2h45m30s', 9_930_000],
		['300ms', 300],
		['.5s', 500],
		['1500us', 2],
		['1m0s', 60_000],
		[' 10m ', 600_000],
	])('reads %s as %d ms', (text, ms) => {
		expect(parseDuration(text)).toBe(ms);
	});

	it.each(['', '5', '-5m', '+5m', '5x', 'm', '1h 30m', '1d', '5mm', '0.0.1s', 'abc'])('rejects %j', text => {
		expect(parseDuration(text)).toBeUndefined();
	});

	it('turns a bad value into a one-line usage error naming the flag', () => {
		const result = durationFlag('--timeout', '10 minutes');
		expect(result).toEqual({error: 'invalid duration for --timeout: "10 minutes" (use e.g. 45s, 5m, 1h30m; 0 = none)'});
	});
});
