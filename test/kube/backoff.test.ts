import {describe, expect, it} from 'vitest';
import {Backoff, backoffCeiling, defaultBackoffPolicy} from '../../source/kube/backoff.js';

describe('backoff', () => {
	it('starts at 800 ms, doubles and stops at 30 s (ceiling, before jitter)', () => {
		expect([1, 2, 3, 4, 5, 6, 7, 8].map(n => backoffCeiling(n))).toEqual([800, 1600, 3200, 6400, 12_800, 25_600, 30_000, 30_000]);
		expect(defaultBackoffPolicy).toEqual({initialMs: 800, capMs: 30_000, factor: 2, resetAfterMs: 120_000});
	});

	it('uses full jitter: anywhere between 0 and the ceiling, from the injected random', () => {
		const low = new Backoff({random: () => 0});
		expect([low.next(0), low.next(1), low.next(2)]).toEqual([0, 0, 0]);
		const high = new Backoff({random: () => 0.999_999});
		expect([high.next(0), high.next(1), high.next(2)]).toEqual([799, 1599, 3199]);
		const half = new Backoff({random: () => 0.5});
		expect(half.next(0)).toBe(400);
	});

	it('counts consecutive failures', () => {
		const backoff = new Backoff({random: () => 0.5});
		backoff.next(0);
		backoff.next(100);
		expect(backoff.attempt).toBe(2);
	});

	it('starts over after 2 minutes without a failure', () => {
		const backoff = new Backoff({random: () => 0.999_999});
		for (let t = 0; t < 10; t++) {
			backoff.next(t * 1000);
		}

		expect(backoff.next(10_000)).toBe(29_999);
		expect(backoff.next(10_000 + 119_999)).toBe(29_999);
		expect(backoff.next(10_000 + 119_999 + 120_000)).toBe(799);
		expect(backoff.attempt).toBe(1);
	});

	it('reset() forgets the history; the policy can be tuned', () => {
		const backoff = new Backoff({random: () => 0.999_999, policy: {initialMs: 10, capMs: 40}});
		expect([backoff.next(0), backoff.next(0), backoff.next(0), backoff.next(0)]).toEqual([9, 19, 39, 39]);
		backoff.reset();
		expect(backoff.next(0)).toBe(9);
	});
});
