/**
 * `planwatch --wait` on every scenario, against a real kube-apiserver, as a user runs it: the built CLI with
 * pipes, `-o json` (compared field by field with what the server holds at the end) and `-o plain` (the
 * append-only transition log, the final tree and summary) side by side on the same run. Exit codes: 0 / 1
 * (fast on FATAL_ERROR) / 3 (timeout); the uid race; RBAC and other cluster errors (one line, exit 4).
 */
import {readFile, writeFile} from 'node:fs/promises';
import {closedLoopbackPort} from './harness/ports.js';
import path from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import type {JsonNode, JsonObject} from '../../source/render/json.js';
import {cliFinal, hasControlSequence, killAllClis, runCli, startCli, type CliProcess} from './harness/cli.js';
import {startCluster, type Cluster} from './harness/cluster.js';
import {killAllPtys, startPtyCli} from './harness/pty.js';
import {record} from './harness/results.js';
import {freshNamespace, lastStatusIndex, launchIndex, playWatched, scenarioNamed} from './harness/scenario-run.js';
import {compareWithServer, readServer} from './harness/server-picture.js';

let cluster: Cluster;

beforeAll(async () => {
	cluster = await startCluster();
});

// Not afterEach: tests of a concurrent block share the process, and each CLI ends with its test anyway.
afterAll(async () => {
	killAllClis();
	await cluster?.stop();
});

/** Node rows a user must find in the plain final tree: every node with its raw status word. */
function flatten(nodes: readonly JsonNode[], depth = 0): Array<{name: string; status: string; depth: number}> {
	return nodes.flatMap(n => [{name: n.name, status: n.status, depth}, ...flatten(n.children, depth + 1)]);
}

/** The final tree of `-o plain`: everything after the first blank line that follows the log. */
function plainFinalTree(stdout: string): string {
	const blank = stdout.indexOf('\n\n');
	return blank === -1 ? '' : stdout.slice(blank + 2);
}

/** Check the plain final tree shows `object` as the JSON run does: header, every node with its status, summary. */
function expectPlainTree(stdout: string, object: JsonObject): void {
	const tree = plainFinalTree(stdout);
	const lines = tree.split('\n');
	const header = lines.findIndex(line => line.startsWith(`${object.kind} ${object.namespace}/${object.name}`));
	expect(header, `header of ${object.name} in\n${tree}`).toBeGreaterThanOrEqual(0);
	let at = header + 1;
	for (const node of flatten(object.tree)) {
		const row = lines.findIndex((line, i) => i >= at && line.includes(` ${node.name}`) && line.includes(node.status === '' ? '-' : node.status));
		expect(row, `row "${node.name} ${node.status}" of ${object.name} after line ${at} in\n${tree}`).toBeGreaterThanOrEqual(at);
		at = row + 1;
	}

	// A Kanister deferPhase's output and its action's artifacts follow the last row (docs/kanister-values.md), then the summary line: an
	// icon, then the summary the JSON gives.
	while (lines[at] !== undefined && /^[│ ]+(output:|artifact )/.test(lines[at]!)) {
		at++;
	}

	expect(lines[at]?.endsWith(` ${object.summary}`), `summary "${object.summary}" on line ${at} of\n${tree}`).toBe(true);
}

type WaitCase = {
	readonly scenario: string;
	/** `instance/NAME` / `actionset/NAME`; none = every object in the namespace. */
	readonly target?: string;
	readonly exitCode: 0 | 1;
	readonly speed: number;
	/** Checks on the final JSON objects beyond "equal to the server". */
	readonly check?: (objects: readonly JsonObject[]) => void;
};

const nodeStatus = (object: JsonObject | undefined, ...names: string[]): string | undefined => {
	let nodes = object?.tree ?? [];
	let found: JsonNode | undefined;
	for (const name of names) {
		found = nodes.find(n => n.name === name);
		nodes = found?.children ?? [];
	}

	return found?.status;
};

const deferOf = (object: JsonObject | undefined): JsonNode | undefined => object?.tree[0]?.children.find(n => n.kind === 'deferPhase');

const cases: readonly WaitCase[] = [
	{
		scenario: 'mysql-deploy',
		target: 'instance/mysql-instance',
		exitCode: 0,
		speed: 10,
		check: ([o]) => {
			expect(o?.status).toBe('COMPLETE');
			expect(nodeStatus(o, 'deploy', 'deploy', 'init')).toBe('COMPLETE');
			expect(nodeStatus(o, 'backup')).toBe('NEVER_RUN');
		},
	},
	{
		scenario: 'zookeeper-deploy',
		target: 'instance/zookeeper-instance',
		exitCode: 0,
		speed: 10,
		check: ([o]) => {
			expect(nodeStatus(o, 'deploy', 'zookeeper', 'app')).toBe('COMPLETE');
			expect(nodeStatus(o, 'deploy', 'validation', 'cleanup')).toBe('COMPLETE');
		},
	},
	{
		scenario: 'kudo-fatal',
		target: 'instance/mysql-orders',
		exitCode: 1,
		speed: 10,
		check: ([o]) => {
			expect(o?.outcome).toBe('failed');
			expect(nodeStatus(o, 'restore', 'restore', 'restore')).toBe('FATAL_ERROR');
			expect(o?.summary).toMatch(/restore failed in phase restore, step restore/);
		},
	},
	{
		scenario: 'mysql-backup',
		target: 'actionset/backup-rslmb',
		exitCode: 0,
		speed: 10,
		check: ([o]) => {
			expect(o?.status).toBe('complete');
			expect(deferOf(o)?.status).toBe('complete');
		},
	},
	{
		scenario: 'backup-defer-failed',
		target: 'actionset/backup-glptq',
		exitCode: 1,
		speed: 20,
		check: ([o]) => {
			expect(o?.outcome).toBe('failed');
			expect(o?.tree[0]?.children.filter(n => n.kind === 'phase').map(n => n.status)).toEqual(['complete', 'complete', 'complete', 'complete', 'complete']);
			expect(deferOf(o)?.status).toBe('failed');
		},
	},
	{
		scenario: 'postgres-restore-failed',
		target: 'actionset/restore-backup-glptq-6jzt4',
		exitCode: 1,
		speed: 10,
		check: ([o]) => {
			expect(o?.outcome).toBe('failed');
			// The deferPhase ran after the failure and completed: waiting covered it.
			expect(deferOf(o)?.status).toBe('complete');
		},
	},
	{
		scenario: 'restore-defer-both-failed',
		target: 'actionset/restore-backup-glptq-m4k8v',
		exitCode: 1,
		speed: 10,
		check: ([o]) => {
			expect(o?.tree[0]?.children.find(n => n.name === 'restoreFromObjectStore' || n.status === 'failed')?.status).toBe('failed');
			expect(deferOf(o)?.status).toBe('failed');
		},
	},
	{
		scenario: 'actionset-start-failed',
		target: 'actionset/backup-mx7pd',
		exitCode: 1,
		speed: 10,
		check: ([o]) => {
			expect(o?.status).toBe('failed');
			expect(deferOf(o)?.status).toBe('pending');
		},
	},
	{scenario: 'tour', exitCode: 1, speed: 10, check: objects => {
		expect(objects.map(o => `${o.kind}/${o.name} ${o.outcome}`).sort()).toEqual([
			'ActionSet/backup-rslmb succeeded',
			'ActionSet/restore-backup-glptq-6jzt4 failed',
			'Instance/mysql-instance succeeded',
			'Instance/zookeeper-instance succeeded',
		]);
	}},
	{scenario: 'many', exitCode: 1, speed: 10, check: objects => {
		expect(objects).toHaveLength(30);
		expect(objects.every(o => o.outcome === 'succeeded' || o.outcome === 'failed')).toBe(true);
	}},
];

describe.concurrent('--wait on each scenario (json and plain side by side)', () => {
	it.each(cases)('$scenario → exit $exitCode', async c => {
		const scenario = scenarioNamed(c.scenario);
		const namespace = freshNamespace(`wait-${c.scenario}`);
		const args = [...(c.target ? [c.target] : []), '--kubeconfig', cluster.adminKubeconfig, '-n', namespace, '--wait', '--timeout', '2m'];
		let json: CliProcess | undefined;
		let plain: CliProcess | undefined;
		const targetName = c.target?.split('/')[1];
		const {appliedAt} = await playWatched(scenario, {
			kubeconfig: cluster.adminKubeconfig,
			namespace,
			speed: c.speed,
			launchAfter: launchIndex(scenario, targetName),
			launch: async () => {
				json = startCli([...args, '-o', 'json']);
				plain = startCli([...args, '-o', 'plain']);
				// Synced and drawing: the opening snapshot / the first summary line.
				await json.waitForStdout(out => out.includes('\n'), 'the opening NDJSON snapshot');
				await plain.waitForStdout(out => out.includes('\n'), 'the opening plain line');
			},
		});
		const exits = await Promise.all([json!.waitForExit(90_000), plain!.waitForExit(90_000)]);
		const state = await readServer(cluster, namespace);

		// json: the final snapshot equals the server, the result line carries the exit code.
		expect(exits[0].code, json!.describe()).toBe(c.exitCode);
		expect(hasControlSequence(json!.stdout()), 'no escape sequence in -o json').toBe(false);
		const final = cliFinal(json!.stdout());
		expect(final.result?.['exitCode']).toBe(c.exitCode);
		const comparison = compareWithServer(final.objects, state, namespace, {allowLateEvents: true});
		record({scenarios: 1, objectsCompared: comparison.compared, mismatches: comparison.mismatches.length, note: `--wait ${c.scenario}: exit ${String(exits[0].code)}`});
		expect(comparison.mismatches, json!.describe()).toEqual([]);
		expect(comparison.compared).toBe(c.target ? 1 : final.objects.length);
		c.check?.(final.objects);

		// plain: same exit, the transition log, then every object's final tree and summary.
		expect(exits[1].code, plain!.describe()).toBe(c.exitCode);
		expect(hasControlSequence(plain!.stdout() + plain!.stderr()), 'no escape sequence in -o plain').toBe(false);
		for (const object of final.objects) {
			expectPlainTree(plain!.stdout(), object);
		}

		// Fail fast on FATAL_ERROR: exit right after the write, not at the 2 min timeout.
		if (c.scenario === 'kudo-fatal') {
			const fatalWrittenAt = appliedAt.get(lastStatusIndex(scenario, 'mysql-orders'))!;
			expect(json!.exitedAt()! - fatalWrittenAt).toBeLessThan(15_000);
		}

		// A launch failure leaves the deferPhase pending forever; its "Failed to launch Action" event says so, so
		// planwatch reports the failure at once instead of waiting out the 30 s deferPhase grace period.
		if (c.scenario === 'actionset-start-failed') {
			const failedAt = appliedAt.get(lastStatusIndex(scenario, 'backup-mx7pd'))!;
			expect(json!.exitedAt()! - failedAt, plain!.describe()).toBeLessThan(10_000);
		}
	});
});

describe('plain transition log', () => {
	it('logs each status change as one line, ERROR and its recovery included, then the final tree', async () => {
		const scenario = scenarioNamed('mysql-deploy');
		const namespace = freshNamespace('log');
		let plain: CliProcess | undefined;
		await playWatched(scenario, {
			kubeconfig: cluster.adminKubeconfig,
			namespace,
			speed: 10,
			launchAfter: launchIndex(scenario, 'mysql-instance'),
			launch: async () => {
				plain = startCli(['instance/mysql-instance', '--kubeconfig', cluster.adminKubeconfig, '-n', namespace, '--wait']);
				await plain.waitForStdout(out => out.includes('\n'), 'the opening plain line');
			},
		});
		expect((await plain!.waitForExit()).code, plain!.describe()).toBe(0);
		const [zone, ...lines] = plain!.stdout().split('\n');
		expect(zone, plain!.describe()).toBe('times UTC');
		const log = lines.slice(0, lines.indexOf(''));
		const where = `${namespace}/mysql-instance deploy › deploy › init`;
		// "12:01:03 ns/mysql-instance deploy › deploy › init  IN_PROGRESS → COMPLETE (41s)"
		// Every log line is stamped and about the watched object (opening summary, transitions, the closing line).
		expect(log.filter(line => !/^\d\d:\d\d:\d\d /.test(line) || !line.includes(`${namespace}/mysql-instance`)), plain!.describe()).toEqual([]);
		const changes = log.filter(line => line.includes(`${where}  `)).map(line => line.slice(line.indexOf(`${where}  `) + where.length + 2).replace(/ \(.*\)$/, ''));
		expect(changes, plain!.describe()).toEqual(expect.arrayContaining(['IN_PROGRESS → ERROR', 'ERROR → IN_PROGRESS', 'IN_PROGRESS → COMPLETE']));
		expect(changes.indexOf('IN_PROGRESS → ERROR')).toBeLessThan(changes.indexOf('ERROR → IN_PROGRESS'));
		expect(log.some(line => line.includes(`${namespace}/mysql-instance deploy  `) && line.includes('→ COMPLETE')), plain!.describe()).toBe(true);
		record({scenarios: 1, note: 'plain transition log of mysql-deploy'});
	});
});

describe('the uid race (a plan triggered but not picked up yet)', () => {
	it('does not report the previous COMPLETE run: waits for the new run and exits 0 only after it', async () => {
		const scenario = scenarioNamed('kudo-uid-race');
		const namespace = freshNamespace('race');
		let json: CliProcess | undefined;
		let plain: CliProcess | undefined;
		const trigger = launchIndex(scenario, 'mysql-billing');
		const pickUp = scenario.objects.findIndex((step, i) => i > trigger && step.op === 'status');
		const stillRunning: Array<string | undefined> = [];
		const {appliedAt} = await playWatched(scenario, {
			kubeconfig: cluster.adminKubeconfig,
			namespace,
			speed: 10,
			launchAfter: trigger,
			launch: async () => {
				const args = ['instance/mysql-billing', '--kubeconfig', cluster.adminKubeconfig, '-n', namespace, '--wait', '--timeout', '1m'];
				json = startCli([...args, '-o', 'json']);
				plain = startCli([...args, '-o', 'plain']);
				await json.waitForStdout(out => out.includes('\n'), 'the opening NDJSON snapshot');
				await plain.waitForStdout(out => out.includes('\n'), 'the opening plain line');
			},
			at: {
				// The controller picks the new run up: neither CLI may have exited with the old result.
				[pickUp]: async () => {
					stillRunning.push(json!.exit() ? json!.describe() : undefined, plain!.exit() ? plain!.describe() : undefined);
				},
			},
		});
		expect(stillRunning).toEqual([undefined, undefined]);
		const [jsonExit, plainExit] = await Promise.all([json!.waitForExit(), plain!.waitForExit()]);
		expect(jsonExit.code, json!.describe()).toBe(0);
		expect(plainExit.code, plain!.describe()).toBe(0);
		const finalWrite = appliedAt.get(lastStatusIndex(scenario, 'mysql-billing'))!;
		expect(json!.exitedAt()!).toBeGreaterThanOrEqual(finalWrite);

		// The opening picture said it was waiting for the controller; the log shows the new run's steps.
		const opening = cliFinal(json!.stdout()).first;
		expect(opening?.objects[0]?.summary).toMatch(/backup triggered, waiting for the controller to start it/);
		expect(plain!.stdout()).toMatch(/mysql-billing backup › backup › backup {2}\S+ → IN_PROGRESS/);
		const final = cliFinal(json!.stdout());
		const comparison = compareWithServer(final.objects, await readServer(cluster, namespace), namespace, {allowLateEvents: true});
		record({scenarios: 1, objectsCompared: comparison.compared, mismatches: comparison.mismatches.length, note: 'uid race: waited for the new run'});
		expect(comparison.mismatches).toEqual([]);
	});
});

describe('timeout', () => {
	it('exits 3 at the timeout without a TTY, with the state at that moment', async () => {
		const scenario = scenarioNamed('mysql-deploy');
		const namespace = freshNamespace('timeout');
		const abort = new AbortController();
		const clis: CliProcess[] = [];
		let launched!: () => void;
		const started = new Promise<void>(resolve => {
			launched = resolve;
		});
		const playing = playWatched(scenario, {
			kubeconfig: cluster.adminKubeconfig,
			namespace,
			// Slow: the plan needs about a minute.
			speed: 0.5,
			launchAfter: launchIndex(scenario, 'mysql-instance'),
			signal: abort.signal,
			launch: async () => {
				const args = ['instance/mysql-instance', '--kubeconfig', cluster.adminKubeconfig, '-n', namespace, '--wait', '--timeout', '3s'];
				clis.push(startCli([...args, '-o', 'plain']), startCli([...args, '-o', 'json']));
				await clis[0]!.waitForStdout(out => out.includes('\n'), 'the opening plain line');
				launched();
			},
		}).then(() => undefined, (error: unknown) => (abort.signal.aborted ? undefined : error));
		await Promise.race([started, playing.then(error => {
			throw error ?? new Error('the scenario ended before planwatch started');
		})]);
		const [plain, json] = clis as [CliProcess, CliProcess];
		const [plainExit, jsonExit] = await Promise.all([plain.waitForExit(30_000), json.waitForExit(30_000)]);
		abort.abort();
		expect(await playing).toBeUndefined();
		expect(plainExit.code, plain.describe()).toBe(3);
		expect(jsonExit.code, json.describe()).toBe(3);
		expect(cliFinal(json.stdout()).result?.['exitCode']).toBe(3);
		// The final tree shows where it was; one line on stderr says it timed out.
		expect(plainFinalTree(plain.stdout())).toMatch(/IN_PROGRESS|PENDING|NEVER_RUN/);
		const errLines = plain.stderr().split('\n').filter(Boolean);
		expect(errLines, plain.describe()).toHaveLength(1);
		expect(errLines[0]).toMatch(/^planwatch: .*tim(e|ed) ?out/i);
		record({scenarios: 1, note: 'timeout → exit 3'});
	});
});

describe('cluster errors are one line and exit 4', () => {
	let namespace: string;
	beforeAll(async () => {
		namespace = freshNamespace('rbac');
		const created = await cluster.kubectl(['create', 'namespace', namespace]);
		expect(created.code, created.stderr).toBe(0);
		const actionSet = {
			apiVersion: 'cr.kanister.io/v1alpha1',
			kind: 'ActionSet',
			metadata: {name: 'backup-x', namespace},
			spec: {actions: [{name: 'backup', blueprint: 'bp'}]},
		};
		const applied = await cluster.kubectl(['create', '-f', '-'], {input: JSON.stringify(actionSet)});
		expect(applied.code, applied.stderr).toBe(0);
		const instance = {apiVersion: 'kudo.dev/v1beta1', kind: 'Instance', metadata: {name: 'mysql-x', namespace}, spec: {operatorVersion: {name: 'mysql-0.1.0'}}};
		const createdInstance = await cluster.kubectl(['create', '-f', '-'], {input: JSON.stringify(instance)});
		expect(createdInstance.code, createdInstance.stderr).toBe(0);
		// Namespace-scoped RBAC for a Kanister-only user: actionsets and blueprints in this namespace, nothing of KUDO.
		const role = {
			apiVersion: 'v1',
			kind: 'List',
			items: [
				{
					apiVersion: 'rbac.authorization.k8s.io/v1',
					kind: 'Role',
					metadata: {name: 'kanister-reader', namespace},
					rules: [{apiGroups: ['cr.kanister.io'], resources: ['actionsets', 'blueprints'], verbs: ['get', 'list', 'watch']}],
				},
				{
					apiVersion: 'rbac.authorization.k8s.io/v1',
					kind: 'RoleBinding',
					metadata: {name: 'kanister-reader', namespace},
					roleRef: {apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'kanister-reader'},
					subjects: [{apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'kanister'}],
				},
				// A Kanister-only user cluster-wide (`planwatch -A`): Kanister's kinds and events, nothing of KUDO.
				{
					apiVersion: 'rbac.authorization.k8s.io/v1',
					kind: 'ClusterRole',
					metadata: {name: `${namespace}-backups`},
					rules: [
						{apiGroups: ['cr.kanister.io'], resources: ['actionsets', 'blueprints'], verbs: ['get', 'list', 'watch']},
						{apiGroups: [''], resources: ['events'], verbs: ['get', 'list', 'watch']},
					],
				},
				{
					apiVersion: 'rbac.authorization.k8s.io/v1',
					kind: 'ClusterRoleBinding',
					metadata: {name: `${namespace}-backups`},
					roleRef: {apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: `${namespace}-backups`},
					subjects: [{apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'backups'}],
				},
			],
		};
		const bound = await cluster.kubectl(['apply', '-f', '-'], {input: JSON.stringify(role)});
		expect(bound.code, bound.stderr).toBe(0);
		// RBAC changes reach the authorizer through a watch: wait until the user may list.
		for (const [user, scope] of [['kanister', ['-n', namespace]], ['backups', ['-A']]] as const) {
			for (let i = 0; i < 100; i++) {
				const can = await cluster.kubectl(['auth', 'can-i', 'list', 'actionsets.cr.kanister.io', ...scope, '--as', user]);
				if (can.stdout.trim() === 'yes') {
					break;
				}

				await new Promise(resolve => setTimeout(resolve, 100));
			}
		}
	});

	afterAll(() => {
		killAllPtys();
	});

	const oneLine = (result: {stderr: string; describe: string}) => {
		const lines = result.stderr.split('\n').filter(line => line.trim() !== '');
		expect(lines, result.describe).toHaveLength(1);
		expect(lines[0]).toMatch(/^planwatch: /);
		expect(result.stderr).not.toMatch(/^\s+at /m);
		expect(hasControlSequence(result.stderr)).toBe(false);
		return lines[0]!;
	};

	it.each(['plain', 'json'])('viewer forbidden on actionsets: one line naming what is forbidden (-o %s)', async output => {
		const result = await runCli(['actionset/backup-x', '--kubeconfig', cluster.viewerKubeconfig, '-n', namespace, '--wait', '-o', output]);
		expect(result.code, result.describe).toBe(4);
		const line = oneLine(result);
		// Blueprints are forbidden too, but only the targets' own kind is fatal (a supporting kind degrades).
		expect(line).toMatch(/forbidden: user viewer cannot \w+ actionsets\.cr\.kanister\.io/);
		record({note: `RBAC: viewer on actionset (-o ${output}) → exit 4`});
	});

	it('a KUDO-only user watching the whole namespace: the Instances, and one line that ActionSets are left out', async () => {
		const json = await runCli(['--kubeconfig', cluster.viewerKubeconfig, '-n', namespace, '--once', '-o', 'json']);
		expect(json.code, json.describe).toBe(0);
		const document = JSON.parse(json.stdout) as {objects: Array<{kind: string; name: string}>; missing?: Array<{resource: string; reason: string}>};
		expect(document.objects.map(o => `${o.kind}/${o.name}`)).toEqual(['Instance/mysql-x']);
		expect(document.missing).toEqual([{
			resource: 'ActionSet',
			reason: expect.stringMatching(/^actionsets\.cr\.kanister\.io not watched: forbidden: user viewer cannot list actionsets\.cr\.kanister\.io/) as string,
		}]);
		const plain = await runCli(['--kubeconfig', cluster.viewerKubeconfig, '-n', namespace, '--once', '-o', 'plain']);
		expect(plain.code, plain.describe).toBe(0);
		expect(plain.stdout).toContain('mysql-x');
		expect(oneLine(plain)).toMatch(/actionsets\.cr\.kanister\.io not watched: forbidden: user viewer/);
		record({note: 'RBAC: KUDO-only user, -n NS: Instances drawn, ActionSets left out with one line'});
	});

	it('a Kanister-only user (a namespaced Role): the ActionSets, and one line that Instances are left out', async () => {
		const json = await runCli(['--kubeconfig', cluster.userKubeconfigs.kanister, '-n', namespace, '--once', '-o', 'json']);
		expect(json.code, json.describe).toBe(0);
		const document = JSON.parse(json.stdout) as {objects: Array<{kind: string; name: string}>; missing?: Array<{resource: string; reason: string}>};
		expect(document.objects.map(o => `${o.kind}/${o.name}`)).toEqual(['ActionSet/backup-x']);
		expect(document.missing?.map(m => m.resource)).toEqual(expect.arrayContaining(['Instance']));
		expect(document.missing?.find(m => m.resource === 'Instance')?.reason).toMatch(/^instances\.kudo\.dev not watched: forbidden: user kanister cannot list instances\.kudo\.dev/);
		record({note: 'RBAC: Kanister-only user, -n NS: ActionSets drawn, Instances left out'});
	});

	it('one kind asked for that the user may not list, or nothing readable at all: one forbidden line, exit 4', async () => {
		const kind = await runCli(['actionsets', '--kubeconfig', cluster.viewerKubeconfig, '-n', namespace, '--once', '-o', 'plain']);
		expect(kind.code, kind.describe).toBe(4);
		expect(oneLine(kind)).toMatch(/forbidden: user viewer cannot \w+ actionsets\.cr\.kanister\.io/);
		const nothing = await runCli(['--kubeconfig', cluster.userKubeconfigs.nobody, '-n', namespace, '--once', '-o', 'plain']);
		expect(nothing.code, nothing.describe).toBe(4);
		expect(oneLine(nothing)).toMatch(/forbidden: user nobody cannot \w+ (instances\.kudo\.dev|actionsets\.cr\.kanister\.io)/);
	});

	type Listed = {
		objects: Array<{kind: string; namespace: string; name: string; outcome?: string}>;
		missing?: Array<{resource: string; reason: string}>;
	};
	// `-A` sees the other tests' namespaces too: a failed object anywhere there makes `--once` exit 1 (README's table).
	const onceCode = (document: Listed) => (document.objects.some(o => o.outcome === 'failed') ? 1 : 0);
	// A failed or running node there has its pods read, which these users may not: at most one entry, said optional.
	const workloadKinds = new Set(['Pod', 'Deployment', 'StatefulSet', 'Job']);
	const requiredMissing = (document: Listed) => {
		const optional = (document.missing ?? []).filter(m => workloadKinds.has(m.resource));
		expect(optional.length).toBeLessThanOrEqual(1);
		for (const m of optional) {
			expect(m.reason).toMatch(/; pods, deployments, statefulsets, jobs \(get\/list\/watch\) and pods\/log \(get\) are optional/);
		}

		return (document.missing ?? []).filter(m => !workloadKinds.has(m.resource));
	};

	it('a Kanister-only user of planwatch -A (a ClusterRole): every ActionSet, one note that Instances are left out, exit 0', async () => {
		const json = await runCli(['--kubeconfig', cluster.userKubeconfigs.backups, '-A', '--once', '-o', 'json']);
		const document = JSON.parse(json.stdout) as Listed;
		expect(json.code, json.describe).toBe(onceCode(document));
		expect(document.objects.map(o => `${o.kind}/${o.namespace}/${o.name}`)).toContain(`ActionSet/${namespace}/backup-x`);
		expect(document.objects.filter(o => o.kind !== 'ActionSet')).toEqual([]);
		// One note, for the kind left out; KUDO's supporting OperatorVersions are not a second one.
		expect(requiredMissing(document)).toEqual([{
			resource: 'Instance',
			reason: expect.stringMatching(/^instances\.kudo\.dev not watched: forbidden: user backups cannot list instances\.kudo\.dev in all namespaces/) as string,
		}]);
		const plain = await runCli(['--kubeconfig', cluster.userKubeconfigs.backups, '-A', '--once', '-o', 'plain']);
		expect(plain.code, plain.describe).toBe(onceCode(document));
		expect(plain.stdout).toContain(`ActionSet ${namespace}/backup-x`);
		// The pods note (when a failed or running node wanted them) is a line of its own, said optional.
		const required = {...plain, stderr: plain.stderr.split('\n').filter(line => !/ are optional: /.test(line)).join('\n')};
		expect(oneLine(required)).toMatch(/instances\.kudo\.dev not watched: forbidden: user backups cannot list instances\.kudo\.dev in all namespaces/);
		record({note: 'RBAC: Kanister-only user (ClusterRole), -A: ActionSets drawn, Instances left out with one line'});
	});

	it('a Kanister-only user of planwatch -A in the TUI: the ActionSets, and the header says without instances (forbidden)', async () => {
		const tui = startPtyCli(['--kubeconfig', cluster.userKubeconfigs.backups, '-A'], {cols: 160, rows: 30});
		await tui.waitForText(`${namespace}`);
		await tui.waitForText('without instances (forbidden)');
		expect(tui.screen()[0], tui.text()).toContain('without instances (forbidden)');
		expect(tui.text()).not.toMatch(/forbidden: user/);
		tui.press('q');
		expect((await tui.exited).exitCode, tui.text()).toBe(0);
	});

	it('one kind for the Kanister-only user: actionsets -A and actionsets.cr.kanister.io -A list them, instances.kudo.dev -A is exit 4', async () => {
		for (const word of ['actionsets', 'as', 'actionsets.cr.kanister.io']) {
			const json = await runCli([word, '--kubeconfig', cluster.userKubeconfigs.backups, '-A', '--once', '-o', 'json']);
			expect(json.stderr, json.describe).toBe('');
			const document = JSON.parse(json.stdout) as Listed;
			expect(json.code, json.describe).toBe(onceCode(document));
			expect(document.objects.map(o => `${o.kind}/${o.namespace}/${o.name}`)).toContain(`ActionSet/${namespace}/backup-x`);
			expect(document.objects.filter(o => o.kind !== 'ActionSet')).toEqual([]);
			// Only the kind asked for is listed: nothing to say about the other.
			expect(requiredMissing(document)).toEqual([]);
		}

		const other = await runCli(['instances.kudo.dev', '--kubeconfig', cluster.userKubeconfigs.backups, '-A', '--once', '-o', 'plain']);
		expect(other.code, other.describe).toBe(4);
		expect(oneLine(other)).toMatch(/forbidden: user backups cannot list instances\.kudo\.dev in all namespaces/);
	});

	it('a KUDO-only user: -A draws the Instances with one note; instances -n NS and instances.kudo.dev are fine, actionsets -A is exit 4', async () => {
		const all = await runCli(['--kubeconfig', cluster.viewerKubeconfig, '-A', '--once', '-o', 'json']);
		const document = JSON.parse(all.stdout) as Listed;
		expect(all.code, all.describe).toBe(onceCode(document));
		expect(document.objects.map(o => `${o.kind}/${o.namespace}/${o.name}`)).toContain(`Instance/${namespace}/mysql-x`);
		expect(document.objects.filter(o => o.kind !== 'Instance')).toEqual([]);
		expect(requiredMissing(document).map(m => m.resource)).toEqual(['ActionSet']);
		for (const word of ['instances', 'inst', 'instances.kudo.dev']) {
			const one = await runCli([word, '--kubeconfig', cluster.viewerKubeconfig, '-n', namespace, '--once', '-o', 'json']);
			expect(one.code, one.describe).toBe(0);
			expect(one.stderr, one.describe).toBe('');
			expect((JSON.parse(one.stdout) as Listed).objects.map(o => `${o.kind}/${o.name}`)).toEqual(['Instance/mysql-x']);
		}

		const other = await runCli(['actionsets', '--kubeconfig', cluster.viewerKubeconfig, '-A', '--once', '-o', 'json']);
		expect(other.code, other.describe).toBe(4);
		expect(oneLine(other)).toMatch(/forbidden: user viewer cannot list actionsets\.cr\.kanister\.io in all namespaces/);
		record({note: 'RBAC: KUDO-only user, -A and one kind (instances, inst, instances.kudo.dev); actionsets -A exit 4'});
	});

	it('one kind: planwatch instances -n NS lists the Instances only', async () => {
		const json = await runCli(['instances', '--kubeconfig', cluster.adminKubeconfig, '-n', namespace, '--once', '-o', 'json']);
		expect(json.code, json.describe).toBe(0);
		expect((JSON.parse(json.stdout) as {objects: Array<{kind: string}>}).objects.map(o => o.kind)).toEqual(['Instance']);
	});

	it('an unreachable server: one line naming host:port, exit 4', async () => {
		const kubeconfig = path.join(cluster.dir, 'unreachable.kubeconfig');
		const closedPort = await closedLoopbackPort();
		await writeFile(kubeconfig, (await readFile(cluster.adminKubeconfig, 'utf8')).replace(cluster.server, `https://127.0.0.1:${closedPort}`));
		const result = await runCli(['instance/x', '--kubeconfig', kubeconfig, '-n', namespace, '--wait', '--timeout', '20s', '-o', 'plain']);
		expect(result.code, result.describe).toBe(4);
		expect(oneLine(result)).toContain(`127.0.0.1:${closedPort}`);
	});

	it('a missing object: one line, exit 4', async () => {
		const missing = await runCli(['instance/nope', '--kubeconfig', cluster.adminKubeconfig, '-n', namespace, '--wait', '-o', 'plain']);
		expect(missing.code, missing.describe).toBe(4);
		expect(oneLine(missing)).toMatch(/nope/);
	});
});
