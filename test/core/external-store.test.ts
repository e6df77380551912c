import {describe, expect, it, vi} from 'vitest';
import {Listeners} from '../../source/core/external-store.js';

describe('Listeners', () => {
	it('notifies each listener once, in order added; remove stops one', () => {
		const listeners = new Listeners();
		const calls: string[] = [];
		listeners.add(() => calls.push('a'));
		const removeB = listeners.add(() => calls.push('b'));
		listeners.notify();
		removeB();
		listeners.notify();
		expect(calls).toEqual(['a', 'b', 'a']);
		expect(listeners.size).toBe(1);
	});

	it('a listener removed while notifying is still called this round, not the next', () => {
		const listeners = new Listeners();
		const calls: string[] = [];
		let removeB = (): void => {};
		listeners.add(() => {
			calls.push('a');
			removeB();
		});
		removeB = listeners.add(() => calls.push('b'));
		listeners.notify();
		listeners.notify();
		expect(calls).toEqual(['a', 'b', 'a']);
	});

	it('a listener added while notifying is called from the next round', () => {
		const listeners = new Listeners();
		const calls: string[] = [];
		listeners.add(() => {
			calls.push('a');
			if (calls.length === 1) {
				listeners.add(() => calls.push('c'));
			}
		});
		listeners.notify();
		listeners.notify();
		expect(calls).toEqual(['a', 'a', 'c']);
	});

	it('notifications between two changes of the set read it once (a tick notifies hundreds of texts)', () => {
		const listeners = new Listeners();
		let called = 0;
		for (let i = 0; i < 300; i++) {
			listeners.add(() => {
				called++;
			});
		}

		const iterate = vi.spyOn(Set.prototype as Set<unknown>, Symbol.iterator);
		for (let round = 0; round < 50; round++) {
			listeners.notify();
		}

		const reads = iterate.mock.calls.length;
		iterate.mockRestore();
		expect(called).toBe(300 * 50);
		expect(reads).toBeLessThanOrEqual(1);
	});
});
