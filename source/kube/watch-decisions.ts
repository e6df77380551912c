/**
 * How one watch request ends, as pure decisions: what a watch ERROR event means, and what the end of the stream
 * means. The reflector then relists (expired), rewatches (closed) or backs off (failed).
 */
import {classifyFailure, KubeStatusError, type FailureContext, type KubeFailure, type KubeStatus} from './errors.js';

export type WatchOutcome =
	| {readonly kind: 'closed'}
	/** `quick`: refused before any event on the first watch after a list — relisting at once will not help. */
	| {readonly kind: 'expired'; readonly quick: boolean}
	| {readonly kind: 'failed'; readonly failure: KubeFailure}
	| {readonly kind: 'stopped'};

/** What the watch has seen so far. */
export type WatchProgress = {
	/** This watch started from the resourceVersion of a list just made. */
	readonly firstAfterList: boolean;
	/** Objects received on this watch. */
	readonly received: number;
	/** The server answered the request (200). */
	readonly opened: boolean;
	readonly elapsedMs: number;
};

/** A stream that ends without error within this time of opening, having sent nothing, is a failure. */
export const veryShortWatchMs = 1000;

/** A watch ERROR event: 410 Expired/Gone → relist; any other ends this watch and is retried with backoff (as client-go). */
export function onWatchError(status: KubeStatus, progress: WatchProgress, context: FailureContext): WatchOutcome {
	if (status.code === 410 || status.reason === 'Expired' || status.reason === 'Gone') {
		return {kind: 'expired', quick: progress.firstAfterList && progress.received === 0};
	}

	return {
		kind: 'failed',
		failure: classifyFailure(new KubeStatusError(status.code ?? 500, status, status.message ?? 'watch error'), context),
	};
}

/** A request that never got an answer is a failure (backoff, `reconnecting`), not a quiet stream. */
export function notAnswered(context: FailureContext): WatchOutcome {
	return {kind: 'failed', failure: {kind: 'server', message: `the cluster did not answer a watch of ${context.resource.plural}`}};
}

/**
 * The stream ended (`error` undefined/null: closed by the server). Closed at once with nothing sent → failure;
 * client-node's inactivity timeout → a quiet resource, rewatch (unless it never answered); 410 → relist.
 */
export function onStreamEnd(error: unknown, progress: WatchProgress, context: FailureContext): WatchOutcome {
	if (error === null || error === undefined) {
		return progress.received === 0 && progress.elapsedMs < veryShortWatchMs
			? {kind: 'failed', failure: {kind: 'server', message: `the watch of ${context.resource.plural} closed as soon as it opened`}}
			: {kind: 'closed'};
	}

	if ((error as {name?: unknown}).name === 'TimeoutError') {
		return progress.opened ? {kind: 'closed'} : notAnswered(context);
	}

	const failure = classifyFailure(error, context);
	return failure.kind === 'expired'
		? {kind: 'expired', quick: progress.firstAfterList && progress.received === 0}
		: {kind: 'failed', failure};
}
