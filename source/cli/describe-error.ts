/**
 * One place that turns any thrown error into the single line planwatch prints and its code: never a stack trace
 * (PLANWATCH_DEBUG=1 adds it on stderr).
 */
import {exitCodes} from '../core/exit-codes.js';
import type {PlanObject} from '../model/plan-tree.js';
import {sanitizeLine} from '../model/sanitize.js';

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
