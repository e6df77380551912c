/**
 * Live `-o plain` and `-o json` (no TTY needed): an append-only log while watching — transition lines, or
 * NDJSON — then the final picture. Never a cursor movement. The wait rules and exit codes are the TUI's.
 */
import {resultLine, snapshotLine, transitionLine} from '../render/json.js';
import {formatFinished, formatTransition, renderPlain} from '../render/plain.js';
import {timeOfDay} from '../render/clock-time.js';
import type {ConnectionState} from '../kube/object-source.js';
import {objectKey} from '../model/plan-tree.js';
import type {Clock} from '../state/clock.js';
import type {Store, StoreSnapshot} from '../state/store.js';
import {createWaitController, type WaitResult} from '../state/wait-controller.js';
import type {Options} from './parse-args.js';
import {whenSynced} from './when-synced.js';

export type StreamRun = {
	readonly store: Store;
	readonly clock: Clock;
	readonly options: Pick<Options, 'ascii' | 'color' | 'wait' | 'timeoutMs' | 'extendMs'> & {readonly output: 'plain' | 'json'};
	/** Object keys to wait for; empty = everything in scope. */
	readonly targets: readonly string[];
	readonly stdout: (text: string) => Promise<void>;
	readonly stderr: (text: string) => Promise<void>;
	readonly interrupted: Promise<void>;
	readonly timeZone?: string;
};

export async function runStream(run: StreamRun): Promise<WaitResult> {
	const {store, clock, options} = run;
	const synced = await whenSynced(store);
	if (synced.fatal) {
		return synced.fatal;
	}

	const wait = createWaitController({store, clock, wait: options.wait, targets: run.targets, timeoutMs: options.timeoutMs, extendMs: options.extendMs, graceMs: 0});
	const style = {ascii: options.ascii, color: options.color, timeZone: run.timeZone};
	const inScope = (key: string): boolean => run.targets.length === 0 || run.targets.includes(key);
	let lastSeq = synced.transitions.at(-1)?.seq ?? 0;
	let lastConnection: ConnectionState = synced.connection;
	// Writes are chained so lines never interleave, whatever the pace of the store.
	let queue = Promise.resolve();
	const out = (text: string): void => {
		queue = queue.then(async () => run.stdout(text));
	};

	const opening = (s: StoreSnapshot): void => {
		if (options.output === 'json') {
			out(snapshotLine(pick(s, inScope), clock.now()));
			return;
		}

		for (const o of s.objects.filter(x => inScope(objectKey(x)))) {
			out(`${timeOfDay(clock.now(), run.timeZone)} ${o.namespace}/${o.name}  ${o.summary}\n`);
		}
	};

	const follow = (): void => {
		const s = store.getSnapshot();
		for (const t of s.transitions) {
			if (t.seq <= lastSeq || !inScope(t.objectKey)) {
				continue;
			}

			out(options.output === 'json' ? transitionLine(t) : `${formatTransition(t, style)}\n`);
		}

		lastSeq = s.transitions.at(-1)?.seq ?? lastSeq;
		if (s.connection !== lastConnection) {
			// A CI log should say when the watch was interrupted and when it came back.
			const line = connectionLine(s.connection, lastConnection);
			lastConnection = s.connection;
			if (line && options.output === 'plain') {
				out(`${timeOfDay(clock.now(), run.timeZone)} ${line}\n`);
			}
		}
	};

	opening(synced);
	const unsubscribe = store.subscribe(follow);
	const onInterrupt = run.interrupted.then(() => {
		wait.quit();
	});
	void onInterrupt;
	const result = await wait.done;
	unsubscribe();
	follow();
	const final = store.getSnapshot();
	const now = clock.now();
	if (options.output === 'json') {
		out(snapshotLine(pick(final, inScope), now));
		out(resultLine(result, now));
	} else {
		const objects = final.objects.filter(o => inScope(objectKey(o)));
		for (const o of objects) {
			if (o.outcome === 'succeeded' || o.outcome === 'failed') {
				out(`${formatFinished(o, final.timings.get(objectKey(o)), now, style)}\n`);
			}
		}

		out('\n' + renderPlain({objects, timings: final.timings}, {now, ascii: options.ascii, color: options.color, timeZone: run.timeZone}));
	}

	await queue;
	if (result.exitCode >= 2 && result.message && options.output === 'plain') {
		await run.stderr(`planwatch: ${result.message.split('\n')[0]!}\n`);
	}

	return result;
}

function pick(s: StoreSnapshot, inScope: (key: string) => boolean): StoreSnapshot {
	return {...s, objects: s.objects.filter(o => inScope(objectKey(o)))};
}

function connectionLine(now: ConnectionState, before: ConnectionState): string | undefined {
	switch (now.status) {
		case 'reconnecting': {
			return before.status === 'reconnecting' ? undefined : `connection lost: ${now.lastError} (reconnecting)`;
		}

		case 'live': {
			return before.status === 'reconnecting' ? 'connection restored' : undefined;
		}

		case 'waiting-credentials': {
			return `waiting for credentials (${now.plugin})`;
		}

		default: {
			return undefined;
		}
	}
}
