import {EventEmitter} from 'node:events';
import {describe, expect, it} from 'vitest';
import {handleInterrupts} from '../../source/cli/interrupt.js';

/** A process stand-in: signals are events, exit is recorded. */
function fakeProcess() {
	const emitter = new EventEmitter();
	const exits: number[] = [];
	return {
		once: (signal: string, listener: () => void) => emitter.once(signal, listener),
		exit(code: number) {
			exits.push(code);
		},
		emit: (signal: string) => emitter.emit(signal),
		exits,
		listeners: (signal: string) => emitter.listenerCount(signal),
	};
}

describe('handleInterrupts', () => {
	it('exits 130 at once while no run has claimed the signals', () => {
		const p = fakeProcess();
		handleInterrupts(p);
		p.emit('SIGINT');
		expect(p.exits).toEqual([130]);
	});

	it('lets a claiming run close itself', async () => {
		const p = fakeProcess();
		const interrupt = handleInterrupts(p);
		const claimed = interrupt.claim();
		p.emit('SIGTERM');
		await claimed;
		expect(p.exits).toEqual([]);
	});

	it('handles each signal once, so a second one gets the default behaviour', () => {
		const p = fakeProcess();
		void handleInterrupts(p).claim();
		expect(p.listeners('SIGINT')).toBe(1);
		p.emit('SIGINT');
		expect(p.listeners('SIGINT')).toBe(0);
		expect(p.listeners('SIGHUP')).toBe(1);
	});
});
