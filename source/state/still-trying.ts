import type {ConnectionState} from './object-source.js';

/**
 * What a run that has no complete picture yet is still trying, in words: the reason a `--timeout` that ends
 * before the first list ends (`still connecting — the cluster answered 503 Service Unavailable (attempt 6)`).
 */
export function stillTrying(connection: ConnectionState): string {
	switch (connection.status) {
		case 'waiting-credentials': {
			return `still waiting for credentials from ${connection.plugin}`;
		}

		case 'reconnecting': {
			return `still connecting — ${connection.lastError} (attempt ${connection.attempt})`;
		}

		case 'connecting': {
			return 'still connecting to the cluster';
		}

		case 'live': {
			return 'still listing';
		}

		case 'static': {
			return `still reading ${connection.label}`;
		}
	}
}

/** After the first picture: what the connection was doing when the wait ended, if it was not live. */
export function connectionTrouble(connection: ConnectionState): string | undefined {
	switch (connection.status) {
		case 'reconnecting': {
			return `the connection was lost — ${connection.lastError} (reconnecting, attempt ${connection.attempt})`;
		}

		case 'waiting-credentials': {
			return `waiting for credentials from ${connection.plugin}`;
		}

		default: {
			return undefined;
		}
	}
}
