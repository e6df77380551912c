import {EventEmitter} from 'node:events';
import {describe, expect, it} from 'vitest';
import {handleInterrupts} from '../../source/cli/interrupt.js';

/** A process stand-in: signals are events, exit is recorded. */
function fakeProcess() {
	const emitter = new EventEmitter();
	const exits: number[] = [];
	return {
		on: (signal: string, listener: () => void) => emitter.on(signal, listener),
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

	it('keeps its listeners for the whole run, and exits at once on a second signal', async () => {
		const p = fakeProcess();
		const claimed = handleInterrupts(p).claim();
		p.emit('SIGTERM');
		await claimed;
		// Still listening: a library that re-raises the signal when it is the last listener (signal-exit) never does.
		expect(p.listeners('SIGTERM')).toBe(1);
		expect(p.listeners('SIGHUP')).toBe(1);
		expect(p.exits).toEqual([]);
		p.emit('SIGHUP');
		expect(p.exits).toEqual([130]);
	});
});
