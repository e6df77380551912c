/**
 * LIST against a real kube-apiserver: paging (1200 ActionSets arrive in pages of 500 with limit/continue, each
 * object once) and a load balancer that answers 503 with an HTML page to LISTs (harness/proxy.ts): a few such
 * answers are retried and the run succeeds; answers that never stop end `--wait --timeout` with 3 and the reason.
 */
import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest';
import {killAllClis, runCli} from './harness/cli.js';
import {startCluster, type Cluster} from './harness/cluster.js';
import {startProxy, type ApiProxy} from './harness/proxy.js';
import {record} from './harness/results.js';
import {freshNamespace} from './harness/scenario-run.js';

let cluster: Cluster;
const proxies: ApiProxy[] = [];
const namespace = freshNamespace('pages');
const count = 1200;

beforeAll(async () => {
	cluster = await startCluster();
	const created = await cluster.kubectl(['create', 'namespace', namespace]);
	expect(created.code, created.stderr).toBe(0);
	const names = Array.from({length: count}, (_, i) => `backup-${String(i).padStart(4, '0')}`);
	for (let i = 0; i < names.length; i += 50) {
		const answers = await Promise.all(names.slice(i, i + 50).map(async name => cluster.request('POST', `/apis/cr.kanister.io/v1alpha1/namespaces/${namespace}/actionsets`, {
			body: {apiVersion: 'cr.kanister.io/v1alpha1', kind: 'ActionSet', metadata: {name, namespace}, spec: {actions: [{name: 'backup', blueprint: 'bp'}]}},
		})));
		expect(answers.filter(a => a.status !== 201).map(a => a.body)).toEqual([]);
	}
}, 300_000);

afterEach(async () => {
	killAllClis();
	for (const proxy of proxies.splice(0)) {
		await proxy.close();
	}
});

afterAll(async () => {
	await cluster?.stop();
});

async function proxy(name: string): Promise<ApiProxy> {
	const p = await startProxy(cluster, name);
	proxies.push(p);
	return p;
}

const actionSetLists = new RegExp(`^/apis/cr\\.kanister\\.io/v1alpha1/namespaces/${namespace}/actionsets\\?`);

describe('LIST on a real apiserver', () => {
	it(`reads ${count} ActionSets in pages of 500 with limit/continue, each once`, async () => {
		const via = await proxy('pages');
		const result = await runCli(['--kubeconfig', via.kubeconfig, '-n', namespace, '--once', '-o', 'json'], {timeoutMs: 120_000});
		expect(result.code, result.describe).toBe(0);
		const objects = (JSON.parse(result.stdout) as {objects: Array<{name: string}>}).objects;
		expect(objects).toHaveLength(count);
		expect(new Set(objects.map(o => o.name)).size).toBe(count);
		const pages = via.requests.filter(r => !r.watch && actionSetLists.test(r.path));
		expect(pages.map(r => [new URL(r.path, 'https://x').searchParams.get('limit'), new URL(r.path, 'https://x').searchParams.has('continue'), r.status])).toEqual([
			['500', false, 200],
			['500', true, 200],
			['500', true, 200],
		]);
		record({note: `LIST paging: ${count} ActionSets in ${pages.length} pages of 500`});
	}, 180_000);

	it('503 HTML answers to the first LISTs are retried and the run succeeds', async () => {
		const via = await proxy('first-503');
		via.answerLists(actionSetLists, 2);
		const result = await runCli(['actionset/backup-0001', '--kubeconfig', via.kubeconfig, '-n', namespace, '--once', '-o', 'json'], {timeoutMs: 90_000});
		expect(result.code, result.describe).toBe(0);
		expect(result.stderr).toBe('');
		expect((JSON.parse(result.stdout) as {objects: Array<{name: string}>}).objects.map(o => o.name)).toEqual(['backup-0001']);
		const lists = via.requests.filter(r => !r.watch && actionSetLists.test(r.path));
		expect(lists.slice(0, 3).map(r => r.status)).toEqual([503, 503, 200]);
		record({note: 'proxy 503 on the first 2 LISTs: retried, exit 0'});
	}, 120_000);

	it('503 to every LIST: --wait --timeout ends with 3 and what it was still trying', async () => {
		const via = await proxy('always-503');
		via.answerLists(actionSetLists, 10_000);
		const started = Date.now();
		const result = await runCli(['actionset/backup-0001', '--kubeconfig', via.kubeconfig, '-n', namespace, '--wait', '--timeout', '5s', '-o', 'plain'], {timeoutMs: 60_000});
		expect(result.code, result.describe).toBe(3);
		expect(Date.now() - started).toBeLessThan(30_000);
		expect(result.stderr).toMatch(
			/^planwatch: timed out after 5s: still connecting — the cluster answered 503 Service Unavailable with an HTML page \("503 Service Temporarily Unavailable"\) \(attempt \d+\)\n$/,
		);
		record({note: 'proxy 503 on every LIST: --timeout 5s → exit 3 with the reason'});
	}, 90_000);
});
