/**
 * The exit codes every mode uses (README and --help list them). One place that turns any thrown error into
 * the single line planwatch prints and its code: never a stack trace (PLANWATCH_DEBUG=1 adds it on stderr).
 */
import type {PlanObject} from '../model/plan-tree.js';
import {sanitizeLine} from '../model/sanitize.js';

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

/** After drawing once: 1 if any object failed, else 0. */
export function onceExitCode(objects: readonly PlanObject[]): number {
	return objects.some(o => o.outcome === 'failed') ? exitCodes.failed : exitCodes.ok;
}

/**
 * Any error → one line and a code. Errors that know their code carry a numeric `exitCode` (InputError and
 * TargetError: 2; cluster errors: 4); anything else is unexpected and reported as a usage/input error.
 */
export function describeError(error: unknown): {readonly message: string; readonly exitCode: number} {
	const code = (error as {exitCode?: unknown} | undefined)?.exitCode;
	const exitCode = typeof code === 'number' && Number.isInteger(code) && code > 0 ? code : exitCodes.usage;
	const text = error instanceof Error ? error.message : String(error);
	const firstLine = text.split('\n').find(line => line.trim() !== '') ?? 'unexpected error';
	return {message: sanitizeLine(firstLine, 500), exitCode};
}
