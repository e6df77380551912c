/**
 * The wait contract between the CLI, the views and the wait rules. What the user sees of a `--wait`:
 * the deadline (extendable), the grace prompt when it is reached, and the final result.
 */
import type {ExternalStore} from '../core/external-store.js';

export type WaitPhase =
	/** Not waiting (no --wait): watch until the user quits. */
	| 'watching'
	/** Waiting for the targets to finish. */
	| 'waiting'
	/** The timeout was reached; the TUI asks "+ to wait more, q to quit" until `graceEndsAt`. */
	| 'grace'
	/** Finished: `result` says how. */
	| 'done';

export type WaitView = {
	readonly phase: WaitPhase;
	/** Clock time the wait started. */
	readonly startedAt: number;
	/** Clock time the timeout expires; undefined = no timeout. */
	readonly deadlineAt?: number;
	/** How much `+` adds (--extend, default 5m). */
	readonly extendMs: number;
	/** Total extension added so far (can be taken back with `-`, never below 0). */
	readonly extendedMs: number;
	/** When phase is 'grace': clock time planwatch exits with code 3. */
	readonly graceEndsAt?: number;
	/** What we are waiting for, one line ("waiting for the controller to start restore"). */
	readonly waitingFor?: string;
	/** When phase is 'done'. */
	readonly result?: {readonly exitCode: number; readonly message: string};
};

export type WaitControls = {
	/** `+`: add extendMs to the deadline (also from the grace prompt: back to waiting). */
	extend(): void;
	/** `-`: take back one extension. */
	retract(): void;
	/** The user quits (q / Esc / Ctrl+C): exit 130 if still waiting; watching (no --wait), 0 unless a context failed. */
	quit(): void;
};

/** A wait session as the views see it: an external store plus its controls. */
export type WaitSession = WaitControls & ExternalStore<WaitView>;
