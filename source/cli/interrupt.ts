/**
 * SIGINT/SIGTERM/SIGHUP end a run with 130. A live run (TUI, stream) claims them to close cleanly (restore the
 * terminal, print the final tree); before that, e.g. while reading stdin, the process exits at once. A second
 * signal exits at once too, so a stuck shutdown stays killable.
 *
 * The listeners stay registered for the whole run: Ink loads signal-exit, whose own listener re-raises the signal
 * (the shell then sees 143 or 129, not 130) as soon as it finds itself the only listener
 * (npm signal-exit 3.x, index.js: `if (listeners.length === emitter.count) … process.kill(process.pid, sig)`).
 */
export const interruptSignals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

type SignalProcess = {
	on(signal: (typeof interruptSignals)[number], listener: () => void): unknown;
	exit(code: number): void;
};

export type Interrupt = {
	/** Take over signals from here on; resolves on the first one. */
	claim(): Promise<void>;
};

export function handleInterrupts(target: SignalProcess, exitCode = 130): Interrupt {
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
