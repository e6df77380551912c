import {describe, expect, it, vi} from 'vitest';
import {isoTime} from '../../source/model/read-raw.js';

describe('isoTime', () => {
	it('prints whole seconds without .000, keeps milliseconds, and refuses what does not parse — the same when asked again', () => {
		for (let round = 0; round < 2; round++) {
			expect(isoTime('2026-11-30T11:00:00Z')).toBe('2026-11-30T11:00:00Z');
			expect(isoTime('2026-11-30T11:00:00.250Z')).toBe('2026-11-30T11:00:00.250Z');
			expect(isoTime('2026-11-30T11:00:00.000Z')).toBe('2026-11-30T11:00:00Z');
			expect(isoTime('not a timeZ')).toBeUndefined();
			expect(isoTime('2026-11-30T12:00:00+01:00')).toBe('2026-11-30T11:00:00Z');
			expect(isoTime(new Date(Date.UTC(2026, 10, 30, 11)))).toBe('2026-11-30T11:00:00Z');
			expect(isoTime(42)).toBeUndefined();
			expect(isoTime(`${'9'.repeat(70)}Z`)).toBeUndefined();
		}
	});

	it('answers every time right past the bound of the strings it keeps (thousands of distinct times)', () => {
		for (let i = 0; i < 10_000; i++) {
			const ms = Date.UTC(2026, 0, 1) + i * 1000;
			expect(isoTime(new Date(ms).toISOString())).toBe(new Date(ms).toISOString().replace('.000Z', 'Z'));
		}

		expect(isoTime(new Date(Date.UTC(2026, 0, 1)).toISOString())).toBe('2026-01-01T00:00:00Z');
	});

	it('a UTC time asked again is not parsed again (every adaptation reads the same timestamps); a zone-less one is', () => {
		const parse = vi.spyOn(Date, 'parse');
		try {
			isoTime('2026-11-30T11:22:33Z');
			isoTime('2026-11-30T11:22:33');
			const parsed = parse.mock.calls.length;
			for (let i = 0; i < 5; i++) {
				expect(isoTime('2026-11-30T11:22:33Z')).toBe('2026-11-30T11:22:33Z');
				isoTime('2026-11-30T11:22:33');
			}

			expect(parse.mock.calls.length - parsed).toBe(5);
		} finally {
			parse.mockRestore();
		}
	});
});
