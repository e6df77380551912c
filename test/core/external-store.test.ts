import {describe, expect, it} from 'vitest';
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
});
