/**
 * Re-records test/fixtures/kanister-recorded/: the REAL Kanister controller on the e2e kube-apiserver + etcd, driven
 * through the core/deferPhase outcomes, two actions, a deletion while running, a missing Blueprint and KubeTask
 * phases that run pods, each watched by planwatch's own `--record` (plus the raw ActionSet, Event and pod watches,
 * with their receive times). Not part of CI: the Go module proxy refuses kanisterio/kanister, so the controller is
 * built by hand (test/e2e/build-kanister.sh) and named by PLANWATCH_KANISTER_CONTROLLER.
 *
 * The pods the controller creates (KubeTask) are played here as a scheduler and a kubelet would: each is bound to
 * the Node of a kubelet stand-in on 127.0.0.1 (harness/kubelet.ts), gets the statuses a kubelet writes (Running,
 * then its container terminated with its exit code and termination message), and its log is served by the
 * stand-in, so the controller's own log reads (pods/log, follow) go through the real apiserver. What a pod prints
 * and how it ends is the script in its command (`taskScripts`): the stand-in plays that script's output.
 *
 *   node scripts/build.mjs --quiet
 *   PLANWATCH_KANISTER_CONTROLLER=$(test/e2e/build-kanister.sh | tail -1)/controller PLANWATCH_KANISTER_COMMIT=<sha> \
 *     npm exec -- node scripts/record-kanister.mjs [OUT_DIR] [scenario…]
 */
import {spawn, type ChildProcess} from 'node:child_process';
import {closeSync, createWriteStream, existsSync, openSync, readFileSync} from 'node:fs';
import {mkdir, mkdtemp, readFile, rm, writeFile} from 'node:fs/promises';
import {request as httpsRequest} from 'node:https';
import {createServer} from 'node:net';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {setTimeout as sleep} from 'node:timers/promises';
import {fileURLToPath} from 'node:url';
import {startCluster, type Cluster} from './harness/cluster.js';
import {startKubelet, type ContainerRef, type KubeletStandIn} from './harness/kubelet.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const cliPath = path.join(repoRoot, 'dist', 'planwatch.js');
const namespace = 'kanister';
const blueprintName = 'planwatch-rec';

/** A WaitV2 condition on the Namespace `kanister`: one that holds at once, one that never does. */
function waitV2(phase: string, holds: boolean, timeout: string): Record<string, unknown> {
	const wanted = holds ? namespace : 'never-this-name';
	return {
		func: 'WaitV2',
		name: phase,
		args: {
			timeout,
			conditions: {anyOf: [{
				condition: `{{ if (eq .metadata.name "${wanted}") }}true{{ else }}false{{ end }}`,
				objectReference: {apiVersion: 'v1', resource: 'namespaces', name: namespace},
			}]},
		},
	};
}

/** The same with the original Wait function (jsonpath in braces). */
function waitV1(phase: string, holds: boolean, timeout: string): Record<string, unknown> {
	const wanted = holds ? namespace : 'never-this-name';
	return {
		func: 'Wait',
		name: phase,
		args: {
			timeout,
			conditions: {anyOf: [{
				condition: `{{ if (eq "{$.metadata.name}" "${wanted}") }}true{{ else }}false{{ end }}`,
				objectReference: {apiVersion: 'v1', resource: 'namespaces', name: namespace},
			}]},
		},
	};
}

function createConfigMap(phase: string, cm: string): Record<string, unknown> {
	return {
		func: 'KubeOps',
		name: phase,
		args: {
			operation: 'create',
			namespace,
			spec: `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${cm}\ndata:\n  by: planwatch-recorder\n`,
		},
	};
}

function deleteConfigMap(phase: string, cm: string): Record<string, unknown> {
	return {
		func: 'KubeOps',
		name: phase,
		args: {operation: 'delete', namespace, objectReference: {apiVersion: 'v1', resource: 'configmaps', name: cm, namespace}},
	};
}

/** What a KubeTask pod's script prints (stdout lines, `kando output` lines), how it ends, and its termination message. */
type TaskScript = {
	readonly lines: readonly string[];
	readonly outputs?: ReadonlyArray<readonly [string, string]>;
	readonly exitCode: number;
	readonly terminationMessage?: string;
};

function shellQuote(text: string): string {
	return `'${text.replaceAll("'", "'\\''")}'`;
}

/** The script a kanister-tools container would run for `t` (`kando output` prints the phase's output). */
function scriptText(t: TaskScript): string {
	return [
		...t.lines.map(line => `echo ${shellQuote(line)}`),
		...(t.outputs ?? []).map(([key, value]) => `kando output ${key} ${shellQuote(value)}`),
		...(t.terminationMessage === undefined ? [] : [`echo ${shellQuote(t.terminationMessage)} > /dev/termination-log`]),
		`exit ${t.exitCode}`,
	].join('\n');
}

/** What that script writes to its log: its lines, then each output as kando prints it (pkg/output/output.go). */
function scriptLog(t: TaskScript): string[] {
	return [...t.lines, ...(t.outputs ?? []).map(([key, value]) => `###Phase-output###: ${JSON.stringify({key, value})}`)];
}

const taskScripts: Record<string, TaskScript> = {
	prepareDump: {
		lines: ['checking the database shop-db in namespace kanister', 'shop-db answers: 3 tables, 1.2 MiB'],
		outputs: [['dumpTarget', '/backups/shop-db.sql']],
		exitCode: 0,
	},
	dumpDatabase: {
		lines: [
			'dumping shop-db to /backups/shop-db.sql',
			'mysqldump: [Warning] Using a password on the command line interface can be insecure.',
			'mysqldump: Got error: 2002: Can\'t connect to MySQL server on \'shop-db.kanister.svc\' (115) when trying to connect',
			'dump failed after 3 attempts',
		],
		exitCode: 1,
		terminationMessage: 'mysqldump exited 2: cannot connect to shop-db.kanister.svc:3306',
	},
	checkDatabase: {
		lines: ['checking the database shop-db in namespace kanister', 'shop-db answers: 3 tables, 1.2 MiB', 'check passed'],
		outputs: [['tables', '3']],
		exitCode: 0,
	},
};

/** A KubeTask phase running `taskScripts[phase]` in a pod in the namespace `kanister`. */
function kubeTask(phase: string): Record<string, unknown> {
	return {
		func: 'KubeTask',
		name: phase,
		args: {namespace, image: 'ghcr.io/kanisterio/kanister-tools:0.119.0', command: ['sh', '-c', scriptText(taskScripts[phase]!)]},
	};
}

/**
 * One action per core/deferPhase outcome, functions that need no pods: KubeOps (ConfigMaps) and Wait/WaitV2 over
 * a Namespace. Every action's deferPhase has its own name, as most Blueprints have.
 */
const blueprint = {
	apiVersion: 'cr.kanister.io/v1alpha1',
	kind: 'Blueprint',
	metadata: {name: blueprintName, namespace},
	actions: {
		okOk: {
			phases: [createConfigMap('makeConfigMap', 'rec-okok'), waitV2('waitReady', true, '30s')],
			deferPhase: deleteConfigMap('removeConfigMap', 'rec-okok'),
		},
		okFail: {
			phases: [waitV2('checkReady', true, '30s')],
			deferPhase: waitV2('waitGone', false, '4s'),
		},
		failOk: {
			phases: [createConfigMap('makeScratch', 'rec-failok'), waitV1('waitNever', false, '4s')],
			deferPhase: deleteConfigMap('removeScratch', 'rec-failok'),
		},
		failFail: {
			phases: [waitV1('waitMissing', false, '4s')],
			deferPhase: deleteConfigMap('removeMissing', 'rec-never-created'),
		},
		slow: {
			phases: [waitV2('waitLong', false, '90s')],
			deferPhase: waitV2('cleanupSlow', true, '30s'),
		},
		late: {
			phases: [createConfigMap('makeLate', 'rec-late'), waitV2('waitLate', false, '15s')],
			deferPhase: deleteConfigMap('removeLate', 'rec-late'),
		},
		// KubeTask: a pod per phase (played by the recorder as scheduler + kubelet, see the module comment).
		taskFail: {
			phases: [kubeTask('prepareDump'), kubeTask('dumpDatabase')],
		},
		taskOk: {
			phases: [kubeTask('checkDatabase')],
		},
	},
};

type Scenario = {
	/** File name and ActionSet name. */
	readonly name: string;
	readonly what: string;
	readonly actions: readonly string[];
	readonly blueprint?: string;
	/** Delete the ActionSet this long after its phase started running. */
	readonly deleteAfterMs?: number;
	/** Start planwatch only this long after the action's second phase started (timers of work already under way). */
	readonly watchAfterRunningMs?: number;
	/** Labels of the ActionSet (the controller copies `kanister.io/*` ones into the context, KubeTask the JobID onto its pod). */
	readonly labels?: Readonly<Record<string, string>>;
	/** Its phases run pods: the raw watches include them. */
	readonly pods?: boolean;
};

const scenarios: readonly Scenario[] = [
	{name: 'core-ok-defer-ok', what: 'core phases complete, deferPhase completes', actions: ['okOk']},
	{name: 'core-ok-defer-failed', what: 'core phase completes, deferPhase fails at its WaitV2 timeout', actions: ['okFail']},
	{name: 'core-failed-defer-ok', what: 'a core phase fails at its Wait timeout, deferPhase completes', actions: ['failOk']},
	{name: 'core-failed-defer-failed', what: 'a core phase fails at its Wait timeout, deferPhase fails (KubeOps delete of a missing ConfigMap)', actions: ['failFail']},
	{name: 'two-actions-one-defer-failed', what: 'two actions: okOk succeeds; okFail completes its phase, its deferPhase fails', actions: ['okOk', 'okFail']},
	{name: 'deleted-while-running', what: 'the ActionSet is deleted while its WaitV2 phase runs', actions: ['slow'], deleteAfterMs: 3000},
	{name: 'blueprint-missing', what: 'the ActionSet names a Blueprint that does not exist', actions: ['okOk'], blueprint: 'no-such-blueprint'},
	{name: 'watched-late', what: 'planwatch starts 6 s into phase waitLate (it fails at its 15 s WaitV2 timeout), deferPhase completes', actions: ['late'], watchAfterRunningMs: 6000},
	{
		name: 'kubetask-failed',
		what: 'two KubeTask phases, each a pod: prepareDump succeeds with an output, dumpDatabase\'s container exits 1; the ActionSet has a kanister.io/JobID label',
		actions: ['taskFail'],
		labels: {'kanister.io/JobID': 'rec-job-7'},
		pods: true,
	},
	{name: 'kubetask-ok', what: 'one KubeTask phase whose pod succeeds with an output (no JobID label)', actions: ['taskOk'], pods: true},
];

function actionSet(s: Scenario): Record<string, unknown> {
	return {
		apiVersion: 'cr.kanister.io/v1alpha1',
		kind: 'ActionSet',
		metadata: {name: s.name, namespace, ...(s.labels ? {labels: s.labels} : {})},
		spec: {actions: s.actions.map(a => ({name: a, blueprint: s.blueprint ?? blueprintName, object: {kind: 'Namespace', name: namespace}}))},
	};
}

async function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			server.close(() => {
				if (address === null || typeof address === 'string') {
					reject(new Error('no port'));
				} else {
					resolve(address.port);
				}
			});
		});
	});
}

async function until(what: string, ms: number, probe: () => Promise<boolean> | boolean): Promise<void> {
	const deadline = Date.now() + ms;
	while (!(await probe())) {
		if (Date.now() > deadline) {
			throw new Error(`timed out waiting for ${what}`);
		}

		await sleep(100);
	}
}

type WatchEvent = {type: string; object: Record<string, any>};

/** A raw watch of one resource, every line stamped with its receive time (managedFields left out). */
function rawWatch(cluster: Cluster, urlPath: string, out: string): {stop: () => Promise<void>} {
	const stream = createWriteStream(out, {flags: 'a'});
	const watch = watchEvents(cluster, urlPath, event => {
		delete event.object['metadata']?.['managedFields'];
		stream.write(`${JSON.stringify({at: new Date().toISOString(), type: event.type, object: event.object})}\n`);
	});
	return {
		stop: async () => {
			watch.stop();
			await new Promise<void>(resolve => {
				stream.end(resolve);
			});
		},
	};
}

/** Each event of a watch, as it comes; `onEnd` when the server ends it. */
function watchEvents(cluster: Cluster, urlPath: string, onEvent: (event: WatchEvent) => void, onEnd?: () => void): {stop: () => void} {
	const ca = readFileSync(cluster.caFile);
	let buffer = '';
	const req = httpsRequest(`${cluster.server}${urlPath}`, {ca, headers: {authorization: `Bearer ${cluster.adminToken}`, accept: 'application/json'}}, response => {
		response.setEncoding('utf8');
		response.on('data', (chunk: string) => {
			buffer += chunk;
			let nl: number;
			while ((nl = buffer.indexOf('\n')) !== -1) {
				const line = buffer.slice(0, nl);
				buffer = buffer.slice(nl + 1);
				if (line.trim() === '') {
					continue;
				}

				onEvent(JSON.parse(line) as WatchEvent);
			}
		});
		response.on('end', () => onEnd?.());
	});
	req.on('error', () => {});
	req.end();
	return {
		stop: () => {
			req.destroy();
		},
	};
}

/**
 * Scheduler and kubelet for the pods the controller creates (`createdBy=kanister` in the namespace `kanister`): bind
 * each new pod to the stand-in's Node, then write what a kubelet would — Pending and scheduled, Running with its
 * container started, its script's log line by line, then the container terminated with the script's exit code and
 * termination message (phase Succeeded or Failed) — and end the log stream after that status, as a container that
 * exited. The controller deletes the pod itself (grace period 0).
 */
function playKubelet(cluster: Cluster, kubelet: KubeletStandIn): {stop: () => void; errors: string[]} {
	const played = new Set<string>();
	const errors: string[] = [];
	const ok = async (method: string, urlPath: string, body: unknown, contentType?: string): Promise<void> => {
		const r = await cluster.request(method, urlPath, {body, ...(contentType ? {contentType} : {})});
		if (r.status >= 300) {
			throw new Error(`${method} ${urlPath}: HTTP ${r.status} ${r.body.slice(0, 300)}`);
		}
	};

	const play = async (pod: Record<string, any>): Promise<void> => {
		const name = pod['metadata'].name as string;
		const base = `/api/v1/namespaces/${namespace}/pods/${name}`;
		const container = pod['spec'].containers[0] as {name: string; image: string; command?: string[]};
		const script = Object.values(taskScripts).find(t => container.command?.at(-1) === scriptText(t));
		if (!script) {
			throw new Error(`pod ${name}: its command is none of taskScripts`);
		}

		const ref: ContainerRef = {namespace, pod: name, container: container.name};
		const status = (fields: Record<string, unknown>) => ok('PATCH', `${base}/status`, {status: fields}, 'application/merge-patch+json');
		const now = (): string => new Date().toISOString().replace(/\.\d+Z$/, 'Z');
		// The scheduler.
		await ok('POST', `${base}/binding`, {apiVersion: 'v1', kind: 'Binding', metadata: {name}, target: {apiVersion: 'v1', kind: 'Node', name: kubelet.nodeName}});
		kubelet.waiting(ref, 'ContainerCreating');
		await status({phase: 'Pending', conditions: [{type: 'PodScheduled', status: 'True', lastTransitionTime: now()}]});
		await sleep(800);
		// The kubelet: the container starts.
		const startedAt = now();
		const containerID = `containerd://${name.replaceAll('-', '').padEnd(64, '0').slice(0, 64)}`;
		const imageID = `${container.image.split(':')[0]}@sha256:${'5e'.repeat(32)}`;
		kubelet.append(ref, '');
		await status({
			phase: 'Running',
			hostIP: '127.0.0.1',
			startTime: startedAt,
			conditions: [
				{type: 'PodScheduled', status: 'True', lastTransitionTime: startedAt},
				{type: 'Initialized', status: 'True', lastTransitionTime: startedAt},
				{type: 'ContainersReady', status: 'True', lastTransitionTime: startedAt},
				{type: 'Ready', status: 'True', lastTransitionTime: startedAt},
			],
			containerStatuses: [{
				name: container.name, image: container.image, imageID, containerID, ready: true, started: true, restartCount: 0,
				state: {running: {startedAt}},
			}],
		});
		for (const line of scriptLog(script)) {
			await sleep(700);
			kubelet.append(ref, `${line}\n`);
		}

		await sleep(1000);
		const finishedAt = now();
		const reason = script.exitCode === 0 ? 'Completed' : 'Error';
		const done = {type: 'Ready', status: 'False', reason: 'PodCompleted', lastTransitionTime: finishedAt};
		await status({
			phase: script.exitCode === 0 ? 'Succeeded' : 'Failed',
			conditions: [
				{type: 'PodScheduled', status: 'True', lastTransitionTime: startedAt},
				{type: 'Initialized', status: 'True', lastTransitionTime: startedAt},
				{...done, type: 'ContainersReady'},
				done,
			],
			containerStatuses: [{
				name: container.name, image: container.image, imageID, containerID, ready: false, started: false, restartCount: 0,
				state: {terminated: {
					exitCode: script.exitCode, reason, startedAt, finishedAt, containerID,
					...(script.terminationMessage === undefined ? {} : {message: script.terminationMessage}),
				}},
			}],
		});
		kubelet.end(ref);
	};

	// A watch started right after the apiserver came up can be refused (`Too large resource version`, an ERROR event,
	// then the end): start it again, as an informer would; a pod already played is not played twice.
	let stopped = false;
	let watch: {stop: () => void} | undefined;
	const start = (): void => {
		watch = watchEvents(cluster, `/api/v1/namespaces/${namespace}/pods?watch=true&labelSelector=createdBy%3Dkanister`, event => {
			const uid = event.object['metadata']?.uid as string | undefined;
			if (event.type !== 'ADDED' || uid === undefined || played.has(uid) || event.object['status']?.phase !== 'Pending') {
				return;
			}

			played.add(uid);
			play(event.object).catch((error: unknown) => {
				const message = `kubelet play of pod ${String(event.object['metadata']?.name)}: ${error instanceof Error ? error.message : String(error)}`;
				errors.push(message);
				console.error(message);
			});
		}, () => {
			if (!stopped) {
				setTimeout(start, 500);
			}
		});
	};

	start();
	return {
		stop: () => {
			stopped = true;
			watch?.stop();
		},
		errors,
	};
}

async function kubectlOk(cluster: Cluster, args: string[], input?: string): Promise<string> {
	const r = await cluster.kubectl(args, input === undefined ? {} : {input});
	if (r.code !== 0) {
		throw new Error(`kubectl ${args.join(' ')}: ${r.stderr}`);
	}

	return r.stdout;
}

type Run = {code: number | null; stdout: string; stderr: string};

function startPlanwatch(args: readonly string[], home: string): {child: ChildProcess; done: Promise<Run>} {
	const child = spawn(process.execPath, [cliPath, ...args], {env: {PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, TZ: 'UTC', LANG: 'C.UTF-8'}, stdio: ['ignore', 'pipe', 'pipe']});
	let stdout = '';
	let stderr = '';
	child.stdout!.setEncoding('utf8').on('data', (d: string) => {
		stdout += d;
	});
	child.stderr!.setEncoding('utf8').on('data', (d: string) => {
		stderr += d;
	});
	const done = new Promise<Run>(resolve => {
		child.on('close', code => {
			resolve({code, stdout, stderr});
		});
	});
	return {child, done};
}

/** The recording header gains what produced it; the rest of each file is as planwatch and the apiserver wrote it. */
async function stampHeader(file: string, producer: Record<string, unknown>, waitFor: readonly string[]): Promise<void> {
	const text = await readFile(file, 'utf8');
	const nl = text.indexOf('\n');
	const header = JSON.parse(text.slice(0, nl)) as Record<string, unknown>;
	await writeFile(file, `${JSON.stringify({...header, waitFor, producer})}${text.slice(nl)}`);
}

type Raw = {metadata?: {deletionTimestamp?: string}; status?: {state?: string; actions?: Array<{deferPhase?: {state?: string}}>}};

/** The controller has nothing left to write: a terminal state and no deferPhase pending or running. */
function settled(object: Raw | undefined): boolean {
	const state = object?.status?.state;
	return (state === 'complete' || state === 'failed') && (object?.status?.actions ?? []).every(a => (a.deferPhase?.state ?? '') !== 'pending');
}

async function readActionSet(cluster: Cluster, name: string): Promise<Raw | undefined | 'gone'> {
	const r = await cluster.kubectl(['get', 'actionset', '-n', namespace, name, '-o', 'json']);
	if (r.code !== 0) {
		return r.stderr.includes('NotFound') ? 'gone' : undefined;
	}

	return JSON.parse(r.stdout) as Raw;
}

/**
 * One scenario. The recording is made by a planwatch that only watches (no --wait: a wait that ended early would
 * cut the recording before the controller's last writes) and is interrupted once the controller is done; a second
 * planwatch runs `--wait` alongside, and what it did (exit code, when) goes into the header as `liveWait`. The
 * header's `waitFor` then names the ActionSet, so `planwatch replay FILE --wait` waits for it as the live wait did.
 */
async function recordScenario(cluster: Cluster, controller: ChildProcess, s: Scenario, outDir: string, work: string, producer: Record<string, string>): Promise<string> {
	const recording = path.join(outDir, `${s.name}.ndjson`);
	const raw = path.join(outDir, `${s.name}.watch.ndjson`);
	await rm(recording, {force: true});
	await writeFile(
		raw,
		`${JSON.stringify({
			rawWatch: `ActionSet ${namespace}/${s.name} and its Events${s.pods ? ', and the pods labelled createdBy=kanister' : ''}, as the apiserver sent them (managedFields left out)`,
			producer: {...producer, scenario: s.what},
		})}\n`,
	);
	const watches = [
		rawWatch(cluster, `/apis/cr.kanister.io/v1alpha1/namespaces/${namespace}/actionsets?watch=true&fieldSelector=metadata.name%3D${s.name}`, raw),
		rawWatch(cluster, `/api/v1/namespaces/${namespace}/events?watch=true&fieldSelector=involvedObject.name%3D${s.name}`, raw),
		...(s.pods ? [rawWatch(cluster, `/api/v1/namespaces/${namespace}/pods?watch=true&labelSelector=createdBy%3Dkanister`, raw)] : []),
	];
	// planwatch exits 4 when its target is not there at the first list: create the ActionSet while the controller is
	// stopped (SIGSTOP), start planwatch, and let the controller go on once planwatch has listed. A scenario that
	// starts planwatch late lets the controller run and starts planwatch once the work is under way.
	const late = s.watchAfterRunningMs !== undefined;
	if (!late) {
		controller.kill('SIGSTOP');
	}

	const createdAt = Date.now();
	await kubectlOk(cluster, ['create', '-f', '-'], JSON.stringify(actionSet(s)));
	if (late) {
		await until('the second phase to run', 30_000, async () => {
			const r = await cluster.kubectl(['get', 'actionset', '-n', namespace, s.name, '-o', 'jsonpath={.status.actions[0].phases[1].state}']);
			return r.stdout === 'running';
		});
		await sleep(s.watchAfterRunningMs);
	}

	const common = [`actionset/${s.name}`, '-n', namespace, '--kubeconfig', cluster.adminKubeconfig, '-o', 'json', '--no-history'];
	const watcher = startPlanwatch([...common, '--record', recording], work);
	const waiter = startPlanwatch([...common, '--wait', '--timeout', '2m'], work);
	let waiterEnded: number | undefined;
	void waiter.done.then(() => {
		waiterEnded = Date.now();
	});
	try {
		await until('planwatch to list', 30_000, () => existsSync(recording) && readFileSync(recording, 'utf8').includes('"type":"synced"'));
		await sleep(1500);
	} finally {
		if (!late) {
			controller.kill('SIGCONT');
		}
	}

	let deletedAt: number | undefined;
	if (s.deleteAfterMs !== undefined) {
		await until('the phase to run', 30_000, async () => {
			const r = await cluster.kubectl(['get', 'actionset', '-n', namespace, s.name, '-o', 'jsonpath={.status.actions[0].phases[0].state}']);
			return r.stdout === 'running';
		});
		await sleep(s.deleteAfterMs);
		deletedAt = Date.now();
		await kubectlOk(cluster, ['delete', 'actionset', '-n', namespace, s.name, '--wait=false']);
	}

	// Until the controller is done (or the object gone), then 5 s for its late writes and events.
	await until('the controller to finish', 150_000, async () => {
		const o = await readActionSet(cluster, s.name);
		return o === 'gone' || settled(o);
	});
	await sleep(5000);
	watcher.child.kill('SIGINT');
	const watched = await watcher.done;
	// The live wait gets the 30 s deferPhase grace and a little more, then is stopped: still waiting.
	await Promise.race([waiter.done, sleep(40_000)]);
	if (waiterEnded === undefined) {
		waiter.child.kill('SIGINT');
	}

	const waited = await waiter.done;
	await Promise.all(watches.map(w => w.stop()));
	const lastLine = waited.stdout.trim().split('\n').at(-1) ?? '';
	const liveWait = waiterEnded === undefined
		? {stillWaiting: true, stoppedAfterMs: Date.now() - createdAt}
		: {exitCode: waited.code, endedAfterCreateMs: waiterEnded - createdAt, result: lastLine.slice(0, 400), ...(waited.stderr ? {stderr: waited.stderr.trim()} : {})};
	await stampHeader(recording, {
		...producer,
		scenario: s.what,
		note: 'recorded by a planwatch without --wait, interrupted once the controller was done; waitFor names the ActionSet the live --wait (liveWait) waited for',
		liveWait,
		...(deletedAt === undefined ? {} : {deletedAfterCreateMs: deletedAt - createdAt}),
	}, [`ActionSet/${namespace}/${s.name}`]);
	return `${s.name}: recorder exit ${String(watched.code)}; live --wait: ${JSON.stringify(liveWait)}`;
}

export async function main(args: readonly string[]): Promise<number> {
	const controller = process.env['PLANWATCH_KANISTER_CONTROLLER'];
	if (!controller || !existsSync(controller)) {
		console.error('PLANWATCH_KANISTER_CONTROLLER must name a Kanister controller binary (see test/fixtures/kanister-recorded/README.md)');
		return 2;
	}

	if (!existsSync(cliPath)) {
		console.error(`${cliPath} is missing: run node scripts/build.mjs --quiet first`);
		return 2;
	}

	const outDir = path.resolve(args[0] ?? path.join(repoRoot, 'test', 'fixtures', 'kanister-recorded'));
	const only = new Set(args.slice(1));
	const chosen = scenarios.filter(s => only.size === 0 || only.has(s.name));
	const producer: Record<string, string> = {
		controller: `kanisterio/kanister@${process.env['PLANWATCH_KANISTER_COMMIT'] ?? 'unknown'} cmd/controller (built by hand, see README.md)`,
		recorder: 'test/e2e/kanister-recorder.ts',
	};
	// test/e2e/build-kanister.sh leaves what it built and edited next to the binary.
	const buildInfo = path.join(path.dirname(controller), 'BUILD-INFO');
	if (existsSync(buildInfo)) {
		producer['build'] = readFileSync(buildInfo, 'utf8').trim().replaceAll('\n', ' ');
	}
	await mkdir(outDir, {recursive: true});
	const work = await mkdtemp(path.join(tmpdir(), 'planwatch-kanister-rec-'));
	const cluster = await startCluster();
	let child: ChildProcess | undefined;
	let kubelet: KubeletStandIn | undefined;
	let player: ReturnType<typeof playKubelet> | undefined;
	try {
		producer['apiserver'] = `kube-apiserver ${cluster.version}`;
		await kubectlOk(cluster, ['create', 'namespace', namespace]);
		kubelet = await startKubelet(cluster, 'planwatch-rec-node');
		player = playKubelet(cluster, kubelet);
		const port = await freePort();
		const log = path.join(work, 'kanister-controller.log');
		const fd = openSync(log, 'a');
		child = spawn(controller, [], {
			env: {
				PATH: process.env['PATH'] ?? '/usr/bin:/bin',
				HOME: work,
				KUBECONFIG: cluster.adminKubeconfig,
				POD_NAMESPACE: namespace,
				POD_NAME: 'kanister-controller',
				POD_SERVICE_ACCOUNT: 'default',
				HEALTH_CHECK_PORT: String(port),
			},
			stdio: ['ignore', fd, fd],
		});
		closeSync(fd);
		await until('the controller to serve its health check', 120_000, async () => {
			if (child?.exitCode !== null) {
				throw new Error(`controller exited:\n${readFileSync(log, 'utf8').slice(-3000)}`);
			}

			return fetch(`http://127.0.0.1:${port}/v0/healthz`).then(r => r.ok, () => false);
		});
		// Its watches start after the CRDs are re-applied; an ActionSet made before is still seen by the first list.
		await sleep(3000);
		await kubectlOk(cluster, ['apply', '-f', '-'], JSON.stringify(blueprint));
		for (const s of chosen) {
			console.log(await recordScenario(cluster, child, s, outDir, work, producer));
		}

		await writeFile(path.join(outDir, 'blueprint.json'), `${JSON.stringify(blueprint, null, 2)}\n`);
		console.log(`controller log: ${log}`);
		const asked = (kubelet?.requests ?? []).map(r => `${r.status} ${r.path}?${new URLSearchParams(r.query).toString()} (${r.client})`);
		console.log(`kubelet stand-in answered:\n  ${asked.join('\n  ')}`);
		return player?.errors.length ? 1 : 0;
	} finally {
		player?.stop();
		child?.kill('SIGTERM');
		await kubelet?.stop();
		await cluster.stop();
	}
}
