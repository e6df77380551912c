/**
 * One place that turns any thrown error into the single line planwatch prints and its code: never a stack trace
 * (-v=9 or PLANWATCH_DEBUG=1 adds it on stderr: source/cli.tsx).
 */
import {exitCodes, type ExitCode} from '../core/exit-codes.js';
import {exitCodeOf} from '../core/errors.js';
import type {PlanObject} from '../model/plan-tree.js';
import {sanitizeLine} from '../model/sanitize.js';
import {waitVerdict} from '../model/wait-rules.js';

/**
 * After drawing once: 1 if any object failed, or if the wait rules already call it failed whatever comes next
 * (an inconsistent `complete` ActionSet, one Kanister's validation rejects, an Instance that cannot be read): one
 * verdict for `--wait` and `-f`/`--once`. Nothing that could still change counts (an infinite deferPhase grace).
 */
export function onceExitCode(objects: readonly PlanObject[]): ExitCode {
	const settled = {now: 0, deferGraceMs: Number.POSITIVE_INFINITY, staleMs: 0};
	return objects.some(o => {
		if (o.outcome === 'failed') {
			return true;
		}

		const verdict = waitVerdict(o, o, settled);
		return verdict.done && verdict.exitCode === exitCodes.failed;
	})
		? exitCodes.failed
		: exitCodes.ok;
}

/**
 * Any error → one line and a code: a PlanwatchError (input, target, kubeconfig, cluster) keeps its code; anything
 * else is unexpected and reported as a usage/input error.
 */
export function describeError(error: unknown): {readonly message: string; readonly exitCode: ExitCode} {
	const text = error instanceof Error ? error.message : String(error);
	const firstLine = text.split('\n').find(line => line.trim() !== '') ?? 'unexpected error';
	return {message: sanitizeLine(firstLine, 500), exitCode: exitCodeOf(error)};
}
