/**
 * Pods and logs for the nodes the views show (docs/stuck.md). Reads an InterestFeed (state/workloads.ts): for
 * Instances on screen, the objects KUDO applied (Deployments, StatefulSets, Jobs with `heritage=kudo`) and their
 * pods; for ActionSets, the pods Kanister functions run (`createdBy=kanister`); in both, warning Events about pods.
 * One reflector per collection and namespace concerned, started when a node needs it and stopped when none does.
 * Logs: the ones the views want — a previous container's read once, a current one followed — each stopped when no
 * view wants it any more. Pods and pods/log are optional: a 403 is one `missing` (pods) or one log error
 * (`forbidden`), and the rest goes on. A one-shot run (`--once`) reads current logs once instead of following them,
 * and asks `settled()` when what the feed wants has been read once (drawn with the cause, not before it).
 */
import type {KubeConfig} from '@kubernetes/client-node';
import type {Clock} from '../core/clock.js';
import type {RequestLog} from '../kube/request-log.js';
import type {KubeObject, WorkloadKind} from '../core/kube-object.js';
import {classifyFailure, KubeStatusError} from '../kube/errors.js';
import {Reflector, type ReflectorEvent} from '../kube/list-watch.js';
import {readPodLog} from '../kube/pod-log.js';
import {resourceTypes} from '../kube/resources.js';
import {kanisterCreatedBy, logKey} from '../model/diagnosis.js';
import {logTailLimits} from '../model/log-tail.js';
import {namespacedName} from '../model/object-references.js';
import type {InterestFeed, SourceSink} from '../state/object-source.js';

export type WorkloadFollowerOptions = {
	readonly kubeConfig: KubeConfig;
	readonly server: string;
	readonly clock: Clock;
	readonly sink: SourceSink;
	readonly credentialPlugin?: string;
	readonly random?: () => number;
	/** How long interest must hold before watches change (scrolling past a node starts nothing). Default 300 ms. */
	readonly settleMs?: number;
	/** Wait before a follow that ended is started again (the container restarted, a blip). Default 5 s. */
	readonly refollowMs?: number;
	/** `--once`: current logs are read once (no follow, no read again). */
	readonly oneShot?: boolean;
	/** `--request-timeout` for each list, as the targets' lists get it. */
	readonly requestTimeoutMs?: number;
	/** `-v=6`: one line per request. */
	readonly requestLog?: RequestLog;
};

type Collection = {
	readonly kind: WorkloadKind | 'Event';
	readonly namespace: string;
	readonly labelSelector?: string;
	readonly fieldSelector?: string;
};

/** Which collections the interest needs: see the module comment. */
export function collectionsFor(feed: Pick<InterestFeed, 'interest'>): Collection[] {
	const kudo = new Set<string>();
	const kanister = new Set<string>();
	for (const i of feed.interest()) {
		for (const ns of i.namespaces) {
			(i.kind === 'Instance' ? kudo : kanister).add(ns);
		}
	}

	const out: Collection[] = [];
	for (const namespace of [...kudo].sort()) {
		for (const kind of ['Deployment', 'StatefulSet', 'Job'] as const) {
			out.push({kind, namespace, labelSelector: 'heritage=kudo'});
		}

		out.push({kind: 'Pod', namespace, labelSelector: 'heritage=kudo'});
	}

	for (const namespace of [...kanister].sort()) {
		out.push({kind: 'Pod', namespace, labelSelector: `${kanisterCreatedBy.key}=${kanisterCreatedBy.value}`});
	}

	for (const namespace of [...new Set([...kudo, ...kanister])].sort()) {
		out.push({kind: 'Event', namespace, fieldSelector: 'involvedObject.kind=Pod,type=Warning'});
	}

	return out;
}

function collectionKey(c: Collection): string {
	return `${c.kind} ${c.namespace} ${c.labelSelector ?? ''} ${c.fieldSelector ?? ''}`;
}

type Watch = {readonly reflector: Reflector; readonly known: Map<string, KubeObject>; readonly collection: Collection; listed: boolean};
/** `read`: its first text came, or the read ended (failed included). */
type Follow = {readonly abort: AbortController; cancelRetry?: () => void; read: boolean};

export class WorkloadFollower {
	readonly #options: WorkloadFollowerOptions;
	readonly #feed: InterestFeed;
	readonly #watches = new Map<string, Watch>();
	readonly #follows = new Map<string, Follow>();
	/** Kinds found forbidden: not asked again this run. */
	readonly #forbidden = new Set<string>();
	#logsForbidden = false;
	#cancelSettle: (() => void) | undefined;
	#unsubscribe: (() => void) | undefined;
	#stopped = false;
	/** Callers of `settled()` waiting. */
	#waiters: Array<() => void> = [];

	constructor(options: WorkloadFollowerOptions, feed: InterestFeed) {
		this.#options = options;
		this.#feed = feed;
	}

	start(): void {
		this.#unsubscribe = this.#feed.subscribe(() => {
			this.#schedule();
		});
		this.#schedule();
	}

	/** How many reflectors and log reads run now (tests count them). */
	get running(): {readonly watches: number; readonly follows: number} {
		return {watches: this.#watches.size, follows: this.#follows.size};
	}

	/**
	 * Resolves once what the feed asks now has been read once: no change of interest waits to be applied, every
	 * collection listed (or refused) and every wanted log read (or refused). Never for a current log that is
	 * followed and silent, so a caller bounds the wait (the `--once` path does, with the request timeout).
	 */
	async settled(): Promise<void> {
		if (this.#idle()) {
			return;
		}

		await new Promise<void>(resolve => {
			this.#waiters.push(resolve);
		});
	}

	#idle(): boolean {
		return this.#stopped || (this.#cancelSettle === undefined
			&& [...this.#watches.values()].every(w => w.listed)
			&& [...this.#follows.values()].every(f => f.read));
	}

	#checkSettled(): void {
		if (this.#waiters.length > 0 && this.#idle()) {
			const waiters = this.#waiters;
			this.#waiters = [];
			for (const resolve of waiters) {
				resolve();
			}
		}
	}

	async stop(): Promise<void> {
		this.#stopped = true;
		this.#checkSettled();
		this.#unsubscribe?.();
		this.#cancelSettle?.();
		for (const follow of this.#follows.values()) {
			follow.cancelRetry?.();
			follow.abort.abort();
		}

		this.#follows.clear();
		const stopping = [...this.#watches.values()].map(w => w.reflector.stop());
		this.#watches.clear();
		await Promise.all(stopping);
	}

	#schedule(): void {
		this.#cancelSettle?.();
		this.#cancelSettle = this.#options.clock.after(this.#options.settleMs ?? 300, () => {
			this.#cancelSettle = undefined;
			this.#reconcile();
		});
	}

	#reconcile(): void {
		if (this.#stopped) {
			return;
		}

		const wanted = new Map(collectionsFor(this.#feed).filter(c => !this.#forbidden.has(c.kind)).map(c => [collectionKey(c), c]));
		for (const [key, watch] of this.#watches) {
			if (!wanted.has(key)) {
				this.#watches.delete(key);
				void watch.reflector.stop();
			}
		}

		for (const [key, collection] of wanted) {
			if (!this.#watches.has(key)) {
				this.#watch(key, collection);
			}
		}

		const logs = new Map(this.#logsForbidden ? [] : this.#feed.wantedLogs().map(l => [logKey(l), l]));
		for (const [key, follow] of this.#follows) {
			if (!logs.has(key)) {
				follow.cancelRetry?.();
				follow.abort.abort();
				this.#follows.delete(key);
			}
		}

		for (const [key, log] of logs) {
			if (!this.#follows.has(key)) {
				this.#follow(key, log);
			}
		}

		this.#checkSettled();
	}

	#watch(key: string, collection: Collection): void {
		const o = this.#options;
		const known = new Map<string, KubeObject>();
		const reflector = new Reflector({
			kubeConfig: o.kubeConfig,
			resource: resourceTypes[collection.kind],
			namespace: collection.namespace,
			...(collection.labelSelector ? {labelSelector: collection.labelSelector} : {}),
			...(collection.fieldSelector ? {fieldSelector: collection.fieldSelector} : {}),
			clock: o.clock,
			...(o.credentialPlugin === undefined ? {} : {credentialPlugin: o.credentialPlugin}),
			...(o.random ? {random: o.random} : {}),
			...(o.requestTimeoutMs === undefined ? {} : {requestTimeoutMs: o.requestTimeoutMs}),
			...(o.requestLog ? {log: o.requestLog} : {}),
		}, event => {
			const watch = this.#watches.get(key);
			if (watch?.reflector === reflector) {
				watch.listed ||= event.type === 'replace';
				this.#onEvent(collection, known, event);
				this.#checkSettled();
			}
		});
		this.#watches.set(key, {reflector, known, collection, listed: false});
		reflector.start();
	}

	#onEvent(collection: Collection, known: Map<string, KubeObject>, event: ReflectorEvent): void {
		const {sink} = this.#options;
		const resource = collection.kind;
		switch (event.type) {
			case 'replace': {
				// As upserts and deletes of what this watch saw: a `replace` of Events would drop the store's other
				// Events of the namespace, and one of pods those another watch (KUDO's, Kanister's) listed.
				const next = new Map(event.objects.map(o => [namespacedName(o), o]));
				for (const [name, old] of known) {
					if (!next.has(name)) {
						sink({type: 'delete', resource, object: old});
					}
				}

				known.clear();
				for (const [name, o] of next) {
					known.set(name, o);
					sink({type: 'upsert', resource, object: o});
				}

				break;
			}

			case 'upsert': {
				known.set(namespacedName(event.object), event.object);
				sink({type: 'upsert', resource, object: event.object});
				break;
			}

			case 'delete': {
				known.delete(namespacedName(event.object));
				sink({type: 'delete', resource, object: event.object});
				break;
			}

			case 'state': {
				break;
			}

			case 'failed': {
				// Optional collections: said once, not asked again; the tree still draws everything else.
				this.#forbidden.add(collection.kind);
				for (const [key, watch] of this.#watches) {
					if (watch.collection.kind === collection.kind) {
						this.#watches.delete(key);
						void watch.reflector.stop();
					}
				}

				if (collection.kind !== 'Event') {
					sink({type: 'missing', resource: collection.kind, message: event.failure.message});
				}

				break;
			}
		}
	}

	#follow(key: string, log: ReturnType<InterestFeed['wantedLogs']>[number]): void {
		const o = this.#options;
		const abort = new AbortController();
		const follow: Follow = {abort, read: false};
		this.#follows.set(key, follow);
		const once = log.previous || o.oneShot === true;
		const base = {type: 'log', namespace: log.namespace, pod: log.pod, container: log.container, previous: log.previous} as const;
		let first = true;
		void readPodLog(o.kubeConfig, {
			namespace: log.namespace,
			pod: log.pod,
			container: log.container,
			previous: log.previous,
			// A previous container has ended: one read (and every read of a one-shot run). The current one is followed
			// while it is wanted.
			follow: !once,
			tailLines: logTailLimits.lines,
			limitBytes: logTailLimits.requestBytes,
			maxBytes: once ? logTailLimits.requestBytes : Number.MAX_SAFE_INTEGER,
			signal: abort.signal,
		}, text => {
			o.sink({...base, text, ...(first ? {reset: true} : {})});
			first = false;
			follow.read = true;
			this.#checkSettled();
		}).then(
			() => {
				follow.read = true;
				this.#ended(key, follow, once);
				this.#checkSettled();
			},
			(error: unknown) => {
				if (abort.signal.aborted || this.#stopped) {
					return;
				}

				const plugin = o.credentialPlugin === undefined ? {} : {credentialPlugin: o.credentialPlugin};
				const where = {server: o.server, verb: 'list', resource: resourceTypes.Pod, namespace: log.namespace, ...plugin} as const;
				const failure = classifyFailure(error, where);
				const forbidden = failure.statusCode === 403;
				if (forbidden) {
					this.#logsForbidden = true;
				}

				// The kubelet's own words come through the apiserver as the Status message (`container "c" in pod "p" is
				// waiting to start: ContainerCreating`, a 400); classifyFailure would read a 404 as "not served".
				const told = error instanceof KubeStatusError && error.statusCode < 500 && error.status?.message
					? `${error.status.message} (${error.statusCode})`
					: undefined;
				const message = forbidden ? `forbidden: cannot get pods/log in namespace ${log.namespace}` : told ?? failure.message;
				o.sink({...base, text: '', error: message, ...(forbidden ? {forbidden: true} : {})});
				follow.read = true;
				// 400: the container is waiting to start (a crash loop's current one): asked again later, as a follow
				// that ended. Anything else (refused, gone) is not asked again while it stays wanted.
				this.#ended(key, follow, once || failure.statusCode !== 400);
				this.#checkSettled();
			},
		);
	}

	/** A read ended: a follow is started again a little later if still wanted (its container came back). */
	#ended(key: string, follow: Follow, done: boolean): void {
		if (this.#follows.get(key) !== follow || this.#stopped) {
			return;
		}

		if (done) {
			return; // kept in #follows: not read again while it stays wanted
		}

		follow.cancelRetry = this.#options.clock.after(this.#options.refollowMs ?? 5000, () => {
			if (this.#follows.get(key) === follow) {
				this.#follows.delete(key);
				this.#reconcile();
			}
		});
	}
}
