/**
 * Several kubeconfig contexts as one ObjectSource: one source per context (a cluster source each), their events
 * tagged with the context so the store keeps the same namespace/name in two clusters apart, and their states
 * folded into the run's (context-fold.ts). A context that fails is reported as that context's state; the others
 * keep going.
 */
import type {Clock} from '../core/clock.js';
import type {ExitCode} from '../core/exit-codes.js';
import type {InterestFeed, ObjectSource, SourceEvent, SourceSink} from '../state/object-source.js';
import {foldContexts, type ContextProgress} from './context-fold.js';

export type ContextSource = {
	/** Sanitized context name: what the CONTEXT column, the header and object keys show. */
	readonly context: string;
	readonly source: ObjectSource;
};

export type MultiContextOptions = {
	readonly clock?: Clock;
	/**
	 * How long a context waiting for its credential plugin may hold up the first picture of the others (`--once`:
	 * its budget); undefined = until the plugin answers or gives up (a live view simply shows it waiting).
	 */
	readonly credentialsHoldMs?: number;
};

export function createMultiContextSource(
	children: readonly ContextSource[],
	scope: string,
	options: MultiContextOptions = {},
): ObjectSource {
	let sink: SourceSink | undefined;
	let credentialsHold = true;
	let cancelHold: (() => void) | undefined;
	const progress = new Map<string, ContextProgress>(children.map(c =>
		[c.context, {name: c.context, connection: {status: 'connecting'}, synced: false}]));
	let lastConnection = '';
	let synced = false;
	let failed = false;

	const refold = (): void => {
		if (!sink || failed) {
			return;
		}

		const fold = foldContexts([...progress.values()], {credentialsHold});
		if (fold.fatal) {
			failed = true;
			sink({type: 'fatal', ...fold.fatal});
			return;
		}

		const text = JSON.stringify(fold.connection);
		if (text !== lastConnection) {
			lastConnection = text;
			sink({type: 'connection', state: fold.connection});
		}

		if (fold.synced && !synced) {
			synced = true;
			sink({type: 'synced'});
		}
	};

	const update = (context: string, change: Partial<ContextProgress>): void => {
		progress.set(context, {...progress.get(context)!, ...change});
	};

	const receive = (context: string, event: SourceEvent): void => {
		switch (event.type) {
			case 'connection': {
				update(context, {connection: event.state});
				break;
			}

			case 'synced': {
				update(context, {synced: true});
				break;
			}

			case 'fatal': {
				update(context, {fatal: {message: event.message, exitCode: event.exitCode}});
				break;
			}

			default: {
				break;
			}
		}

		sink?.({...event, context});
		if (event.type === 'missing') {
			// The run's own list too (plain and json say it once, named): `dr: cannot list events …`.
			sink?.({type: 'missing', resource: event.resource, message: `${context}: ${event.message}`});
		}

		refold();
	};

	return {
		label: children.map(c => c.context).join(', '),
		scope,
		start(next: SourceSink): void {
			if (sink) {
				return;
			}

			sink = next;
			// Every context's state first, in order: the store (and the header) list them in this order.
			for (const child of children) {
				sink({type: 'connection', context: child.context, state: {status: 'connecting'}});
			}

			if (options.clock && options.credentialsHoldMs !== undefined) {
				cancelHold = options.clock.after(options.credentialsHoldMs, () => {
					credentialsHold = false;
					refold();
				});
			}

			for (const child of children) {
				child.source.start(event => {
					receive(child.context, event);
				});
			}
		},
		follow(feed: InterestFeed): void {
			// Each context follows the nodes of its own objects; what it sends comes back tagged by `receive`.
			for (const child of children) {
				child.source.follow?.({
					interest: () => feed.interest().filter(i => i.context === child.context).map(({context: _context, ...rest}) => rest),
					wantedLogs: () => feed.wantedLogs()
						.filter(l => l.context === child.context)
						.map(({context: _context, ...rest}) => rest),
					subscribe: listener => feed.subscribe(listener),
				});
			}
		},
		async followed(): Promise<void> {
			await Promise.all(children.map(async c => c.source.followed?.()));
		},
		async stop(): Promise<void> {
			cancelHold?.();
			await Promise.all(children.map(async c => c.source.stop()));
		},
	};
}

/** A context that cannot even start (its kubeconfig entry is broken): it fails at once, the others run. */
export function failedSource(message: string, exitCode: ExitCode, label: string): ObjectSource {
	return {
		label,
		scope: '',
		start(sink: SourceSink): void {
			sink({type: 'fatal', message, exitCode});
		},
		stop(): void {},
	};
}
