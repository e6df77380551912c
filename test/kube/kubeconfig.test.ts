import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {HttpMethod, KubeConfig, RequestContext} from '@kubernetes/client-node';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {isLocalhostFallback, KubeconfigError, loadKubeconfig, noKubeconfigMessage, type KubeconfigOptions} from '../../source/kube/kubeconfig.js';
import {kubeconfigFor} from '../helpers/watch-server.js';

let dir: string;

beforeEach(async () => {
	dir = await fs.mkdtemp(path.join(os.tmpdir(), 'planwatch-kc-test-'));
});

afterEach(async () => {
	await fs.rm(dir, {recursive: true, force: true});
});

async function write(name: string, content: unknown): Promise<string> {
	const file = path.join(dir, name);
	await fs.mkdir(path.dirname(file), {recursive: true});
	await fs.writeFile(file, typeof content === 'string' ? content : JSON.stringify(content));
	return file;
}

function failure(options: KubeconfigOptions): {message: string; exitCode: number} {
	try {
		loadKubeconfig(options);
	} catch (error) {
		if (error instanceof KubeconfigError) {
			return {message: error.message, exitCode: error.exitCode};
		}

		throw error;
	}

	throw new Error('expected loadKubeconfig to fail');
}

const emptyEnv = (): NodeJS.ProcessEnv => ({HOME: path.join(dir, 'home')});

describe('loadKubeconfig', () => {
	it('--kubeconfig: current context, its namespace, and -n over it', async () => {
		const file = await write('a.yaml', kubeconfigFor({server: 'https://a.example:6443', namespace: 'kanister', contextName: 'prod'}));
		const loaded = loadKubeconfig({kubeconfig: file, env: emptyEnv()});
		expect(loaded).toMatchObject({contextName: 'prod', clusterName: 'watch-server', server: 'https://a.example:6443', userName: 'tester', namespace: 'kanister', sources: [file]});
		expect(loaded.credentialPlugin).toBeUndefined();
		expect(loadKubeconfig({kubeconfig: file, namespace: 'other', env: emptyEnv()}).namespace).toBe('other');
	});

	it('namespace defaults to "default"', async () => {
		const file = await write('a.yaml', kubeconfigFor({server: 'https://a.example:6443'}));
		expect(loadKubeconfig({kubeconfig: file, env: emptyEnv()}).namespace).toBe('default');
	});

	it('--context picks another context; an unknown one is a usage error with a suggestion', async () => {
		const file = await write('a.yaml', kubeconfigFor({server: 'https://a.example:6443', contextName: 'kind-prod', extraContexts: ['kind-dev']}));
		expect(loadKubeconfig({kubeconfig: file, context: 'kind-dev', env: emptyEnv()}).contextName).toBe('kind-dev');
		expect(failure({kubeconfig: file, context: 'kind-prd', env: emptyEnv()})).toEqual({exitCode: 2, message: `context kind-prd not found in kubeconfig ${file} (did you mean kind-prod?)`});
		expect(failure({kubeconfig: file, context: 'staging', env: emptyEnv()}).message).toBe(`context staging not found in kubeconfig ${file} (contexts: kind-prod, kind-dev)`);
	});

	it('a named --kubeconfig that does not exist is a usage error', () => {
		const missing = path.join(dir, 'nope.yaml');
		expect(failure({kubeconfig: missing, env: emptyEnv()})).toEqual({exitCode: 2, message: `kubeconfig ${missing} not found`});
	});

	it('malformed files give one line, exit 4', async () => {
		const bad = await write('bad.yaml', 'clusters:\n  - name: x\n   cluster: {server: y}\n');
		const result = failure({kubeconfig: bad, env: emptyEnv()});
		expect(result.exitCode).toBe(4);
		expect(result.message).toMatch(new RegExp(`^kubeconfig ${bad} is not valid: \\S.*$`));
		expect(result.message).not.toContain('\n');
		const scalar = await write('scalar.yaml', 'just a string');
		expect(failure({kubeconfig: scalar, env: emptyEnv()}).message).toBe(`kubeconfig ${scalar} is not valid: not a kubeconfig (expected a mapping with clusters, users and contexts)`);
		const noServer = await write('noserver.yaml', {clusters: [{name: 'c', cluster: {}}], users: [], contexts: []});
		expect(failure({kubeconfig: noServer, env: emptyEnv()}).message).toBe(`kubeconfig ${noServer} is not valid: clusters[0].cluster.server is missing`);
	});

	it('no current-context: say so and list the contexts', async () => {
		const file = await write('a.yaml', kubeconfigFor({server: 'https://a:1', contextName: 'one', extraContexts: ['two'], noCurrentContext: true}));
		expect(failure({kubeconfig: file, env: emptyEnv()})).toEqual({exitCode: 4, message: `kubeconfig ${file} has no current-context: pick one with --context (one, two)`});
	});

	it('KUBECONFIG: merges like kubectl (first file wins, no "Duplicate cluster"), skips missing files', async () => {
		const first = await write('first.yaml', kubeconfigFor({server: 'https://first:6443', contextName: 'shared'}));
		const second = await write('second.yaml', {
			...kubeconfigFor({server: 'https://second:6443', contextName: 'shared', extraContexts: ['only-second']}),
			'current-context': 'only-second',
		});
		const env = {...emptyEnv(), KUBECONFIG: [path.join(dir, 'missing.yaml'), first, second].join(path.delimiter)};
		const loaded = loadKubeconfig({env});
		expect(loaded).toMatchObject({contextName: 'shared', server: 'https://first:6443', sources: [first, second]});
		expect(loadKubeconfig({env, context: 'only-second'}).server).toBe('https://first:6443');
	});

	it('KUBECONFIG naming only missing files', () => {
		const env = {...emptyEnv(), KUBECONFIG: path.join(dir, 'missing.yaml')};
		expect(failure({env})).toEqual({exitCode: 4, message: `${noKubeconfigMessage}: KUBECONFIG lists ${path.join(dir, 'missing.yaml')} but none exists`});
	});

	it('falls back to ~/.kube/config', async () => {
		const file = await write('home/.kube/config', kubeconfigFor({server: 'https://home:6443'}));
		expect(loadKubeconfig({env: emptyEnv()})).toMatchObject({server: 'https://home:6443', sources: [file]});
	});

	it('then to the in-cluster service account', async () => {
		await write('sa/var/run/secrets/kubernetes.io/serviceaccount/token', 'sa-token');
		await write('sa/var/run/secrets/kubernetes.io/serviceaccount/namespace', 'kanister\n');
		await write('sa/var/run/secrets/kubernetes.io/serviceaccount/ca.crt', 'not used before connecting');
		const env = {...emptyEnv(), KUBERNETES_SERVICE_HOST: '10.96.0.1', KUBERNETES_SERVICE_PORT: '443'};
		const loaded = loadKubeconfig({env, serviceAccountRoot: path.join(dir, 'sa')});
		expect(loaded).toMatchObject({contextName: 'in-cluster', server: 'https://10.96.0.1:443', namespace: 'kanister', sources: ['in-cluster']});
		const request = new RequestContext(loaded.server, HttpMethod.GET);
		await loaded.kubeConfig.applySecurityAuthentication(request);
		expect(request.getHeaders()['Authorization']).toBe('Bearer sa-token');
	});

	it('with nothing at all: "no kubeconfig found", where client-node would quietly use localhost:8080', () => {
		expect(failure({env: emptyEnv(), serviceAccountRoot: dir})).toEqual({exitCode: 4, message: 'no kubeconfig found (set KUBECONFIG or --kubeconfig)'});

		// The pitfall this guards against, shown on client-node itself.
		const saved = {HOME: process.env['HOME'], KUBECONFIG: process.env['KUBECONFIG']};
		try {
			process.env['HOME'] = path.join(dir, 'home');
			delete process.env['KUBECONFIG'];
			const kc = new KubeConfig();
			kc.loadFromDefault();
			expect(kc.getCurrentCluster()?.server).toBe('http://localhost:8080');
			expect(isLocalhostFallback(kc)).toBe(true);
		} finally {
			for (const [name, value] of Object.entries(saved)) {
				if (value === undefined) {
					delete process.env[name];
				} else {
					process.env[name] = value;
				}
			}
		}
	});

	it('a real config is not mistaken for the fallback', async () => {
		const file = await write('a.yaml', kubeconfigFor({server: 'http://localhost:8080'}));
		expect(isLocalhostFallback(loadKubeconfig({kubeconfig: file, env: emptyEnv()}).kubeConfig)).toBe(false);
	});

	it('plain-http servers work as with kubectl (client-node alone refuses them)', async () => {
		const file = await write('a.yaml', kubeconfigFor({server: 'http://127.0.0.1:8001'}));
		const loaded = loadKubeconfig({kubeconfig: file, env: emptyEnv()});
		const request = new RequestContext(loaded.server, HttpMethod.GET);
		await loaded.kubeConfig.applySecurityAuthentication(request);
		expect(request.getHeaders()['Authorization']).toBe('Bearer test-token');
	});

	it('names the exec credential plugin', async () => {
		const file = await write('a.yaml', kubeconfigFor({server: 'https://a:1', exec: {command: '/usr/local/bin/kubelogin', args: ['get-token']}}));
		expect(loadKubeconfig({kubeconfig: file, env: emptyEnv()}).credentialPlugin).toBe('kubelogin');
	});

	it('resolves relative certificate paths against the kubeconfig directory', async () => {
		const config = kubeconfigFor({server: 'https://a:1'}) as {clusters: Array<{cluster: Record<string, unknown>}>};
		config.clusters[0]!.cluster['certificate-authority'] = 'certs/ca.crt';
		const file = await write('sub/config', config);
		expect(loadKubeconfig({kubeconfig: file, env: emptyEnv()}).kubeConfig.getCurrentCluster()?.caFile).toBe(path.join(dir, 'sub', 'certs', 'ca.crt'));
	});
});
