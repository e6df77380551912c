/**
 * A cluster run's source and the object keys it waits for: one context as always, or several (`--context` given
 * more than once, `--all-contexts`, or targets in more than one `CONTEXT:`) composed into one source whose objects
 * and keys carry their context. Which contexts get which targets is model/context-targets.ts.
 */
import {InputError} from '../core/errors.js';
import {exitCodes} from '../core/exit-codes.js';
import type {Clock} from '../core/clock.js';
import {KubeconfigError, kubeconfigContextNames, loadKubeconfig, type LoadedKubeconfig} from '../kube/kubeconfig.js';
import {planContexts} from '../model/context-targets.js';
import type {Target} from '../model/targets.js';
import {objectKey} from '../model/plan-tree.js';
import {sanitizeLine} from '../model/sanitize.js';
import type {ObjectSource} from '../state/object-source.js';
import {createClusterSource, onceFirstListWithinMs} from '../sources/cluster-source.js';
import {createMultiContextSource, failedSource, type ContextSource} from '../sources/multi-context-source.js';
import type {Options} from './parse-args.js';
import type {RequestLog} from '../kube/request-log.js';

export type ClusterRun = {
	readonly createSource: (clock: Clock) => ObjectSource;
	/** Object keys to open and wait for. */
	readonly targets: readonly string[];
};

/** `requestLog`: -v=6's sink for every HTTP request of the run. */
export function openClusterRun(options: Options, requestLog?: RequestLog): ClusterRun {
	// --request-timeout and -v reach every request of every context.
	const http = {
		...(options.requestTimeoutMs === undefined ? {} : {requestTimeoutMs: options.requestTimeoutMs}),
		...(requestLog ? {requestLog} : {}),
	};
	const base = {kubeconfig: options.kubeconfig, namespace: options.namespace};
	const all = options.allContexts ? kubeconfigContextNames({kubeconfig: options.kubeconfig}) : undefined;
	if (all?.length === 0) {
		throw new InputError('--all-contexts: the kubeconfig has no contexts');
	}

	const plan = planContexts({named: options.contexts, all, targets: options.targets});
	// --once draws one picture: a cluster that cannot give it is an error after a bounded time, not a silent retry.
	const firstListWithinMs = options.once ? onceFirstListWithinMs : undefined;
	// One context's source, the same for one context or many.
	const sourceOf = (kubeconfig: LoadedKubeconfig, namespace: string | undefined, targets: readonly Target[]) =>
		(clock: Clock) => createClusterSource({
			kubeconfig, namespace, selector: options.selector, targets, kinds: options.kinds, clock, firstListWithinMs, ...http,
			...(options.once ? {oneShot: true} : {}),
		});
	if (plan.length <= 1) {
		// One context: exactly the run planwatch always made.
		const targets = plan[0]?.targets ?? options.targets;
		const kubeconfig = loadKubeconfig({...base, context: plan[0]?.context ?? options.context});
		const namespace = options.allNamespaces ? undefined : kubeconfig.namespace;
		return {
			createSource: sourceOf(kubeconfig, namespace, targets),
			targets: targets.map(t => objectKey({kind: t.kind, namespace: kubeconfig.namespace, name: t.name})),
		};
	}

	const children: Array<{readonly context: string; readonly open: (clock: Clock) => ObjectSource}> = [];
	const keys: string[] = [];
	const namespaces = new Set<string>();
	for (const {context: name, targets} of plan) {
		const context = uniqueLabel(sanitizeLine(name, 80) || 'context', children.map(c => c.context));
		try {
			const kubeconfig = loadKubeconfig({...base, context: name});
			const namespace = options.allNamespaces ? undefined : kubeconfig.namespace;
			namespaces.add(namespace ?? 'all namespaces');
			children.push({
				context,
				open: sourceOf(kubeconfig, namespace, targets),
			});
			keys.push(...targets.map(t => objectKey({kind: t.kind, namespace: kubeconfig.namespace, name: t.name, context})));
		} catch (error) {
			// A context whose entry is broken (its cluster or user missing) fails alone; a context that does not
			// exist is a usage error for the whole run.
			if (!(error instanceof KubeconfigError) || error.exitCode === exitCodes.usage) {
				throw error;
			}

			const {message, exitCode} = error;
			children.push({context, open: () => failedSource(message, exitCode, context)});
		}
	}

	const scope = namespaces.size === 1 ? [...namespaces][0]! : namespaces.size === 0 ? 'no namespace' : 'namespaces per context';
	return {
		// --once: a context still logging in may hold the picture of the others for the --once budget, no longer.
		createSource: clock => createMultiContextSource(children.map((c): ContextSource => ({
			context: c.context,
			source: c.open(clock),
		})), scope, {
			clock,
			...(firstListWithinMs === undefined ? {} : {credentialsHoldMs: firstListWithinMs}),
		}),
		targets: keys,
	};
}

/** Two context names that sanitize to the same text stay two contexts: `prod`, `prod#2`. */
function uniqueLabel(label: string, taken: readonly string[]): string {
	let candidate = label;
	for (let n = 2; taken.includes(candidate); n++) {
		candidate = `${label}#${n}`;
	}

	return candidate;
}
