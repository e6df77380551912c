/**
 * TLS through client-node's real dispatcher: an https watch server with a self-signed certificate
 * (test/fixtures/kube/server.{crt,key}: CN planwatch-test, SAN 127.0.0.1 and localhost, valid 100 years;
 * other-ca.crt: an unrelated self-signed CA, CN planwatch-test-other-ca, its key not kept).
 * Also the hints: a CA that is set is never "set certificate-authority", a proxy that is down is the proxy's fault.
 */
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {afterEach, describe, expect, it} from 'vitest';
import {KubeconfigError, loadKubeconfig} from '../../source/kube/kubeconfig.js';
import {Reflector, type ReflectorEvent} from '../../source/kube/list-watch.js';
import {resourceTypes} from '../../source/kube/resources.js';
import {FakeClock} from '../helpers/fake-clock.js';
import {Recorder} from '../helpers/source-recorder.js';
import {actionSets, kubeconfigFor, WatchServer, writeKubeconfig, type KubeconfigSpec} from '../helpers/watch-server.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'kube');
const servers: WatchServer[] = [];
const reflectors: Reflector[] = [];

afterEach(async () => {
	await Promise.all(reflectors.splice(0).map(async r => r.stop()));
	await Promise.all(servers.splice(0).map(async s => s.close()));
});

async function tlsServer(): Promise<WatchServer> {
	const server = await WatchServer.start({tls: {key: await fs.readFile(path.join(fixtures, 'server.key')), cert: await fs.readFile(path.join(fixtures, 'server.crt'))}});
	servers.push(server);
	server.put(actionSets, {metadata: {name: 'a'}});
	return server;
}

async function firstOutcome(spec: KubeconfigSpec, file?: string): Promise<string> {
	const loaded = loadKubeconfig({kubeconfig: file ?? await writeKubeconfig(spec), env: {}});
	const events = new Recorder<ReflectorEvent>();
	const reflector = new Reflector({kubeConfig: loaded.kubeConfig, resource: resourceTypes.ActionSet, namespace: 'default', clock: new FakeClock()}, events.push);
	reflectors.push(reflector);
	reflector.start();
	const outcome = await events.next('replace or failure', e => e.type === 'replace' || e.type === 'failed');
	return outcome.type === 'failed' ? outcome.failure.message : outcome.type === 'replace' ? `listed ${outcome.objects.length}` : '';
}

describe('TLS', () => {
	it('an untrusted self-signed certificate is one line that says what to set', async () => {
		const server = await tlsServer();
		expect(await firstOutcome({server: server.url})).toBe(`TLS error talking to 127.0.0.1:${server.port}: self-signed certificate (set certificate-authority in the kubeconfig)`);
	});

	it('trusting it through certificate-authority-data works', async () => {
		const server = await tlsServer();
		expect(await firstOutcome({server: server.url, ca: await fs.readFile(path.join(fixtures, 'server.crt'))})).toBe('listed 1');
	});

	it('insecure-skip-tls-verify works too', async () => {
		const server = await tlsServer();
		expect(await firstOutcome({server: server.url, insecureSkipTlsVerify: true})).toBe('listed 1');
	});

	it('a server that wants a client certificate: a sentence, not OpenSSL internals', async () => {
		const server = await WatchServer.start({tls: {
			key: await fs.readFile(path.join(fixtures, 'server.key')),
			cert: await fs.readFile(path.join(fixtures, 'server.crt')),
			requireClientCertificate: true,
		}});
		servers.push(server);
		const message = await firstOutcome({server: server.url, ca: await fs.readFile(path.join(fixtures, 'server.crt'))});
		expect(message).toBe(`TLS error talking to 127.0.0.1:${server.port}: the server ended the TLS handshake (does it want a client certificate? set client-certificate and client-key in the ` +
			'kubeconfig; else no cipher is in common)');
	});

	it('https to a plain-http server', async () => {
		const server = await WatchServer.start();
		servers.push(server);
		const httpsUrl = server.url.replace('http:', 'https:');
		expect(await firstOutcome({server: httpsUrl})).toBe(`TLS error talking to 127.0.0.1:${server.port}: the server did not answer with TLS (is it plain http?)`);
	});

	it('a self-signed server while the kubeconfig names another CA: says the CA does not vouch for it, not "set it"', async () => {
		const server = await tlsServer();
		const message = await firstOutcome({server: server.url, ca: await fs.readFile(path.join(fixtures, 'other-ca.crt'))});
		expect(message).toBe(`TLS error talking to 127.0.0.1:${server.port}: the server's certificate is self-signed and is not the certificate-authority in the kubeconfig (is that the ` +
			'CA of this cluster?)');
	});

	it('garbage certificate-authority-data fails at load, as kubectl does, naming it', async () => {
		const server = await tlsServer();
		const file = await writeKubeconfig({server: server.url, ca: 'garbage, not a certificate'});
		const load = () => loadKubeconfig({kubeconfig: file, env: {}});
		expect(load).toThrow(KubeconfigError);
		expect(load).toThrow(`certificate-authority-data of cluster watch-server in kubeconfig ${file} holds no PEM certificate (unable to load root certificates)`);
	});

	it('a proxy-url on a closed port is the proxy being unreachable, not the cluster', async () => {
		const server = await WatchServer.start();
		servers.push(server);
		const closedPort = await new Promise<number>(resolve => {
			const probe = net.createServer().listen(0, '127.0.0.1', () => {
				const {port} = probe.address() as net.AddressInfo;
				probe.close(() => {
					resolve(port);
				});
			});
		});
		const config = kubeconfigFor({server: server.url}) as {clusters: Array<{cluster: Record<string, unknown>}>};
		config.clusters[0]!.cluster['proxy-url'] = `http://127.0.0.1:${closedPort}`;
		const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'planwatch-proxy-'));
		const file = path.join(dir, 'config');
		await fs.writeFile(file, JSON.stringify(config));
		try {
			expect(await firstOutcome({server: server.url}, file)).toBe(`cannot reach the proxy at 127.0.0.1:${closedPort} (proxy-url in the kubeconfig): connection refused`);
		} finally {
			await fs.rm(dir, {recursive: true, force: true});
		}
	});
});
