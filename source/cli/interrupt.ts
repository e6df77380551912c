/**
 * SIGINT/SIGTERM/SIGHUP end a run with 130. A live run (TUI, stream) claims them to close cleanly (restore the
 * terminal, print the final tree); before that, e.g. while reading stdin, the process exits at once. A second
 * signal exits at once too, so a stuck shutdown stays killable; so does a shutdown whose last lines nobody reads
 * (a full pipe), after a second without progress.
 *
 * The listeners stay registered for the whole run: Ink loads signal-exit, whose own listener re-raises the signal
 * (the shell then sees 143 or 129, not 130) as soon as it finds itself the only listener
 * (npm signal-exit 3.x, index.js: `if (listeners.length === emitter.count) … process.kill(process.pid, sig)`).
 */
import {exitCodes} from '../core/exit-codes.js';

export const interruptSignals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

type SignalProcess = {
	on(signal: (typeof interruptSignals)[number], listener: () => void): unknown;
	exit(code: number): void;
};

export type Interrupt = {
	/** Take over signals from here on; resolves on the first one. */
	claim(): Promise<void>;
};

/** What the watchdog reads of stdout: bytes handed to it that the reader has not taken yet. */
export type Output = {readonly writableLength: number};

/** The watchdog looks this often, and exits after this many looks without the output moving. */
export const stallCheckMs = 250;
export const stallChecks = 4;

/**
 * After a claimed signal the run closes cleanly, which means writing its last lines. When nobody reads stdout (a
 * full pipe), that write never completes and the run would never end: once the output has not moved for
 * `stallChecks` looks in a row, exit with the code at once (the lines cannot be delivered anyway).
 */
function watchOutput(output: Output, exit: () => void, every: (ms: number, check: () => void) => void): void {
	let last = Number.POSITIVE_INFINITY;
	let still = 0;
	every(stallCheckMs, () => {
		const pending = output.writableLength;
		still = pending > 0 && pending >= last ? still + 1 : 0;
		last = pending;
		if (still >= stallChecks) {
			exit();
		}
	});
}

const unrefInterval = (ms: number, check: () => void): void => {
	setInterval(check, ms).unref();
};

export function handleInterrupts(
	target: SignalProcess,
	exitCode: number = exitCodes.interrupted,
	output?: Output,
	every: (ms: number, check: () => void) => void = unrefInterval,
): Interrupt {
	let claimed = false;
	let received = 0;
	let resolveSignalled: () => void = () => {};
	const signalled = new Promise<void>(resolve => {
		resolveSignalled = resolve;
	});
	const onSignal = (): void => {
		received++;
		if (!claimed || received > 1) {
			target.exit(exitCode);
			return;
		}

		if (output) {
			watchOutput(output, () => {
				target.exit(exitCode);
			}, every);
		}

		resolveSignalled();
	};

	for (const signal of interruptSignals) {
		target.on(signal, onSignal);
	}

	return {
		async claim() {
			claimed = true;
			return signalled;
		},
	};
}
