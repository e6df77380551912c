/**
 * The exit codes every mode uses (README and --help list them): a leaf every layer may use.
 */

export const exitCodes = {
	/** Nothing failed. */
	ok: 0,
	/** Something failed. */
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
