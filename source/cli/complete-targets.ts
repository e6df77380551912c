/**
 * Completion's quick look at the cluster: the Instances and ActionSets of the namespace, as `instance/NAME`
 * and `actionset/NAME`, the plans of OperatorVersions, the namespaces. A <TAB> must never hang the shell:
 * everything (kubeconfig, credentials, the LISTs) has one deadline, and any failure means no names rather than
 * a message.
 */
import {kubeconfigContextNames, loadKubeconfig} from '../kube/kubeconfig.js';
import {listObjects} from '../kube/list-watch.js';
import {namespaceType, resourceTypes} from '../kube/resources.js';
import type {TargetScope} from './complete.js';

/** Default deadline: long enough for a LIST on a remote cluster, short enough for a key press. */
export const completionTimeoutMs = 2000;

/**
 * Object names are DNS subdomains (Kubernetes validates them), and the shell scripts insert candidates into
 * the command line: anything else from the cluster is dropped, never passed to the shell.
 */
const dnsSubdomain = /^[a-z\d]([a-z\d.-]{0,251}[a-z\d])?$/;

type LookupOptions = {readonly timeoutMs?: number; readonly env?: NodeJS.ProcessEnv};

/** `look(signal)` within the deadline; [] when it fails or takes longer (its requests are then aborted). */
async function withinDeadline(options: LookupOptions, look: (signal: AbortSignal) => Promise<string[]>): Promise<string[]> {
	const controller = new AbortController();
	let timer: NodeJS.Timeout | undefined;
	const deadline = new Promise<string[]>(resolve => {
		timer = setTimeout(() => {
			controller.abort();
			resolve([]);
		}, options.timeoutMs ?? completionTimeoutMs);
	});
	try {
		return await Promise.race([look(controller.signal).catch(() => []), deadline]);
	} finally {
		clearTimeout(timer);
	}
}

export async function listTargetNames(scope: TargetScope, options: LookupOptions = {}): Promise<string[]> {
	return withinDeadline(options, async signal => {
		const kubeconfig = loadKubeconfig({...scope, env: options.env});
		const lists = await Promise.allSettled(
			(['Instance', 'ActionSet'] as const).map(async kind => {
				const {items} = await listObjects({
					kubeConfig: kubeconfig.kubeConfig,
					resource: resourceTypes[kind],
					namespace: kubeconfig.namespace,
					credentialPlugin: kubeconfig.credentialPlugin,
					signal,
				});
				const prefix = kind === 'Instance' ? 'instance/' : 'actionset/';
				return items.map(item => item.metadata?.name)
					.filter((name): name is string => typeof name === 'string' && dnsSubdomain.test(name))
					.map(name => prefix + name);
			}),
		);
		return lists.flatMap(settled => (settled.status === 'fulfilled' ? settled.value.sort() : []));
	});
}

/** Namespace names are DNS labels (Kubernetes validates them); anything else is dropped. */
const dnsLabel = /^[a-z\d]([a-z\d-]{0,61}[a-z\d])?$/;

/** `-n <TAB>`: the cluster's namespaces, sorted, as `kubectl -n <TAB>` lists them; [] when not allowed or too slow. */
export async function listNamespaceNames(scope: TargetScope, options: LookupOptions = {}): Promise<string[]> {
	return withinDeadline(options, async signal => {
		const kubeconfig = loadKubeconfig({...scope, env: options.env});
		const {items} = await listObjects({
			kubeConfig: kubeconfig.kubeConfig,
			resource: namespaceType,
			credentialPlugin: kubeconfig.credentialPlugin,
			signal,
		});
		return items.map(item => item.metadata?.name)
			.filter((name): name is string => typeof name === 'string' && dnsLabel.test(name))
			.sort();
	});
}

/** Plan names as a shell may take them back (plan names are map keys of the OperatorVersion: anything is possible). */
const planName = /^[\w.-]{1,253}$/;

/**
 * The plans of the OperatorVersions `instances` run (all of the namespace's when none is named), sorted, for
 * `--plan <TAB>`; one deadline for everything, [] on any failure.
 */
export async function listPlanNames(scope: TargetScope, instances: readonly string[], options: LookupOptions = {}): Promise<string[]> {
	return withinDeadline(options, async signal => {
		const kubeconfig = loadKubeconfig({...scope, env: options.env});
		const read = async (kind: 'Instance' | 'OperatorVersion') =>
			(await listObjects({
				kubeConfig: kubeconfig.kubeConfig,
				resource: resourceTypes[kind],
				namespace: kubeconfig.namespace,
				credentialPlugin: kubeconfig.credentialPlugin,
				signal,
			})).items;
		const [versions, running] = await Promise.all([
			read('OperatorVersion'),
			instances.length > 0 ? read('Instance') : Promise.resolve([]),
		]);
		const wanted = new Set(running.filter(i => instances.includes(i.metadata?.name ?? '')).map(i =>
			String((i['spec'] as {operatorVersion?: {name?: unknown}} | undefined)?.operatorVersion?.name ?? '')));
		const names = new Set<string>();
		for (const ov of versions) {
			if (instances.length > 0 && !wanted.has(ov.metadata?.name ?? '')) {
				continue;
			}

			const plans = (ov['spec'] as {plans?: unknown} | undefined)?.plans;
			for (const name of typeof plans === 'object' && plans !== null ? Object.keys(plans) : []) {
				if (planName.test(name)) {
					names.add(name);
				}
			}
		}

		return [...names].sort();
	});
}

/** The kubeconfig's context names for completion; [] when there is no kubeconfig or it cannot be read. */
export function listContextNames(scope: {readonly kubeconfig?: string}, options: {readonly env?: NodeJS.ProcessEnv} = {}): string[] {
	try {
		return kubeconfigContextNames({kubeconfig: scope.kubeconfig, env: options.env});
	} catch {
		return [];
	}
}
