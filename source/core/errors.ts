/**
 * The error base class: an expected failure knows the one line the user sees and its exit code. Input, target,
 * kubeconfig and cluster errors extend it; `describeError` and the library map errors with `exitCodeOf`.
 */
import {exitCodes, type ExitCode} from './exit-codes.js';

/**
 * An error planwatch expects: its message is the one line the user sees, `exitCode` the code the run ends with.
 * Anything thrown that is not a PlanwatchError is unexpected and ends with `exitCodes.usage`.
 */
export class PlanwatchError extends Error {
	readonly exitCode: ExitCode;

	constructor(message: string, exitCode: ExitCode, options?: ErrorOptions) {
		super(message, options);
		this.name = new.target.name;
		this.exitCode = exitCode;
	}
}

/** What the user typed or gave cannot be used (a flag, a target, a file): exit 2. */
export class InputError extends PlanwatchError {
	constructor(message: string, options?: ErrorOptions) {
		super(message, exitCodes.usage, options);
	}
}

/** The cluster cannot be used (unreachable, RBAC, CRD missing, kubeconfig broken): exit 4. */
export class ClusterError extends PlanwatchError {
	constructor(message: string, options?: ErrorOptions) {
		super(message, exitCodes.cluster, options);
	}
}

/** The exit code of anything thrown: a PlanwatchError's own, else `usage` (unexpected errors are reported, not hidden). */
export function exitCodeOf(error: unknown): ExitCode {
	return error instanceof PlanwatchError ? error.exitCode : exitCodes.usage;
}
