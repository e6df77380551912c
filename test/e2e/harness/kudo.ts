/**
 * The real KUDO manager (v0.19.0, with its admission webhook) and `kubectl-kudo` on the e2e apiserver, built from
 * the Go module proxy by ../build-kudo.sh (see shared/docs/real-controllers.md). No kubelet or controller-manager
 * runs, so this file also stands in for the two things of theirs the tests need:
 *   - a garbage collector that only does what Foreground deletion waits for: it removes the `foregroundDeletion`
 *     finalizer from objects being deleted that have no dependents left;
 *   - the deployment controller + kubelet's status writes, on demand (`makeDeploymentHealthy`).
 * And a watcher that keeps every watch event of an Instance and of its Events with the time it arrived: the
 * controller's record the tests compare planwatch with (and what the recorded fixtures are made of).
 *
 * Environment:
 *   PLANWATCH_KUDO_DIR      a directory holding manager, kubectl-kudo and crds/ (skips the build script)
 *   PLANWATCH_KUDO_VERSION  version the build script builds (default 0.19.0)
 */
import type {ChildProcess} from 'node:child_process';
import {existsSync, readFileSync} from 'node:fs';
import {copyFile, mkdir, mkdtemp, readdir, writeFile} from 'node:fs/promises';
import {request as httpsRequest} from 'node:https';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {setTimeout as sleep} from 'node:timers/promises';
import {fileURLToPath} from 'node:url';
import {startCluster, type Cluster, type ExecResult} from './cluster.js';
import {closedLoopbackPort} from './ports.js';
import {run, spawnLogged, tail, waitFor} from '../../helpers/processes.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const e2eDir = path.resolve(here, '..');
const buildScript = path.join(e2eDir, 'build-kudo.sh');
/** The project's own operator package for these tests. */
export const operatorDir = path.join(e2eDir, 'operators', 'planwatch-e2e');

export type KudoBinaries = {dir: string; manager: string; kubectlKudo: string; crdDir: string; version: string};

export type WatchEntry = {
	/** Date.now() when the event arrived here. */
	readonly at: number;
	readonly type: string;
	readonly object: Record<string, unknown>;
};

export type InstanceWatch = {
	/** Watch events of the Instance, in arrival order. */
	readonly instance: readonly WatchEntry[];
	/** Watch events of Events whose involvedObject is the Instance. */
	readonly events: readonly WatchEntry[];
	/** Resolves when `condition` holds for the Instance's events (checked on every arrival). */
	until(condition: (entries: readonly WatchEntry[]) => boolean, what: string, timeoutMs?: number): Promise<void>;
	stop(): void;
};

export type Kudo = {
	readonly cluster: Cluster;
	readonly binaries: KudoBinaries;
	readonly managerLog: string;
	/** Run kubectl-kudo with the admin kubeconfig in `namespace`. Never throws on a non-zero exit. */
	kudo(args: readonly string[], namespace: string): Promise<ExecResult & {endedAt: number}>;
	/** Create a namespace and install the test operator as Instance `name` (`kubectl kudo install`). */
	install(namespace: string, name: string, parameters?: Record<string, string>): Promise<ExecResult & {endedAt: number}>;
	/** The Instance as the server holds it now (undefined once it is gone). */
	getInstance(namespace: string, name: string): Promise<Record<string, unknown> | undefined>;
	/** Watch the Instance and its Events from now (list first, so nothing before is lost). */
	watchInstance(namespace: string, name: string): Promise<InstanceWatch>;
	/**
	 * Write a Deployment's status as the deployment controller would once its pods are available, and keep it so
	 * while its pod template stays the same (see startStandIns).
	 */
	makeDeploymentHealthy(namespace: string, name: string): Promise<void>;
	/** Wait until a Deployment exists (the manager applied it). */
	waitForDeployment(namespace: string, name: string, timeoutMs?: number): Promise<Record<string, unknown>>;
	stop(): Promise<void>;
};

// ------------------------------------------------------------------ helpers --

export async function kudoBinaries(showOutput = true): Promise<KudoBinaries> {
	let dir = process.env['PLANWATCH_KUDO_DIR'];
	if (!dir) {
		const result = await run('bash', [buildScript], showOutput ? {stderrTo: process.stderr} : {});
		if (result.code !== 0) {
			throw new Error(`build-kudo.sh exited ${result.code}\n${result.stderr.split('\n').slice(-30).join('\n')}`);
		}

		dir = result.stdout.trim().split('\n').at(-1)?.trim();
	}

	const binaries = {
		dir: dir ?? '',
		manager: path.join(dir ?? '', 'manager'),
		kubectlKudo: path.join(dir ?? '', 'kubectl-kudo'),
		crdDir: path.join(dir ?? '', 'crds'),
	};
	for (const file of [binaries.manager, binaries.kubectlKudo, path.join(binaries.crdDir, 'kudo.dev_instances.yaml')]) {
		if (!existsSync(file)) {
			throw new Error(`KUDO build is incomplete: ${file} is missing`);
		}
	}

	const version = await run(binaries.kubectlKudo, ['version']);
	return {...binaries, version: /GitVersion:"([^"]+)"/.exec(version.stdout)?.[1] ?? version.stdout.trim()};
}

type Api = Cluster['request'];

async function apiOk(request: Api, method: string, urlPath: string, options: Parameters<Api>[2] = {}): Promise<unknown> {
	const response = await request(method, urlPath, options);
	if (response.status < 200 || response.status >= 300) {
		throw new Error(`${method} ${urlPath}: HTTP ${response.status} ${response.body.slice(0, 500)}`);
	}

	return response.json;
}

type Meta = {
	name?: string;
	namespace?: string;
	uid?: string;
	resourceVersion?: string;
	deletionTimestamp?: string;
	finalizers?: string[];
	ownerReferences?: Array<{uid?: string}>;
	generation?: number;
};
type Obj = {metadata?: Meta; spec?: Record<string, unknown>; status?: Record<string, unknown>};

/** A Deployment's status as the deployment controller writes it once every pod of the current template is available. */
function healthyStatus(deployment: Obj): Record<string, unknown> {
	const replicas = Number((deployment.spec?.['replicas'] as number | undefined) ?? 1);
	const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
	return {
		observedGeneration: deployment.metadata?.generation ?? 1,
		replicas,
		updatedReplicas: replicas,
		readyReplicas: replicas,
		availableReplicas: replicas,
		conditions: [
			{type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable', message: 'Deployment has minimum availability.', lastUpdateTime: now, lastTransitionTime: now},
			{
				type: 'Progressing',
				status: 'True',
				reason: 'NewReplicaSetAvailable',
				message: `ReplicaSet "${deployment.metadata?.name ?? ''}" has successfully progressed.`,
				lastUpdateTime: now,
				lastTransitionTime: now,
			},
		],
	};
}

const templateOf = (deployment: Obj): string => JSON.stringify(deployment.spec?.['template'] ?? null);

/**
 * The stand-ins' loop. Garbage collector, for Foreground deletion only: an object being deleted with the
 * `foregroundDeletion` finalizer and no dependents left loses the finalizer (and goes); the KUDO manager deletes
 * with propagationPolicy Foreground (a cleanup plan's Delete task). Deployment controller: a Deployment the test made healthy stays
 * healthy while its pod template is the one it was made healthy with — the manager's second apply of a new
 * Deployment bumps its generation without changing the template (a real controller observes that at once); a new
 * template (a parameter update) needs the test to make it healthy again, as a rollout would.
 */
function startStandIns(request: Api, healthy: ReadonlyMap<string, string>): {stop(): Promise<void>} {
	let stopped = false;
	const kinds = ['/api/v1/configmaps', '/apis/apps/v1/deployments', '/api/v1/services', '/api/v1/secrets'];
	const loop = (async () => {
		while (!stopped) {
			try {
				const lists = await Promise.all(kinds.map(async kind => ({kind, items: ((await apiOk(request, 'GET', kind)) as {items?: Obj[]}).items ?? []})));
				const owners = new Set(lists.flatMap(list => list.items.flatMap(item => (item.metadata?.ownerReferences ?? []).map(reference => reference.uid))));
				for (const {kind, items} of lists) {
					for (const item of items) {
						const key = `${item.metadata?.namespace ?? ''}/${item.metadata?.name ?? ''}`;
						if (kind.endsWith('/deployments') && !item.metadata?.deletionTimestamp && healthy.get(key) === templateOf(item)
							&& (item.status?.['observedGeneration'] as number | undefined) !== item.metadata?.generation) {
							await request('PATCH', `/apis/apps/v1/namespaces/${item.metadata?.namespace ?? ''}/deployments/${item.metadata?.name ?? ''}/status`, {
								body: {status: healthyStatus(item)},
								contentType: 'application/merge-patch+json',
							});
						}

						const meta = item.metadata ?? {};
						if (!meta.deletionTimestamp || !meta.finalizers?.includes('foregroundDeletion') || owners.has(meta.uid)) {
							continue;
						}

						const [prefix, resource] = [kind.slice(0, kind.lastIndexOf('/')), kind.slice(kind.lastIndexOf('/') + 1)];
						await request('PATCH', `${prefix}/namespaces/${meta.namespace ?? ''}/${resource}/${meta.name ?? ''}`, {
							// resourceVersion makes the patch fail (409) if the object changed since the list: retried next round.
							body: {metadata: {resourceVersion: meta.resourceVersion, finalizers: meta.finalizers.filter(f => f !== 'foregroundDeletion')}},
							contentType: 'application/merge-patch+json',
						});
					}
				}
			} catch {
				// The apiserver may be restarting; try again next round.
			}

			await sleep(250);
		}
	})();
	return {
		stop: async () => {
			stopped = true;
			await loop;
		},
	};
}

/** A streaming watch (newline-delimited JSON) with the admin token; `onEvent` gets each event as it arrives. */
function streamWatch(cluster: Cluster, urlPath: string, onEvent: (type: string, object: Record<string, unknown>) => void): {stop(): void} {
	const ca = readFileSync(cluster.caFile);
	let stopped = false;
	let current: ReturnType<typeof httpsRequest> | undefined;
	const open = (resourceVersion: string) => {
		if (stopped) {
			return;
		}

		const separator = urlPath.includes('?') ? '&' : '?';
		current = httpsRequest(`${cluster.server}${urlPath}${separator}watch=1&allowWatchBookmarks=false&resourceVersion=${resourceVersion}`, {
			method: 'GET',
			ca,
			headers: {authorization: `Bearer ${cluster.adminToken}`, accept: 'application/json'},
		}, response => {
			let buffer = '';
			let lastVersion = resourceVersion;
			response.setEncoding('utf8');
			response.on('data', (chunk: string) => {
				buffer += chunk;
				let newline = buffer.indexOf('\n');
				while (newline !== -1) {
					const line = buffer.slice(0, newline);
					buffer = buffer.slice(newline + 1);
					newline = buffer.indexOf('\n');
					if (line.trim() === '') {
						continue;
					}

					const event = JSON.parse(line) as {type: string; object: Record<string, unknown>};
					const version = (event.object['metadata'] as Meta | undefined)?.resourceVersion;
					if (version) {
						lastVersion = version;
					}

					onEvent(event.type, event.object);
				}
			});
			response.on('end', () => {
				// The server ends watches after a while: go on from the last version seen.
				open(lastVersion);
			});
			response.on('error', () => {
				setTimeout(() => {
					open(lastVersion);
				}, 200);
			});
		});
		current.on('error', () => {
			if (!stopped) {
				setTimeout(() => {
					open(resourceVersion);
				}, 200);
			}
		});
		current.end();
	};

	// Start from "now": a list for the resourceVersion, then the watch (its initial ADDED events are the list).
	void (async () => {
		const list = await apiOk(cluster.request, 'GET', urlPath) as {metadata?: {resourceVersion?: string}; items?: Array<Record<string, unknown>>};
		for (const item of list.items ?? []) {
			onEvent('ADDED', item);
		}

		open(list.metadata?.resourceVersion ?? '0');
	})().catch(() => undefined);
	return {
		stop: () => {
			stopped = true;
			current?.destroy();
		},
	};
}

const webhookName = 'planwatch-e2e-kudo-instance-admission';

// --------------------------------------------------------------- start/stop --

/**
 * A cluster with KUDO's own CRDs (from the release, not the project's permissive copies), the manager running
 * against it with its admission webhook registered, and the stand-in collector.
 */
export async function startKudoCluster(): Promise<Kudo> {
	const binaries = await kudoBinaries();

	// The release's three kudo.dev CRDs plus the project's Kanister ones (the cluster harness waits for both).
	const crdDir = await mkdtemp(path.join(tmpdir(), 'planwatch-kudo-crds-'));
	for (const file of await readdir(binaries.crdDir)) {
		await copyFile(path.join(binaries.crdDir, file), path.join(crdDir, file));
	}

	for (const file of await readdir(path.join(e2eDir, 'crds'))) {
		if (file.startsWith('cr.kanister.io_')) {
			await copyFile(path.join(e2eDir, 'crds', file), path.join(crdDir, file));
		}
	}

	const cluster = await startCluster({crdDir});
	const children = new Set<ChildProcess>();
	const killAll = () => {
		for (const child of children) {
			child.kill('SIGKILL');
		}
	};

	process.on('exit', killAll);
	let collector: {stop(): Promise<void>} | undefined;
	const home = await mkdtemp(path.join(tmpdir(), 'planwatch-kudo-home-'));
	const managerLog = path.join(cluster.dir, 'kudo-manager.log');
	try {
		await waitFor('operators.kudo.dev to be served', 60_000, async () => (await cluster.request('GET', '/apis/kudo.dev/v1beta1/operators?limit=1')).status === 200 ? true : undefined);

		// ---- the webhook's serving certificate, signed by a CA of its own
		const certDir = path.join(cluster.dir, 'kudo-certs');
		await mkdir(certDir, {recursive: true});
		const openssl = async (...args: string[]) => {
			const result = await run('openssl', args, {cwd: certDir});
			if (result.code !== 0) {
				throw new Error(`openssl ${args.join(' ')} exited ${result.code}\n${result.stderr}`);
			}
		};

		await openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '7',
			'-subj', '/CN=planwatch-e2e-kudo-webhook-ca', '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign');
		await openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'tls.key', '-out', 'tls.csr', '-subj', '/CN=127.0.0.1');
		await writeFile(path.join(certDir, 'tls.ext'), 'subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n');
		await openssl('x509', '-req', '-in', 'tls.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-days', '7', '-extfile', 'tls.ext', '-out', 'tls.crt');

		// ---- the manager, webhook and metrics on loopback
		const webhookPort = await closedLoopbackPort();
		const metricsPort = await closedLoopbackPort();
		// The cluster's watchdog kills every <dir>/*.pid if this process dies without running exit handlers.
		const {child: manager} = await spawnLogged(binaries.manager, [], {
			log: managerLog,
			pidFile: path.join(cluster.dir, 'kudo-manager.pid'),
			env: {
				PATH: process.env['PATH'] ?? '/usr/bin:/bin',
				HOME: home,
				KUBECONFIG: cluster.adminKubeconfig,
				KUDO_CERT_DIR: certDir,
				KUDO_WEBHOOK_HOST: '127.0.0.1',
				KUDO_WEBHOOK_PORT: String(webhookPort),
				KUDO_METRICS_ADDR: `127.0.0.1:${metricsPort}`,
			},
			children,
		});

		const caBundle = readFileSync(path.join(certDir, 'ca.crt')).toString('base64');
		const webhook = {
			apiVersion: 'admissionregistration.k8s.io/v1',
			kind: 'MutatingWebhookConfiguration',
			metadata: {name: webhookName},
			webhooks: [{
				// As `kubectl kudo init` writes it (pkg/kudoctl/kudoinit/prereq/webhook.go), with a URL instead of a Service.
				name: 'instance-admission.kudo.dev',
				rules: [{operations: ['CREATE', 'UPDATE'], apiGroups: ['kudo.dev'], apiVersions: ['v1beta1'], resources: ['instances'], scope: 'Namespaced'}],
				failurePolicy: 'Fail',
				matchPolicy: 'Equivalent',
				sideEffects: 'None',
				admissionReviewVersions: ['v1beta1'],
				clientConfig: {url: `https://127.0.0.1:${webhookPort}/admit-kudo-dev-v1beta1-instance`, caBundle},
			}],
		};
		const applied = await cluster.kubectl(['apply', '-f', '-'], {input: JSON.stringify(webhook)});
		if (applied.code !== 0) {
			throw new Error(`MutatingWebhookConfiguration: ${applied.stderr}`);
		}

		// In effect once a server-side dry run of an Instance naming a missing OperatorVersion is refused by it.
		const probe = {
			apiVersion: 'kudo.dev/v1beta1',
			kind: 'Instance',
			metadata: {name: 'webhook-probe', namespace: 'default'},
			spec: {operatorVersion: {name: 'no-such-operatorversion'}},
		};
		await waitFor('the KUDO admission webhook to answer', 120_000, async () => {
			if (manager.exitCode !== null || manager.signalCode !== null) {
				throw new Error(`the KUDO manager exited (${String(manager.exitCode ?? manager.signalCode)})`);
			}

			const result = await cluster.kubectl(['create', '--dry-run=server', '-f', '-'], {input: JSON.stringify(probe)});
			return result.code !== 0 && result.stderr.includes('instance-admission.kudo.dev') && !/connection refused|no such host|context deadline/.test(result.stderr) ? true : undefined;
		}, () => tail(managerLog));

		const healthy = new Map<string, string>();
		collector = startStandIns(cluster.request, healthy);
		const activeCollector = collector;

		const kudo = (args: readonly string[], namespace: string) =>
			run(binaries.kubectlKudo, [...args, `--kubeconfig=${cluster.adminKubeconfig}`, `--namespace=${namespace}`, `--home=${path.join(home, '.kudo')}`], {
				env: {PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, KUBECONFIG: cluster.adminKubeconfig},
			});

		const getInstance = async (namespace: string, name: string) => {
			const response = await cluster.request('GET', `/apis/kudo.dev/v1beta1/namespaces/${namespace}/instances/${name}`);
			if (response.status === 404) {
				return undefined;
			}

			if (response.status !== 200) {
				throw new Error(`GET instance ${namespace}/${name}: HTTP ${response.status}`);
			}

			return response.json as Record<string, unknown>;
		};

		const deploymentPath = (namespace: string, name: string) => `/apis/apps/v1/namespaces/${namespace}/deployments/${name}`;
		const waitForDeployment = (namespace: string, name: string, timeoutMs = 60_000) => waitFor(`deployment ${namespace}/${name}`, timeoutMs, async () => {
			const response = await cluster.request('GET', deploymentPath(namespace, name));
			return response.status === 200 ? response.json as Record<string, unknown> : undefined;
		}, () => tail(managerLog, 20));

		return {
			cluster,
			binaries,
			managerLog,
			kudo,
			install: async (namespace, name, parameters = {}) => {
				const created = await cluster.kubectl(['create', 'namespace', namespace]);
				if (created.code !== 0 && !created.stderr.includes('AlreadyExists')) {
					throw new Error(`create namespace ${namespace}: ${created.stderr}`);
				}

				return kudo(['install', operatorDir, '--instance', name, ...Object.entries(parameters).flatMap(([key, value]) => ['-p', `${key}=${value}`])], namespace);
			},
			getInstance,
			watchInstance: async (namespace, name) => {
				const instance: WatchEntry[] = [];
				const events: WatchEntry[] = [];
				const listeners = new Set<() => void>();
				const changed = () => {
					for (const listener of [...listeners]) {
						listener();
					}
				};

				const instanceWatch = streamWatch(cluster, `/apis/kudo.dev/v1beta1/namespaces/${namespace}/instances?fieldSelector=metadata.name%3D${name}`, (type, object) => {
					instance.push({at: Date.now(), type, object});
					changed();
				});
				const eventWatch = streamWatch(cluster, `/api/v1/namespaces/${namespace}/events?fieldSelector=involvedObject.kind%3DInstance%2CinvolvedObject.name%3D${name}`, (type, object) => {
					events.push({at: Date.now(), type, object});
					changed();
				});
				return {
					instance,
					events,
					until: async (condition, what, timeoutMs = 60_000) => {
						if (condition(instance)) {
							return;
						}

						await new Promise<void>((resolve, reject) => {
							const check = () => {
								if (condition(instance)) {
									clearTimeout(timer);
									listeners.delete(check);
									resolve();
								}
							};

							const timer = setTimeout(() => {
								listeners.delete(check);
								reject(
									new Error(`timed out after ${timeoutMs} ms waiting for ${what}; instance events: ${JSON.stringify(instance.map(entry => planSummary(entry)))}` +
										`\n${tail(managerLog, 20)}`),
								);
							}, timeoutMs);
							listeners.add(check);
						});
					},
					stop: () => {
						instanceWatch.stop();
						eventWatch.stop();
					},
				};
			},
			waitForDeployment,
			makeDeploymentHealthy: async (namespace, name) => {
				const deployment = await waitForDeployment(namespace, name) as Obj;
				healthy.set(`${namespace}/${name}`, templateOf(deployment));
				await apiOk(cluster.request, 'PATCH', `${deploymentPath(namespace, name)}/status`, {
					contentType: 'application/merge-patch+json',
					body: {status: healthyStatus(deployment)},
				});
			},
			stop: async () => {
				await activeCollector.stop();
				await cluster.kubectl(['delete', 'mutatingwebhookconfiguration', webhookName, '--ignore-not-found']);
				for (const child of children) {
					child.kill('SIGTERM');
				}

				await sleep(200);
				killAll();
				process.off('exit', killAll);
				await cluster.stop();
			},
		};
	} catch (error) {
		await collector?.stop();
		killAll();
		process.off('exit', killAll);
		const log = tail(managerLog);
		await cluster.stop();
		throw new Error(`${error instanceof Error ? error.message : String(error)}\n--- kudo manager log ---\n${log}`, {cause: error});
	}
}

// ------------------------------------------------------------ reading status --

export type PlanState = {name: string; status: string; uid?: string; lastUpdatedTimestamp?: string};

/** The plans of an Instance object as its status holds them. */
export function planStates(object: Record<string, unknown> | undefined): PlanState[] {
	const plans = ((object?.['status'] as {planStatus?: Record<string, {name?: string; status?: string; uid?: string; lastUpdatedTimestamp?: string}>} | undefined)?.planStatus) ?? {};
	return Object.entries(plans).map(([name, plan]) => ({name, status: plan.status ?? '', uid: plan.uid, lastUpdatedTimestamp: plan.lastUpdatedTimestamp}));
}

export function planExecution(object: Record<string, unknown> | undefined): {planName?: string; uid?: string} {
	return ((object?.['spec'] as {planExecution?: {planName?: string; uid?: string}} | undefined)?.planExecution) ?? {};
}

/** One watch event in a line, for failure messages. */
export function planSummary(entry: WatchEntry): string {
	const execution = planExecution(entry.object);
	const plans = planStates(entry.object).filter(plan => plan.status !== 'NEVER_RUN').map(plan => `${plan.name}=${plan.status}@${plan.lastUpdatedTimestamp ?? '?'}`);
	return `${entry.type} rv=${(entry.object['metadata'] as Meta | undefined)?.resourceVersion ?? '?'} exec=${execution.planName ?? '-'} ${plans.join(' ')}`;
}

/** The status of `plan` in the Instance's newest watch event. */
export function lastPlanStatus(entries: readonly WatchEntry[], plan: string): string | undefined {
	return planStates(entries.at(-1)?.object).find(state => state.name === plan)?.status;
}

/** The first watch event at which `plan` has one of `statuses` (with uid `uid` if given). */
export function firstWrite(entries: readonly WatchEntry[], plan: string, statuses: readonly string[], uid?: string): WatchEntry | undefined {
	return entries.find(entry => planStates(entry.object).some(state => state.name === plan && statuses.includes(state.status) && (uid === undefined || state.uid === uid)));
}

function withoutManagedFields(object: Record<string, unknown>): Record<string, unknown> {
	const metadata = object['metadata'] as Record<string, unknown> | undefined;
	if (!metadata || !('managedFields' in metadata)) {
		return object;
	}

	const {managedFields: _dropped, ...rest} = metadata;
	return {...object, metadata: rest};
}

/**
 * The raw record of one case as the apiserver served it: every watch event of the Instance and of its Events with
 * its arrival time, and a header naming what wrote them (for test/fixtures/kudo-recorded/). managedFields are
 * left out (bulk, and not the controller's).
 */
export function rawRecording(kudo: Kudo, watch: InstanceWatch, what: string): string {
	const entry = (item: WatchEntry) => ({at: new Date(item.at).toISOString(), type: item.type, object: withoutManagedFields(item.object)});
	return JSON.stringify({
		header: {
			recordedWith: `KUDO ${kudo.binaries.version} manager with its admission webhook (github.com/kudobuilder/kudo@v0.19.0, built by test/e2e/build-kudo.sh), kubectl-kudo ` +
				`${kudo.binaries.version}, kube-apiserver ${kudo.cluster.version}`,
			case: what,
			recordedAt: new Date().toISOString(),
			note: 'Watch events as served (arrival times of the test process); Events are those whose involvedObject is the Instance.',
		},
		instance: watch.instance.map(item => entry(item)),
		events: watch.events.map(item => entry(item)),
	}, null, 1) + '\n';
}
