/**
 * The one home of exit codes: their numbers (README and --help list them) and what each means to a library caller.
 * The error classes that carry them are in ./errors.ts. A leaf every layer may use (the bin too, before its Node
 * version check: keep this file free of imports and of syntax old Node versions cannot parse); no other file
 * writes an exit-code number.
 */

export const exitCodes = {
	/** Nothing failed. */
	ok: 0,
	/**
	 * Something failed — also a target deleted before it finished (what was waited for will never finish, as
	 * `kubectl wait` fails for a gone object), and a KUDO Instance whose last plan cannot be told apart from a
	 * failed one.
	 */
	failed: 1,
	/** Usage, input or output error (a bad flag, an unreadable file, stdout cannot be written: disk full). */
	usage: 2,
	/** Timed out. */
	timedOut: 3,
	/** Cluster error. */
	cluster: 4,
	/** Interrupted (SIGINT, SIGTERM, SIGHUP, or quit before the wait finished). */
	interrupted: 130,
	/**
	 * The reader of stdout went away (`planwatch … | head -1`) before the run had an outcome: 128 + SIGPIPE, what
	 * a shell reports for a program a closed pipe ended. Once the outcome is known, a closed pipe keeps its code.
	 */
	outputClosed: 141,
} as const;

export type ExitCode = (typeof exitCodes)[keyof typeof exitCodes];

/** Whether a number read from outside (a recording) is one of planwatch's exit codes. */
export function isExitCode(code: unknown): code is ExitCode {
	return (Object.values(exitCodes) as unknown[]).includes(code);
}

/** How a run ended, in the library's words. */
export type RunOutcome = 'succeeded' | 'failed' | 'timeout' | 'cluster-error' | 'aborted' | 'error';

/** Exit code → outcome: the one table the library uses. */
export const outcomeOfExitCode: Readonly<Record<ExitCode, RunOutcome>> = {
	[exitCodes.ok]: 'succeeded',
	[exitCodes.failed]: 'failed',
	[exitCodes.usage]: 'error',
	[exitCodes.timedOut]: 'timeout',
	[exitCodes.cluster]: 'cluster-error',
	[exitCodes.interrupted]: 'aborted',
	[exitCodes.outputClosed]: 'error',
};

/**
 * How bad each code is, in the order of the README's table: when several kubeconfig contexts each reach a code,
 * the run exits with the worst (a cluster error in one context outweighs a failure in another, which outweighs
 * success; a timeout or an interruption of the whole run outweighs what any context reached).
 */
export const exitCodeOrder: readonly ExitCode[] = [
	exitCodes.ok,
	exitCodes.failed,
	exitCodes.usage,
	exitCodes.timedOut,
	exitCodes.cluster,
	exitCodes.interrupted,
	exitCodes.outputClosed,
];

/** The worst of `codes` by exitCodeOrder; ok when there are none (a number that is no exit code never wins). */
export function worstExitCode<C extends number>(codes: Iterable<C>): C | ExitCode {
	let worst: C | ExitCode = exitCodes.ok;
	for (const code of codes) {
		if ((exitCodeOrder as readonly number[]).indexOf(code) > (exitCodeOrder as readonly number[]).indexOf(worst)) {
			worst = code;
		}
	}

	return worst;
}
