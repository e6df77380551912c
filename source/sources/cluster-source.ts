/**
 * The cluster as an ObjectSource: one reflector per watched collection, their events merged into
 * SourceEvents, their connection states folded into one, and start-up failures turned into one `fatal`.
 *
 * What is watched:
 * - Instances / ActionSets: one reflector per named target (field selector `metadata.name=…`), or one for
 *   every object of the kind in scope when there are no targets of any kind;
 * - OperatorVersions (for KUDO) and Blueprints (for Kanister) in scope, to draw plans that have not run;
 * - core/v1 Events in scope (only about the target when there is exactly one).
 * A product whose CRDs are missing is fatal only if the user named an object of it, or if neither is there.
 * A 403 on a supporting collection (OperatorVersions, Blueprints, Events) is not fatal: the targets are watched
 * without it and a `missing` event says what and why. A 403 on one product's main kind when watching everything
 * is the same (a Kanister-only user sees the ActionSets); it ends the run only for named targets, or when nothing
 * at all is readable.
 */
import {HttpMethod, RequestContext, type KubeConfig} from '@kubernetes/client-node';
import {exitCodes, type ExitCode} from '../core/exit-codes.js';
import {compactRaw, StringTable} from '../model/compact-raw.js';
import {namespacedName} from '../model/object-references.js';
import {collectionsToWatch, onCollectionFailure, type Collection, type Product} from './cluster-decisions.js';
import type {Clock} from '../core/clock.js';
import type {BackoffPolicy} from '../kube/backoff.js';
import {classifyFailure, CredentialError, nearMiss, notFoundMessage, type KubeFailure} from '../kube/errors.js';
import type {LoadedKubeconfig} from '../kube/kubeconfig.js';
import {listObjects, Reflector, type ReflectorEvent, type ReflectorState} from '../kube/list-watch.js';
import type {RequestLog} from '../kube/request-log.js';
import type {ConnectionState, InterestFeed, ObjectSource, SourceSink} from '../state/object-source.js';
import {WorkloadFollower} from './workload-follower.js';
import type {KubeObject, ResourceKind} from '../core/kube-object.js';
import {resourceTypes} from '../kube/resources.js';
import type {Target, TargetKind} from '../model/targets.js';

export type ClusterSourceOptions = {
	readonly kubeconfig: LoadedKubeconfig;
	/** undefined = all namespaces (-A). */
	readonly namespace?: string;
	/** Label selector (-l) for Instances and ActionSets. */
	readonly selector?: string;
	/** Named objects; empty = everything in scope. */
	readonly targets: readonly Target[];
	/** Without targets: only these kinds (`planwatch actionsets`); empty or absent = both. */
	readonly kinds?: readonly TargetKind[];
	readonly clock: Clock;
	/** Jitter source for backoff and watch timeouts (tests pin it). */
	readonly random?: () => number;
	readonly backoff?: Partial<BackoffPolicy>;
	/** Abort and rewatch a watch silent for this long (default 60 s). */
	readonly watchdogMs?: number;
	/**
	 * Give up (fatal, exit 4, with the last reason) when the first complete list has not arrived this long after
	 * the credentials are in hand; undefined = keep retrying (a live view waits for the cluster to come back).
	 */
	readonly firstListWithinMs?: number;
	/** Objects per LIST page (tests use small pages). */
	readonly listPageSize?: number;
	/** `--request-timeout` (kubectl's: one non-watch request; 0 = none); absent = planwatch's 60 s per list. */
	readonly requestTimeoutMs?: number;
	/** `-v=6`: one line per HTTP request. */
	readonly requestLog?: RequestLog;
	/** `--once`: the pods' logs are read once, not followed (sources/workload-follower.ts `oneShot`). */
	readonly oneShot?: boolean;
};

type Entry = {
	readonly id: number;
	readonly kind: ResourceKind;
	readonly product: Product;
	readonly target?: Target;
	readonly reflector: Reflector;
	readonly objects: Map<string, KubeObject>;
	listed: boolean;
	/** A supporting collection planwatch may not read (403): left out, the targets are drawn without it. */
	missing: boolean;
	state: ReflectorState;
};

/**
 * `--once` (one picture, then exit): how long after the credentials are in hand the first complete list may take
 * before planwatch gives up with exit 4 and the last reason (retrying 5xx, 429 and broken answers meanwhile).
 */
export const onceFirstListWithinMs = 30_000;

/** How long a supporting collection's start-up failure waits for one of the targets' own kind. */
const supportingFailureDelayMs = 500;

/**
 * One reflector per collection to watch (cluster-decisions.ts decides which), their events merged for the sink.
 * Long-lived: start once, stop once; everything it holds is private.
 */
export class ClusterSource implements ObjectSource {
	readonly label: string;
	readonly scope: string;
	readonly #options: ClusterSourceOptions;
	readonly #targets: readonly Target[];
	readonly #absent = new Set<Product>();
	/** Products whose main kind may not be listed, skipped with a note (their forbidden line). */
	readonly #forbidden = new Map<Product, string>();
	/** Supporting kinds found forbidden before their product's own kind listed (see `missing` in #onFailed). */
	#heldMissing: Array<{readonly product: Product; readonly event: Extract<Parameters<SourceSink>[0], {type: 'missing'}>}> = [];
	readonly #lookups = new AbortController();
	/** Strings the objects this source keeps have in common (compactRaw). */
	readonly #strings = new StringTable();
	#sink: SourceSink | undefined;
	#entries: Entry[] = [];
	#follower: WorkloadFollower | undefined;
	#stopped = false;
	/** A fatal event was sent. */
	#finished = false;
	#synced = false;
	#lastConnection = '';

	constructor(options: ClusterSourceOptions) {
		this.#options = options;
		this.#targets = dedupe(options.targets);
		this.label = options.kubeconfig.contextName;
		this.scope = options.namespace ?? 'all namespaces';
	}

	start(sink: SourceSink): void {
		if (this.#sink) {
			return;
		}

		this.#sink = sink;
		void this.#begin();
	}

	/** Pods and logs for the nodes the views show (sources/workload-follower.ts); after `start`. */
	follow(feed: InterestFeed): void {
		const sink = this.#sink;
		if (!sink || this.#follower || this.#stopped) {
			return;
		}

		const {kubeconfig, clock, random, requestTimeoutMs, requestLog, oneShot} = this.#options;
		this.#follower = new WorkloadFollower({
			kubeConfig: kubeconfig.kubeConfig,
			server: kubeconfig.server,
			clock,
			sink: event => {
				if (!this.#stopped && !this.#finished) {
					sink(event);
				}
			},
			...(kubeconfig.credentialPlugin === undefined ? {} : {credentialPlugin: kubeconfig.credentialPlugin}),
			...(random ? {random} : {}),
			...(requestTimeoutMs === undefined ? {} : {requestTimeoutMs}),
			...(requestLog ? {requestLog} : {}),
			// One picture: nothing scrolls past, the interest is applied at once.
			...(oneShot ? {oneShot, settleMs: 0} : {}),
		}, feed);
		this.#follower.start();
	}

	/** What the feed asks now has been read once (see WorkloadFollower.settled); at once without a follow. */
	async followed(): Promise<void> {
		await this.#follower?.settled();
	}

	async stop(): Promise<void> {
		this.#stopped = true;
		await this.#follower?.stop();
		// A credential plugin still running (a login nobody finishes) must not outlive planwatch.
		this.#options.kubeconfig.credentials?.stop();
		await this.#stopAll();
	}

	async #begin(): Promise<void> {
		const {kubeconfig, clock, firstListWithinMs} = this.#options;
		const plugin = kubeconfig.credentialPlugin;
		if (plugin !== undefined) {
			// Run the exec plugin once, up front: it may prompt or open a browser and take a while, and
			// client-node would otherwise start one copy per collection in parallel. It caches the result.
			const limitMs = kubeconfig.credentials?.timeoutMs;
			this.#emitConnection({status: 'waiting-credentials', plugin, ...(limitMs === undefined ? {} : {limitMs})});
			try {
				await kubeconfig.kubeConfig.applySecurityAuthentication(new RequestContext(kubeconfig.server, HttpMethod.GET));
			} catch (error) {
				const failure = classifyFailure(new CredentialError(plugin, error), {
					server: kubeconfig.server,
					verb: 'list',
					resource: resourceTypes.Instance,
					credentialPlugin: plugin,
				});
				this.#fatal(failure.message, exitCodes.cluster);
				return;
			}
		}

		if (this.#stopped) {
			return;
		}

		this.#emitConnection({status: 'connecting'});
		this.#entries = collectionsToWatch(this.#targets, this.#options.selector, this.#options.kinds).map((item, id) =>
			this.#newEntry(item, id));
		for (const entry of this.#entries) {
			entry.reflector.start();
		}

		if (firstListWithinMs !== undefined) {
			clock.after(firstListWithinMs, () => {
				if (!this.#synced && !this.#finished && !this.#stopped) {
					this.#fatal(
						`gave up after ${Math.round(firstListWithinMs / 1000)}s: ${lastTrouble(this.#active())}`,
						exitCodes.cluster,
					);
				}
			});
		}
	}

	#newEntry(item: Collection, id: number): Entry {
		const options = this.#options;
		const {namespace} = options;
		const plugin = options.kubeconfig.credentialPlugin;
		const entry: Entry = {
			id,
			kind: item.kind,
			product: item.product,
			...(item.target ? {target: item.target} : {}),
			objects: new Map(),
			listed: false,
			missing: false,
			state: {status: 'connecting'},
			reflector: new Reflector({
				kubeConfig: options.kubeconfig.kubeConfig,
				resource: resourceTypes[item.kind],
				...(namespace === undefined ? {} : {namespace}),
				...(item.labelSelector ? {labelSelector: item.labelSelector} : {}),
				...(item.fieldSelector ? {fieldSelector: item.fieldSelector} : {}),
				clock: options.clock,
				...(plugin === undefined ? {} : {credentialPlugin: plugin}),
				...(options.random ? {random: options.random} : {}),
				...(options.backoff ? {backoff: options.backoff} : {}),
				...(options.watchdogMs === undefined ? {} : {watchdogMs: options.watchdogMs}),
				...(options.listPageSize === undefined ? {} : {listPageSize: options.listPageSize}),
				...(options.requestTimeoutMs === undefined ? {} : {requestTimeoutMs: options.requestTimeoutMs}),
				...(options.requestLog ? {log: options.requestLog} : {}),
				// A 401 after a good list: the plugin runs again once; a second 401 ends the run (exit 4).
				refreshCredentials: () => {
					options.kubeconfig.credentials?.refresh();
				},
			}, event => {
				this.#onReflectorEvent(entry, event);
			}),
		};
		return entry;
	}

	#onReflectorEvent(entry: Entry, event: ReflectorEvent): void {
		if (this.#stopped || this.#finished || this.#absent.has(entry.product) || this.#forbidden.has(entry.product) || entry.missing) {
			return;
		}

		switch (event.type) {
			case 'replace': {
				entry.objects.clear();
				for (const object of event.objects) {
					entry.objects.set(namespacedName(object), compactRaw(object, this.#strings));
				}

				const first = !entry.listed;
				entry.listed = true;
				this.#emitReplace(entry.kind);
				this.#releaseMissing();
				if (first && entry.target && entry.objects.size === 0) {
					void this.#reportMissingTarget(entry.target);
					return;
				}

				this.#checkSynced();
				break;
			}

			case 'upsert': {
				entry.objects.set(namespacedName(event.object), compactRaw(event.object, this.#strings));
				this.#sink?.({type: 'upsert', resource: entry.kind, object: event.object});
				break;
			}

			case 'delete': {
				entry.objects.delete(namespacedName(event.object));
				this.#sink?.({type: 'delete', resource: entry.kind, object: event.object});
				break;
			}

			case 'state': {
				entry.state = event.state;
				this.#foldStates();
				break;
			}

			case 'failed': {
				this.#onFailed(entry, event.failure);
				break;
			}
		}
	}

	#onFailed(entry: Entry, failure: KubeFailure): void {
		const watched = new Set(this.#entries.map(e => e.product));
		const verdict = onCollectionFailure(entry, failure, this.#targets, {absent: this.#absent, forbidden: this.#forbidden, watched});
		switch (verdict.action) {
			case 'fatal': {
				this.#fatal(verdict.message, verdict.exitCode);
				return;
			}

			case 'drop-product': {
				this.#absent.add(entry.product);
				for (const e of this.#entries.filter(x => x.product === entry.product)) {
					void e.reflector.stop();
				}

				break;
			}

			case 'skip-product': {
				this.#forbidden.set(entry.product, failure.message);
				for (const e of this.#entries.filter(x => x.product === entry.product)) {
					void e.reflector.stop();
				}

				this.#heldMissing = this.#heldMissing.filter(held => held.product !== entry.product);
				this.#sink?.({type: 'missing', resource: entry.kind, message: verdict.message});
				break;
			}

			case 'missing': {
				entry.missing = true;
				void entry.reflector.stop();
				const event = {type: 'missing', resource: entry.kind, message: verdict.message} as const;
				// Said once its product's own kind is known to be readable: if that is forbidden too, the product is
				// left out with one line, not one per kind.
				if (this.#mainPending(entry.product)) {
					this.#heldMissing.push({product: entry.product, event});
				} else {
					this.#sink?.(event);
				}

				break;
			}

			case 'fatal-soon': {
				// The requests run together: "cannot list actionsets" says more than "cannot list blueprints".
				this.#options.clock.after(supportingFailureDelayMs, () => {
					this.#fatal(verdict.message, verdict.exitCode);
				});
				return;
			}
		}

		this.#foldStates();
		this.#checkSynced();
	}

	async #reportMissingTarget(target: Target): Promise<void> {
		const {kubeconfig, namespace} = this.#options;
		const {requestTimeoutMs, requestLog} = this.#options;
		// The hint's lists are requests too: --request-timeout bounds each, -v=6 logs them.
		const signal = requestTimeoutMs
			? AbortSignal.any([this.#lookups.signal, AbortSignal.timeout(requestTimeoutMs)])
			: this.#lookups.signal;
		const hint = await missingTargetHint(kubeconfig.kubeConfig, target, namespace, signal, requestLog);
		this.#fatal(notFoundMessage(target, namespace, hint), exitCodes.cluster);
	}

	#emitConnection(state: ConnectionState): void {
		const text = JSON.stringify(state);
		if (text !== this.#lastConnection && this.#sink && !this.#finished) {
			this.#lastConnection = text;
			this.#sink({type: 'connection', state});
		}
	}

	/** Several reflectors can feed one kind (one per target): the store gets their union. */
	#emitReplace(kind: ResourceKind): void {
		const {namespace} = this.#options;
		const objects = this.#entries.filter(e => e.kind === kind && e.listed).flatMap(e => [...e.objects.values()]);
		this.#sink?.({type: 'replace', resource: kind, ...(namespace === undefined ? {} : {namespace}), objects});
	}

	#fatal(message: string, exitCode: ExitCode): void {
		if (this.#finished || this.#stopped) {
			return;
		}

		this.#sink?.({type: 'fatal', message, exitCode});
		this.#finished = true;
		void this.#stopAll();
	}

	async #stopAll(): Promise<void> {
		this.#lookups.abort();
		await Promise.all(this.#entries.map(async e => e.reflector.stop()));
	}

	/** Whether a main kind (Instance, ActionSet) of `product` has neither listed nor failed yet. */
	#mainPending(product: Product): boolean {
		return this.#entries.some(e =>
			e.product === product &&
			(e.kind === 'Instance' || e.kind === 'ActionSet') &&
			!e.listed &&
			!this.#forbidden.has(product) &&
			!this.#absent.has(product));
	}

	#releaseMissing(): void {
		const ready = this.#heldMissing.filter(held => !this.#mainPending(held.product));
		this.#heldMissing = this.#heldMissing.filter(held => this.#mainPending(held.product));
		for (const held of ready) {
			this.#sink?.(held.event);
		}
	}

	#active(): Entry[] {
		return this.#entries.filter(e => !this.#absent.has(e.product) && !this.#forbidden.has(e.product) && !e.missing);
	}

	#foldStates(): void {
		this.#emitConnection(foldConnection(this.#active()));
	}

	#checkSynced(): void {
		if (this.#synced || this.#finished) {
			return;
		}

		const active = this.#active();
		if (active.length > 0 && active.every(e => e.listed && (!e.target || e.objects.size > 0))) {
			this.#synced = true;
			this.#sink?.({type: 'synced'});
		}
	}
}

export function createClusterSource(options: ClusterSourceOptions): ObjectSource {
	return new ClusterSource(options);
}

type Reconnecting = Extract<ReflectorState, {status: 'reconnecting'}>;

/** The reconnecting collection with the most attempts, if any. */
function worstReconnecting(running: readonly Entry[]): Reconnecting | undefined {
	return running
		.map(e => e.state)
		.filter((s): s is Reconnecting => s.status === 'reconnecting')
		.sort((a, b) => b.attempt - a.attempt)[0];
}

/** The collections' connection states folded into one: the worst reconnecting, else live when all are, else connecting. */
function foldConnection(running: readonly Entry[]): ConnectionState {
	const worst = worstReconnecting(running);
	if (worst) {
		return {status: 'reconnecting', attempt: worst.attempt, lastError: worst.lastError};
	}

	return running.length > 0 && running.every(e => e.state.status === 'live') ? {status: 'live'} : {status: 'connecting'};
}

/** Why the first list has not completed: the worst reconnecting collection, else one still waiting. */
function lastTrouble(running: readonly Entry[]): string {
	const worst = worstReconnecting(running);
	if (worst) {
		return `${worst.lastError} (attempt ${worst.attempt})`;
	}

	const waiting = running.find(e => !e.listed);
	return waiting ? `the cluster did not answer the list of ${resourceTypes[waiting.kind].plural}` : 'the cluster did not answer';
}

/** For "not found": the namespace the target is in instead, else a near-miss name in scope. Both optional. */
async function missingTargetHint(
	kubeConfig: KubeConfig,
	target: Target,
	namespace: string | undefined,
	signal: AbortSignal,
	log: RequestLog | undefined,
): Promise<{nearMiss?: string; otherNamespace?: string}> {
	const resource = resourceTypes[target.kind];
	try {
		if (namespace !== undefined) {
			const elsewhere = await listObjects({
				kubeConfig,
				resource,
				fieldSelector: `metadata.name=${target.name}`,
				signal,
				...(log ? {log} : {}),
			});
			const other = elsewhere.items.find(o => o.metadata?.namespace && o.metadata.namespace !== namespace);
			if (other?.metadata?.namespace) {
				return {otherNamespace: other.metadata.namespace};
			}
		}
	} catch {
		// Listing other namespaces is often forbidden; the hint is optional.
	}

	try {
		const inScope = await listObjects({
			kubeConfig,
			resource,
			...(namespace === undefined ? {} : {namespace}),
			signal,
			...(log ? {log} : {}),
		});
		const guess = nearMiss(target.name, inScope.items.map(o => o.metadata?.name ?? '').filter(Boolean));
		return guess === undefined ? {} : {nearMiss: guess};
	} catch {
		// Same: the hint is optional.
		return {};
	}
}

function dedupe(targets: readonly Target[]): Target[] {
	const seen = new Set<string>();
	return targets.filter(t => {
		const k = `${t.kind}/${t.name}`;
		if (seen.has(k)) {
			return false;
		}

		seen.add(k);
		return true;
	});
}
