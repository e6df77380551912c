/**
 * SIGINT/SIGTERM/SIGHUP end a run with 130. A live run (TUI, stream) claims them to close cleanly (restore the
 * terminal, print the final tree); before that, e.g. while reading stdin, the process exits at once. The
 * handlers are one-shot, so a second signal gets Node's default handling and a stuck shutdown stays killable.
 */
export const interruptSignals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

type SignalProcess = {
	once(signal: (typeof interruptSignals)[number], listener: () => void): unknown;
	exit(code: number): void;
};

export type Interrupt = {
	/** Take over signals from here on; resolves on the first one. */
	claim(): Promise<void>;
};

export function handleInterrupts(target: SignalProcess, exitCode = 130): Interrupt {
	let claimed = false;
	const signalled = new Promise<void>(resolve => {
		for (const signal of interruptSignals) {
			target.once(signal, () => {
				if (!claimed) {
					target.exit(exitCode);
				}

				resolve();
			});
		}
	});
	return {
		async claim() {
			claimed = true;
			return signalled;
		},
	};
}
