import {randomBytes} from 'node:crypto';
import {ApiException, CustomObjectsApi, KubeConfig, Watch} from '@kubernetes/client-node';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startCluster, type Cluster} from './harness/cluster.js';

const kudo = {group: 'kudo.dev', version: 'v1beta1', plural: 'instances'} as const;
const kanister = {group: 'cr.kanister.io', version: 'v1alpha1', plural: 'actionsets'} as const;

type Meta = {metadata: {name: string; resourceVersion: string}};
type Listed = {items: Array<Meta & {status?: Record<string, unknown>}>; metadata: {resourceVersion: string}};

let cluster: Cluster;
let namespace: string;

function clientFor(kubeconfigFile: string): CustomObjectsApi {
	const kc = new KubeConfig();
	kc.loadFromFile(kubeconfigFile);
	return kc.makeApiClient(CustomObjectsApi);
}

async function kubectlOk(args: string[], input?: string): Promise<string> {
	const result = await cluster.kubectl(args, input === undefined ? {} : {input});
	expect(result.code, `kubectl ${args.join(' ')}: ${result.stderr}`).toBe(0);
	return result.stdout;
}

async function statusOf(promise: Promise<unknown>): Promise<number> {
	try {
		await promise;
		return 200;
	} catch (error) {
		if (error instanceof ApiException) {
			return error.code;
		}
		throw error;
	}
}

/** Watch with client-node from `resourceVersion`; resolve with the first event or the error. */
async function firstWatchOutcome(kubeconfigFile: string, urlPath: string, resourceVersion: string): Promise<{phase?: string; object?: any; error?: any}> {
	const kc = new KubeConfig();
	kc.loadFromFile(kubeconfigFile);
	const watch = new Watch(kc);
	let controller: AbortController | undefined;
	const outcome = await new Promise<{phase?: string; object?: any; error?: any}>((resolve, reject) => {
		const timer = setTimeout(() => {
			reject(new Error('watch produced nothing within 20 s'));
		}, 20_000);
		watch.watch(urlPath, {resourceVersion}, (phase, object) => {
			clearTimeout(timer);
			resolve({phase, object});
		}, error => {
			clearTimeout(timer);
			resolve({error});
		}).then(c => {
			controller = c;
		}, reject);
	});
	controller?.abort();
	return outcome;
}

beforeAll(async () => {
	cluster = await startCluster();
	namespace = `e2e-${randomBytes(4).toString('hex')}`;
});

afterAll(async () => {
	await cluster?.stop();
});

describe('real kube-apiserver harness', () => {
	it('serves a built kube-apiserver with our CRDs', async () => {
		expect(cluster.version).toMatch(/^v1\.\d+\.\d+$/);
		const crds = await kubectlOk(['get', 'crd', '-o', 'name']);
		for (const name of ['instances.kudo.dev', 'operatorversions.kudo.dev', 'actionsets.cr.kanister.io', 'blueprints.cr.kanister.io']) {
			expect(crds).toContain(`customresourcedefinition.apiextensions.k8s.io/${name}`);
		}
	});

	it('stores an Instance (status via subresource) and an ActionSet (status inline)', async () => {
		await kubectlOk(['create', 'namespace', namespace]);

		const instance = {
			apiVersion: 'kudo.dev/v1beta1',
			kind: 'Instance',
			metadata: {name: 'zk', namespace},
			spec: {operatorVersion: {name: 'zookeeper-3.4.14-0.3.1'}, parameters: {NODE_COUNT: '3'}},
			// Dropped on create: `status` is a subresource of instances.
			status: {planStatus: {deploy: {name: 'deploy', status: 'IN_PROGRESS'}}},
		};
		await kubectlOk(['apply', '-f', '-'], JSON.stringify(instance));

		const actionSet = {
			apiVersion: 'cr.kanister.io/v1alpha1',
			kind: 'ActionSet',
			metadata: {name: 'backup-1', namespace},
			spec: {actions: [{name: 'backup', blueprint: 'mysql-bp', object: {kind: 'StatefulSet', name: 'mysql', namespace}}]},
			// Kept on create: actionsets have no status subresource.
			status: {
				state: 'running',
				progress: {percentCompleted: '50.00', runningPhase: 'dumpToObjectStore'},
				actions: [{name: 'backup', blueprint: 'mysql-bp', phases: [{name: 'dumpToObjectStore', state: 'running'}]}],
			},
		};
		await kubectlOk(['create', '-f', '-'], JSON.stringify(actionSet));

		const admin = clientFor(cluster.adminKubeconfig);
		const created = await admin.getNamespacedCustomObject({...kudo, namespace, name: 'zk'}) as {status?: unknown};
		expect(created.status).toBeUndefined();

		// Status subresource through kubectl ...
		await kubectlOk(['patch', '-n', namespace, 'instances.kudo.dev', 'zk', '--subresource=status', '--type=merge', '-p',
			JSON.stringify({status: {planStatus: {deploy: {name: 'deploy', status: 'IN_PROGRESS', phases: [{name: 'zookeeper', status: 'IN_PROGRESS'}]}}}})]);
		// ... and through client-node (replace needs the current resourceVersion).
		const current = await admin.getNamespacedCustomObject({...kudo, namespace, name: 'zk'}) as Record<string, unknown> & {status: Record<string, unknown>};
		current.status = {...current.status, aggregatedStatus: {status: 'IN_PROGRESS', activePlanName: 'deploy'}};
		await admin.replaceNamespacedCustomObjectStatus({...kudo, namespace, name: 'zk', body: current});

		// A status change on the main resource is ignored.
		await kubectlOk(['patch', '-n', namespace, 'instances.kudo.dev', 'zk', '--type=merge', '-p', JSON.stringify({status: {aggregatedStatus: {status: 'FATAL_ERROR'}}})]);

		const instances = await admin.listNamespacedCustomObject({...kudo, namespace}) as Listed;
		expect(instances.items.map(item => item.metadata.name)).toEqual(['zk']);
		expect(instances.items[0]?.status).toMatchObject({
			planStatus: {deploy: {status: 'IN_PROGRESS', phases: [{name: 'zookeeper', status: 'IN_PROGRESS'}]}},
			aggregatedStatus: {status: 'IN_PROGRESS', activePlanName: 'deploy'},
		});

		const actionSets = await admin.listNamespacedCustomObject({...kanister, namespace}) as Listed;
		expect(actionSets.items.map(item => item.metadata.name)).toEqual(['backup-1']);
		expect(actionSets.items[0]?.status).toMatchObject({state: 'running', progress: {runningPhase: 'dumpToObjectStore'}});

		const table = await kubectlOk(['get', '-n', namespace, 'actionsets.cr.kanister.io']);
		expect(table).toMatch(/backup-1\s+50\.00\s+dumpToObjectStore\s+running/);
	});

	it('applies RBAC: viewer reads instances but gets 403 on actionsets', async () => {
		const viewer = clientFor(cluster.viewerKubeconfig);
		expect(await statusOf(viewer.listNamespacedCustomObject({...kudo, namespace}))).toBe(200);
		expect(await statusOf(viewer.listClusterCustomObject({...kudo}))).toBe(200);
		expect(await statusOf(viewer.listNamespacedCustomObject({...kanister, namespace}))).toBe(403);
		expect(await statusOf(viewer.listClusterCustomObject({group: 'cr.kanister.io', version: 'v1alpha1', plural: 'blueprints'}))).toBe(403);

		const raw = await cluster.request('GET', `/apis/cr.kanister.io/v1alpha1/namespaces/${namespace}/actionsets`, {token: cluster.viewerToken});
		expect(raw.status).toBe(403);
		expect(raw.json).toMatchObject({kind: 'Status', reason: 'Forbidden', code: 403});
		expect((await cluster.request('GET', '/api/v1/events', {token: cluster.viewerToken})).status).toBe(200);

		const canI = await cluster.kubectl(['auth', 'can-i', 'watch', 'instances.kudo.dev', '--all-namespaces'], {as: 'viewer'});
		expect(canI.stdout.trim()).toBe('yes');
	});

	it('answers 410 Expired for a resourceVersion older than the compacted history', async () => {
		const instancesPath = `/apis/kudo.dev/v1beta1/namespaces/${namespace}/instances`;
		const old = (await cluster.request('GET', instancesPath)).json as Listed;
		const oldRv = old.metadata.resourceVersion;
		for (let i = 0; i < 3; i++) {
			await kubectlOk(['annotate', '-n', namespace, 'instances.kudo.dev', 'zk', '--overwrite', `planwatch.test/bump=${i}`]);
		}
		const revision = await cluster.compactEtcd();
		expect(revision).toBeGreaterThan(Number(oldRv));

		// kube-apiserver 1.34+ serves exact lists and watches from its watch
		// cache (ListFromCacheSnapshot), which keeps recent history after an etcd
		// compaction. A restarted server primes its cache after the compaction, so
		// both must now fall through to the compacted etcd history: 410.
		await cluster.restartApiserver();
		const exact = await cluster.request('GET', `${instancesPath}?resourceVersion=${oldRv}&resourceVersionMatch=Exact`);
		expect(exact.status).toBe(410);
		expect(exact.json).toMatchObject({kind: 'Status', reason: 'Expired', code: 410});

		const outcome = await firstWatchOutcome(cluster.adminKubeconfig, instancesPath, oldRv);
		if (outcome.error) {
			expect(outcome.error.statusCode ?? outcome.error.code).toBe(410);
		} else {
			expect(outcome.phase).toBe('ERROR');
			expect(outcome.object).toMatchObject({kind: 'Status', reason: 'Expired', code: 410});
		}

		// A watch from a current resourceVersion works.
		const fresh = (await cluster.request('GET', instancesPath)).json as Listed;
		const pending = firstWatchOutcome(cluster.adminKubeconfig, instancesPath, fresh.metadata.resourceVersion);
		await kubectlOk(['annotate', '-n', namespace, 'instances.kudo.dev', 'zk', '--overwrite', 'planwatch.test/bump=after']);
		const event = await pending;
		expect(event.phase).toBe('MODIFIED');
		expect(event.object?.metadata?.annotations?.['planwatch.test/bump']).toBe('after');
	});

	it('survives a kube-apiserver restart with its data and RBAC', async () => {
		await cluster.stopApiserver();
		const down = await cluster.kubectl(['get', '-n', namespace, 'instances.kudo.dev', '--request-timeout=3s']);
		expect(down.code).not.toBe(0);
		await cluster.startApiserver();

		const admin = clientFor(cluster.adminKubeconfig);
		const actionSets = await admin.listNamespacedCustomObject({...kanister, namespace}) as Listed;
		expect(actionSets.items.map(item => item.metadata.name)).toEqual(['backup-1']);

		await cluster.restartApiserver();
		const viewer = clientFor(cluster.viewerKubeconfig);
		const instances = await viewer.listNamespacedCustomObject({...kudo, namespace}) as Listed;
		expect(instances.items.map(item => item.metadata.name)).toEqual(['zk']);
		expect(await statusOf(viewer.listNamespacedCustomObject({...kanister, namespace}))).toBe(403);
	});
});
