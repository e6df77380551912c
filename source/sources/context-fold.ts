/**
 * Several kubeconfig contexts watched at once: what their own states mean for the whole run. Pure, table-tested.
 *
 * - A context that gave up (unreachable for good, 403, bad credentials: its `fatal`) does not stop the others; the
 *   run fails only when every context did, with the worst code.
 * - The first picture is complete once every context has listed, failed, or cannot be reached yet (reconnecting
 *   before its first list): one cluster that is down must not hold up the picture of the others. A context still
 *   waiting for its credential plugin (a login) holds the picture only while `credentialsHold` (a bounded time).
 * - The run's connection is the worst of the contexts still running, named: `dr: connection refused`.
 */
import {worstExitCode, type ExitCode} from '../core/exit-codes.js';
import type {ConnectionState} from '../state/object-source.js';

export type ContextProgress = {
	readonly name: string;
	readonly connection: ConnectionState;
	readonly synced: boolean;
	readonly fatal?: {readonly message: string; readonly exitCode: ExitCode};
};

export type RunFold = {
	readonly connection: ConnectionState;
	readonly synced: boolean;
	readonly fatal?: {readonly message: string; readonly exitCode: ExitCode};
};

export function foldContexts(contexts: readonly ContextProgress[], options: {readonly credentialsHold?: boolean} = {}): RunFold {
	const credentialsHold = options.credentialsHold ?? true;
	const running = contexts.filter(c => !c.fatal);
	if (running.length === 0) {
		const failed = contexts.filter(c => c.fatal);
		return {
			connection: {status: 'connecting'},
			synced: false,
			fatal: {
				exitCode: worstExitCode(failed.map(c => c.fatal!.exitCode)),
				message: failed.map(c => `${c.name}: ${c.fatal!.message}`).join('; '),
			},
		};
	}

	const synced = running.every(c =>
		c.synced || c.connection.status === 'reconnecting' || (!credentialsHold && c.connection.status === 'waiting-credentials'));
	return {connection: foldConnection(running), synced};
}

function foldConnection(running: readonly ContextProgress[]): ConnectionState {
	const reconnecting = running
		.filter((c): c is ContextProgress & {connection: Extract<ConnectionState, {status: 'reconnecting'}>} =>
			c.connection.status === 'reconnecting')
		.sort((a, b) => b.connection.attempt - a.connection.attempt)[0];
	if (reconnecting) {
		return {
			status: 'reconnecting',
			attempt: reconnecting.connection.attempt,
			lastError: `${reconnecting.name}: ${reconnecting.connection.lastError}`,
		};
	}

	const credentials = running.find(c => c.connection.status === 'waiting-credentials');
	if (credentials?.connection.status === 'waiting-credentials') {
		const {limitMs} = credentials.connection;
		return {
			status: 'waiting-credentials',
			plugin: `${credentials.name}: ${credentials.connection.plugin}`,
			...(limitMs === undefined ? {} : {limitMs}),
		};
	}

	return running.every(c => c.connection.status === 'live') ? {status: 'live'} : {status: 'connecting'};
}
