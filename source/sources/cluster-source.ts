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
 * without it and a `missing` event says what and why. Only a 403 on the targets' own kind ends the run.
 */
import {HttpMethod, RequestContext} from '@kubernetes/client-node';
import type {Clock} from '../core/clock.js';
import type {BackoffPolicy} from '../kube/backoff.js';
import {classifyFailure, clusterErrorExitCode, CredentialError, nearMiss, notFoundMessage, type KubeFailure} from '../kube/errors.js';
import type {LoadedKubeconfig} from '../kube/kubeconfig.js';
import {listObjects, Reflector, type ReflectorState} from '../kube/list-watch.js';
import type {ConnectionState, ObjectSource, SourceSink} from '../state/object-source.js';
import type {KubeObject, ResourceKind} from '../core/kube-object.js';
import {qualifiedName, resourceTypes} from '../kube/resources.js';
import type {Target} from '../model/targets.js';

export type ClusterSourceOptions = {
	readonly kubeconfig: LoadedKubeconfig;
	/** undefined = all namespaces (-A). */
	readonly namespace?: string;
	/** Label selector (-l) for Instances and ActionSets. */
	readonly selector?: string;
	/** Named objects; empty = everything in scope. */
	readonly targets: readonly Target[];
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
};

type Product = 'KUDO' | 'Kanister' | 'core';

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

function key(object: KubeObject): string {
	return `${object.metadata?.namespace ?? ''}/${object.metadata?.name ?? ''}`;
}

function exitCodeFor(failure: KubeFailure): number {
	// A label selector the server cannot parse is bad input, not a cluster problem.
	return failure.kind === 'bad-request' ? 2 : clusterErrorExitCode;
}

/**
 * `--once` (one picture, then exit): how long after the credentials are in hand the first complete list may take
 * before planwatch gives up with exit 4 and the last reason (retrying 5xx, 429 and broken answers meanwhile).
 */
export const onceFirstListWithinMs = 30_000;

/** How long a supporting collection's start-up failure waits for one of the targets' own kind. */
const supportingFailureDelayMs = 500;

export function createClusterSource(options: ClusterSourceOptions): ObjectSource {
	const {kubeconfig, namespace, clock} = options;
	const kubeConfig = kubeconfig.kubeConfig;
	const plugin = kubeconfig.credentialPlugin;
	const targets = dedupe(options.targets);
	let sink: SourceSink | undefined;
	let entries: Entry[] = [];
	let stopped = false;
	let finished = false; // fatal sent
	let synced = false;
	let lastConnection = '';
	const absent = new Set<Product>();
	const lookups = new AbortController();

	const emitConnection = (state: ConnectionState) => {
		const text = JSON.stringify(state);
		if (text !== lastConnection && sink && !finished) {
			lastConnection = text;
			sink({type: 'connection', state});
		}
	};

	const stopAll = async () => {
		lookups.abort();
		await Promise.all(entries.map(async e => e.reflector.stop()));
	};

	const fatal = (message: string, exitCode: number) => {
		if (finished || stopped) {
			return;
		}

		sink?.({type: 'fatal', message, exitCode});
		finished = true;
		void stopAll();
	};

	const active = () => entries.filter(e => !absent.has(e.product) && !e.missing);

	const foldStates = () => {
		const running = active();
		const reconnecting = running
			.map(e => e.state)
			.filter((s): s is Extract<ReflectorState, {status: 'reconnecting'}> => s.status === 'reconnecting')
			.sort((a, b) => b.attempt - a.attempt);
		if (reconnecting[0]) {
			emitConnection({status: 'reconnecting', attempt: reconnecting[0].attempt, lastError: reconnecting[0].lastError});
		} else if (running.length > 0 && running.every(e => e.state.status === 'live')) {
			emitConnection({status: 'live'});
		} else {
			emitConnection({status: 'connecting'});
		}
	};

	/** Several reflectors can feed one kind (one per target): the store gets their union. */
	const emitReplace = (kind: ResourceKind) => {
		const objects = entries.filter(e => e.kind === kind && e.listed).flatMap(e => [...e.objects.values()]);
		sink?.({type: 'replace', resource: kind, ...(namespace === undefined ? {} : {namespace}), objects});
	};

	const checkSynced = () => {
		if (synced || finished) {
			return;
		}

		if (active().length === 0) {
			return;
		}

		if (active().every(e => e.listed && (!e.target || e.objects.size > 0))) {
			synced = true;
			sink?.({type: 'synced'});
		}
	};

	const reportMissingTarget = async (target: Target) => {
		const resource = resourceTypes[target.kind];
		const hint: {nearMiss?: string; otherNamespace?: string} = {};
		try {
			if (namespace !== undefined) {
				const elsewhere = await listObjects({kubeConfig, resource, fieldSelector: `metadata.name=${target.name}`, signal: lookups.signal});
				const other = elsewhere.items.find(o => o.metadata?.namespace && o.metadata.namespace !== namespace);
				if (other?.metadata?.namespace) {
					hint.otherNamespace = other.metadata.namespace;
				}
			}
		} catch {
			// Listing other namespaces is often forbidden; the hint is optional.
		}

		if (hint.otherNamespace === undefined) {
			try {
				const inScope = await listObjects({kubeConfig, resource, ...(namespace === undefined ? {} : {namespace}), signal: lookups.signal});
				const guess = nearMiss(target.name, inScope.items.map(o => o.metadata?.name ?? '').filter(Boolean));
				if (guess !== undefined) {
					hint.nearMiss = guess;
				}
			} catch {
				// Same: the hint is optional.
			}
		}

		fatal(notFoundMessage(target, namespace, hint), clusterErrorExitCode);
	};

	const onFailed = (entry: Entry, failure: KubeFailure) => {
		if (failure.kind === 'not-found' && entry.product !== 'core') {
			const required = targets.some(t => resourceTypes[t.kind].product === entry.product);
			if (required) {
				fatal(failure.message, clusterErrorExitCode);
				return;
			}

			// Not asked for by name: watch the other product only, unless it is missing too.
			absent.add(entry.product);
			for (const e of entries.filter(x => x.product === entry.product)) {
				void e.reflector.stop();
			}

			if (absent.has('KUDO') && absent.has('Kanister')) {
				fatal(`neither KUDO nor Kanister is installed in this cluster: no ${qualifiedName(resourceTypes.Instance)}, no ${qualifiedName(resourceTypes.ActionSet)}`, clusterErrorExitCode);
				return;
			}

			foldStates();
			checkSynced();
			return;
		}

		if (entry.kind === 'Instance' || entry.kind === 'ActionSet') {
			fatal(failure.message, exitCodeFor(failure));
			return;
		}

		if (failure.kind === 'forbidden') {
			// Operators often may read their ActionSets but not Events: watch the targets without it, and say so.
			entry.missing = true;
			void entry.reflector.stop();
			sink?.({type: 'missing', resource: entry.kind, message: `${resourceTypes[entry.kind].plural} not watched: ${failure.message}`});
			foldStates();
			checkSynced();
			return;
		}

		// A supporting collection (OperatorVersions, Blueprints, Events) failed. The requests run together, so give
		// the user's own kind a moment to fail too: "cannot list actionsets" says more than "cannot list blueprints".
		clock.after(supportingFailureDelayMs, () => {
			fatal(failure.message, exitCodeFor(failure));
		});
	};

	const build = () => {
		const kudoTargets = targets.filter(t => t.kind === 'Instance');
		const kanisterTargets = targets.filter(t => t.kind === 'ActionSet');
		const everything = targets.length === 0;
		const plan: Array<{kind: ResourceKind; product: Product; target?: Target; labelSelector?: string; fieldSelector?: string}> = [];
		const main = (kind: 'Instance' | 'ActionSet', product: Product, named: readonly Target[]) => {
			const labelSelector = options.selector ? {labelSelector: options.selector} : {};
			if (named.length > 0) {
				for (const target of named) {
					plan.push({kind, product, target, ...labelSelector, fieldSelector: `metadata.name=${target.name}`});
				}
			} else if (everything) {
				plan.push({kind, product, ...labelSelector});
			}
		};

		if (everything || kudoTargets.length > 0) {
			main('Instance', 'KUDO', kudoTargets);
			plan.push({kind: 'OperatorVersion', product: 'KUDO'});
		}

		if (everything || kanisterTargets.length > 0) {
			main('ActionSet', 'Kanister', kanisterTargets);
			plan.push({kind: 'Blueprint', product: 'Kanister'});
		}

		const only = targets.length === 1 ? targets[0] : undefined;
		plan.push({kind: 'Event', product: 'core', ...(only ? {fieldSelector: `involvedObject.name=${only.name}`} : {})});

		entries = plan.map((item, id) => {
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
					kubeConfig,
					resource: resourceTypes[item.kind],
					...(namespace === undefined ? {} : {namespace}),
					...(item.labelSelector ? {labelSelector: item.labelSelector} : {}),
					...(item.fieldSelector ? {fieldSelector: item.fieldSelector} : {}),
					clock,
					...(plugin === undefined ? {} : {credentialPlugin: plugin}),
					...(options.random ? {random: options.random} : {}),
					...(options.backoff ? {backoff: options.backoff} : {}),
					...(options.watchdogMs === undefined ? {} : {watchdogMs: options.watchdogMs}),
					...(options.listPageSize === undefined ? {} : {listPageSize: options.listPageSize}),
				}, event => {
					if (stopped || finished || absent.has(entry.product) || entry.missing) {
						return;
					}

					switch (event.type) {
						case 'replace': {
							entry.objects.clear();
							for (const object of event.objects) {
								entry.objects.set(key(object), object);
							}

							const first = !entry.listed;
							entry.listed = true;
							emitReplace(entry.kind);
							if (first && entry.target && entry.objects.size === 0) {
								void reportMissingTarget(entry.target);
								return;
							}

							checkSynced();
							break;
						}

						case 'upsert': {
							entry.objects.set(key(event.object), event.object);
							sink?.({type: 'upsert', resource: entry.kind, object: event.object});
							break;
						}

						case 'delete': {
							entry.objects.delete(key(event.object));
							sink?.({type: 'delete', resource: entry.kind, object: event.object});
							break;
						}

						case 'state': {
							entry.state = event.state;
							foldStates();
							break;
						}

						case 'failed': {
							onFailed(entry, event.failure);
							break;
						}
					}
				}),
			};
			return entry;
		});
	};

	const begin = async () => {
		if (plugin !== undefined) {
			// Run the exec plugin once, up front: it may prompt or open a browser and take a while, and
			// client-node would otherwise start one copy per collection in parallel. It caches the result.
			const limitMs = kubeconfig.credentials?.timeoutMs;
			emitConnection({status: 'waiting-credentials', plugin, ...(limitMs === undefined ? {} : {limitMs})});
			try {
				await kubeConfig.applySecurityAuthentication(new RequestContext(kubeconfig.server, HttpMethod.GET));
			} catch (error) {
				const failure = classifyFailure(new CredentialError(plugin, error), {server: kubeconfig.server, verb: 'list', resource: resourceTypes.Instance, credentialPlugin: plugin});
				fatal(failure.message, clusterErrorExitCode);
				return;
			}
		}

		if (stopped) {
			return;
		}

		emitConnection({status: 'connecting'});
		build();
		for (const entry of entries) {
			entry.reflector.start();
		}

		if (options.firstListWithinMs !== undefined) {
			const within = options.firstListWithinMs;
			clock.after(within, () => {
				if (!synced && !finished && !stopped) {
					fatal(`gave up after ${Math.round(within / 1000)}s: ${lastTrouble()}`, clusterErrorExitCode);
				}
			});
		}
	};

	/** Why the first list has not completed: the worst reconnecting collection, else one still waiting. */
	const lastTrouble = (): string => {
		const running = active();
		const worst = running
			.map(e => e.state)
			.filter((s): s is Extract<ReflectorState, {status: 'reconnecting'}> => s.status === 'reconnecting')
			.sort((a, b) => b.attempt - a.attempt)[0];
		if (worst) {
			return `${worst.lastError} (attempt ${worst.attempt})`;
		}

		const waiting = running.find(e => !e.listed);
		return waiting ? `the cluster did not answer the list of ${resourceTypes[waiting.kind].plural}` : 'the cluster did not answer';
	};

	return {
		label: kubeconfig.contextName,
		scope: namespace ?? 'all namespaces',
		start(next: SourceSink): void {
			if (sink) {
				return;
			}

			sink = next;
			void begin();
		},
		async stop(): Promise<void> {
			stopped = true;
			// A credential plugin still running (a login nobody finishes) must not outlive planwatch.
			kubeconfig.credentials?.stop();
			await stopAll();
		},
	};
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
