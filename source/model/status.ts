import type {NodeState, Outcome} from './plan-tree.js';

/** KUDO ExecutionStatus → normalized state. ERROR is transient: KUDO retries it. */
export function kudoState(raw: string | undefined): NodeState {
	switch (raw) {
		case 'NEVER_RUN': {
			return 'inactive';
		}

		case 'PENDING': {
			return 'pending';
		}

		case 'IN_PROGRESS': {
			return 'running';
		}

		case 'ERROR': {
			return 'retrying';
		}

		case 'COMPLETE': {
			return 'succeeded';
		}

		case 'FATAL_ERROR': {
			return 'failed';
		}

		default: {
			return 'unknown';
		}
	}
}

/** Kanister State → normalized state. */
export function kanisterState(raw: string | undefined): NodeState {
	switch (raw) {
		case 'pending': {
			return 'pending';
		}

		case 'running': {
			return 'running';
		}

		case 'complete': {
			return 'succeeded';
		}

		case 'failed': {
			return 'failed';
		}

		default: {
			return 'unknown';
		}
	}
}

export type StatusLook = {
	/** Unicode icon. */
	readonly icon: string;
	/** ASCII icon for --ascii. */
	readonly ascii: string;
	/** Word used where the raw status is not shown (list view). */
	readonly word: string;
	/** Semantic colour role; the theme maps it to a colour. */
	readonly role: 'success' | 'running' | 'warning' | 'error' | 'muted' | 'unknown';
};

const looks: Record<NodeState, StatusLook> = {
	succeeded: {icon: '✔', ascii: '[ok]', word: 'succeeded', role: 'success'},
	running: {icon: '●', ascii: '[..]', word: 'running', role: 'running'},
	retrying: {icon: '↻', ascii: '[~~]', word: 'retrying', role: 'warning'},
	failed: {icon: '✖', ascii: '[XX]', word: 'failed', role: 'error'},
	pending: {icon: '◌', ascii: '[  ]', word: 'pending', role: 'muted'},
	inactive: {icon: '─', ascii: '[--]', word: 'inactive', role: 'muted'},
	stopped: {icon: '■', ascii: '[||]', word: 'stopped', role: 'warning'},
	unknown: {icon: '?', ascii: '[??]', word: 'unknown', role: 'unknown'},
};

export function statusLook(state: NodeState): StatusLook {
	return looks[state];
}

/** Whether a node in this state has finished (its timer stops). A stopped node will never move again. */
export function isFinishedState(state: NodeState): boolean {
	return state === 'succeeded' || state === 'failed' || state === 'stopped';
}

/** The raw status with the reason the state differs from it: `pending (running per progress)`. */
export function statusText(node: {readonly status: string; readonly statusReason?: string}, empty = ''): string {
	const raw = node.status === '' ? empty : node.status;
	if (!node.statusReason) {
		return raw;
	}

	return raw === '' ? `(${node.statusReason})` : `${raw} (${node.statusReason})`;
}

/** Whether a node in this state is being worked on (its timer runs, it gets a spinner). */
export function isActiveState(state: NodeState): boolean {
	return state === 'running' || state === 'retrying';
}

export function outcomeState(outcome: Outcome): NodeState {
	return outcome === 'running' ? 'running' : outcome === 'succeeded' ? 'succeeded' : outcome === 'failed' ? 'failed' : 'unknown';
}
