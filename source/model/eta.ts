/**
 * How long a running node still needs, from the durations of its past runs (source/model/run-history.ts keeps
 * them). Pure: the expectation of a node is computed once when its object changes; a frame only subtracts.
 */
import {formatDurationWords} from './format-duration.js';
import type {NodeState, PlanNode, PlanObject} from './plan-tree.js';
import {isActiveState} from './status.js';

/** What past runs say about one node: the median and the slowest of its durations. */
export type Expectation = {
	readonly medianMs: number;
	readonly maxMs: number;
	/** How many past runs this rests on. */
	readonly runs: number;
};

/** Where a running node stands against its past runs. */
export type Eta =
	/** Expected to end in `ms` (never below 0). */
	| {readonly kind: 'left'; readonly ms: number}
	/** Running `ms` longer than the slowest past run. */
	| {readonly kind: 'overdue'; readonly ms: number};

export function median(values: readonly number[]): number {
	if (values.length === 0) {
		return Number.NaN;
	}

	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function expectationOf(durations: readonly number[]): Expectation | undefined {
	const valid = durations.filter(d => Number.isFinite(d) && d >= 0);
	if (valid.length === 0) {
		return undefined;
	}

	return {medianMs: median(valid), maxMs: Math.max(...valid), runs: valid.length};
}

/**
 * Median minus elapsed; once the median has passed, the slowest run is what is left to go on; past the slowest
 * run the node is overdue.
 */
export function etaOf(expectation: Expectation, elapsedMs: number): Eta {
	const elapsed = Math.max(0, elapsedMs);
	if (elapsed > expectation.maxMs) {
		return {kind: 'overdue', ms: elapsed - expectation.maxMs};
	}

	const left = expectation.medianMs - elapsed;
	return {kind: 'left', ms: left > 0 ? left : expectation.maxMs - elapsed};
}

/**
 * `~2m left`, `~45s left`, `~<1s left`, `overdue 1m`. An estimate, not a timer: whole minutes from a minute on, 5 s
 * steps below, so a running row's text changes every few seconds at most (the terminal rewrites a line from its
 * first changed character on).
 */
export function formatEta(eta: Eta): string {
	const text = roughDuration(eta.ms);
	return eta.kind === 'overdue' ? `overdue ${text}` : eta.ms < 1000 ? '~<1s left' : `~${text} left`;
}

function roughDuration(ms: number): string {
	if (ms >= 60_000) {
		return formatDurationWords(Math.round(ms / 60_000) * 60_000);
	}

	return formatDurationWords(Math.ceil(ms / 5000) * 5000);
}

/** A node's ETA: only while it is being worked on and its start is known. */
export function nodeEta(
	node: {readonly id: string; readonly state: NodeState},
	expectations: ReadonlyMap<string, Expectation>,
	startedAt: number | undefined,
	now: number,
): Eta | undefined {
	if (startedAt === undefined || !isActiveState(node.state)) {
		return undefined;
	}

	const expectation = expectations.get(node.id);
	return expectation ? etaOf(expectation, now - startedAt) : undefined;
}

/** The node whose ETA is the plan's: the active top-level node while it runs (KUDO plan, Kanister action). */
export function planNode(object: PlanObject): PlanNode | undefined {
	return object.tree.find(n => n.active && isActiveState(n.state)) ?? object.tree.find(n => isActiveState(n.state));
}
