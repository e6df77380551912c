import {EventEmitter} from 'node:events';
import {describe, expect, it} from 'vitest';
import {handleInterrupts, stallChecks} from '../../source/cli/interrupt.js';

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

	it('after a claimed signal, exits once the output has not moved for a second (a full pipe nobody reads)', async () => {
		const p = fakeProcess();
		const output = {writableLength: 0};
		const checks: Array<() => void> = [];
		const claimed = handleInterrupts(p, 130, output, (_ms, check) => checks.push(check)).claim();
		p.emit('SIGTERM');
		await claimed;
		const look = (pending: number): void => {
			output.writableLength = pending;
			checks[0]!();
		};

		// Moving (the reader takes it), or nothing pending: the clean close goes on.
		for (const pending of [0, 5000, 4000, 3000, 0, 0, 0, 0, 0, 100, 50]) {
			look(pending);
		}

		expect(p.exits).toEqual([]);
		// Stuck: after stallChecks looks without progress.
		for (let i = 0; i < stallChecks; i++) {
			look(70_000);
		}

		expect(p.exits).toEqual([130]);
	});
});
