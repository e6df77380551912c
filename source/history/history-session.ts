/**
 * The ETA history of one planwatch run: loads the file, files every run the store sees finish, and answers the
 * views' "what do past runs say about this object's nodes" from memory (no I/O per frame).
 */
import type {SourceEvent} from '../state/object-source.js';
import type {Expectation} from '../model/eta.js';
import type {PlanObject} from '../model/plan-tree.js';
import {RunHistory} from '../model/run-history.js';
import type {StoreSnapshot} from '../state/store.js';
import type {HistoryFile} from './history-file.js';
import {RunTracker} from './run-tracker.js';

export type HistorySession = {
	/** node id → expectation for an object's nodes (cached per adapted object). */
	expectations(object: PlanObject): ReadonlyMap<string, Expectation>;
	/** File what the store saw finish up to now: after every source event (see feedWithHistory). */
	flush(): void;
	dispose(): void;
};

type StoreLike = {
	getSnapshot(): Pick<StoreSnapshot, 'objects' | 'timings'>;
	subscribe(listener: () => void): () => void;
};

/**
 * The source's events into the store, and every change straight to the history: the tracker must see each
 * adaptation (a plan seen PENDING then IN_PROGRESS in one batch was still seen starting).
 */
export function feedWithHistory(
	store: {apply(event: SourceEvent): void},
	session: HistorySession | undefined,
): (event: SourceEvent) => void {
	if (!session) {
		return store.apply;
	}

	return event => {
		store.apply(event);
		session.flush();
	};
}

/** `realm`: `demo/` files the demo's runs apart from a cluster's (see RunHistory). */
export function startHistory(store: StoreLike, file: HistoryFile, realm = ''): HistorySession {
	const history = new RunHistory(file.load(), undefined, realm);
	const tracker = new RunTracker(realm);
	const flush = (): void => {
		const fresh = tracker.observe(store.getSnapshot()).filter(r => history.add(r));
		file.append(fresh);
	};

	const unsubscribe = store.subscribe(flush);
	flush();
	return {
		expectations: object => history.expectations(object),
		flush,
		dispose() {
			unsubscribe();
			flush();
		},
	};
}
