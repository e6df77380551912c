/**
 * A real Kubernetes control plane on loopback for end-to-end tests:
 * Debian's etcd (data on /dev/shm) + a kube-apiserver built from the
 * k8s.io/kubernetes Go module by ../build-kube-apiserver.sh.
 *
 * No kube-controller-manager, scheduler or kubelet: objects are only stored,
 * namespaces never finish deleting (use fresh namespace names per test).
 *
 * Environment:
 *   PLANWATCH_KUBE_APISERVER  path of a kube-apiserver binary (skips the build script)
 *   PLANWATCH_K8S_VERSION     version the build script builds (default 1.36.3)
 *   PLANWATCH_CACHE           cache dir of the build script
 *   PLANWATCH_KUBECTL         kubectl binary (default: kubectl on PATH, else /usr/bin/kubectl)
 *   PLANWATCH_E2E_KEEP=1      keep the temp dir (certs, kubeconfigs, logs) after stop()
 */
import {spawn, type ChildProcess} from 'node:child_process';
import {randomBytes} from 'node:crypto';
import {existsSync, rmSync} from 'node:fs';
import {mkdir, mkdtemp, readdir, readFile, rm, writeFile} from 'node:fs/promises';
import {request as httpsRequest} from 'node:https';
import {createServer} from 'node:net';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {setTimeout as sleep} from 'node:timers/promises';
import {fileURLToPath} from 'node:url';
import {run, spawnLogged, tail, waitFor, type ExecResult, type Managed} from '../../helpers/processes.js';

export type {ExecResult} from '../../helpers/processes.js';

export type KubectlOptions = {
	/** Which kubeconfig to use (default 'admin'). */
	as?: 'admin' | 'viewer';
	/** Written to kubectl's stdin (e.g. a manifest for `apply -f -`). */
	input?: string;
};

export type ApiResponse = {status: number; body: string; json: unknown};

/** PEM files: `cert`/`key` serve IP 127.0.0.1, `ca` signed them and the apiserver's kubelet client certificate. */
export type KubeletTls = {ca: string; cert: string; key: string};

export type Cluster = {
	/** https://127.0.0.1:<port> */
	server: string;
	/** CA that signed the serving certificate. */
	caFile: string;
	adminKubeconfig: string;
	viewerKubeconfig: string;
	/** Bearer token of user `admin` (group system:masters). */
	adminToken: string;
	/** Bearer token of user `viewer` (no groups; RBAC: read instances, operatorversions, events). */
	viewerToken: string;
	/**
	 * Kubeconfigs of users with no RBAC of their own: `kanister` (a test grants it a namespaced Role, e.g. on
	 * actionsets and blueprints only), `backups` (a test grants it a ClusterRole on Kanister's kinds only: the
	 * Kanister-only user of `planwatch -A`) and `nobody` (never granted anything).
	 */
	userKubeconfigs: {kanister: string; backups: string; nobody: string};
	/** http://127.0.0.1:<port> */
	etcdEndpoint: string;
	/** What a kubelet stand-in serves with, and the CA the apiserver's kubelet client certificate is signed by. */
	kubeletTls: KubeletTls;
	/** Server version reported by /version, e.g. v1.36.3. */
	version: string;
	/** Temp dir holding certs, tokens, kubeconfigs and logs (removed on stop()). */
	dir: string;
	/** Run kubectl with --kubeconfig (admin by default). Never throws on non-zero exit. */
	kubectl(args: string[], options?: KubectlOptions): Promise<ExecResult>;
	/** Raw HTTPS request to the API server with the admin (or given) token. */
	request(method: string, urlPath: string, options?: {token?: string; body?: unknown; contentType?: string}): Promise<ApiResponse>;
	restartApiserver(): Promise<void>;
	stopApiserver(): Promise<void>;
	startApiserver(): Promise<void>;
	/** Compact etcd's MVCC history up to the current revision; resolves to that revision. */
	compactEtcd(): Promise<number>;
	/** Current etcd revision (equals the newest resourceVersion the API server can hand out). */
	etcdRevision(): Promise<number>;
	stop(): Promise<void>;
};

export type StartClusterOptions = {
	/** Extra kube-apiserver flags, e.g. ['--watch-cache=false']. */
	extraApiserverArgs?: string[];
	/** Forward build-script progress to stderr (default true). */
	buildOutput?: boolean;
	/** Directory of CRD manifests to install (default: this project's test/e2e/crds). */
	crdDir?: string;
};

const here = path.dirname(fileURLToPath(import.meta.url));
const e2eDir = path.resolve(here, '..');
const crdDir = path.join(e2eDir, 'crds');
const buildScript = path.join(e2eDir, 'build-kube-apiserver.sh');
const depsScript = path.join(e2eDir, 'install-deps.sh');

const crdNames = [
	'instances.kudo.dev',
	'operatorversions.kudo.dev',
	'actionsets.cr.kanister.io',
	'blueprints.cr.kanister.io',
];

// ---------------------------------------------------------------- cleanup --

type Live = {children: Set<ChildProcess>; dirs: string[]};
const live = new Set<Live>();
let exitHandlerInstalled = false;

function installExitHandler(): void {
	if (exitHandlerInstalled) {
		return;
	}
	exitHandlerInstalled = true;
	// Synchronous last resort: kill what is still running and remove temp dirs.
	process.on('exit', () => {
		for (const entry of live) {
			for (const child of entry.children) {
				killHard(child);
			}
			for (const dir of entry.dirs) {
				rmSync(dir, {recursive: true, force: true});
			}
		}
		live.clear();
	});
}

function killHard(child: ChildProcess): void {
	if (child.exitCode === null && child.signalCode === null) {
		try {
			child.kill('SIGKILL');
		} catch {
			// already gone
		}
	}
}

/**
 * A detached shell that outlives us if we are SIGKILLed (where no exit
 * handler runs): once our pid is gone it kills the pids in <dir>/*.pid and
 * removes the dirs.
 */
function startWatchdog(dir: string, dirs: string[]): ChildProcess {
	const script = [
		'parent=$1; dir=$2; shift 2',
		'while kill -0 "$parent" 2>/dev/null; do sleep 1; done',
		'for f in "$dir"/*.pid; do [ -f "$f" ] && kill -9 "$(cat "$f")" 2>/dev/null; done',
		'rm -rf "$@"',
	].join('\n');
	const watchdog = spawn('bash', ['-c', script, 'planwatch-e2e-watchdog', String(process.pid), dir, ...dirs], {
		detached: true,
		stdio: 'ignore',
	});
	watchdog.unref();
	return watchdog;
}

// ---------------------------------------------------------------- helpers --

async function runOk(command: string, args: string[], options: Parameters<typeof run>[2] = {}): Promise<ExecResult> {
	const result = await run(command, args, options);
	if (result.code !== 0) {
		throw new Error(`${command} ${args.join(' ')} exited ${result.code}\n${result.stderr}${result.stdout}`);
	}
	return result;
}

function which(name: string): string | undefined {
	for (const dir of (process.env['PATH'] ?? '').split(path.delimiter)) {
		if (dir && existsSync(path.join(dir, name))) {
			return path.join(dir, name);
		}
	}
	return undefined;
}

async function freePorts(count: number): Promise<number[]> {
	// Hold all listeners open at once so the ports are distinct.
	const servers = await Promise.all(
		Array.from({length: count}, () => new Promise<ReturnType<typeof createServer>>((resolve, reject) => {
			const server = createServer();
			server.once('error', reject);
			server.listen(0, '127.0.0.1', () => {
				resolve(server);
			});
		})),
	);
	const ports = servers.map(server => {
		const address = server.address();
		if (address === null || typeof address === 'string') {
			throw new Error('unexpected listener address');
		}
		return address.port;
	});
	await Promise.all(servers.map(server => new Promise<void>(resolve => {
		server.close(() => {
			resolve();
		});
	})));
	return ports;
}

function yamlString(value: string): string {
	return JSON.stringify(value);
}

function kubeconfigYaml(server: string, caFile: string, user: string, token: string): string {
	return [
		'apiVersion: v1',
		'kind: Config',
		'clusters:',
		'- name: planwatch-e2e',
		'  cluster:',
		`    server: ${yamlString(server)}`,
		`    certificate-authority: ${yamlString(caFile)}`,
		'users:',
		`- name: ${user}`,
		'  user:',
		`    token: ${yamlString(token)}`,
		'contexts:',
		`- name: ${user}@planwatch-e2e`,
		'  context:',
		'    cluster: planwatch-e2e',
		`    user: ${user}`,
		'    namespace: default',
		`current-context: ${user}@planwatch-e2e`,
		'',
	].join('\n');
}

// -------------------------------------------------------- binaries / deps --

async function ensureDeps(): Promise<void> {
	if (which('etcd') && which('openssl')) {
		return;
	}
	await runOk('bash', [depsScript], {stderrTo: process.stderr});
	if (!which('etcd')) {
		throw new Error('etcd still not found after install-deps.sh');
	}
}

async function kubeApiserverBinary(showOutput: boolean): Promise<string> {
	const fromEnv = process.env['PLANWATCH_KUBE_APISERVER'];
	if (fromEnv) {
		if (!existsSync(fromEnv)) {
			throw new Error(`PLANWATCH_KUBE_APISERVER=${fromEnv} does not exist`);
		}
		return fromEnv;
	}
	const result = await runOk('bash', [buildScript], showOutput ? {stderrTo: process.stderr} : {});
	const binary = result.stdout.trim().split('\n').at(-1)?.trim();
	if (!binary || !existsSync(binary)) {
		throw new Error(`build-kube-apiserver.sh did not print a binary path:\n${result.stdout}`);
	}
	return binary;
}

function kubectlBinary(): string {
	return process.env['PLANWATCH_KUBECTL'] ?? which('kubectl') ?? '/usr/bin/kubectl';
}

// ------------------------------------------------------------------ certs --

type Certs = {
	ca: string;
	cert: string;
	key: string;
	saKey: string;
	saPub: string;
	kubelet: KubeletTls;
	kubeletClient: {cert: string; key: string};
};

async function makeCerts(dir: string): Promise<Certs> {
	const file = (name: string) => path.join(dir, name);
	const openssl = (...args: string[]) => runOk('openssl', args, {cwd: dir});
	await openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', file('ca.key'), '-out', file('ca.crt'),
		'-days', '7', '-subj', '/CN=planwatch-e2e-ca',
		'-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign');
	await openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', file('serving.key'), '-out', file('serving.csr'),
		'-subj', '/CN=127.0.0.1');
	await writeFile(file('serving.ext'), [
		'subjectAltName=IP:127.0.0.1,DNS:localhost',
		'basicConstraints=CA:FALSE',
		'keyUsage=critical,digitalSignature,keyEncipherment',
		'extendedKeyUsage=serverAuth',
		'',
	].join('\n'));
	await openssl('x509', '-req', '-in', file('serving.csr'), '-CA', file('ca.crt'), '-CAkey', file('ca.key'),
		'-CAcreateserial', '-days', '7', '-extfile', file('serving.ext'), '-out', file('serving.crt'));
	await openssl('genrsa', '-out', file('sa.key'), '2048');
	await openssl('rsa', '-in', file('sa.key'), '-pubout', '-out', file('sa.pub'));
	// A kubelet stand-in (harness/kubelet.ts) serves 127.0.0.1 with `kubelet.crt`; the apiserver reaches it with
	// `kubelet-client.crt`, and both are signed by the same CA so each side verifies the other as on a real node.
	await signedCert(dir, 'kubelet', '/CN=planwatch-e2e-kubelet', ['subjectAltName=IP:127.0.0.1', 'extendedKeyUsage=serverAuth']);
	await signedCert(dir, 'kubelet-client', '/CN=kube-apiserver-kubelet-client', ['extendedKeyUsage=clientAuth']);
	return {
		ca: file('ca.crt'),
		cert: file('serving.crt'),
		key: file('serving.key'),
		saKey: file('sa.key'),
		saPub: file('sa.pub'),
		kubelet: {ca: file('ca.crt'), cert: file('kubelet.crt'), key: file('kubelet.key')},
		kubeletClient: {cert: file('kubelet-client.crt'), key: file('kubelet-client.key')},
	};
}

async function signedCert(dir: string, name: string, subject: string, extensions: string[]): Promise<void> {
	const file = (suffix: string) => path.join(dir, `${name}.${suffix}`);
	const openssl = (...args: string[]) => runOk('openssl', args, {cwd: dir});
	await openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', file('key'), '-out', file('csr'), '-subj', subject);
	await writeFile(file('ext'), [...extensions, 'basicConstraints=CA:FALSE', 'keyUsage=critical,digitalSignature,keyEncipherment', ''].join('\n'));
	await openssl('x509', '-req', '-in', file('csr'), '-CA', path.join(dir, 'ca.crt'), '-CAkey', path.join(dir, 'ca.key'),
		'-CAcreateserial', '-days', '7', '-extfile', file('ext'), '-out', file('crt'));
}

// --------------------------------------------------------------- processes --

function spawnTracked(name: string, binary: string, args: string[], dir: string, entry: Live): Promise<Managed> {
	return spawnLogged(binary, args, {log: path.join(dir, `${name}.log`), pidFile: path.join(dir, `${name}.pid`), children: entry.children});
}

async function terminate(managed: Managed | undefined, graceMs = 10_000): Promise<void> {
	if (!managed) {
		return;
	}
	const {child, exited} = managed;
	if (child.exitCode === null && child.signalCode === null) {
		child.kill('SIGTERM');
		const timedOut = await Promise.race([exited.then(() => false), sleep(graceMs).then(() => true)]);
		if (timedOut) {
			killHard(child);
			await exited;
		}
	}
}

// -------------------------------------------------------------- the cluster --

export async function startCluster(options: StartClusterOptions = {}): Promise<Cluster> {
	installExitHandler();
	await ensureDeps();
	const binary = await kubeApiserverBinary(options.buildOutput ?? true);

	const dir = await mkdtemp(path.join(tmpdir(), 'planwatch-e2e-'));
	const shmBase = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
	const etcdData = await mkdtemp(path.join(shmBase, 'planwatch-etcd-'));
	const keep = process.env['PLANWATCH_E2E_KEEP'] === '1';
	const entry: Live = {children: new Set(), dirs: keep ? [etcdData] : [dir, etcdData]};
	live.add(entry);
	const watchdog = startWatchdog(dir, entry.dirs);

	let etcd: Managed | undefined;
	let apiserver: Managed | undefined;
	let stopped = false;

	const cleanup = async () => {
		stopped = true;
		await terminate(apiserver);
		await terminate(etcd);
		apiserver = undefined;
		etcd = undefined;
		try {
			if (watchdog.pid !== undefined) {
				process.kill(-watchdog.pid, 'SIGTERM');
			}
		} catch {
			// already gone
		}
		for (const d of entry.dirs) {
			await rm(d, {recursive: true, force: true});
		}
		live.delete(entry);
	};

	try {
		const [etcdClientPort, etcdPeerPort, apiPort] = await freePorts(3) as [number, number, number];
		const etcdEndpoint = `http://127.0.0.1:${etcdClientPort}`;
		const etcdPeer = `http://127.0.0.1:${etcdPeerPort}`;
		const server = `https://127.0.0.1:${apiPort}`;

		const certs = await makeCerts(dir);
		const adminToken = randomBytes(24).toString('hex');
		const viewerToken = randomBytes(24).toString('hex');
		const tokenFile = path.join(dir, 'tokens.csv');
		const kanisterToken = randomBytes(24).toString('hex');
		const nobodyToken = randomBytes(24).toString('hex');
		const backupsToken = randomBytes(24).toString('hex');
		await writeFile(
			tokenFile,
			`${adminToken},admin,uid-admin,"system:masters"\n${viewerToken},viewer,uid-viewer\n${kanisterToken},kanister,uid-kanister\n`
				+ `${nobodyToken},nobody,uid-nobody\n${backupsToken},backups,uid-backups\n`,
			{mode: 0o600},
		);
		const userKubeconfigs = {
			kanister: path.join(dir, 'kanister.kubeconfig'),
			backups: path.join(dir, 'backups.kubeconfig'),
			nobody: path.join(dir, 'nobody.kubeconfig'),
		};
		await writeFile(userKubeconfigs.backups, kubeconfigYaml(server, certs.ca, 'backups', backupsToken), {mode: 0o600});
		await writeFile(userKubeconfigs.kanister, kubeconfigYaml(server, certs.ca, 'kanister', kanisterToken), {mode: 0o600});
		await writeFile(userKubeconfigs.nobody, kubeconfigYaml(server, certs.ca, 'nobody', nobodyToken), {mode: 0o600});
		const adminKubeconfig = path.join(dir, 'admin.kubeconfig');
		const viewerKubeconfig = path.join(dir, 'viewer.kubeconfig');
		await writeFile(adminKubeconfig, kubeconfigYaml(server, certs.ca, 'admin', adminToken), {mode: 0o600});
		await writeFile(viewerKubeconfig, kubeconfigYaml(server, certs.ca, 'viewer', viewerToken), {mode: 0o600});
		const caPem = await readFile(certs.ca);

		// ---- etcd
		etcd = await spawnTracked('etcd', 'etcd', [
			'--name=planwatch-e2e',
			`--data-dir=${path.join(etcdData, 'data')}`,
			`--listen-client-urls=${etcdEndpoint}`,
			`--advertise-client-urls=${etcdEndpoint}`,
			`--listen-peer-urls=${etcdPeer}`,
			`--initial-advertise-peer-urls=${etcdPeer}`,
			`--initial-cluster=planwatch-e2e=${etcdPeer}`,
			'--initial-cluster-state=new',
			'--experimental-watch-progress-notify-interval=5s',
			'--logger=zap',
			'--log-level=warn',
		], dir, entry);
		const etcdLog = path.join(dir, 'etcd.log');
		await waitFor('etcd /health', 30_000, async () => {
			if (etcd?.child.exitCode !== null) {
				throw new Error(`etcd exited ${String(etcd?.child.exitCode)}`);
			}
			const response = await fetch(`${etcdEndpoint}/health`);
			const body = await response.text();
			return response.ok && body.includes('"true"') ? true : undefined;
		}, () => tail(etcdLog));

		const etcdPost = async (api: string, body: unknown): Promise<Record<string, unknown>> => {
			const response = await fetch(`${etcdEndpoint}/v3/${api}`, {
				method: 'POST',
				headers: {'content-type': 'application/json'},
				body: JSON.stringify(body),
			});
			const text = await response.text();
			if (!response.ok) {
				throw new Error(`etcd ${api}: HTTP ${response.status} ${text}`);
			}
			return JSON.parse(text) as Record<string, unknown>;
		};
		const etcdRevision = async (): Promise<number> => {
			// A range over a key that does not exist still carries the header revision.
			const result = await etcdPost('kv/range', {key: Buffer.from('planwatch-e2e/none').toString('base64')});
			const header = result['header'] as {revision?: string} | undefined;
			const revision = Number(header?.revision);
			if (!Number.isFinite(revision)) {
				throw new Error(`etcd range: no revision in ${JSON.stringify(result)}`);
			}
			return revision;
		};

		// ---- kube-apiserver
		const apiserverArgs = [
			`--etcd-servers=${etcdEndpoint}`,
			'--bind-address=127.0.0.1',
			'--advertise-address=127.0.0.1',
			`--secure-port=${apiPort}`,
			`--tls-cert-file=${certs.cert}`,
			`--tls-private-key-file=${certs.key}`,
			`--client-ca-file=${certs.ca}`,
			`--token-auth-file=${tokenFile}`,
			'--authorization-mode=RBAC',
			`--service-account-issuer=${server}`,
			`--service-account-key-file=${certs.saPub}`,
			`--service-account-signing-key-file=${certs.saKey}`,
			'--service-cluster-ip-range=10.0.0.0/24',
			// The lease reconciler would try to write 127.0.0.1 into the
			// `kubernetes` Endpoints, which validation rejects (loopback).
			'--endpoint-reconciler-type=none',
			'--disable-admission-plugins=ServiceAccount',
			'--allow-privileged=true',
			'--profiling=false',
			`--cert-dir=${path.join(dir, 'apiserver-certs')}`,
			// pods/log, exec, attach go to the Node's kubelet address: its InternalIP (a Node a test registers, on
			// 127.0.0.1: harness/kubelet.ts), verified with the harness CA, authenticated with a client certificate.
			'--kubelet-preferred-address-types=InternalIP',
			`--kubelet-certificate-authority=${certs.kubelet.ca}`,
			`--kubelet-client-certificate=${certs.kubeletClient.cert}`,
			`--kubelet-client-key=${certs.kubeletClient.key}`,
			...(options.extraApiserverArgs ?? []),
		];
		await mkdir(path.join(dir, 'apiserver-certs'), {recursive: true});
		const apiserverLog = path.join(dir, 'kube-apiserver.log');

		const request = (method: string, urlPath: string, requestOptions: {token?: string; body?: unknown; contentType?: string} = {}): Promise<ApiResponse> =>
			new Promise((resolve, reject) => {
				const payload = requestOptions.body === undefined
					? undefined
					: (typeof requestOptions.body === 'string' ? requestOptions.body : JSON.stringify(requestOptions.body));
				const headers: Record<string, string> = {
					authorization: `Bearer ${requestOptions.token ?? adminToken}`,
					accept: 'application/json',
				};
				if (payload !== undefined) {
					headers['content-type'] = requestOptions.contentType ?? 'application/json';
				}
				const req = httpsRequest(`${server}${urlPath}`, {method, ca: caPem, headers, timeout: 30_000}, response => {
					let body = '';
					response.setEncoding('utf8');
					response.on('data', (chunk: string) => {
						body += chunk;
					});
					response.on('end', () => {
						let json: unknown;
						try {
							json = JSON.parse(body);
						} catch {
							json = undefined;
						}
						resolve({status: response.statusCode ?? 0, body, json});
					});
					response.on('error', reject);
				});
				req.on('timeout', () => {
					req.destroy(new Error(`${method} ${urlPath}: timeout`));
				});
				req.on('error', reject);
				req.end(payload);
			});

		const waitApiserverReady = async () => {
			await waitFor('kube-apiserver /readyz', 180_000, async () => {
				if (!apiserver || apiserver.child.exitCode !== null || apiserver.child.signalCode !== null) {
					throw new Error('kube-apiserver exited');
				}
				const response = await request('GET', '/readyz');
				return response.status === 200 ? true : undefined;
			}, () => tail(apiserverLog));
		};

		const startApiserver = async () => {
			if (stopped) {
				throw new Error('cluster is stopped');
			}
			if (apiserver && apiserver.child.exitCode === null && apiserver.child.signalCode === null) {
				return;
			}
			apiserver = await spawnTracked('kube-apiserver', binary, apiserverArgs, dir, entry);
			await waitApiserverReady();
		};
		const stopApiserver = async () => {
			await terminate(apiserver);
			apiserver = undefined;
		};

		const kubectl = (args: string[], kubectlOptions: KubectlOptions = {}) =>
			run(kubectlBinary(), [
				`--kubeconfig=${kubectlOptions.as === 'viewer' ? viewerKubeconfig : adminKubeconfig}`,
				...args,
			], {input: kubectlOptions.input, env: {...process.env, KUBECONFIG: ''}});
		const kubectlOk = async (args: string[], kubectlOptions: KubectlOptions = {}) => {
			const result = await kubectl(args, kubectlOptions);
			if (result.code !== 0) {
				throw new Error(`kubectl ${args.join(' ')} exited ${result.code}\n${result.stderr}${result.stdout}`);
			}
			return result;
		};

		// Custom resources are served a little after /readyz and after
		// Established; wait until every CRD's list endpoint answers.
		const waitCrdsServed = async () => {
			for (const name of crdNames) {
				const [plural, ...groupParts] = name.split('.');
				const group = groupParts.join('.');
				const version = group === 'kudo.dev' ? 'v1beta1' : 'v1alpha1';
				await waitFor(`${name} to be served`, 60_000, async () => {
					const response = await request('GET', `/apis/${group}/${version}/${plural ?? ''}?limit=1`);
					return response.status === 200 ? true : undefined;
				});
			}
		};

		await startApiserver();
		const versionInfo = await request('GET', '/version');
		const version = (versionInfo.json as {gitVersion?: string} | undefined)?.gitVersion ?? 'unknown';

		// ---- CRDs
		const crds = options.crdDir ?? crdDir;
		const crdFiles = (await readdir(crds)).filter(file => file.endsWith('.yaml')).sort();
		await kubectlOk(['apply', ...crdFiles.flatMap(file => ['-f', path.join(crds, file)])]);
		await kubectlOk(['wait', '--for=condition=Established', '--timeout=60s', ...crdNames.map(name => `crd/${name}`)]);
		await waitCrdsServed();

		// ---- RBAC for `viewer`
		const rbac = {
			apiVersion: 'v1',
			kind: 'List',
			items: [
				{
					apiVersion: 'rbac.authorization.k8s.io/v1',
					kind: 'ClusterRole',
					metadata: {name: 'planwatch-e2e-viewer'},
					rules: [
						{apiGroups: ['kudo.dev'], resources: ['instances', 'operatorversions'], verbs: ['get', 'list', 'watch']},
						{apiGroups: [''], resources: ['events'], verbs: ['get', 'list', 'watch']},
						{apiGroups: ['events.k8s.io'], resources: ['events'], verbs: ['get', 'list', 'watch']},
					],
				},
				{
					apiVersion: 'rbac.authorization.k8s.io/v1',
					kind: 'ClusterRoleBinding',
					metadata: {name: 'planwatch-e2e-viewer'},
					roleRef: {apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'planwatch-e2e-viewer'},
					subjects: [{apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'viewer'}],
				},
			],
		};
		await kubectlOk(['apply', '-f', '-'], {input: JSON.stringify(rbac)});
		await waitFor('RBAC for viewer', 30_000, async () => {
			const response = await request('GET', '/apis/kudo.dev/v1beta1/instances?limit=1', {token: viewerToken});
			return response.status === 200 ? true : undefined;
		});

		const cluster: Cluster = {
			server,
			caFile: certs.ca,
			adminKubeconfig,
			viewerKubeconfig,
			adminToken,
			viewerToken,
			userKubeconfigs,
			etcdEndpoint,
			kubeletTls: certs.kubelet,
			version,
			dir,
			kubectl,
			request,
			startApiserver: async () => {
				await startApiserver();
				await waitCrdsServed();
			},
			stopApiserver,
			restartApiserver: async () => {
				await stopApiserver();
				await startApiserver();
				await waitCrdsServed();
			},
			etcdRevision,
			compactEtcd: async () => {
				const revision = await etcdRevision();
				await etcdPost('kv/compaction', {revision: String(revision), physical: true});
				return revision;
			},
			stop: cleanup,
		};
		return cluster;
	} catch (error) {
		await cleanup();
		throw error;
	}
}
