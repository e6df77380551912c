import {deadline} from './deadline.js';

/**
 * Poll `condition` until it holds; fail once `timeoutMs` of this process's CPU time are spent (or the wall-clock
 * backstop of test/helpers/deadline.ts passes) with `what`. No fixed sleeps in tests, and no budget a loaded
 * machine can miss.
 */
export async function waitUntil(condition: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
	const budget = deadline(timeoutMs);
	while (!condition()) {
		if (budget.expired()) {
			throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
		}

		await new Promise(resolve => {
			setTimeout(resolve, 10);
		});
	}
}
