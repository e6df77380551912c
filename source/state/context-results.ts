/**
 * Several kubeconfig contexts, one exit code: what each context reached is combined with the run's own result,
 * the worst code winning (exitCodeOrder: the README's table). Pure, table-tested.
 */
import {exitCodes, worstExitCode, type ExitCode} from '../core/exit-codes.js';
import type {ContextState} from './store.js';

export type ContextFailure = {readonly context: string; readonly exitCode: ExitCode; readonly message: string};

/**
 * Contexts that gave up (their `fatal`) and, for a picture taken now (`--once`: `unreachable`), those that never
 * listed: each one's code and its reason, `dr: cannot reach the cluster at …`.
 */
export function contextFailures(
	contexts: readonly ContextState[] | undefined,
	options: {readonly unreachable?: boolean} = {},
): ContextFailure[] {
	return (contexts ?? []).flatMap(c => {
		if (c.fatal) {
			return [{context: c.name, exitCode: c.fatal.exitCode, message: `context ${c.name}: ${c.fatal.message}`}];
		}

		if (options.unreachable && !c.synced) {
			const why = c.connection.status === 'reconnecting' ? c.connection.lastError
				: c.connection.status === 'waiting-credentials'
					? `still waiting for credentials from ${c.connection.plugin}`
					: 'the cluster did not answer';
			return [{context: c.name, exitCode: exitCodes.cluster, message: `context ${c.name}: ${why}`}];
		}

		return [];
	});
}

/**
 * The run's result with the contexts' failures: the worst code; the words of what decided it first (stderr gets
 * the first line of a message), then the rest.
 */
export function withContextFailures<R extends {readonly exitCode: number; readonly message: string}>(
	result: R,
	failures: readonly ContextFailure[],
): R {
	if (failures.length === 0) {
		return result;
	}

	const exitCode = worstExitCode([result.exitCode, ...failures.map(f => f.exitCode)]);
	const theirs = failures.map(f => f.message);
	if (result.exitCode === exitCodes.timedOut && result.message !== '' && exitCode !== result.exitCode) {
		// The run also timed out: one line says both (stderr shows the first line), the object states follow.
		const [first = '', ...rest] = result.message.split('\n');
		return {...result, exitCode, message: [`${theirs.join('; ')}; ${first}`, ...rest].join('\n')};
	}

	const own = result.message === '' ? [] : [result.message];
	const message = (exitCode === result.exitCode ? [...own, ...theirs] : [...theirs, ...own]).join('\n');
	return {...result, exitCode, message};
}
