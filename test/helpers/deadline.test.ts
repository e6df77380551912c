import {describe, expect, it} from 'vitest';
import {deadline} from './deadline.js';

describe('a wait\'s deadline counts this process\'s CPU time, not the wall clock', () => {
	it('sleeping (a busy machine handing out no CPU) does not spend it', async () => {
		const budget = deadline(50);
		await new Promise(resolve => {
			setTimeout(resolve, 200);
		});
		expect(budget.expired()).toBe(false);
	});

	it('working spends it: a poll that never ends still fails', () => {
		const budget = deadline(50);
		let spins = 0;
		while (!budget.expired()) {
			spins++;
		}

		expect(spins).toBeGreaterThan(0);
		expect(budget.expired()).toBe(true);
	});
});
